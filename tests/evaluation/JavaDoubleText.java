/*
 * Not a test: writes Java's Double.toString and Float.toString of many values, one per line as
 * "<raw bits in hex> <text>", for sparkcep.evaluation.java_double_text to be compared with (the
 * digits differ between Java 17 and Java 19+, so run it on both):
 *
 *     java tests/evaluation/JavaDoubleText.java double 2000000 23 > java17_doubles.txt
 *     /path/to/java-25/bin/java tests/evaluation/JavaDoubleText.java float 2000000 23 > java25_floats.txt
 *
 * The values, for the same arguments the same on every JVM: +-0, NaN, +-Infinity, the extremes,
 * every power of ten and of two in range and their neighbours up to 3 ulps away, 2,000 ulps
 * either side of the E-notation thresholds 1e-3 and 1e7, then for the rest of COUNT in turn:
 * random bit patterns, random subnormals, short decimals (1 to 7 random digits, any exponent in
 * range), integers (random longs and ints) and random bits of magnitudes 1e-5 to 1e9.
 */
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.util.SplittableRandom;

public class JavaDoubleText {
    static BufferedWriter out;

    static void d(double x) throws IOException {
        out.write(Long.toHexString(Double.doubleToRawLongBits(x)));
        out.write(' ');
        out.write(Double.toString(x));
        out.write('\n');
    }

    static void f(float x) throws IOException {
        out.write(Integer.toHexString(Float.floatToRawIntBits(x)));
        out.write(' ');
        out.write(Float.toString(x));
        out.write('\n');
    }

    static void dNear(double x, int ulps) throws IOException {
        if (Double.isNaN(x) || Double.isInfinite(x)) return;
        long bits = Double.doubleToRawLongBits(Math.abs(x));
        for (long k = -ulps; k <= ulps; k++) {
            long b = bits + k;
            if (b < 0 || b >= 0x7ff0000000000000L) continue;
            d(Double.longBitsToDouble(b));
            d(-Double.longBitsToDouble(b));
        }
    }

    static void fNear(float x, int ulps) throws IOException {
        if (Float.isNaN(x) || Float.isInfinite(x)) return;
        int bits = Float.floatToRawIntBits(Math.abs(x));
        for (int k = -ulps; k <= ulps; k++) {
            int b = bits + k;
            if (b < 0 || b >= 0x7f800000) continue;
            f(Float.intBitsToFloat(b));
        }
    }

    public static void main(String[] args) throws IOException {
        String kind = args[0];
        long count = Long.parseLong(args[1]);
        SplittableRandom random = new SplittableRandom(Long.parseLong(args[2]));
        out = new BufferedWriter(new OutputStreamWriter(System.out, "US-ASCII"), 1 << 16);
        if (kind.equals("double")) {
            double[] specials = {0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                                 Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE, 1.0, 0.1, 0.3, 1e23, 2e23};
            for (double x : specials) { d(x); d(-x); }
            for (int e = -325; e <= 309; e++) dNear(Double.parseDouble("1e" + e), 3);
            for (int e = -1074; e <= 1023; e++) dNear(Math.scalb(1.0, e), 3);
            dNear(1e-3, 2000);
            dNear(1e7, 2000);
            for (long i = 0; i < count; i++) {
                switch ((int) (i % 5)) {
                    case 0: d(Double.longBitsToDouble(random.nextLong())); break;
                    case 1: d(Double.longBitsToDouble(random.nextLong(1L, 1L << 52))); break;
                    case 2: {
                        long digits = random.nextLong(1, 10_000_000L);
                        for (int n = random.nextInt(7); n > 0; n--) digits /= 10;
                        d(Double.parseDouble(digits + "e" + random.nextInt(-330, 310)));
                        break;
                    }
                    case 3: d(random.nextBoolean() ? (double) random.nextLong() : (double) random.nextInt()); break;
                    default: d(random.nextDouble() * Math.pow(10, random.nextInt(-5, 10)));
                }
            }
        } else {
            float[] specials = {0.0f, -0.0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
                                Float.MIN_VALUE, Float.MIN_NORMAL, Float.MAX_VALUE, 1.0f, 0.1f, 0.3f, 1e10f, 2e10f};
            for (float x : specials) { f(x); f(-x); }
            for (int e = -46; e <= 39; e++) fNear(Float.parseFloat("1e" + e), 3);
            for (int e = -149; e <= 127; e++) fNear(Math.scalb(1.0f, e), 3);
            fNear(1e-3f, 2000);
            fNear(1e7f, 2000);
            for (long i = 0; i < count; i++) {
                switch ((int) (i % 5)) {
                    case 0: f(Float.intBitsToFloat(random.nextInt())); break;
                    case 1: f(Float.intBitsToFloat(random.nextInt(1, 1 << 23))); break;
                    case 2: {
                        long digits = random.nextLong(1, 10_000_000L);
                        for (int n = random.nextInt(7); n > 0; n--) digits /= 10;
                        f(Float.parseFloat(digits + "e" + random.nextInt(-50, 40)));
                        break;
                    }
                    case 3: f(random.nextBoolean() ? (float) random.nextLong() : (float) random.nextInt()); break;
                    default: f((float) (random.nextDouble() * Math.pow(10, random.nextInt(-5, 10))));
                }
            }
        }
        out.flush();
    }
}
