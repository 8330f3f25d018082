package dev.pinfeed.infra.stack;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * One MariaDB server (a MySQL shard host's master or its replica). Masters write a GTID binlog;
 * replicas run read-only, so the application user (no SUPER / READ ONLY ADMIN) cannot write to them.
 */
final class MariaDbServerSpec implements ServerSpec {

    static final String OS_USER = System.getProperty("user.name");

    private final StackLayout layout;
    private final String name;
    private final HostPort address;
    private final int serverId;
    private final boolean replica;
    private final Path dir;
    private final Installer installer;
    private final Sizes sizes;

    /**
     * What a server holds in memory: InnoDB's buffer pool and the caches of open tables and table definitions (a host
     * has ~25k shard tables, and each cached one costs ~30 KB of the server's memory). Keys {@value #BUFFER_POOL_KEY} and
     * {@value #TABLE_CACHE_KEY}.
     */
    record Sizes(String bufferPool, int tableCache) {
        static final String BUFFER_POOL_KEY = "stack.mysql.buffer-pool";
        static final String TABLE_CACHE_KEY = "stack.mysql.table-cache";
        /** MariaDB's smallest table definition cache. */
        static final int MIN_TABLE_CACHE = 400;
        /** The largest that keeps both caches under the open-files limit. */
        static final int MAX_TABLE_CACHE = 8000;
        static final Sizes DEFAULT = new Sizes("64m", 4000);

        static Sizes of(PinfeedConfig config) {
            String pool = JavaCommand.memorySize(config, BUFFER_POOL_KEY, DEFAULT.bufferPool, "a buffer pool size");
            int tables = config.getInt(TABLE_CACHE_KEY, DEFAULT.tableCache);
            if (tables < MIN_TABLE_CACHE || tables > MAX_TABLE_CACHE) {
                throw new IllegalArgumentException(TABLE_CACHE_KEY + " must be from " + MIN_TABLE_CACHE + " to " + MAX_TABLE_CACHE + ": " + tables);
            }
            return new Sizes(pool, tables);
        }
    }

    /** Creates the system tables in an empty data directory (mariadb-install-db). */
    @FunctionalInterface
    interface Installer {
        /** Returns the installer's output; throws when it failed. */
        String install(Path dataDir, Path tmpDir) throws Exception;
    }

    MariaDbServerSpec(StackLayout layout, String name, HostPort address, int serverId, boolean replica) {
        this(layout, name, address, serverId, replica, MariaDbServerSpec::installDb);
    }

    MariaDbServerSpec(StackLayout layout, String name, HostPort address, int serverId, boolean replica, Installer installer) {
        this(layout, name, address, serverId, replica, installer, Sizes.DEFAULT);
    }

    private MariaDbServerSpec(StackLayout layout, String name, HostPort address, int serverId, boolean replica, Installer installer,
                              Sizes sizes) {
        this.layout = layout;
        this.name = name;
        this.address = address;
        this.serverId = serverId;
        this.replica = replica;
        this.dir = layout.dataPath(name);
        this.installer = installer;
        this.sizes = sizes;
    }

    /** The same server with the given memory sizes. */
    MariaDbServerSpec sized(Sizes sizes) {
        return new MariaDbServerSpec(layout, name, address, serverId, replica, installer, sizes);
    }

    Sizes sizes() {
        return sizes;
    }

    @Override public String name() { return name; }
    @Override public String role() { return replica ? "MariaDB shard host replica (read-only)" : "MariaDB shard host master"; }
    @Override public String endpoint() { return address.toString(); }
    @Override public Path logFile() { return layout.logFile(name + ".err"); }

    HostPort address() {
        return address;
    }

    boolean isReplica() {
        return replica;
    }

    /** Unix sockets have a ~107-byte path limit, so they live in /tmp whatever the checkout path. */
    Path socket() {
        return Path.of(System.getProperty("java.io.tmpdir"), "pinfeed-mysql-" + address.port() + ".sock");
    }

    /**
     * Own temp directory: parallel installs sharing /tmp collide on temp-table names. A sibling of
     * the datadir, because any directory inside it would show up as a database.
     */
    private Path tmpDir() {
        return StackLayout.ensure(dir.resolveSibling(name + ".tmp"));
    }

    @Override
    public void writeFiles() {
        StackLayout.ensure(dir);
        tmpDir();
    }

    /** True once the system tables are in place (only a complete install is ever moved there). */
    boolean initialized() {
        return Files.isDirectory(dir.resolve("mysql"));
    }

    /**
     * Installs the system tables into a scratch directory and renames it into place: an install that
     * fails or is killed half-way leaves no half-initialized data directory that a later start would
     * take for a complete one. Callers hold the server's lock (two installs never share the scratch dir).
     */
    @Override
    public void initialize() throws Exception {
        if (initialized()) return;
        Path scratch = dir.resolveSibling(name + ".installing");
        deleteTree(scratch);
        Files.createDirectories(scratch);
        String output = installer.install(scratch, tmpDir());
        log(output);
        if (!Files.isDirectory(scratch.resolve("mysql"))) {
            throw new IllegalStateException("the installer left no system tables in " + scratch);
        }
        deleteTree(dir); // empty unless a failed earlier run left files without system tables
        Files.move(scratch, dir, StandardCopyOption.ATOMIC_MOVE);
    }

    private static String installDb(Path dataDir, Path tmpDir) {
        return Probes.execOrFail(List.of(Binaries.find("mariadb-install-db"), "--no-defaults", "--user=" + OS_USER,
                "--datadir=" + dataDir, "--tmpdir=" + tmpDir, "--auth-root-authentication-method=socket", "--skip-test-db"),
                "mariadb-install-db").output();
    }

    private void log(String output) {
        try {
            Files.createDirectories(logFile().getParent());
            Files.writeString(logFile(), output, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException ignored) {
            // the output is in the exception when it matters
        }
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) return;
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }

    /** The buffer pool and the table caches ({@link Sizes}). */
    List<String> memoryFlags() {
        return List.of("--innodb-buffer-pool-size=" + sizes.bufferPool(),
                "--table-open-cache=" + sizes.tableCache(), "--table-definition-cache=" + sizes.tableCache());
    }

    /** jemalloc, which MariaDB supports in place of glibc's malloc (mysqld_safe's {@code --malloc-lib}); Debian's redis-server brings it. */
    static final String JEMALLOC = "libjemalloc.so.2";
    /**
     * Freed pages go back to the OS within a second, from jemalloc's own background threads. On glibc's malloc a master
     * kept what provisioning its 2 048 shard databases had freed: 225 MB resident after it against 149 MB on jemalloc, and
     * 169-178 MB against 130-139 MB after the dev stack's soak (~100 MB in use, {@code Memory_used}; docs/benchmarks.md).
     */
    static final String JEMALLOC_CONF = "background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0";

    /** The command's prefix that runs the server on {@code jemalloc} where it is installed, else nothing (glibc's malloc). */
    static List<String> allocator(Optional<Path> jemalloc) {
        return jemalloc.map(lib -> List.of(Binaries.find("env"), "LD_PRELOAD=" + lib, "MALLOC_CONF=" + JEMALLOC_CONF))
                .orElse(List.of());
    }

    @Override
    public List<String> command() {
        List<String> cmd = new ArrayList<>(allocator(Binaries.library(JEMALLOC)));
        cmd.addAll(List.of(Binaries.find("mariadbd"), "--no-defaults", "--user=" + OS_USER,
                "--datadir=" + dir, "--tmpdir=" + tmpDir(), "--port=" + address.port(), "--bind-address=" + address.host(),
                "--socket=" + socket(), "--pid-file=" + dir.resolve("mariadbd.pid"),
                "--log-error=" + logFile(),
                "--server-id=" + serverId, "--skip-name-resolve", "--gtid-strict-mode=ON",
                "--max-connections=300",
                // ~25k shard tables per host: in the system tablespace, creating them costs no file and no fsync each
                // (6 s instead of 21-44 s per 3k tables, measured here). Log flushed to the OS at every commit, synced
                // once a second: a killed mariadbd loses nothing (only a machine crash could lose the last second).
                "--innodb-file-per-table=OFF", "--innodb-flush-log-at-trx-commit=2",
                // A table's definition file (.frm) written to the OS at every CREATE TABLE, not synced each time: the same
                // guarantee as the log above, and provisioning ~35k tables per host waits for ~35k fewer fsyncs.
                "--sync-frm=0",
                // Thousands of shard databases per host: the table caches (Sizes) stay under this cap.
                "--open-files-limit=16000",
                "--character-set-server=utf8mb4", "--collation-server=utf8mb4_unicode_ci",
                // InnoDB only: MyISAM's key buffer and most of Aria's page cache (internal temporary tables) idle
                // (128 MB each by default); a redo log buffer of 8 MB (16 MB) holds any of the pipeline's transactions.
                "--key-buffer-size=8M", "--aria-pagecache-buffer-size=16M", "--innodb-log-buffer-size=8M"));
        cmd.addAll(memoryFlags());
        // Semi-synchronous replication, AFTER_SYNC: a commit is acknowledged to the client only once the replica
        // has it, so a failover to the replica loses nothing acknowledged. A replica that does not answer within
        // the timeout turns the master asynchronous until it is back (writes never stall on a dead replica).
        if (replica) {
            cmd.addAll(List.of("--read-only=ON", "--relay-log=relay-bin", "--skip-log-bin", "--rpl-semi-sync-slave-enabled=ON"));
        } else {
            cmd.addAll(List.of("--log-bin=mysql-bin", "--binlog-format=ROW", "--max-binlog-size=64M",
                    "--binlog-expire-logs-seconds=86400", "--rpl-semi-sync-master-enabled=ON",
                    "--rpl-semi-sync-master-wait-point=AFTER_SYNC", "--rpl-semi-sync-master-timeout=1000"));
        }
        return cmd;
    }

    @Override
    public boolean healthy() {
        if (!Probes.tcpOpen(address.host(), address.port())) return false;
        return Probes.exec(List.of(Binaries.find("mariadb-admin"), "--no-defaults", "--socket=" + socket(), "-u" + OS_USER,
                "--connect-timeout=2", "ping"), null, 5).code() == 0;
    }

    /**
     * On a master (replicated to its replica from the start): the replication account, the application's
     * (no SUPER / READ ONLY ADMIN: it cannot write to a read-only replica) and, when {@code adminUser}
     * is set, the administrator's over TCP (failover: read_only, replication). Idempotent; an account that
     * exists gets the given password (a data directory from before the passwords were generated).
     */
    void createAccounts(String appUser, String appPassword, String adminUser, String adminPassword, String replicationPassword) {
        StringBuilder sql = new StringBuilder(account("repl", replicationPassword)
                + "GRANT REPLICATION SLAVE ON *.* TO 'repl'@'%';"
                + account(appUser, appPassword)
                + "GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, INDEX, ALTER, CREATE TEMPORARY TABLES, "
                + "LOCK TABLES, REFERENCES, EXECUTE, CREATE VIEW, SHOW VIEW, TRIGGER, PROCESS, REPLICATION CLIENT ON *.* TO '"
                + appUser + "'@'%';");
        if (adminUser != null && !adminUser.isBlank()) {
            sql.append(account(adminUser, adminPassword))
                    .append("GRANT ALL PRIVILEGES ON *.* TO '").append(adminUser).append("'@'%' WITH GRANT OPTION;");
        }
        sql(sql.toString());
    }

    private static String account(String user, String password) {
        return "CREATE USER IF NOT EXISTS '" + quoted(user) + "'@'%' IDENTIFIED BY '" + quoted(password) + "';"
                + "ALTER USER '" + quoted(user) + "'@'%' IDENTIFIED BY '" + quoted(password) + "';";
    }

    /**
     * On a replica: follows {@code master} by GTID from its first transaction, or resumes where it stopped, logging in
     * as the replication account with {@code replicationPassword}.
     */
    void follow(MariaDbServerSpec master, String replicationPassword) {
        if (sql("SHOW SLAVE STATUS").isBlank()) {
            sql("CHANGE MASTER TO MASTER_HOST='" + master.address().host() + "', MASTER_PORT=" + master.address().port()
                    + ", MASTER_USER='repl', MASTER_PASSWORD='" + quoted(replicationPassword)
                    + "', MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1; START SLAVE;");
        } else {
            // The password may have changed since (generated credentials): the position is kept.
            sql("STOP SLAVE; CHANGE MASTER TO MASTER_PASSWORD='" + quoted(replicationPassword) + "'; START SLAVE;");
        }
    }

    private static String quoted(String s) {
        return s.replace("'", "''");
    }

    /** Runs SQL as the administrative OS-user account over the unix socket. */
    String sql(String statements) {
        return Probes.execOrFail(List.of(Binaries.find("mariadb"), "--no-defaults", "--socket=" + socket(), "-u" + OS_USER,
                "--batch", "--skip-column-names", "-e", statements), "SQL on " + name).output();
    }
}
