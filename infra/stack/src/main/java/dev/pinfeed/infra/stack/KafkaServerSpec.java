package dev.pinfeed.infra.stack;

import dev.pinfeed.config.HostPort;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.SaslConfigs;

/**
 * One combined broker+controller in KRaft mode, formatted once with a standalone quorum. Clients connect to a
 * SASL_PLAINTEXT listener that requires SCRAM-SHA-256 when the broker has an account:
 * <ul>
 *   <li>the stack's broker ({@link #stack}): the apps' and tests' account, written by the launcher after each start
 *       over an internal plain listener on loopback ({@link #ensureClientAccount}), which the broker itself, the
 *       launcher, the dev registry and {@code ./pinfeed kafka} use;</li>
 *   <li>a spare broker of a test ({@link ScramAccount} at format time): one listener, the SASL one, inter-broker too.</li>
 * </ul>
 * Without an account, clients connect in plain text.
 */
final class KafkaServerSpec implements ServerSpec {

    static final String SCRAM_MECHANISM = "SCRAM-SHA-256";

    /**
     * The one account of a SCRAM broker: written into the cluster metadata when the log directory is formatted
     * (a broker takes new credentials only from an authenticated client), and the broker's own login on its
     * inter-broker listener, which is the SASL one.
     */
    record ScramAccount(String user, String password) {

        /** Both go unquoted into StorageTool's {@code [name=..,password=..]} and quoted into a JAAS line. */
        private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9._-]+");

        ScramAccount {
            if (!SAFE.matcher(user).matches() || !SAFE.matcher(password).matches()) {
                throw new IllegalArgumentException("a SCRAM user and password may hold letters, digits, '.', '_' and '-' only");
            }
        }

        String jaasConfig() {
            return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user + "\" password=\"" + password + "\";";
        }
    }

    private final StackLayout layout;
    private final String name;
    private final HostPort broker;
    private final int controllerPort;
    /** A spare broker's one account, formatted in; null otherwise. */
    private final ScramAccount scram;
    /** The stack's clients' account, written after each start; null otherwise. */
    private final ScramAccount clients;
    /** The stack's internal plain listener's port; 0: none. */
    private final int internalPort;
    private final Path dir;
    /** The broker's {@code -Xmx}: {@value #HEAP_KEY} for the stack's broker, {@value #DEFAULT_HEAP} otherwise. */
    private final String heap;

    static final String HEAP_KEY = "stack.kafka.heap";
    static final String DEFAULT_HEAP = "512m";
    static final int CLEANER_DEDUPE_BUFFER_BYTES = 16 * 1024 * 1024;

    /** A broker whose clients connect in plain text. */
    KafkaServerSpec(StackLayout layout, HostPort broker, int controllerPort) {
        this(layout, "kafka", broker, controllerPort, null, null, 0, DEFAULT_HEAP);
    }

    /** A spare broker whose one listener requires {@code scram}'s account. */
    KafkaServerSpec(StackLayout layout, String name, HostPort broker, int controllerPort, ScramAccount scram) {
        this(layout, name, broker, controllerPort, scram, null, 0, DEFAULT_HEAP);
    }

    private KafkaServerSpec(StackLayout layout, String name, HostPort broker, int controllerPort, ScramAccount scram, ScramAccount clients,
                            int internalPort, String heap) {
        this.layout = layout;
        this.name = name;
        this.broker = broker;
        this.controllerPort = controllerPort;
        this.scram = scram;
        this.clients = clients;
        this.internalPort = internalPort;
        this.dir = layout.dataPath(name);
        this.heap = heap;
    }

    /** The stack's broker: clients authenticate with {@code clients}' account; the stack itself uses {@code internalPort}. */
    static KafkaServerSpec stack(StackLayout layout, HostPort broker, int controllerPort, int internalPort, ScramAccount clients) {
        return new KafkaServerSpec(layout, "kafka", broker, controllerPort, null, clients, internalPort, DEFAULT_HEAP);
    }

    /** The same broker with a heap of {@code heap} (a size like 512m). */
    KafkaServerSpec withHeap(String heap) {
        return new KafkaServerSpec(layout, name, broker, controllerPort, scram, clients, internalPort, heap);
    }

    String heap() {
        return heap;
    }

    /** Where the stack itself (launcher, dev registry, Kafka's tools) reaches the broker: the internal listener when there is one. */
    String internalBootstrap() {
        return internalPort > 0 ? broker.host() + ":" + internalPort : broker.toString();
    }

    /**
     * Writes the clients' account into the cluster metadata (an upsert, so a restart or a changed password is fine); a
     * broker formatted before its clients had to authenticate gets it too. Nothing for a broker without one.
     */
    void ensureClientAccount() throws Exception {
        if (clients == null) return;
        try (Admin admin = Admin.create(probeSettings())) {
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(clients.user(),
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 8192), clients.password()))).all().get(60, TimeUnit.SECONDS);
        }
    }

    @Override public String name() { return name; }
    @Override public String role() { return scram == null ? "Kafka broker (KRaft)" : "Kafka broker (KRaft, SASL " + SCRAM_MECHANISM + ")"; }
    @Override public String endpoint() { return broker.toString(); }
    /**
     * After a kill -9 the broker recovers every partition from its last flushed offset (0 for most: Kafka
     * leaves flushing to the OS); with the thousands of test topics a shared stack collects that took over
     * 120 s on a loaded 2-core box, and the launcher then stopped a broker that was still recovering.
     */
    @Override public Duration startTimeout() { return Duration.ofSeconds(360); }
    @Override public Path logFile() { return layout.logFile(name + ".log"); }

    private Path properties() {
        return dir.resolve("server.properties");
    }

    /** The client listener's name, which is also its security protocol. */
    private String clientListener() {
        return scram == null && clients == null ? "PLAINTEXT" : "SASL_PLAINTEXT";
    }

    /** The content of server.properties. */
    String serverProperties() {
        String host = broker.host();
        String listener = clientListener();
        String internal = internalPort > 0 ? ",INTERNAL://" + host + ":" + internalPort : "";
        List<String> lines = new ArrayList<>(List.of(
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.bootstrap.servers=" + host + ":" + controllerPort,
                "listeners=" + listener + "://" + broker + internal + ",CONTROLLER://" + host + ":" + controllerPort,
                "advertised.listeners=" + listener + "://" + broker + internal + ",CONTROLLER://" + host + ":" + controllerPort,
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=" + (internalPort > 0 ? "INTERNAL" : listener),
                "listener.security.protocol.map=" + listener + ":" + listener + (internalPort > 0 ? ",INTERNAL:PLAINTEXT" : "") + ",CONTROLLER:PLAINTEXT",
                "log.dirs=" + dir.resolve("logs"),
                "num.partitions=1",
                // One broker: internal topics must not ask for more replicas than exist, or exactly-once hangs.
                "offsets.topic.replication.factor=1",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                // Topics come from infra/definitions/topics.json, never from a typo in a producer.
                "auto.create.topics.enable=false",
                "log.retention.hours=168",
                // The log cleaner (compacted topics: consumer offsets, the dead letters' redrive log, the registry's
                // schemas) keeps its key map on the heap, 128 MB by default, allocated whole at start: half a dev broker's
                // heap. 16 MB maps ~600 000 keys per cleaning pass, more than the stack's compacted topics hold.
                "log.cleaner.dedupe.buffer.size=" + CLEANER_DEDUPE_BUFFER_BYTES));
        String jaasKey = "listener.name." + listener.toLowerCase(Locale.ROOT) + "." + SCRAM_MECHANISM.toLowerCase(Locale.ROOT) + ".sasl.jaas.config";
        if (clients != null) {
            // Verifies clients against the credentials in the cluster metadata; the broker logs in nowhere (inter-broker is internal).
            lines.addAll(List.of("sasl.enabled.mechanisms=" + SCRAM_MECHANISM,
                    jaasKey + "=org.apache.kafka.common.security.scram.ScramLoginModule required;"));
        }
        if (scram != null) {
            lines.addAll(List.of(
                    "sasl.enabled.mechanisms=" + SCRAM_MECHANISM,
                    "sasl.mechanism.inter.broker.protocol=" + SCRAM_MECHANISM,
                    // Verifies clients against the credentials in the cluster metadata; username and password are the broker's own login.
                    jaasKey + "=" + scram.jaasConfig()));
        }
        lines.add("");
        return String.join("\n", lines);
    }

    @Override
    public void writeFiles() {
        StackLayout.ensure(dir);
        if (scram == null) { // the stack's clients' password is not in the broker's file: the metadata holds its hash
            AtomicFiles.writeIfChanged(properties(), serverProperties());
        } else {
            AtomicFiles.writePrivate(properties(), serverProperties()); // holds the account's password
        }
        Log4jConfig.SERVERS.write(layout);
    }

    /** Formats the log directory once (the tool itself skips a formatted one: --ignore-formatted). */
    @Override
    public void initialize() {
        if (java.nio.file.Files.exists(dir.resolve("logs").resolve("meta.properties"))) return;
        List<String> args = new ArrayList<>(List.of("format", "--standalone", "--ignore-formatted",
                "-t", Uuid.randomUuid().toString(), "-c", properties().toString()));
        if (scram != null) {
            args.addAll(List.of("--add-scram", SCRAM_MECHANISM + "=[name=" + scram.user() + ",password=" + scram.password() + "]"));
        }
        Probes.execOrFail(JavaCommand.withHeap("256m").run(layout.classpathOf("infra/kafka-server"),
                "kafka.tools.StorageTool", args.toArray(String[]::new)), "formatting the Kafka log directory");
    }

    @Override
    public List<String> command() {
        return JavaCommand.withHeap(heap)
                .logTo(logFile(), "INFO", Log4jConfig.SERVERS.file(layout))
                .run(layout.classpathOf("infra/kafka-server"), "kafka.Kafka", properties().toString());
    }

    @Override
    public boolean healthy() {
        if (!Probes.tcpOpen(broker.host(), broker.port())) return false;
        try (Admin admin = Admin.create(probeSettings())) {
            return !admin.describeCluster().nodes().get().isEmpty();
        } catch (Exception e) {
            return false;
        }
    }

    /** An admin client's settings for the broker's own probes: the internal listener, or the client one with the spare's account. */
    private Properties probeSettings() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, internalBootstrap());
        // A fresh JVM probing 15 services at once on a busy 2-core box needs more than 3 s for its first
        // Kafka round trip (class loading, JIT): a short timeout called a healthy broker sick.
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        if (scram != null) {
            // Unauthenticated, the probe would only time out: a SASL listener drops a client that skips the handshake.
            p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, clientListener());
            p.put(SaslConfigs.SASL_MECHANISM, SCRAM_MECHANISM);
            p.put(SaslConfigs.SASL_JAAS_CONFIG, scram.jaasConfig());
        }
        return p;
    }
}
