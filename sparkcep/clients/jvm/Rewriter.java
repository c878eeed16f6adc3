package sparkcep.jvm;

/**
 * The Python side of the extension (a Py4J callback object, see {@code sparkcep/extension.py}).
 *
 * <p>{@code rewrite} gets a whole statement and the SparkSession it is parsed for; it registers
 * the functions the statement needs on that session and returns the Spark SQL to parse instead.
 * A user error comes back as a string starting with {@link MatchRecognizeParser#ERROR_MARKER}
 * (see there), never as an exception, so that no Python traceback can reach a client.
 *
 * <p>{@code restate} gets a statement a client sent and the exception Spark raised while it ran
 * (a malformed CAST or a division by zero in a DEFINE Spark evaluates, an error a Python worker
 * raised): the same marked string, restated against the statement's text, when the error is
 * about SQL sparkcep generated for it, else the empty string.
 */
public interface Rewriter {
    String rewrite(String sql, Object session);

    String restate(String sql, Object error);

    /**
     * The same for an error known only by its error class ({@code ""} when it has none) and
     * message, as Spark Connect sends them to a client ({@link ConnectErrorInterceptor}).
     */
    String restateMessage(String condition, String message);
}
