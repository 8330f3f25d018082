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
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where every server lives. Values come from a properties file (the bundled local-stack file unless
 * {@code PINFEED_CONFIG} / {@code -Dpinfeed.config} names another), each key overridable by a
 * system property of the same name or an environment variable {@code PINFEED_<KEY>} — so the same
 * build runs against the local stack or real clusters.
 *
 * <p>Secrets need not sit in any of them: a key {@code K} may be given as {@code K.file} (env
 * {@code PINFEED_<K>_FILE}), the path of a file whose content, less its trailing line break, is the
 * value. Each source is asked in turn — system property, environment, file — and the first that has
 * {@code K} or {@code K.file} answers; one source holding both is a mistake and refused.
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

    /**
     * This configuration with {@code key} set to {@code value} above every other source: for a test or a
     * tool that points one key elsewhere (a fresh key prefix) and leaves the rest as configured.
     */
    public PinfeedConfig with(String key, String value) {
        return withOverrides(Map.of(key, value));
    }

    /** The configuration this process should use, per {@code PINFEED_CONFIG} or the bundled local file. */
    public static PinfeedConfig load() {
        String path = System.getProperty("pinfeed.config", System.getenv("PINFEED_CONFIG"));
        return path == null || path.isBlank() ? bundledLocal() : fromFile(Path.of(path));
    }

    /**
     * The local stack's configuration: the bundled file, and over it the credentials the local stack generated on its
     * first start ({@value #DEV_SECRETS} in its run directory, never in the repository) when there is one.
     */
    public static PinfeedConfig bundledLocal() {
        try (InputStream in = PinfeedConfig.class.getClassLoader().getResourceAsStream(BUNDLED_LOCAL)) {
            if (in == null) throw new IllegalStateException(BUNDLED_LOCAL + " missing from the classpath");
            Properties p = new Properties();
            p.load(in);
            String source = "classpath:" + BUNDLED_LOCAL;
            Optional<Path> secrets = localRunDirectory().map(d -> d.resolve(DEV_SECRETS)).filter(Files::isRegularFile);
            if (secrets.isPresent()) {
                try (InputStream s = Files.newInputStream(secrets.get())) {
                    p.load(s);
                }
                source += " + " + secrets.get();
            }
            return new PinfeedConfig(p, System.getenv(), System.getProperties(), source);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The credentials file of the local stack, in its run directory. */
    public static final String DEV_SECRETS = "dev-secrets.properties";

    /**
     * The local stack's run directory: {@code $PINFEED_HOME/run}, else {@code <root>/.pinfeed/run} with the root from
     * {@code -Dpinfeed.root} or {@code PINFEED_ROOT}; empty when neither names one (a unit test, a deployment).
     */
    public static Optional<Path> localRunDirectory() {
        String home = System.getenv("PINFEED_HOME");
        if (home != null && !home.isBlank()) return Optional.of(Path.of(home).toAbsolutePath().resolve("run"));
        String root = System.getProperty("pinfeed.root", System.getenv("PINFEED_ROOT"));
        if (root != null && !root.isBlank()) return Optional.of(runDirectoryUnder(Path.of(root).toAbsolutePath()));
        return Optional.empty();
    }

    /** The local stack's run directory of the checkout at {@code root}. */
    public static Path runDirectoryUnder(Path root) {
        return root.resolve(".pinfeed").resolve("run");
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
     * This configuration with {@code values} winning over every other source: a test's fresh topics, or one
     * command's settings, on top of the deployment's configuration.
     */
    public PinfeedConfig withOverrides(Map<String, String> values) {
        Properties top = new Properties();
        for (String key : system.stringPropertyNames()) top.setProperty(key, system.getProperty(key));
        values.forEach((key, value) -> {
            // An override replaces the key in whichever form the system properties held it.
            top.remove(key.endsWith(FILE_SUFFIX) ? key.substring(0, key.length() - FILE_SUFFIX.length()) : key + FILE_SUFFIX);
            top.setProperty(key, value);
        });
        return new PinfeedConfig(file, env, top, source + " (overriding " + String.join(", ", new TreeSet<>(values.keySet())) + ")");
    }

    /** {@code kafka.bootstrap} → {@code PINFEED_KAFKA_BOOTSTRAP}. */
    public static String envName(String key) {
        return "PINFEED_" + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** The suffix naming a key's secret file instead of its value: {@code mysql.password.file}. */
    public static final String FILE_SUFFIX = ".file";

    public Optional<String> find(String key) {
        String v = fromSource(key, system.getProperty(key), system.getProperty(key + FILE_SUFFIX), "system property");
        if (v == null) v = fromSource(key, env.get(envName(key)), env.get(envName(key) + "_FILE"), "environment");
        if (v == null) v = fromSource(key, file.getProperty(key), file.getProperty(key + FILE_SUFFIX), source);
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(v);
    }

    /** One source's answer for {@code key}: its direct value (trimmed) or its secret file's content; null when it has neither. */
    private static String fromSource(String key, String direct, String secretFile, String where) {
        if (direct != null && secretFile != null) {
            throw new IllegalStateException("configuration key '" + key + "' is given both directly and as '" + key + FILE_SUFFIX
                    + "' in " + where + ": keep one");
        }
        if (direct != null) return direct.trim();
        if (secretFile == null || secretFile.isBlank()) return null;
        Path path = Path.of(secretFile.trim());
        try {
            return Files.readString(path).replaceFirst("\\R+\\z", "");
        } catch (IOException | RuntimeException e) {
            // Names the key and the path only: the message must never carry the secret.
            throw new IllegalStateException("configuration key '" + key + FILE_SUFFIX + "' (" + where + ") names " + path
                    + ", which cannot be read (" + e.getClass().getSimpleName() + ")");
        }
    }

    /**
     * Every key under {@code prefix} (prefix removed) with its value, for settings passed through to a
     * client library ({@code kafka.client.security.protocol}). Key names come from the file and the
     * system properties, a {@code K.file} naming {@code K}; each value is then resolved like {@link #find}
     * (so {@code PINFEED_<KEY>} overrides a listed key). A key only in the environment is not listed: an
     * environment name cannot be mapped back to a dotted key unambiguously.
     */
    public Map<String, String> withPrefix(String prefix) {
        Set<String> keys = new TreeSet<>();
        for (Properties p : List.of(file, system)) {
            for (String key : p.stringPropertyNames()) {
                String named = key.endsWith(FILE_SUFFIX) ? key.substring(0, key.length() - FILE_SUFFIX.length()) : key;
                if (named.startsWith(prefix) && named.length() > prefix.length()) keys.add(named);
            }
        }
        Map<String, String> values = new TreeMap<>();
        for (String key : keys) find(key).ifPresent(v -> values.put(key.substring(prefix.length()), v));
        return values;
    }

    public String require(String key) {
        return find(key).orElseThrow(() -> new IllegalStateException(
                "configuration key '" + key + "' is not set (in " + source + " or " + envName(key) + ", directly or as '" + key
                        + FILE_SUFFIX + "')"));
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

    /** {@code off} (plain, the local stack), {@code on} (encrypted) or {@code verify} (encrypted, server certificate and name checked). */
    public static final String MYSQL_TLS = "mysql.tls";
    /** For {@code verify}: the trust store (path or URL) holding the servers' CA; absent, the JVM's default trust. */
    public static final String MYSQL_TLS_TRUSTSTORE = "mysql.tls.truststore";
    public static final String MYSQL_TLS_TRUSTSTORE_PASSWORD = "mysql.tls.truststore-password";

    /** How connections to MySQL are secured ({@value #MYSQL_TLS}). */
    public enum MysqlTls { OFF, ON, VERIFY }

    public MysqlTls mysqlTls() {
        String tls = get(MYSQL_TLS, "off");
        return switch (tls) {
            case "off" -> MysqlTls.OFF;
            case "on" -> MysqlTls.ON;
            case "verify" -> MysqlTls.VERIFY;
            default -> throw new IllegalStateException("configuration key '" + MYSQL_TLS + "' is '" + tls + "': use off, on or verify");
        };
    }

    /**
     * The one JDBC URL form pinfeed uses for a MySQL/MariaDB host (MySQL Connector/J): batched writes
     * rewritten, TLS per {@value #MYSQL_TLS}. Public key retrieval (RSA password exchange without TLS)
     * is allowed only without TLS: with TLS it would let a man in the middle hand out its own key.
     */
    public String mysqlJdbcUrl(HostPort host) {
        String security = switch (mysqlTls()) {
            case OFF -> "useSSL=false&allowPublicKeyRetrieval=true";
            case ON -> "sslMode=REQUIRED";
            case VERIFY -> "sslMode=VERIFY_IDENTITY" + find(MYSQL_TLS_TRUSTSTORE).map(store -> "&trustCertificateKeyStoreUrl="
                    + urlParameter(store.contains(":/") ? store : Path.of(store).toUri().toString())
                    + find(MYSQL_TLS_TRUSTSTORE_PASSWORD).map(pw -> "&trustCertificateKeyStorePassword=" + urlParameter(pw)).orElse(""))
                    .orElse("");
        };
        return "jdbc:mysql://" + host + "/?" + security + "&rewriteBatchedStatements=true";
    }

    private static String urlParameter(String value) {
        return java.net.URLEncoder.encode(value, java.nio.charset.StandardCharsets.UTF_8);
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
