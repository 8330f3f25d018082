package dev.pinfeed.infra.stack;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * A MariaDB, Redis or Kafka server of the stack's own kind, run outside the stack on ports and a home of the
 * caller's: for tests that kill, promote or rewire servers (failover, shard moves) or secure them, without
 * touching the shared stack's. Started and stopped like the stack's servers (same files, same flags, same
 * health check).
 */
public final class SpareServer implements AutoCloseable {

    private final LocalStack stack;
    private final ServerSpec spec;
    private final ManagedProcess process;
    private final HostPort address;
    /** MariaDB: the replication account's password on this server as a master. */
    private final String replicationPassword = java.util.UUID.randomUUID().toString();

    private SpareServer(StackLayout layout, ServerSpec spec, HostPort address) {
        this.stack = new LocalStack(layout, PinfeedConfig.bundledLocal(), line -> {});
        this.spec = spec;
        this.process = new ManagedProcess(spec.name(), layout);
        this.address = address;
    }

    private static StackLayout layout(Path home) {
        return new StackLayout(StackLayout.discover().root(), home);
    }

    /** A MariaDB server with binlog and GTIDs as the stack runs them; {@code replica}: read-only, for {@link #follow}. */
    public static SpareServer mariaDb(Path home, String name, HostPort address, int serverId, boolean replica) {
        StackLayout layout = layout(home);
        return new SpareServer(layout, new MariaDbServerSpec(layout, name, address, serverId, replica), address);
    }

    /** A Redis server (AOF as the stack runs it); {@code replicaOf} non-null makes it that master's replica. */
    public static SpareServer redis(Path home, String name, HostPort address, HostPort replicaOf) {
        StackLayout layout = layout(home);
        return new SpareServer(layout, new RedisServerSpec(layout, name, address, replicaOf, null), address);
    }

    /**
     * A Kafka broker (KRaft, as the stack runs it) whose client listener {@code broker} is SASL_PLAINTEXT and
     * admits only the SCRAM-SHA-256 account {@code user} (letters, digits, '.', '_', '-' in it and its password).
     */
    public static SpareServer kafkaScram(Path home, String name, HostPort broker, int controllerPort, String user, String password) {
        StackLayout layout = layout(home);
        KafkaServerSpec.ScramAccount account = new KafkaServerSpec.ScramAccount(user, password);
        return new SpareServer(layout, new KafkaServerSpec(layout, name, broker, controllerPort, account), broker);
    }

    /** The same server (data, name, address) configured as a replica of {@code master} from its next start on. */
    public SpareServer asRedisReplicaOf(HostPort master) {
        return redis(stack.layout().home(), spec.name(), address, master);
    }

    public HostPort address() {
        return address;
    }

    public String name() {
        return spec.name();
    }

    /** Prepares its files and data directory, starts it and waits (its start timeout) until it is healthy. */
    public void start() throws Exception {
        stack.prepare(spec);
        ProcessHandle h = process.start(spec.command());
        long deadline = System.nanoTime() + spec.startTimeout().toNanos();
        while (!spec.healthy()) {
            if (!h.isAlive()) throw new IllegalStateException(spec.name() + " exited during start: " + process.tail(20));
            if (System.nanoTime() > deadline) throw new IllegalStateException(spec.name() + " not healthy in " + spec.startTimeout());
            Thread.sleep(200);
        }
    }

    /** Its process, while it runs. */
    public Optional<ProcessHandle> running() {
        return process.running();
    }

    /** kill -9. */
    public void kill() {
        process.kill();
    }

    public boolean healthy() {
        return spec.healthy();
    }

    /** MariaDB: the application and admin accounts the stack creates on its shard masters (replication's with a password of this server's own). */
    public void createAccounts(String appUser, String appPassword, String adminUser, String adminPassword) {
        mariaDb().createAccounts(appUser, appPassword, adminUser, adminPassword, replicationPassword);
    }

    /** MariaDB: replicate {@code master} by GTID, semi-synchronously, as the stack's replicas do. */
    public void follow(SpareServer master) {
        mariaDb().follow((MariaDbServerSpec) master.spec, master.replicationPassword);
    }

    /** MariaDB: runs statements as root over the socket; returns what they printed (tab-separated rows). */
    public String sql(String statements) {
        return mariaDb().sql(statements);
    }

    private MariaDbServerSpec mariaDb() {
        if (!(spec instanceof MariaDbServerSpec m)) throw new IllegalStateException(spec.name() + " is not a MariaDB server");
        return m;
    }

    /** Stops it (SIGTERM, kill after the grace). */
    public void stop(Duration grace) {
        process.stop(grace);
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(10));
    }
}
