package sparkcep.jvm;

import org.apache.hive.service.cli.CLIService;
import org.apache.hive.service.cli.OperationHandle;
import org.apache.hive.service.cli.operation.ExecuteStatementOperation;
import org.apache.hive.service.cli.operation.Operation;
import org.apache.hive.service.cli.operation.OperationManager;
import org.apache.hive.service.cli.session.HiveSession;
import org.apache.hive.service.cli.session.SessionManager;
import org.apache.hive.service.server.HiveServer2;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.hive.thriftserver.server.SparkSQLOperationManager;

import java.lang.reflect.Field;
import java.util.Map;

/**
 * The Thrift server's operation manager with {@link SparkCepStatementOperation}s: Spark's own
 * manager otherwise. {@link #install} puts it in place of Spark's in a started server, before
 * any client connects (sessions take their manager when they open).
 */
public final class SparkCepOperationManager extends SparkSQLOperationManager {
    /** Hive's table of operations. Spark's manager reads it by reflection from its superclass,
     *  which for this subclass is Spark's manager itself: so it is read here from Hive's. */
    private final Map<OperationHandle, Operation> operations;

    @SuppressWarnings("unchecked")
    public SparkCepOperationManager() {
        try {
            operations = (Map<OperationHandle, Operation>) field(OperationManager.class, "handleToOperation").get(this);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read Hive's operation table", e);
        }
    }

    @Override public Map<OperationHandle, Operation> handleToOperation() { return operations; }

    @Override
    public synchronized ExecuteStatementOperation newExecuteStatementOperation(
            HiveSession parent, String statement, Map<String, String> confOverlay, boolean async,
            long queryTimeout) {
        SparkSession spark = sessionToContexts().get(parent.getSessionHandle());
        if (spark == null) {
            throw new IllegalArgumentException("Session " + parent.getSessionHandle() + " has not been opened");
        }
        boolean background = async
            && Boolean.parseBoolean(spark.conf().get("spark.sql.hive.thriftServer.async", "true"));
        SparkCepStatementOperation operation = new SparkCepStatementOperation(
            spark, parent, statement, confOverlay, background, queryTimeout);
        handleToOperation().put(operation.getHandle(), operation);
        return operation;
    }

    /** Replace the operation manager of a started {@code HiveThriftServer2} with this one. */
    public static void install(Object server) throws ReflectiveOperationException {
        CLIService cli = (CLIService) field(HiveServer2.class, "cliService").get(server);
        SessionManager sessions = cli.getSessionManager();
        SparkCepOperationManager manager = new SparkCepOperationManager();
        field(SessionManager.class, "operationManager").set(sessions, manager);
        // SparkSQLSessionManager keeps its own reference (a lazy val) for the session map
        field(sessions.getClass(), "sparkSqlOperationManager").set(sessions, manager);
    }

    /** Whether {@code server}'s sessions get this manager. */
    public static boolean isInstalled(Object server) throws ReflectiveOperationException {
        CLIService cli = (CLIService) field(HiveServer2.class, "cliService").get(server);
        return cli.getSessionManager().getOperationManager() instanceof SparkCepOperationManager;
    }

    private static Field field(Class<?> owner, String name) throws NoSuchFieldException {
        Field found = owner.getDeclaredField(name);
        found.setAccessible(true);
        return found;
    }
}
