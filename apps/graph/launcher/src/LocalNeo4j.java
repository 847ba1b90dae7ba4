import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Runs an embedded Neo4j community DBMS configured by a neo4j.conf-style file that
 * apps/graph/local_neo4j.py writes (Bolt only, on loopback, auth on, the GDS plugin directory).
 * Usage: LocalNeo4j HOME CONF PASSWORD_FILE
 * Prints "VECTORIZED true|false", "GDS <version>" and then "READY" once Bolt accepts connections;
 * shuts down cleanly on SIGTERM/SIGINT.
 *
 * Neo4j's classes are reached by reflection so that any javac (down to 17, at --release 17)
 * compiles this file although Neo4j 2026's jars are Java 21 class files.
 */
public final class LocalNeo4j {
    public static void main(String[] args) throws Exception {
        Path home = Path.of(args[0]);
        Path conf = Path.of(args[1]);
        String password = Files.readString(Path.of(args[2])).strip();

        Class<?> builderType = Class.forName("org.neo4j.dbms.api.DatabaseManagementServiceBuilder");
        Object builder = builderType.getConstructor(Path.class).newInstance(home);
        builderType.getMethod("loadPropertiesFromFile", Path.class).invoke(builder, conf);
        Object dbms = call(builder, builderType, "build");
        Class<?> dbmsType = Class.forName("org.neo4j.dbms.api.DatabaseManagementService");

        // The password file is the single source of truth: re-applied on every start, so a lost
        // or rotated file never locks the project out of its own data.
        try {
            query(database(dbms, dbmsType, "system"),
                    "ALTER USER neo4j SET PASSWORD $password CHANGE NOT REQUIRED",
                    Map.of("password", password));
        } catch (RuntimeException e) {
            // On every start after the first the password is already the file's: nothing to do.
            if (!String.valueOf(rootMessage(e)).contains("cannot be the same")) {
                call(dbms, dbmsType, "shutdown");
                throw e;
            }
        }
        boolean vectorized = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
        System.out.println("VECTORIZED " + vectorized);
        String gds;
        try {
            gds = String.valueOf(query(database(dbms, dbmsType, "neo4j"),
                    "RETURN gds.version() AS version", Map.of()).get("version"));
        } catch (RuntimeException e) {
            gds = "none (" + rootMessage(e) + ")";
        }
        System.out.println("GDS " + gds);

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                call(dbms, dbmsType, "shutdown");
            } finally {
                stopped.countDown();
            }
        }));
        System.out.println("READY");
        System.out.flush();
        stopped.await();
    }

    private static Object database(Object dbms, Class<?> dbmsType, String name) {
        try {
            return dbmsType.getMethod("database", String.class).invoke(dbms, name);
        } catch (ReflectiveOperationException e) {
            throw unwrap(e);
        }
    }

    /** Runs one query in its own transaction; the first row, or an empty map. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> query(Object database, String cypher, Map<String, Object> params) {
        try {
            Class<?> dbType = Class.forName("org.neo4j.graphdb.GraphDatabaseService");
            Class<?> txType = Class.forName("org.neo4j.graphdb.Transaction");
            Object tx = call(database, dbType, "beginTx");
            try {
                Object result = txType.getMethod("execute", String.class, Map.class)
                        .invoke(tx, cypher, params);
                Iterator<Map<String, Object>> rows = (Iterator<Map<String, Object>>) result;
                Map<String, Object> first = rows.hasNext() ? Map.copyOf(rows.next()) : Map.of();
                while (rows.hasNext()) {
                    rows.next();
                }
                call(tx, txType, "commit");
                return first;
            } finally {
                call(tx, txType, "close");
            }
        } catch (ReflectiveOperationException e) {
            throw unwrap(e);
        }
    }

    private static Object call(Object target, Class<?> type, String method) {
        try {
            return type.getMethod(method).invoke(target);
        } catch (ReflectiveOperationException e) {
            throw unwrap(e);
        }
    }

    private static RuntimeException unwrap(ReflectiveOperationException e) {
        Throwable cause = e instanceof InvocationTargetException ? e.getCause() : e;
        return cause instanceof RuntimeException r ? r : new RuntimeException(cause);
    }

    private static String rootMessage(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause.getMessage();
    }
}
