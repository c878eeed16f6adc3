package sparkcep.jvm;

import org.apache.hive.service.cli.HiveSQLException;


/**
 * Errors raised while a client's statement runs, restated against the client's text.
 *
 * <p>Spark's Thrift server renders a failed statement as {@code "Error running query: [" +
 * getCondition() + "] " + toString()} of the exception the query threw
 * ({@code HiveThriftServerErrors.runningQueryError}): for an error about a DEFINE Spark evaluates
 * it quotes the SQL sparkcep generated, for an error a Python worker raised it starts with
 * {@code [PYTHON_EXCEPTION]}. {@link #restated} asks the Python rewriter for sparkcep's
 * rendering ({@code [CODE] message (line L, column C)}, the source line and a caret) and puts
 * it first; an error that is not about sparkcep's SQL is returned as it was.
 */
public final class RuntimeErrors {
    private static final long TIMEOUT_MILLIS = 30_000L;

    private RuntimeErrors() {}

    /** The client's exception for {@code error}, raised while {@code sql} ran. */
    public static HiveSQLException restated(String sql, HiveSQLException error) {
        if (error == null || sql == null || !MatchRecognizeParser.containsMatchRecognize(sql)) return error;
        Throwable cause = error.getCause() != null ? error.getCause() : error;
        if (cause instanceof MatchRecognizeParseException) {  // sparkcep's already: only the frames go
            return new ClientError(error.getMessage(), error.getSQLState(), error.getErrorCode());
        }
        String reply = ask(sql, cause);
        if (reply == null || !reply.startsWith(MatchRecognizeParser.ERROR_MARKER)) return error;
        String[] parts = reply.substring(MatchRecognizeParser.ERROR_MARKER.length()).split("\n", 3);
        if (parts.length != 3) return error;
        String state = parts[1].isEmpty() ? error.getSQLState() : parts[1];
        // no cause: the client's info messages would repeat the generated SQL Spark's error quotes
        return new ClientError("Error running query: " + parts[2], state, error.getErrorCode());
    }

    /**
     * A client's error that prints as its message alone. HiveServer2 answers GetOperationStatus
     * (the path of beeline, JDBC and other asynchronous clients) with the operation's exception
     * stringified, stack trace included ({@code StringUtils.stringifyException}): without frames
     * and with {@code toString()} its message, that is sparkcep's text and nothing else.
     */
    static final class ClientError extends HiveSQLException {
        private static final long serialVersionUID = 1L;

        ClientError(String message, String state, int vendorCode) {
            super(message, state, vendorCode);
        }

        @Override public synchronized Throwable fillInStackTrace() { return this; }

        @Override public String toString() { return getMessage(); }
    }

    private static String ask(String sql, Throwable error) {
        return MatchRecognizeParser.askRewriter(r -> r.restate(sql, error), TIMEOUT_MILLIS);
    }
}
