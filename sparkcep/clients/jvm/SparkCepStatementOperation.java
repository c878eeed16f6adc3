package sparkcep.jvm;

import org.apache.hive.service.cli.HiveSQLException;
import org.apache.hive.service.cli.session.HiveSession;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.hive.thriftserver.SparkExecuteStatementOperation;

import java.util.Map;

/**
 * Spark's statement operation whose failure is restated against the client's text
 * ({@link RuntimeErrors}): in the background (the operation's status, which beeline, JDBC and
 * asynchronous clients poll) and in the foreground (the ExecuteStatement reply).
 */
public final class SparkCepStatementOperation extends SparkExecuteStatementOperation {
    private final String sql;

    public SparkCepStatementOperation(SparkSession session, HiveSession parent, String statement,
                                      Map<String, String> confOverlay, boolean runInBackground,
                                      long queryTimeout) {
        super(session, parent, statement, confOverlay, runInBackground, queryTimeout);
        this.sql = statement;
    }

    @Override protected void setOperationException(HiveSQLException error) {
        super.setOperationException(RuntimeErrors.restated(sql, error));
    }

    @Override public void runInternal() {
        try {
            super.runInternal();
        } catch (Exception error) {  // Scala declares no checked exceptions; Hive throws HiveSQLException
            if (error instanceof HiveSQLException) throw sneaky(RuntimeErrors.restated(sql, (HiveSQLException) error));
            throw sneaky(error);
        }
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> RuntimeException sneaky(Throwable error) throws E {
        throw (E) error;
    }
}
