package dev.pinfeed.infra.stack;

import dev.pinfeed.config.HostPort;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/** One combined broker+controller in KRaft mode, formatted once with a standalone quorum. */
final class KafkaServerSpec implements ServerSpec {

    private final StackLayout layout;
    private final HostPort broker;
    private final int controllerPort;
    private final Path dir;

    KafkaServerSpec(StackLayout layout, HostPort broker, int controllerPort) {
        this.layout = layout;
        this.broker = broker;
        this.controllerPort = controllerPort;
        this.dir = layout.dataPath("kafka");
    }

    @Override public String name() { return "kafka"; }
    @Override public String role() { return "Kafka broker (KRaft)"; }
    @Override public String endpoint() { return broker.toString(); }
    /**
     * After a kill -9 the broker recovers every partition from its last flushed offset (0 for most: Kafka
     * leaves flushing to the OS); with the thousands of test topics a shared stack collects that took over
     * 120 s on a loaded 2-core box, and the launcher then stopped a broker that was still recovering.
     */
    @Override public Duration startTimeout() { return Duration.ofSeconds(360); }
    @Override public Path logFile() { return layout.logFile("kafka.log"); }

    private Path properties() {
        return dir.resolve("server.properties");
    }

    @Override
    public void writeFiles() {
        String host = broker.host();
        String props = String.join("\n",
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.bootstrap.servers=" + host + ":" + controllerPort,
                "listeners=PLAINTEXT://" + broker + ",CONTROLLER://" + host + ":" + controllerPort,
                "advertised.listeners=PLAINTEXT://" + broker + ",CONTROLLER://" + host + ":" + controllerPort,
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
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
                "") ;
        StackLayout.ensure(dir);
        AtomicFiles.writeIfChanged(properties(), props);
        Log4jConfig.SERVERS.write(layout);
    }

    /** Formats the log directory once (the tool itself skips a formatted one: --ignore-formatted). */
    @Override
    public void initialize() {
        if (java.nio.file.Files.exists(dir.resolve("logs").resolve("meta.properties"))) return;
        Probes.execOrFail(JavaCommand.withHeap("256m").run(layout.classpathOf("infra/kafka-server"),
                "kafka.tools.StorageTool", "format", "--standalone", "--ignore-formatted",
                "-t", Uuid.randomUuid().toString(), "-c", properties().toString()), "formatting the Kafka log directory");
    }

    @Override
    public List<String> command() {
        return JavaCommand.withHeap("512m")
                .logTo(logFile(), "INFO", Log4jConfig.SERVERS.file(layout))
                .run(layout.classpathOf("infra/kafka-server"), "kafka.Kafka", properties().toString());
    }

    @Override
    public boolean healthy() {
        if (!Probes.tcpOpen(broker.host(), broker.port())) return false;
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.toString());
        // A fresh JVM probing 15 services at once on a busy 2-core box needs more than 3 s for its first
        // Kafka round trip (class loading, JIT): a short timeout called a healthy broker sick.
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        try (Admin admin = Admin.create(p)) {
            return !admin.describeCluster().nodes().get().isEmpty();
        } catch (Exception e) {
            return false;
        }
    }
}
