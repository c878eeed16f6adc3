import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;

/**
 * MATCH_RECOGNIZE from Java against {@code sparkcep serve --connect}, through Spark's two JVM
 * Spark Connect clients: the JDBC driver ({@code jdbc:sc://HOST:PORT}) and the Connect
 * {@code SparkSession} ({@code SparkSession.builder().remote("sc://HOST:PORT")}).
 *
 * <pre>
 *   java MatchRecognizeOverJdbc sc://127.0.0.1:15002 [jdbc|session|both]
 * </pre>
 *
 * Each client registers its own temp view {@code events} (the prices 10, 8, 7, 9, 6, 5, 11 of
 * symbol 'A' at t = 1..7, one minute apart), matches V shapes over it, and runs three wrong
 * statements: one sparkcep rejects before it runs, one that fails while it runs, and the same
 * division by zero without MATCH_RECOGNIZE (Spark's error). It prints what
 * it saw as tab-separated lines: {@code CLIENT column NAME TYPE TYPE_NAME}, {@code CLIENT row
 * VALUE...}, {@code CLIENT error LABEL CLASS STATE}, then the error's message line by line as
 * {@code CLIENT message LABEL LINE}. The classpath is in docs/clients.md ("From Java").
 */
public final class MatchRecognizeOverJdbc {

    /** The client's own rows; a temp view lives as long as its connection (session). */
    static final String EVENTS = "CREATE OR REPLACE TEMP VIEW events AS SELECT * FROM VALUES "
            + "('A', 1, 10.0D, TIMESTAMP '2024-03-04 09:01:00'), "
            + "('A', 2, 8.0D, TIMESTAMP '2024-03-04 09:02:00'), "
            + "('A', 3, 7.0D, TIMESTAMP '2024-03-04 09:03:00'), "
            + "('A', 4, 9.0D, TIMESTAMP '2024-03-04 09:04:00'), "
            + "('A', 5, 6.0D, TIMESTAMP '2024-03-04 09:05:00'), "
            + "('A', 6, 5.0D, TIMESTAMP '2024-03-04 09:06:00'), "
            + "('A', 7, 11.0D, TIMESTAMP '2024-03-04 09:07:00') AS e(symbol, t, price, ts)";

    /** V shapes: falling prices, then one that rises; the search goes on past each match. */
    static final String QUERY = String.join("\n",
            "SELECT * FROM events MATCH_RECOGNIZE (",
            "  PARTITION BY symbol ORDER BY t",
            "  MEASURES FIRST(DOWN.price) AS first_down, LAST(UP.price) AS up,",
            "           LAST(UP.ts) AS up_at, COUNT(DOWN.price) AS downs, MATCH_NUMBER() AS m",
            "  ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW",
            "  PATTERN (DOWN+ UP)",
            "  DEFINE DOWN AS DOWN.price < PREV(DOWN.price), UP AS UP.price > PREV(UP.price))");

    /** MEASURES names X, which the PATTERN does not have: line 3, column 12. */
    static final String UNDEFINED_VARIABLE = String.join("\n",
            "SELECT * FROM events MATCH_RECOGNIZE (",
            "  PARTITION BY symbol ORDER BY t",
            "  MEASURES X.price AS p",
            "  PATTERN (DOWN+) DEFINE DOWN AS DOWN.price < PREV(DOWN.price))");

    /** Rows Spark reads with a scan (a range is not folded while the query is analysed). */
    static final String SCANNED = "CREATE OR REPLACE TEMP VIEW scanned AS SELECT 'a' AS sym, "
            + "timestamp_seconds(id * 60) AS ts, CAST(id AS DOUBLE) AS price FROM range(0, 40, 1, 2)";

    /** A DEFINE that divides by zero while the query runs: line 5, column 15. */
    static final String DIVISION = String.join("\n",
            "SELECT * FROM scanned MATCH_RECOGNIZE (",
            "  ORDER BY ts",
            "  MEASURES COUNT(*) AS n",
            "  PATTERN (A B)",
            "  DEFINE B AS B.price / (B.price - B.price) > 0)");

    /** The same mistake without MATCH_RECOGNIZE: Spark's own error, about Spark's text. */
    static final String PLAIN_DIVISION = "SELECT price / (price - price) FROM scanned";

    private MatchRecognizeOverJdbc() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || !args[0].startsWith("sc://")) {
            System.err.println("usage: MatchRecognizeOverJdbc sc://HOST:PORT [jdbc|session|both]");
            System.exit(2);
        }
        String which = args.length > 1 ? args[1] : "both";
        if (!which.equals("session")) {
            overJdbc("jdbc:" + args[0]);
        }
        if (!which.equals("jdbc")) {
            overSession(args[0]);
        }
    }

    /** The Spark Connect JDBC driver: one connection is one Connect session on the server. */
    static void overJdbc(String url) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url);
             Statement statement = connection.createStatement()) {
            statement.execute(EVENTS);
            try (ResultSet rows = statement.executeQuery(QUERY)) {
                ResultSetMetaData meta = rows.getMetaData();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    print("jdbc", "column", meta.getColumnName(i),
                            String.valueOf(meta.getColumnType(i)), meta.getColumnTypeName(i));
                }
                while (rows.next()) {
                    List<String> values = new ArrayList<>();
                    values.add("jdbc");
                    values.add("row");
                    for (int i = 1; i <= meta.getColumnCount(); i++) {
                        values.add(String.valueOf(rows.getObject(i)));
                    }
                    print(values.toArray(new String[0]));
                }
            }
            jdbcError(statement, "undefined_variable", UNDEFINED_VARIABLE);
            statement.execute(SCANNED);
            jdbcError(statement, "division", DIVISION);
            jdbcError(statement, "plain_division", PLAIN_DIVISION);
        }
    }

    static void jdbcError(Statement statement, String label, String sql) {
        try (ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                // reading the rows is what runs the query
            }
            print("jdbc", "error", label, "none", "");
        } catch (SQLException error) {
            print("jdbc", "error", label, error.getClass().getName(), String.valueOf(error.getSQLState()));
            message("jdbc", label, error.getMessage());
        }
    }

    /** The Connect SparkSession: {@code SparkSession.builder().remote(...)}. */
    static void overSession(String url) {
        SparkSession spark = SparkSession.builder().remote(url).getOrCreate();
        try {
            spark.sql(EVENTS);
            Dataset<Row> frame = spark.sql(QUERY);
            for (StructField field : frame.schema().fields()) {
                print("session", "column", field.name(), field.dataType().simpleString(), "");
            }
            for (Row row : frame.collectAsList()) {
                List<String> values = new ArrayList<>();
                values.add("session");
                values.add("row");
                for (int i = 0; i < row.length(); i++) {
                    values.add(String.valueOf(row.get(i)));
                }
                print(values.toArray(new String[0]));
            }
            sessionError(spark, "undefined_variable", UNDEFINED_VARIABLE);
            spark.sql(SCANNED);
            sessionError(spark, "division", DIVISION);
            sessionError(spark, "plain_division", PLAIN_DIVISION);
        } finally {
            spark.stop();
        }
    }

    static void sessionError(SparkSession spark, String label, String sql) {
        try {
            spark.sql(sql).collectAsList();
            print("session", "error", label, "none", "");
        } catch (Exception error) {  // SparkException is checked, its subclasses are not
            String condition = error instanceof SparkThrowable
                    ? String.valueOf(((SparkThrowable) error).getCondition()) : "";
            print("session", "error", label, error.getClass().getName(), condition);
            message("session", label, error.getMessage());
        }
    }

    static void message(String client, String label, String text) {
        for (String line : String.valueOf(text).split("\n", -1)) {
            print(client, "message", label, line);
        }
    }

    static void print(String... fields) {
        System.out.println(String.join("\t", fields));
    }
}
