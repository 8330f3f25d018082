package dev.pinfeed.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * Where every server lives. Values come from a properties file (the bundled local-stack file unless
 * {@code PINFEED_CONFIG} / {@code -Dpinfeed.config} names another), each key overridable by a
 * system property of the same name or an environment variable {@code PINFEED_<KEY>} — so the same
 * build runs against the local stack or real clusters.
 */
public final class PinfeedConfig {

    public static final String BUNDLED_LOCAL = "pinfeed-local.properties";

    private final Properties file;
    private final Map<String, String> env;
    private final Properties system;
    private final String source;

    PinfeedConfig(Properties file, Map<String, String> env, Properties system, String source) {
        this.file = file;
        this.env = env;
        this.system = system;
        this.source = source;
    }

    /** The configuration this process should use, per {@code PINFEED_CONFIG} or the bundled local file. */
    public static PinfeedConfig load() {
        String path = System.getProperty("pinfeed.config", System.getenv("PINFEED_CONFIG"));
        return path == null || path.isBlank() ? bundledLocal() : fromFile(Path.of(path));
    }

    public static PinfeedConfig bundledLocal() {
        try (InputStream in = PinfeedConfig.class.getClassLoader().getResourceAsStream(BUNDLED_LOCAL)) {
            if (in == null) throw new IllegalStateException(BUNDLED_LOCAL + " missing from the classpath");
            Properties p = new Properties();
            p.load(in);
            return new PinfeedConfig(p, System.getenv(), System.getProperties(), "classpath:" + BUNDLED_LOCAL);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static PinfeedConfig fromFile(Path path) {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(path)) {
            p.load(in);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read configuration " + path + ": " + e.getMessage(), e);
        }
        return new PinfeedConfig(p, System.getenv(), System.getProperties(), path.toString());
    }

    /** For tests: exactly these values, no environment. */
    public static PinfeedConfig of(Properties values) {
        return new PinfeedConfig(values, Map.of(), new Properties(), "memory");
    }

    /**
     * This configuration with {@code overrides} winning over every other source (system properties as of
     * now, environment, file): a test's fresh topics, consumer group and key prefix on the shared stack.
     */
    public PinfeedConfig with(Map<String, String> overrides) {
        Properties values = new Properties();
        values.putAll(system);
        values.putAll(overrides);
        return new PinfeedConfig(file, env, values, source);
    }

    /** {@code kafka.bootstrap} → {@code PINFEED_KAFKA_BOOTSTRAP}. */
    public static String envName(String key) {
        return "PINFEED_" + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    public Optional<String> find(String key) {
        String v = system.getProperty(key);
        if (v == null) v = env.get(envName(key));
        if (v == null) v = file.getProperty(key);
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.trim());
    }

    public String require(String key) {
        return find(key).orElseThrow(() -> new IllegalStateException(
                "configuration key '" + key + "' is not set (in " + source + " or " + envName(key) + ")"));
    }

    public String get(String key, String fallback) {
        return find(key).orElse(fallback);
    }

    public int getInt(String key, int fallback) {
        Optional<String> v = find(key);
        if (v.isEmpty()) return fallback;
        try {
            return Integer.parseInt(v.get());
        } catch (NumberFormatException e) {
            throw new IllegalStateException("configuration key '" + key + "' is not an integer: " + v.get());
        }
    }

    public List<String> list(String key) {
        return find(key).map(v -> Arrays.stream(v.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList())
                .orElse(List.of());
    }

    public HostPort hostPort(String key) {
        try {
            return HostPort.parse(require(key));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("configuration key '" + key + "': " + e.getMessage());
        }
    }

    public String source() {
        return source;
    }

    // ---- typed views of the endpoints every service needs ----

    public String kafkaBootstrap() {
        return require("kafka.bootstrap");
    }

    public String schemaRegistryUrl() {
        return require("schema.registry.url");
    }

    /** ZooKeeper quorum of the primary HBase cluster, {@code host:port[,host:port]}. */
    public String hbasePrimaryZookeeper() {
        return require("hbase.primary.zookeeper");
    }

    public String hbaseStandbyZookeeper() {
        return require("hbase.standby.zookeeper");
    }

    public String appZookeeper() {
        return require("app.zookeeper");
    }

    public String appZookeeperNamespace() {
        return get("app.zookeeper.namespace", "pinfeed");
    }

    public String mysqlUser() {
        return require("mysql.user");
    }

    public String mysqlPassword() {
        return get("mysql.password", "");
    }

    /** The one JDBC URL form pinfeed uses for a MySQL/MariaDB host (batched writes rewritten, no TLS on loopback). */
    public static String mysqlJdbcUrl(HostPort host) {
        return "jdbc:mysql://" + host + "/?useSSL=false&allowPublicKeyRetrieval=true&rewriteBatchedStatements=true";
    }

    public List<ReplicatedHost> mysqlHosts() {
        return replicatedHosts("mysql.hosts", "mysql");
    }

    public List<ReplicatedHost> redisInstances() {
        return replicatedHosts("redis.instances", "redis");
    }

    /**
     * The MySQL host {@code name} as {@code mysql.<name>.master} / {@code .replica} place it, or empty
     * when its master is not configured (whether or not {@code mysql.hosts} lists it).
     */
    public Optional<ReplicatedHost> mysqlHost(String name) {
        return find("mysql." + name + ".master").map(m -> replicatedHost("mysql", name));
    }

    private List<ReplicatedHost> replicatedHosts(String listKey, String prefix) {
        List<ReplicatedHost> hosts = new ArrayList<>();
        for (String name : list(listKey)) hosts.add(replicatedHost(prefix, name));
        if (hosts.isEmpty()) throw new IllegalStateException("configuration key '" + listKey + "' names no hosts");
        return List.copyOf(hosts);
    }

    private ReplicatedHost replicatedHost(String prefix, String name) {
        String replicaKey = prefix + "." + name + ".replica";
        try {
            return new ReplicatedHost(name, hostPort(prefix + "." + name + ".master"), find(replicaKey).map(HostPort::parse).orElse(null));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("configuration key '" + replicaKey + "': " + e.getMessage());
        }
    }

    /** A master and its (optional) read replica. */
    public record ReplicatedHost(String name, HostPort master, HostPort replica) {
        public Optional<HostPort> replicaIfAny() {
            return Optional.ofNullable(replica);
        }
    }
}
