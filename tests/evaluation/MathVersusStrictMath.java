/*
 * Not a test: how often java.lang.Math differs from StrictMath (fdlibm) on the running JVM, for
 * the functions Spark computes with Math. Where they never differ, Math delegates to StrictMath
 * and sparkcep's fdlibm in Python (strict_math.py, strict_trig.py) gives Spark's answers; where
 * they differ, Math is a HotSpot intrinsic and sparkcep refuses the function between rows.
 *
 *     java tests/evaluation/MathVersusStrictMath.java          # the JVM Spark runs on
 *
 * 1,000,000 random values of magnitudes 1e-3 to 1e4 (asin and acos: divided by 1e4), after two
 * passes that let HotSpot compile the loop (intrinsics apply to compiled code).
 */
public class MathVersusStrictMath {
    interface F { double apply(double x, double y); }

    public static void main(String[] args) {
        String[] names = {"sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "hypot",
                          "cbrt", "exp", "log", "pow"};
        F[] math = {(x, y) -> Math.sin(x), (x, y) -> Math.cos(x), (x, y) -> Math.tan(x), (x, y) -> Math.asin(x / 1e4),
                    (x, y) -> Math.acos(x / 1e4), (x, y) -> Math.atan(x), Math::atan2, (x, y) -> Math.sinh(x),
                    (x, y) -> Math.cosh(x), (x, y) -> Math.tanh(x), Math::hypot, (x, y) -> Math.cbrt(x),
                    (x, y) -> Math.exp(x / 20), (x, y) -> Math.log(Math.abs(x)), (x, y) -> Math.pow(Math.abs(x), y)};
        F[] strict = {(x, y) -> StrictMath.sin(x), (x, y) -> StrictMath.cos(x), (x, y) -> StrictMath.tan(x),
                      (x, y) -> StrictMath.asin(x / 1e4), (x, y) -> StrictMath.acos(x / 1e4), (x, y) -> StrictMath.atan(x),
                      StrictMath::atan2, (x, y) -> StrictMath.sinh(x), (x, y) -> StrictMath.cosh(x),
                      (x, y) -> StrictMath.tanh(x), StrictMath::hypot, (x, y) -> StrictMath.cbrt(x),
                      (x, y) -> StrictMath.exp(x / 20), (x, y) -> StrictMath.log(Math.abs(x)),
                      (x, y) -> StrictMath.pow(Math.abs(x), y)};
        int n = 1_000_000;
        int[] differ = new int[names.length];
        java.util.Random random = new java.util.Random(23);
        for (int pass = 0; pass < 3; pass++) {
            java.util.Arrays.fill(differ, 0);
            for (int i = 0; i < n; i++) {
                double x = (random.nextDouble() * 2 - 1) * Math.pow(10, random.nextInt(8) - 3);
                double y = random.nextDouble() * 10 - 5;
                for (int f = 0; f < names.length; f++) {
                    if (Double.doubleToRawLongBits(math[f].apply(x, y)) != Double.doubleToRawLongBits(strict[f].apply(x, y))) {
                        differ[f]++;
                    }
                }
            }
        }
        System.out.println("Java " + System.getProperty("java.version") + " (" + System.getProperty("os.arch")
                           + "), Math vs StrictMath, values that differ of " + n + ":");
        for (int f = 0; f < names.length; f++) {
            System.out.println("  " + names[f] + ": " + differ[f]);
        }
    }
}
