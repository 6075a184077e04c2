import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.neo4j.configuration.Config;
import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.BoltConnectorInternalSettings;
import org.neo4j.configuration.connectors.ConnectorPortRegister;
import org.neo4j.configuration.connectors.ConnectorType;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.graphdb.config.Setting;
import org.neo4j.internal.kernel.api.connectioninfo.ClientConnectionInfo;
import org.neo4j.internal.kernel.api.security.AuthenticationResult;
import org.neo4j.internal.kernel.api.security.LoginContext;
import org.neo4j.io.ByteUnit;
import org.neo4j.kernel.api.security.AuthManager;
import org.neo4j.kernel.api.security.AuthToken;
import org.neo4j.kernel.api.security.exception.InvalidAuthTokenException;
import org.neo4j.kernel.internal.GraphDatabaseAPI;
import org.neo4j.kernel.internal.Version;

/**
 * Runs a Neo4j Community DBMS (embedded, Bolt only) for local development and tests.
 *
 * <pre>
 * java [JVM flags] -cp classes:lib/* Launcher --store-dir DIR [--port N] [--page-cache 256m] [--password PW]
 *     [--setting name=value ...]
 * </pre>
 *
 * <ul>
 *   <li>{@code --store-dir} is used as the Neo4j home: data in {@code DIR/data}, logs in {@code DIR/logs}.</li>
 *   <li>{@code --port 0} (the default) binds a free port.</li>
 *   <li>{@code --setting name=value}, repeatable, sets any Neo4j setting by its name, over the launcher's own.</li>
 *   <li>The password may also come from the {@code THREADLINE_NEO4J_PASSWORD} environment variable, which keeps
 *       it out of process listings. With a password (at least 8 characters), auth is enabled and the {@code neo4j}
 *       user's password is set to it; without one, auth is disabled.</li>
 * </ul>
 *
 * Each option may also be given as a system property ({@code -Dthreadline.neo4j.store-dir=...}).
 *
 * <p>Once the default database is available, prints exactly one line to stdout:
 * {@code THREADLINE_NEO4J_READY bolt://127.0.0.1:<port> version=<version>}. Everything else goes to stderr or to
 * Neo4j's log files. The DBMS is shut down cleanly, and the process exits 0, on SIGTERM, SIGINT, or EOF on stdin
 * (so it goes away with a parent that holds the other end of the pipe, however that parent dies).
 */
public final class Launcher {
    private static final String HOST = "127.0.0.1";
    private static final String USER = "neo4j";
    private static final String PASSWORD_ENV = "THREADLINE_NEO4J_PASSWORD";
    private static final List<String> OPTIONS = List.of("store-dir", "port", "page-cache", "password");
    private static final String SETTING = "setting";

    private static final Object lifecycle = new Object();
    private static DatabaseManagementService dbms;
    private static boolean stopping;

    public static void main(String[] args) {
        // Keep stdout for the ready line alone: anything else that prints to System.out goes to stderr.
        PrintStream stdout = System.out;
        System.setOut(System.err);
        try {
            Map<String, String> settings = new HashMap<>();
            String readyLine = start(parseArgs(args, settings), settings);
            // Under the lock, so that a stop that began meanwhile (and holds it until Neo4j is down) wins.
            synchronized (lifecycle) {
                if (readyLine != null && !stopping) {
                    stdout.println(readyLine);
                    stdout.flush();
                }
            }
        } catch (Throwable e) {
            if (isStopping()) {
                return; // Stopped while starting; the shutdown hook is taking care of the DBMS.
            }
            if (!(e instanceof IllegalArgumentException)) {
                e.printStackTrace();
            }
            // Neo4j's non-daemon threads would otherwise keep a half-started DBMS alive.
            System.err.println("[launcher] Neo4j failed to start: " + causes(e));
            System.exit(1);
        }
    }

    /** The messages of an exception and its causes, the root cause (usually the useful part) last. */
    private static String causes(Throwable e) {
        StringBuilder text = new StringBuilder(e.toString());
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            text.append(" <- ").append(cause);
        }
        return text.toString();
    }

    /** Starts the DBMS and returns the ready line, or null if a stop was requested meanwhile. */
    private static String start(Map<String, String> options, Map<String, String> settings)
            throws IOException, InvalidAuthTokenException {
        String storeDirOption = option(options, "store-dir", null);
        if (storeDirOption == null) {
            throw new IllegalArgumentException("--store-dir is required");
        }
        Path storeDir = Path.of(storeDirOption).toAbsolutePath();
        int port = Integer.parseInt(option(options, "port", "0"));
        long pageCache = ByteUnit.parse(option(options, "page-cache", "256m"));
        String password = option(options, "password", System.getenv(PASSWORD_ENV));
        if (password != null && password.isEmpty()) {
            password = null;
        }
        int minPasswordLength = GraphDatabaseSettings.auth_minimum_password_length.defaultValue();
        if (password != null && password.length() < minPasswordLength) {
            // Neo4j would only say so after a full start.
            throw new IllegalArgumentException("the password must be at least " + minPasswordLength + " characters");
        }

        Files.createDirectories(storeDir);
        installStopTriggers();

        DatabaseManagementServiceBuilder builder = new DatabaseManagementServiceBuilder(storeDir)
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress(HOST, port))
                .setConfig(BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED)
                .setConfig(HttpConnector.enabled, false)
                .setConfig(GraphDatabaseSettings.auth_enabled, password != null)
                .setConfig(GraphDatabaseSettings.pagecache_memory, pageCache)
                .setConfig(GraphDatabaseSettings.udc_enabled, false)
                // Nothing here reads old transaction logs (no backups, no cluster), and the default retention (2 days)
                // let a benchmark leave gigabytes of them. Older files go at the next checkpoint.
                .setConfig(GraphDatabaseSettings.keep_logical_logs, "2 files")
                .setConfig(GraphDatabaseSettings.logical_log_rotation_threshold, ByteUnit.mebiBytes(64))
                // Nothing in this JVM talks to the in-process Bolt channel.
                .setConfig(BoltConnectorInternalSettings.enable_local_connector, false)
                // Netty's default 5 s quiet period per event loop group made every stop take over 10 s; by the time
                // Bolt shuts down the databases are already closed, so there is nothing left to wait for.
                .setConfig(GraphDatabaseInternalSettings.netty_server_shutdown_quiet_period, 0);
        builder.setConfig(parsedSettings(settings));
        if (port != 0) {
            // With port 0 the advertised address is derived from the listen address.
            builder.setConfig(BoltConnector.advertised_address, new SocketAddress(HOST, port));
        }

        // Building under the lock makes a concurrent shutdown hook wait for it, then shut down what was built.
        DatabaseManagementService service;
        synchronized (lifecycle) {
            if (stopping) {
                return null;
            }
            dbms = builder.build();
            service = dbms;
        }

        GraphDatabaseService db = service.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME);
        while (!db.isAvailable(Duration.ofSeconds(1).toMillis())) {
            if (isStopping()) {
                return null;
            }
            System.err.println("[launcher] waiting for database '" + db.databaseName() + "' to become available");
        }

        GraphDatabaseAPI api = (GraphDatabaseAPI) db;
        if (password != null) {
            ensurePassword(service, api, password);
        }

        int boundPort = api.getDependencyResolver()
                .resolveDependency(ConnectorPortRegister.class)
                .getLocalAddress(ConnectorType.BOLT)
                .getPort();
        return "THREADLINE_NEO4J_READY bolt://" + HOST + ":" + boundPort + " version=" + Version.getNeo4jVersion();
    }

    /**
     * Signals and stdin EOF all lead to System.exit(0); the shutdown hook then stops the DBMS. Handling the signals
     * ourselves (instead of the JVM default) is what makes the exit status 0 rather than 128+signal.
     */
    private static void installStopTriggers() {
        Runtime.getRuntime().addShutdownHook(new Thread(Launcher::shutdown, "neo4j-shutdown"));

        for (String name : new String[] {"TERM", "INT"}) {
            sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> {
                System.err.println("[launcher] SIG" + signal.getName() + " received");
                System.exit(0);
            });
        }

        Thread stdinWatcher = new Thread(() -> {
            try (InputStream in = System.in) {
                byte[] buffer = new byte[256];
                while (in.read(buffer) != -1) {
                    // Input is ignored; only EOF matters.
                }
            } catch (IOException e) {
                // A broken stdin means the parent is gone, same as EOF.
            }
            System.err.println("[launcher] stdin closed");
            System.exit(0);
        }, "stdin-watcher");
        stdinWatcher.setDaemon(true);
        stdinWatcher.start();
    }

    private static void shutdown() {
        synchronized (lifecycle) {
            stopping = true;
            if (dbms != null) {
                System.err.println("[launcher] shutting down Neo4j");
                dbms.shutdown();
                dbms = null;
                System.err.println("[launcher] Neo4j stopped");
            }
        }
    }

    private static boolean isStopping() {
        synchronized (lifecycle) {
            return stopping;
        }
    }

    /**
     * Makes {@code password} the {@code neo4j} user's password. Checking it first is cheap; the ALTER USER (run as the
     * fully privileged embedded caller, so it works whatever the current password is) costs about 3 s of Cypher
     * warm-up, so it only runs on a first start or when the password changes.
     */
    private static void ensurePassword(DatabaseManagementService service, GraphDatabaseAPI db, String password)
            throws InvalidAuthTokenException {
        AuthManager authManager = db.getDependencyResolver().resolveDependency(AuthManager.class);
        LoginContext login = authManager.login(
                AuthToken.newBasicAuthToken(USER, password), ClientConnectionInfo.EMBEDDED_CONNECTION);
        if (login.subject().getAuthenticationResult() == AuthenticationResult.SUCCESS) {
            return;
        }
        service.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME).executeTransactionally(
                "ALTER USER " + USER + " SET PASSWORD $password CHANGE NOT REQUIRED", Map.of("password", password));
    }

    /** Settings given by name and text, parsed (and refused when unknown or invalid) as Neo4j parses its config file. */
    private static Map<Setting<?>, Object> parsedSettings(Map<String, String> raw) {
        Config config = Config.newBuilder().setRaw(raw).build();
        Map<String, Setting<Object>> declared = config.getDeclaredSettings();
        Map<Setting<?>, Object> parsed = new HashMap<>();
        for (String name : raw.keySet()) {
            Setting<Object> setting = declared.get(name);
            if (setting == null) {
                throw new IllegalArgumentException("unknown Neo4j setting: " + name);
            }
            parsed.put(setting, config.get(setting));
        }
        return parsed;
    }

    /** The options by name; each {@code --setting name=value} goes into {@code settings} instead. */
    private static Map<String, String> parseArgs(String[] args, Map<String, String> settings) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument: " + arg);
            }
            String name = arg.substring(2);
            String value;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new IllegalArgumentException("missing value for " + arg);
            }
            if (name.equals(SETTING)) {
                int separator = value.indexOf('=');
                if (separator <= 0) {
                    throw new IllegalArgumentException("--setting takes name=value, not " + value);
                }
                settings.put(value.substring(0, separator), value.substring(separator + 1));
                continue;
            }
            if (!OPTIONS.contains(name)) {
                throw new IllegalArgumentException("unknown option --" + name + " (known: " + OPTIONS + " and " + SETTING + ")");
            }
            options.put(name, value);
        }
        return options;
    }

    private static String option(Map<String, String> options, String name, String fallback) {
        String value = options.get(name);
        if (value == null) {
            value = System.getProperty("threadline.neo4j." + name);
        }
        return value != null ? value : fallback;
    }
}
