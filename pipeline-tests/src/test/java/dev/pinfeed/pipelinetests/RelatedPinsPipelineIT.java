package dev.pinfeed.pipelinetests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.processorruntime.KafkaClients;
import dev.pinfeed.ingestapi.core.IngestCommand;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Related pins end to end ({@link Pipeline} with fanout-streams' related-pins application, every processor in this JVM
 * on fresh topics): a user who follows nobody likes a pin and gets the other pins of its board in his home feed as
 * {@code related}; his repin of a pin on another board makes that board's pins related; his own pins never reach him; a
 * pin a follower has from following its author stays in that pool, once, when it is also related to him;
 * and a replay of the likes topic (every like record appended again) sends the same chunks again without bringing
 * back a pin he was shown or writing a second entry of one he has.
 */
@ExtendWith(StackExtension.class)
class RelatedPinsPipelineIT {

    private static final Duration PATIENCE = Duration.ofSeconds(90);

    @TempDir
    static Path fanoutState;

    private static Pipeline p;

    @BeforeAll
    static void start(TestStack stack) throws Exception {
        p = new Pipeline(stack, fanoutState, Map.of("related.enabled", "true"));
    }

    @AfterAll
    static void stop() {
        if (p != null) p.close();
    }

    @Test
    void likesAndRepinsBringRelatedPinsAndAReplayDuplicatesNothing() throws Exception {
        long author = p.user("author");
        long board = p.board(author, "Gardens");
        long liked = p.pin(board, author, "rose");
        long sibling = p.pin(board, author, "tulip");
        long user = p.user("reader"); // follows nobody
        long own = p.board(user, "Mine");
        long ownPin = p.pin(own, user, "my_own");
        await().atMost(PATIENCE).until(() -> p.reads.pin(sibling).isPresent() && p.reads.pin(ownPin).isPresent());
        // The pins travel other partitions than the like: a like racing their creations finds nothing related (documented),
        // so each like here waits until the boards list the pins it should find.
        awaitMemberships(3);

        // A like: the other pin of the liked pin's board reaches him, in the related pool, then in his feed as "related".
        p.send(new IngestCommand.LikePin(user, liked));
        await().atMost(PATIENCE).until(() -> related(user).contains(sibling));
        assertThat(related(user)).containsExactly(sibling);
        JsonNode first = Pipeline.itemsById(p.feed(user)).get(sibling);
        assertThat(first).as("the related pin in his feed").isNotNull();
        assertThat(first.path("source").asText()).isEqualTo("related");
        assertThat(first.path("pin").path("authorId").asText()).isEqualTo(Long.toString(author));
        assertThat(p.threads.drain(30_000)).isTrue();

        // A repin of a pin on another board (onto his own board, which holds his own pin): that board's other pins are related.
        long other = p.user("other");
        long otherBoard = p.board(other, "Kitchens");
        long saved = p.pin(otherBoard, other, "oven");
        long neighbour = p.pin(otherBoard, other, "sink");
        await().atMost(PATIENCE).until(() -> p.reads.pin(neighbour).isPresent());
        awaitMemberships(5);
        long repin = p.send(new IngestCommand.RepinPin(saved, own, user));
        await().atMost(PATIENCE).until(() -> related(user).contains(neighbour));
        // Liking his repin asks his own board (his own pin, the repin's parent) and the parent's board: nothing new but a later pin.
        long later = p.pin(otherBoard, other, "fridge");
        await().atMost(PATIENCE).until(() -> p.reads.pin(later).isPresent());
        awaitMemberships(7); // the save put the parent on his board, the later pin joined its own
        p.send(new IngestCommand.LikePin(user, saved));
        await().atMost(PATIENCE).until(() -> related(user).contains(later));
        assertThat(related(user)).containsExactlyInAnyOrder(neighbour, later);
        assertThat(p.pooled(user)).as("his own pins and his repin never").doesNotContain(ownPin, repin, saved);

        Map<Long, JsonNode> second = Pipeline.itemsById(p.feed(user));
        assertThat(second).containsKeys(neighbour, later).doesNotContainKeys(ownPin, repin);
        assertThat(second.get(neighbour).path("source").asText()).isEqualTo("related");
        assertThat(p.threads.drain(30_000)).isTrue();
        assertThat(related(user)).as("all shown").isEmpty();

        // A follower of the author has both pins from following him (the follow's backfill); his like of one recommends the
        // other to him, which must neither displace nor duplicate the entry he has.
        long friend = p.user("friend");
        p.send(new IngestCommand.FollowUser(friend, author));
        await().atMost(PATIENCE).until(() -> p.pooled(friend).containsAll(List.of(liked, sibling)));
        double sent = p.related.metrics().chunks();
        p.send(new IngestCommand.LikePin(friend, liked));
        await().atMost(PATIENCE).until(() -> p.related.metrics().chunks() == sent + 1);
        await().atMost(PATIENCE).until(() -> p.caughtUp(p.workerGroup, List.of(p.fanoutTopic, p.topic(EventTopics.LIKES))));
        assertThat(p.pools.all(friend)).extracting(PoolEntry::pinId, PoolEntry::source)
                .containsExactlyInAnyOrder(tuple(liked, Source.FOLLOWED_USER), tuple(sibling, Source.FOLLOWED_USER));

        // The replay: every like record appended again as it was (an operator's replay of the likes topic). The app sends
        // the same chunks again (same eventIds, same pins), and the worker writes nothing twice and brings back nothing shown.
        double before = p.related.metrics().chunks();
        int likes = replayLikes();
        assertThat(likes).isEqualTo(3);
        await().atMost(PATIENCE).until(() -> p.related.metrics().chunks() >= before + 4);
        assertThat(p.related.metrics().chunks()).as("the likes' related pins again: sibling, neighbour and later, sibling").isEqualTo(before + 4);
        await().atMost(PATIENCE).until(() -> p.caughtUp(p.workerGroup, List.of(p.fanoutTopic, p.topic(EventTopics.LIKES))));
        assertThat(related(user)).as("nothing he was shown comes back").isEmpty();
        assertThat(p.pools.all(friend)).as("one entry per pin, where it was").extracting(PoolEntry::pinId, PoolEntry::source)
                .containsExactlyInAnyOrder(tuple(liked, Source.FOLLOWED_USER), tuple(sibling, Source.FOLLOWED_USER));
        Map<Long, JsonNode> third = Pipeline.itemsById(p.feed(user)); // Pipeline.itemsById() fails on a pin shown twice in the page
        assertThat(third.keySet()).containsExactlyInAnyOrder(sibling, neighbour, later);
        System.out.printf("related pins: %s chunks sent before the replay, %s after%n", before, p.related.metrics().chunks());
    }

    /** Until the board stage has put at least {@code n} pins on boards (creations and saves). */
    private static void awaitMemberships(int n) {
        await().atMost(PATIENCE).until(() -> p.related.metrics().memberships() >= n);
    }

    /** Appends every record of the likes topic to it again, key, value and headers as they were; how many. */
    private static int replayLikes() throws Exception {
        String topic = p.topic(EventTopics.LIKES);
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(KafkaClients.consumer(p.config, p.stack.uniqueName("e2e_likes_replay")),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream().map(i -> new TopicPartition(topic, i.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.currentTimeMillis() + PATIENCE.toMillis();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                if (System.currentTimeMillis() > deadline) throw new AssertionError("could not read " + topic + " to its end");
                consumer.poll(Duration.ofMillis(500)).forEach(records::add);
            }
        }
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(KafkaClients.producer(p.config, p.stack.uniqueName("e2e-likes-replay")),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (ConsumerRecord<byte[], byte[]> r : records) {
                producer.send(new ProducerRecord<>(topic, r.partition(), r.key(), r.value(), r.headers())).get();
            }
        }
        return records.size();
    }

    private static Set<Long> related(long user) {
        return p.pools.best(user, Source.RELATED, 100).stream().map(PoolEntry::pinId).collect(Collectors.toSet());
    }


}
