package dev.pinfeed.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.console.pipeline.SampledPipelineMonitor;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.processorruntime.KafkaClients;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.StreamSupport;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The pipeline monitor against the real shared stack, read as the browser gets it (the snapshot as JSON): every
 * server up, the live shard and master maps, a fresh group's lag, dead letters of a fresh dead-letter topic by
 * reason, and apps that are down (nothing listens) or not ready (an HTTP app whose readiness check fails), whose
 * metrics also stand in for fanout-streams'. The stack's apps do not run in the test stack: the test names its own.
 */
@ExtendWith(StackExtension.class)
class PipelineMonitorIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int RECORDS = 7;

    @Test
    void showsThePipelineAsItIs(TestStack stack) throws Exception {
        String topic = stack.uniqueTopic("console-lag");
        String group = stack.uniqueTopic("console-group");
        String deadLetters = stack.uniqueTopic("console-dlq");
        stack.createTopics(Map.of(topic, 2, deadLetters, 1));
        PinfeedConfig base = stack.config();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(KafkaClients.producer(base, "pipeline-monitor-it"),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < RECORDS; i++) producer.send(new ProducerRecord<>(topic, i % 2, null, ("r" + i).getBytes(StandardCharsets.UTF_8)));
            producer.send(deadLetter(deadLetters, DeadLetters.INVALID));
            producer.send(deadLetter(deadLetters, DeadLetters.INVALID));
            producer.send(deadLetter(deadLetters, DeadLetters.MISSING_REFERENCE));
            producer.flush();
        }
        commitAtZero(stack, group, topic);

        PrometheusMeterRegistry meters = dev.pinfeed.httpkit.Meters.newRegistry();
        Gauge.builder("fanout.jobs.pending", () -> 5).register(meters);
        HttpApp notReady = HttpApp.builder("it-not-ready").meterRegistry(meters)
                .healthCheck("hbase", () -> {
                    throw new IllegalStateException("timeout after 2 s");
                }).build();
        int nothingListens;
        try (ServerSocket free = new ServerSocket(0)) {
            nothingListens = free.getLocalPort();
        }
        try (RunningHttpApp app = notReady.start("127.0.0.1", 0)) {
            Map<String, String> overrides = new HashMap<>();
            overrides.put("console.processes", "it-down,it-not-ready");
            overrides.put("it-down.admin.http", "127.0.0.1:" + nothingListens);
            overrides.put("it-not-ready.admin.http", "127.0.0.1:" + app.port());
            overrides.put("fanout-streams.admin.http", "127.0.0.1:" + app.port());
            overrides.put(DeadLetters.TOPIC_KEY, deadLetters);
            PinfeedConfig config = base.withOverrides(overrides);
            try (CuratorFramework zk = CuratorClients.connected(config, 20);
                 SampledPipelineMonitor monitor = PipelineMonitors.start(config, zk, Clock.systemUTC())) {
                // Generous: a first HBase or Kafka call on a busy 2-core box can take longer than a probe's deadline.
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                    JsonNode s = JSON.valueToTree(monitor.snapshot());
                    assertThat(s.path("sampledAt").isTextual()).isTrue();
                    assertServersUp(s);
                    assertThat(lagOf(s, group).path("lag").asLong()).isEqualTo(RECORDS);
                    assertThat(lagOf(s, group).path("partitions").asInt()).isEqualTo(2);
                    assertThat(reasons(s, deadLetters)).containsExactlyInAnyOrderEntriesOf(Map.of("invalid", 2L, "missing-reference", 1L));
                    assertThat(s.at("/fanouts/inFlight").asLong()).isEqualTo(5);
                });
                JsonNode s = JSON.valueToTree(monitor.snapshot());

                assertThat(s.at("/processes/0/name").asText()).isEqualTo("it-down");
                assertThat(s.at("/processes/0/state").asText()).isEqualTo("down");
                assertThat(s.at("/processes/0/live").asBoolean()).isFalse();
                assertThat(s.at("/processes/1/name").asText()).isEqualTo("it-not-ready");
                assertThat(s.at("/processes/1/state").asText()).isEqualTo("not ready");
                assertThat(s.at("/processes/1/live").asBoolean()).isTrue();
                assertThat(s.at("/processes/1/detail").asText()).isEqualTo("hbase: timeout after 2 s");
                assertThat(s.at("/processes/1/checks/hbase").asText()).isEqualTo("down: timeout after 2 s");

                List<String> hosts = new ArrayList<>();
                long shards = 0;
                for (JsonNode h : s.path("mysqlShards")) {
                    hosts.add(h.path("host").asText());
                    shards += h.path("shards").asLong();
                    assertThat(h.path("master").asText()).isNotEmpty();
                }
                assertThat(hosts).containsExactly("mysql001", "mysql002");
                assertThat(shards).isEqualTo(4096);
                assertThat(StreamSupport.stream(s.path("redisMasters").spliterator(), false).map(r -> r.path("instance").asText()))
                        .containsExactly("redis001", "redis002");
                assertThat(s.at("/redisMasters/0/virtualShards").asText()).isNotEmpty();
                assertThat(s.at("/hbase/primary/regionServers").asInt()).isPositive();
                assertThat(s.at("/hbase/standby/state").asText()).isEqualTo("up");
                assertThat(s.at("/hbase/replication/peer").asText()).isEqualTo("standby");
                assertThat(s.at("/hbase/replication/state").asText()).isEqualTo("enabled");
                // Both ways: each cluster ships the stage that lives on it (provisioned from the configured layout).
                assertThat(s.at("/hbase/replicationBack/peer").asText()).isEqualTo("primary");
                assertThat(s.at("/hbase/replicationBack/state").asText()).isEqualTo("enabled");
                assertThat(s.at("/hbase/stages/pools").asText()).isEqualTo("hbase-primary");
                assertThat(s.at("/hbase/stages/materialized_feed").asText()).isEqualTo("hbase-standby");
                assertThat(s.path("errors").size()).as("errors: %s", s.path("errors")).isZero();
            }
        }
    }

    private static ProducerRecord<byte[], byte[]> deadLetter(String topic, String reason) {
        ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic, null, "poison".getBytes(StandardCharsets.UTF_8));
        r.headers().add(DeadLetters.HEADER_REASON, reason.getBytes(StandardCharsets.UTF_8));
        return r;
    }

    /** A fresh group that committed offset 0 on every partition of {@code topic}: its lag is everything written there. */
    private static void commitAtZero(TestStack stack, String group, String topic) {
        Properties settings = stack.kafkaClientProperties();
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(settings, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.commitSync(Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(0), new TopicPartition(topic, 1), new OffsetAndMetadata(0)));
        }
    }

    private static void assertServersUp(JsonNode s) {
        List<String> names = new ArrayList<>();
        for (JsonNode server : s.path("servers")) {
            names.add(server.path("name").asText());
            assertThat(server.path("state").asText()).as("%s", server).isEqualTo("up");
        }
        assertThat(names).containsExactly("kafka", "schema-registry", "zookeeper", "hbase-primary", "hbase-standby", "mysql001 master",
                "mysql001 replica", "mysql002 master", "mysql002 replica", "redis001 master", "redis002 master");
    }

    private static JsonNode lagOf(JsonNode s, String group) {
        for (JsonNode g : s.path("lag")) {
            if (g.path("group").asText().equals(group)) return g;
        }
        return JSON.missingNode();
    }

    private static Map<String, Long> reasons(JsonNode s, String topic) {
        Map<String, Long> out = new HashMap<>();
        for (JsonNode r : s.at("/deadLetters/byReason")) {
            if (r.path("topic").asText().equals(topic)) out.put(r.path("reason").asText(), r.path("count").asLong());
        }
        return out;
    }
}
