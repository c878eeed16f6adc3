/*
 * Not a test: records what java.util.Arrays.sort(Object[], Comparator) (Java's TimSort, which
 * Spark's array_sort with a comparator runs) does with the comparators and arrays of
 * tests/evaluation/record_tim_sort_calls.py, which feeds them on stdin and keeps the answers in
 * tests/evaluation/tim_sort_answers.json:
 *
 *     python -m tests.evaluation.record_tim_sort_calls      # runs: java tests/evaluation/TimSortCalls.java
 *
 * One case a line: kind param throwAt n key_1 ... key_n tableLength table_1 ... (integers). The
 * elements are the numbers 0..n-1, compared by their keys; kind names the comparator:
 *   asc / desc  Integer.compare of the keys (reversed for desc)
 *   sub         key_x - key_y, an int that overflows (inconsistent for large keys)
 *   flip        Integer.compare, negated at every call whose number is a multiple of param
 *   table       the table's entries in turn, whatever the elements (call c, from 1: table[(c - 1) % length])
 *   mod         floorMod(key_x * 31 + key_y * 17, 5) - 2
 *   lt          key_x < key_y ? -1 : 1 (never 0)
 * throwAt > 0: the comparator throws at that call (counted from 1), before answering.
 * One answer a line: "OK calls crc" (crc: CRC-32 of the sorted elements as "i,j,k" in ASCII),
 * "IAE calls" (IllegalArgumentException: "Comparison method violates its general contract!") or
 * "THROW calls".
 */
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.zip.CRC32;

public class TimSortCalls {
    static final class Thrown extends RuntimeException {
        Thrown() { super("thrown by the comparator"); }
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) continue;
            String[] t = line.trim().split(" ");
            int p = 0;
            String kind = t[p++];
            int param = Integer.parseInt(t[p++]);
            int throwAt = Integer.parseInt(t[p++]);
            int n = Integer.parseInt(t[p++]);
            int[] keys = new int[n];
            for (int i = 0; i < n; i++) keys[i] = Integer.parseInt(t[p++]);
            int length = Integer.parseInt(t[p++]);
            int[] table = new int[length];
            for (int i = 0; i < length; i++) table[i] = Integer.parseInt(t[p++]);
            int[] calls = {0};
            Comparator<Integer> c = (x, y) -> {
                int call = ++calls[0];
                if (call == throwAt) throw new Thrown();
                int kx = keys[x], ky = keys[y];
                switch (kind) {
                    case "asc": return Integer.compare(kx, ky);
                    case "desc": return Integer.compare(ky, kx);
                    case "sub": return kx - ky;
                    case "flip": return call % param == 0 ? -Integer.compare(kx, ky) : Integer.compare(kx, ky);
                    case "table": return table[(call - 1) % table.length];
                    case "mod": return Math.floorMod(kx * 31 + ky * 17, 5) - 2;
                    case "lt": return kx < ky ? -1 : 1;
                    default: throw new IllegalStateException(kind);
                }
            };
            Integer[] a = new Integer[n];
            for (int i = 0; i < n; i++) a[i] = i;
            try {
                Arrays.sort(a, c);
                StringBuilder order = new StringBuilder();
                for (int i = 0; i < n; i++) {
                    if (i > 0) order.append(',');
                    order.append(a[i]);
                }
                CRC32 crc = new CRC32();
                crc.update(order.toString().getBytes(StandardCharsets.US_ASCII));
                out.append("OK ").append(calls[0]).append(' ').append(crc.getValue()).append('\n');
            } catch (Thrown e) {
                out.append("THROW ").append(calls[0]).append('\n');
            } catch (IllegalArgumentException e) {
                if (!"Comparison method violates its general contract!".equals(e.getMessage())) throw e;
                out.append("IAE ").append(calls[0]).append('\n');
            }
        }
        System.out.print(out);
    }
}
