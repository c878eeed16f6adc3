package sparkcep.jvm;

import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.parser.ParameterContext;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import org.apache.spark.sql.catalyst.parser.SqlStatementSplitResult;
import org.apache.spark.sql.catalyst.parser.TemporalIdentifier;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import scala.collection.immutable.Seq;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Spark's parser with MATCH_RECOGNIZE: a statement with the MATCH_RECOGNIZE keyword, or with
 * row pattern recognition in a window (SQL:2016 R020: the word OVER or WINDOW and a PATTERN
 * clause, {@code PATTERN (}), outside strings, quoted identifiers and comments, is handed to the
 * Python {@link Rewriter} first; everything else goes straight to Spark's parser.
 *
 * <p>Whole statements reach Spark through {@code parsePlanWithParameters} ({@code spark.sql}, the
 * Thrift server), {@code parsePlan} and {@code parseQuery} (view text); those three are
 * intercepted, the rest is delegated unchanged.
 *
 * <p>The rewriter runs on a pool thread and the caller waits at most {@link #setRewriter}'s
 * timeout; an interrupted caller (a cancelled Thrift operation) stops waiting at once. A Py4J
 * call cannot be interrupted, so a hung rewriter keeps its pool thread, not the caller's.
 */
public final class MatchRecognizeParser implements ParserInterface {
    /** Prefix of an error returned by the rewriter: marker, code, newline, SQLSTATE, newline, text. */
    public static final String ERROR_MARKER = "\u0000sparkcep-error\u0000";
    private static final String KEYWORD = "MATCH_RECOGNIZE";

    private static volatile Rewriter rewriter;
    private static volatile long timeoutMillis = 120_000L;
    private static final AtomicLong calls = new AtomicLong();
    private static final AtomicInteger threads = new AtomicInteger();
    private static final ExecutorService POOL = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "sparkcep-rewrite-" + threads.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    });

    /** Install (or, with null, remove) the Python rewriter; {@code timeoutMillis <= 0} keeps the current timeout. */
    public static void setRewriter(Rewriter r, long timeout) {
        rewriter = r;
        if (timeout > 0) timeoutMillis = timeout;
    }

    public static boolean hasRewriter() { return rewriter != null; }

    /** The installed Python rewriter, or null. */
    static Rewriter currentRewriter() { return rewriter; }

    /** The installed rewriter's answer to ``question`` (run on the pool: a Py4J call cannot be
     *  interrupted), or null when no rewriter is installed, it fails, or it takes longer than
     *  ``timeoutMillis``: the caller then keeps Spark's error as it was. */
    static String askRewriter(java.util.function.Function<Rewriter, String> question,
                              long timeoutMillis) {
        Rewriter r = rewriter;
        if (r == null) return null;
        Future<String> future = POOL.submit(() -> question.apply(r));
        try {
            return future.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            return null;
        } catch (Exception e) {  // a timeout or a Py4J failure
            future.cancel(true);
            return null;
        }
    }

    /** How many statements were handed to the rewriter (for tests). */
    public static long rewriteCalls() { return calls.get(); }

    /** Whether a session's parser is this one. */
    public static boolean isInstalled(Object parser) { return parser instanceof MatchRecognizeParser; }

    private final Object session;
    private final ParserInterface delegate;

    public MatchRecognizeParser(Object session, ParserInterface delegate) {
        this.session = session;
        this.delegate = delegate;
    }

    public ParserInterface delegate() { return delegate; }

    /**
     * Whether {@code sql} has MATCH_RECOGNIZE as a word outside string literals, back-quoted
     * identifiers and comments (Spark's lexical rules: {@code '...'} and {@code "..."} with
     * backslash escapes, {@code -- ...} to end of line, nested {@code /* ... * /}), or row
     * pattern recognition in a window: the word OVER or WINDOW, and the word PATTERN followed by
     * {@code (} (as the Python side's {@code dialect.contains_match_recognize}).
     */
    public static boolean containsMatchRecognize(String sql) {
        if (sql == null) return false;
        int n = sql.length();
        int i = 0;
        boolean windowed = false;
        boolean pattern = false;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                i = skipQuoted(sql, i, c);
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                i = skipComment(sql, i);
            } else if (Character.isLetterOrDigit(c) || c == '_') {
                int start = i;
                while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_')) i++;
                if (i - start == KEYWORD.length() && sql.regionMatches(true, start, KEYWORD, 0, KEYWORD.length())) {
                    return true;
                }
                String word = sql.substring(start, i);
                if (word.equalsIgnoreCase("OVER") || word.equalsIgnoreCase("WINDOW")) {
                    windowed = true;
                } else if (word.equalsIgnoreCase("PATTERN") && nextIsOpenParen(sql, i)) {
                    pattern = true;
                }
                if (windowed && pattern) return true;
            } else {
                i++;
            }
        }
        return false;
    }

    /** Whether the first character at or after {@code i}, past blanks and comments, is '('. */
    private static boolean nextIsOpenParen(String sql, int i) {
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                i = skipComment(sql, i);
            } else {
                return c == '(';
            }
        }
        return false;
    }

    private static int skipQuoted(String sql, int start, char quote) {
        int n = sql.length();
        int i = start + 1;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\\' && quote != '`') {
                i += 2;
            } else if (c == quote) {
                if (i + 1 < n && sql.charAt(i + 1) == quote) {
                    i += 2;  // doubled quote
                } else {
                    return i + 1;
                }
            } else {
                i++;
            }
        }
        return n;
    }

    private static int skipComment(String sql, int start) {
        int n = sql.length();
        int depth = 0;
        int i = start;
        while (i < n) {
            if (sql.startsWith("/*", i)) {
                depth++;
                i += 2;
            } else if (sql.startsWith("*/", i)) {
                depth--;
                i += 2;
                if (depth == 0) return i;
            } else {
                i++;
            }
        }
        return n;
    }

    private String rewrite(String sql) throws ParseException {
        if (!containsMatchRecognize(sql)) return sql;
        Rewriter r = rewriter;
        if (r == null) {
            throw new MatchRecognizeParseException(sql, "MATCH_RECOGNIZE_NOT_ENABLED", "0A000",
                "[MATCH_RECOGNIZE_NOT_ENABLED] MATCH_RECOGNIZE needs the sparkcep rewriter, which is not "
                    + "running for this session (call sparkcep.enable(spark) in the driver)");
        }
        calls.incrementAndGet();
        long timeout = timeoutMillis;
        Future<String> future = POOL.submit(() -> r.rewrite(sql, session));
        String out;
        try {
            out = future.get(timeout, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new MatchRecognizeParseException(sql, "MATCH_RECOGNIZE_REWRITE_CANCELLED", "HY008",
                "[MATCH_RECOGNIZE_REWRITE_CANCELLED] the statement was cancelled while it was being rewritten");
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new MatchRecognizeParseException(sql, "MATCH_RECOGNIZE_REWRITE_TIMEOUT", "HYT00",
                "[MATCH_RECOGNIZE_REWRITE_TIMEOUT] rewriting the statement took longer than "
                    + (timeout / 1000.0) + " s");
        } catch (ExecutionException e) {
            // A Py4J failure (the Python side is gone or raised despite its own error handling).
            // Keep only the last line: the message may hold a Python traceback with server paths.
            throw new MatchRecognizeParseException(sql, "MATCH_RECOGNIZE_REWRITE_FAILED", "XX000",
                "[MATCH_RECOGNIZE_REWRITE_FAILED] the sparkcep rewriter failed: " + lastLine(e.getCause()));
        }
        if (out == null) {
            throw new MatchRecognizeParseException(sql, "MATCH_RECOGNIZE_REWRITE_FAILED", "XX000",
                "[MATCH_RECOGNIZE_REWRITE_FAILED] the sparkcep rewriter returned nothing");
        }
        if (out.startsWith(ERROR_MARKER)) {
            String[] parts = out.substring(ERROR_MARKER.length()).split("\n", 3);
            if (parts.length == 3) throw new MatchRecognizeParseException(sql, parts[0], parts[1], parts[2]);
            throw new MatchRecognizeParseException(sql, "MATCH_RECOGNIZE_REWRITE_FAILED", "XX000", out);
        }
        return out;
    }

    static String lastLine(Throwable error) {
        String message = error == null ? null : error.getMessage();
        if (message == null || message.isBlank()) return error == null ? "unknown error" : error.getClass().getSimpleName();
        String[] lines = message.strip().split("\n");
        return lines[lines.length - 1].strip();
    }

    // ---- whole statements and queries: rewritten first ----
    @Override public LogicalPlan parsePlan(String sql) throws ParseException {
        return delegate.parsePlan(rewrite(sql));
    }

    @Override public LogicalPlan parsePlanWithParameters(String sql, ParameterContext context) throws ParseException {
        return delegate.parsePlanWithParameters(rewrite(sql), context);
    }

    @Override public LogicalPlan parseQuery(String sql) throws ParseException {
        return delegate.parseQuery(rewrite(sql));
    }

    // ---- everything else: Spark's parser ----
    @Override public Expression parseExpression(String s) throws ParseException { return delegate.parseExpression(s); }
    @Override public TableIdentifier parseTableIdentifier(String s) throws ParseException { return delegate.parseTableIdentifier(s); }
    @Override public FunctionIdentifier parseFunctionIdentifier(String s) throws ParseException { return delegate.parseFunctionIdentifier(s); }
    @Override public Seq<String> parseMultipartIdentifier(String s) throws ParseException { return delegate.parseMultipartIdentifier(s); }
    @Override public TemporalIdentifier parseTemporalTableIdentifier(String s) throws ParseException { return delegate.parseTemporalTableIdentifier(s); }
    @Override public StructType parseRoutineParam(String s) throws ParseException { return delegate.parseRoutineParam(s); }
    @Override public SqlStatementSplitResult splitStatements(String s) { return delegate.splitStatements(s); }
    @Override public StructType parseTableSchema(String s) throws ParseException { return delegate.parseTableSchema(s); }
    @Override public DataType parseDataType(String s) throws ParseException { return delegate.parseDataType(s); }
}
