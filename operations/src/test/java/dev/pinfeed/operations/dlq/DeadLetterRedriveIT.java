package dev.pinfeed.operations.dlq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.canonicalstore.CanonicalLayout;
import dev.pinfeed.canonicalstore.ComparableRows;
import dev.pinfeed.canonicalstore.mysql.CanonicalSnapshot;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.events.BoardCreated;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.PinLiked;
import dev.pinfeed.events.UserCreated;
import dev.pinfeed.eventsschema.AvroEventSerializer;
import dev.pinfeed.eventsschema.CachingSchemaRegistryClient;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.eventsschema.HttpSchemaRegistryClient;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.infra.stacktestkit.ChildJvm;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.materializer.MaterializerMain;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.operations.OperationsCli;
import dev.pinfeed.operations.kafka.TopicRanges;
import dev.pinfeed.processorruntime.KafkaClients;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The dead-letter round trip against the real stack, on fresh topics and a dead-letter topic of the test's own
 * ({@code dead-letter.topic}), with the real materializer process: likes of pins that do not exist yet are
 * dead-lettered as missing-reference; {@code dlq list} and {@code show} see them; after one pin is published,
 * {@code dlq redrive} sends both back, the like of that pin is applied and the other fails again, returning to
 * the dead-letter topic once with the redrive header; a second redrive sends nothing (already redriven, failed
 * again); {@code dlq purge --before} deletes what was dead-lettered before a time (checked with the admin API).
 */
@ExtendWith(StackExtension.class)
class DeadLetterRedriveIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration KAFKA_WAIT = Duration.ofSeconds(90);

    private TestStack stack;
    private PinfeedConfig config;

    /** What one command line did. */
    private record Run(int code, String out, String err) {
        JsonNode json() throws Exception {
            return JSON.readTree(out);
        }
    }

    @Test
    void poisonIsListedShownRedrivenOnceAfterTheFixAndPurged(TestStack stack) throws Exception {
        this.stack = stack;
        String users = stack.uniqueTopic("dlq-users"), boards = stack.uniqueTopic("dlq-boards"), pins = stack.uniqueTopic("dlq-pins"),
                likes = stack.uniqueTopic("dlq-likes"), comments = stack.uniqueTopic("dlq-comments"), interests = stack.uniqueTopic("dlq-interests"),
                dlq = stack.uniqueTopic("dlq"),
                redrives = stack.uniqueTopic("dlq-redrives");
        Map<String, Integer> topics = new HashMap<>(Map.of(users, 3, boards, 3, pins, 3, likes, 3, comments, 3, dlq, 2));
        topics.put(interests, 3);
        topics.put(redrives, 1);
        stack.createTopics(topics);
        config = stack.config().withOverrides(Map.of(DeadLetters.TOPIC_KEY, dlq, DeadLetters.REDRIVES_TOPIC_KEY, redrives));
        String group = stack.uniqueName("dlq_materializer");

        Map<String, String> props = new HashMap<>();
        props.put("materializer.topic.users", users);
        props.put("materializer.topic.boards", boards);
        props.put("materializer.topic.pins", pins);
        props.put("materializer.topic.likes", likes);
        props.put("materializer.topic.comments", comments);
        props.put("materializer.topic.interests", interests);
        props.put("materializer.group", group);
        props.put("materializer.wait-grace-seconds", "3");
        props.put(DeadLetters.TOPIC_KEY, dlq);
        props.put(MaterializerMain.NAME + ".admin.http", "127.0.0.1:" + ChildJvm.freePort());

        try (ShardDataSources sources = ShardDataSources.from(stack.config(), "dlq-it", 2);
             ShardedDb db = new ShardedDb(sources);
             KafkaProducer<String, SpecificRecord> events = new KafkaProducer<>(KafkaClients.producer(stack.config(), "dlq-it"),
                     new StringSerializer(), new AvroEventSerializer(new CachingSchemaRegistryClient(
                             HttpSchemaRegistryClient.from(stack.config()))));
             ChildJvm materializer = ChildJvm.start(MaterializerMain.class.getName(), props)) {
            long owner = freshId(db, ObjectType.USER), liker = freshId(db, ObjectType.USER), board = freshId(db, ObjectType.BOARD);
            long fixed = freshId(db, ObjectType.PIN), never = freshId(db, ObjectType.PIN);
            Instant t = Instant.now();
            send(events, users, new UserCreated(stack.freshId(), t, owner, owner, "dlq_" + stack.freshId(), null));
            send(events, boards, new BoardCreated(stack.freshId(), t, owner, board, owner, "dlq board", null));
            send(events, likes, new PinLiked(stack.freshId(), t, liker, liker, fixed));
            send(events, likes, new PinLiked(stack.freshId(), t, liker, liker, never));

            // Poison: both likes wait 3 s for their pins, then are dead-lettered.
            List<ConsumerRecord<byte[], byte[]>> dead = stack.records(dlq, 2, KAFKA_WAIT);
            assertThat(dead).as("dead letters; materializer output:%n%s", materializer.output()).hasSize(2);
            assertThat(dead).allSatisfy(r -> {
                assertThat(TestStack.header(r, DeadLetters.HEADER_REASON)).isEqualTo(DeadLetters.MISSING_REFERENCE);
                assertThat(TestStack.header(r, DeadLetters.HEADER_CONSUMER)).isEqualTo(group);
                assertThat(TestStack.header(r, DeadLetters.HEADER_SOURCE_TOPIC)).isEqualTo(likes);
            });
            String fixedId = idOfLikeOf(dead, fixed), neverId = idOfLikeOf(dead, never);

            JsonNode listed = ok("dlq", "list", "--json").json();
            assertThat(listed.get("topic").asText()).isEqualTo(dlq);
            assertThat(listed.get("total").asLong()).isEqualTo(2);
            assertThat(listed.get("redriven").asLong()).isZero();
            assertThat(listed.get("groups")).singleElement().satisfies(g -> {
                assertThat(g.get("processor").asText()).isEqualTo(group);
                assertThat(g.get("sourceTopic").asText()).isEqualTo(likes);
                assertThat(g.get("reason").asText()).isEqualTo(DeadLetters.MISSING_REFERENCE);
                assertThat(g.get("count").asLong()).isEqualTo(2);
            });
            assertThat(ok("dlq", "list", "--ids").out()).contains(fixedId + "  ", neverId + "  ", group, DeadLetters.MISSING_REFERENCE, "not redriven");
            JsonNode shown = ok("dlq", "show", fixedId, "--json").json();
            assertThat(shown.get("key").asText()).isEqualTo(Long.toString(fixed));
            assertThat(shown.get("valueType").asText()).isEqualTo(PinLiked.class.getName());
            assertThat(shown.get("value").get("pinId").asLong()).isEqualTo(fixed);
            assertThat(shown.get("state").asText()).isEqualTo("not-redriven");

            // The fix: the pin arrives (and is stored) after its like was dead-lettered.
            send(events, pins, new PinCreated(stack.freshId(), t, owner, fixed, board, owner, "the fixed pin", null, null, null, java.util.List.of()));
            await().atMost(KAFKA_WAIT).untilAsserted(() -> assertThat(CanonicalSnapshot.read(db, List.of(fixed), false)
                    .table(CanonicalLayout.PINS)).containsKey(ComparableRows.objectKey(fixed)));

            Run dry = ok("dlq", "redrive", "--reason", DeadLetters.MISSING_REFERENCE, "--processor", group, "--dry-run");
            assertThat(dry.out()).contains("dry run: would redrive 2");
            assertThat(committed(likes)).as("a dry run sends nothing").isEqualTo(2);
            assertThat(committed(redrives)).isZero();

            Run redrive = ok("dlq", "redrive", "--reason", DeadLetters.MISSING_REFERENCE, "--processor", group);
            assertThat(redrive.out()).contains("redriven 2 dead letters");
            // A committed transaction's markers reach the partitions just after the commit returns: the last stable
            // offset a fresh reader sees may trail by a moment.
            await().atMost(KAFKA_WAIT).untilAsserted(() -> assertThat(committed(likes)).isEqualTo(4));
            await().atMost(KAFKA_WAIT).untilAsserted(() -> assertThat(committed(redrives)).isEqualTo(2));

            await().atMost(KAFKA_WAIT).untilAsserted(() -> assertThat(CanonicalSnapshot.read(db, List.of(liker, fixed), false)
                    .table("user_likes_pins")).as("the redriven like applied").containsKey(ComparableRows.mappingKey(liker, fixed)));
            List<ConsumerRecord<byte[], byte[]>> again = stack.records(dlq, 3, KAFKA_WAIT);
            assertThat(again).hasSize(3);
            ConsumerRecord<byte[], byte[]> failedAgain = again.stream()
                    .filter(r -> TestStack.header(r, DeadLetters.HEADER_REDRIVE_FROM) != null).findFirst().orElseThrow();
            assertThat(TestStack.header(failedAgain, DeadLetters.HEADER_REDRIVE_FROM)).isEqualTo(neverId);
            assertThat(TestStack.header(failedAgain, DeadLetters.HEADER_REASON)).isEqualTo(DeadLetters.MISSING_REFERENCE);
            assertThat(new String(failedAgain.key(), StandardCharsets.UTF_8)).isEqualTo(Long.toString(never));
            String failedAgainId = failedAgain.partition() + ":" + failedAgain.offset();

            Run second = ok("dlq", "redrive", "--reason", DeadLetters.MISSING_REFERENCE);
            assertThat(second.out()).contains("2 already redriven, skipped", "1 failed again after redrive, skipped", failedAgainId,
                    "nothing to redrive");
            assertThat(ok("dlq", "redrive", "--ids", neverId + "," + failedAgainId).out()).contains("nothing to redrive");
            assertThat(committed(likes)).as("a second redrive sends nothing").isEqualTo(4);
            assertThat(stack.records(dlq, 4, Duration.ofSeconds(8))).as("the like that failed again is dead-lettered once").hasSize(3);

            JsonNode after = ok("dlq", "list", "--json").json();
            assertThat(after.get("total").asLong()).isEqualTo(3);
            assertThat(after.get("redriven").asLong()).isEqualTo(2);
            assertThat(after.get("failedAgainAfterRedrive").asLong()).isEqualTo(1);
            assertThat(ok("dlq", "show", failedAgainId).out()).contains("failed again after redrive of " + neverId);
            assertThat(ok("dlq", "show", fixedId).out()).contains("redriven at ", " to " + likes + "-");

            materializer.stop(Duration.ofSeconds(30));

            // Purge what was dead-lettered before the third dead letter.
            Instant cutoff = Instant.ofEpochMilli(failedAgain.timestamp());
            Map<TopicPartition, Long> expected = new HashMap<>();
            Map<TopicPartition, Long> before;
            try (Admin admin = Admin.create(KafkaClients.admin(config))) {
                Map<TopicPartition, Long> ends = offsets(admin, dlq, OffsetSpec.latest());
                before = offsets(admin, dlq, OffsetSpec.earliest());
                ends.forEach((tp, end) -> expected.put(tp, again.stream().filter(r -> r.partition() == tp.partition() && r.timestamp() >= cutoff.toEpochMilli())
                        .map(ConsumerRecord::offset).min(Comparator.naturalOrder()).orElse(end)));
                assertThat(ok("dlq", "purge", "--before", cutoff.toString(), "--dry-run").out()).contains("dry run: 2 dead letters would be purged");
                assertThat(offsets(admin, dlq, OffsetSpec.earliest())).as("a dry run deletes nothing").isEqualTo(before);

                assertThat(ok("dlq", "purge", "--before", cutoff.toString()).out()).contains("purged 2 dead letters");
                assertThat(offsets(admin, dlq, OffsetSpec.earliest())).isEqualTo(expected);
            }
            JsonNode left = ok("dlq", "list", "--ids", "--json").json();
            assertThat(left.get("total").asLong()).isEqualTo(1);
            assertThat(left.get("deadLetters")).singleElement().satisfies(d -> assertThat(d.get("id").asText()).isEqualTo(failedAgainId));
        }
    }

    private Run cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OperationsCli.run(() -> config, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                args);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private Run ok(String... args) {
        Run run = cli(args);
        assertThat(run.code()).as("%s exit code; stdout:%n%s%nstderr:%n%s", String.join(" ", args), run.out(), run.err()).isZero();
        return run;
    }

    /** Committed records of {@code topic} (transaction markers and aborted records not counted). */
    private long committed(String topic) {
        try (TopicRanges ranges = TopicRanges.open(config)) {
            return ranges.readAll(List.of(topic), r -> { });
        }
    }

    private static String idOfLikeOf(List<ConsumerRecord<byte[], byte[]>> dead, long pin) {
        ConsumerRecord<byte[], byte[]> r = dead.stream().filter(d -> new String(d.key(), StandardCharsets.UTF_8).equals(Long.toString(pin)))
                .findFirst().orElseThrow();
        return r.partition() + ":" + r.offset();
    }

    private static void send(KafkaProducer<String, SpecificRecord> events, String topic, SpecificRecord event) throws Exception {
        events.send(new ProducerRecord<>(topic, EventTopics.partitionKey(event), event)).get(30, TimeUnit.SECONDS);
    }

    /** A sharded id no earlier run used: a fresh local id above the allocator's range, on the shard it picks. */
    private long freshId(ShardedDb db, ObjectType type) {
        long local = (1L << 35) | (stack.freshId() & ((1L << 35) - 1));
        return ShardedId.compose((int) (local % db.shardCount()), type, local);
    }

    private static Map<TopicPartition, Long> offsets(Admin admin, String topic, OffsetSpec spec) throws Exception {
        Map<TopicPartition, OffsetSpec> query = new HashMap<>();
        for (int p = 0; p < 2; p++) query.put(new TopicPartition(topic, p), spec);
        Map<TopicPartition, Long> out = new HashMap<>();
        admin.listOffsets(query).all().get(30, TimeUnit.SECONDS).forEach((tp, info) -> out.put(tp, info.offset()));
        return out;
    }
}
