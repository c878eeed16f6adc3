package sparkcep.jvm;

/**
 * The Python side of the extension (a Py4J callback object, see {@code sparkcep/extension.py}).
 *
 * <p>{@code rewrite} gets a whole statement and the SparkSession it is parsed for; it registers
 * the functions the statement needs on that session and returns the Spark SQL to parse instead.
 * A user error comes back as a string starting with {@link MatchRecognizeParser#ERROR_MARKER}
 * (see there), never as an exception, so that no Python traceback can reach a client.
 */
public interface Rewriter {
    String rewrite(String sql, Object session);
}
