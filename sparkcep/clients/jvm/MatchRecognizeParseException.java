package sparkcep.jvm;

import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.catalyst.trees.CurrentOrigin;
import scala.Option;

/**
 * A statement sparkcep could not rewrite, reported as a parse error.
 *
 * <p>{@code getMessage()} is sparkcep's own rendering ({@code [CODE] message (line L, column C)},
 * then the source line and a caret). The Thrift server renders errors as
 * {@code "Error running query: [" + getCondition() + "] " + toString()}, so {@code toString()}
 * is the same text without its {@code [CODE] } prefix: the client's first line is then
 * {@code Error running query: [CODE] message (line L, column C)}.
 */
public final class MatchRecognizeParseException extends ParseException {
    private static final long serialVersionUID = 1L;

    private final String code;
    private final String sqlState;
    private final String rendered;

    public MatchRecognizeParseException(String sql, String code, String sqlState, String rendered) {
        super(Option.apply(sql), CurrentOrigin.get(), "PARSE_SYNTAX_ERROR",
            new scala.collection.immutable.Map.Map2<>("error", "'MATCH_RECOGNIZE'", "hint", ""));
        this.code = code;
        this.sqlState = sqlState;
        this.rendered = rendered;
    }

    public String code() { return code; }

    @Override public String getMessage() { return rendered; }

    @Override public String getCondition() { return code; }

    @Override public String getSqlState() { return sqlState; }

    /** For the JSON error formats (MINIMAL, STANDARD): the first line of the message. */
    @Override public java.util.Map<String, String> getMessageParameters() {
        return java.util.Map.of("message", rendered.strip().split("\n", 2)[0]);
    }

    @Override public String toString() {
        String prefix = "[" + code + "] ";
        return rendered.startsWith(prefix) ? rendered.substring(prefix.length()) : rendered;
    }
}
