package dev.pinfeed.fanoutstreams.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.events.FanoutReceiver;
import dev.pinfeed.events.FanoutSource;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.PinDeleted;
import dev.pinfeed.events.PinLiked;
import dev.pinfeed.events.UserCreated;
import dev.pinfeed.eventsschema.AvroEventDeserializer;
import dev.pinfeed.eventsschema.AvroEventSerializer;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.eventsschema.InMemorySchemaRegistryClient;
import dev.pinfeed.fanoutstreams.FanoutStatus;
import dev.pinfeed.fanoutstreams.related.BoardPins;
import dev.pinfeed.fanoutstreams.related.PinBoards;
import dev.pinfeed.fanoutstreams.related.RelatedMessage;
import dev.pinfeed.fanoutstreams.related.RelatedSettings;
import dev.pinfeed.feedstore.MutableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The related-pins topology in a {@link TopologyTestDriver}: pin and like events in, related chunks and dead letters out. */
class RelatedTopologyTest {

    private static final long T0 = 1_767_225_600_000L;

    @TempDir
    Path state;

    private final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final AvroEventSerializer serializer = new AvroEventSerializer(registry);
    private RelatedSettings settings;
    private TopologyTestDriver driver;
    private TestInputTopic<String, byte[]> pins;
    private TestInputTopic<String, byte[]> likes;
    private TestOutputTopic<String, SpecificRecord> chunks;
    private TestOutputTopic<byte[], byte[]> deadLetters;
    private long eventId = 1;

    @BeforeEach
    void start() {
        settings = RelatedSettings.defaults().withStateDir(state);
        RelatedMetrics metrics = new RelatedMetrics(meters);
        Properties props = RelatedTopology.properties(settings, PinfeedConfig.of(new Properties()).with("kafka.bootstrap", "unused:9092"), "0",
                metrics, new FanoutStatus(new MutableClock(T0), Duration.ofSeconds(10)));
        // The driver's simulation of exactly-once loses what a handler sends (its dead letters); exactly-once is the ITs'.
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);
        driver = new TopologyTestDriver(RelatedTopology.build(settings, registry, metrics), props, Instant.ofEpochMilli(T0));
        pins = driver.createInputTopic(settings.pinsTopic(), new StringSerializer(), new ByteArraySerializer());
        likes = driver.createInputTopic(settings.likesTopic(), new StringSerializer(), new ByteArraySerializer());
        chunks = driver.createOutputTopic(settings.outputTopic(), new StringDeserializer(), new AvroEventDeserializer(registry));
        deadLetters = driver.createOutputTopic(settings.deadLetterTopic(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    private void publish(TestInputTopic<String, byte[]> topic, String topicName, SpecificRecord event) {
        topic.pipeInput(EventTopics.partitionKey(event), serializer.serialize(topicName, event));
    }

    private void pin(long pin, long board, long author, Long parent) {
        long id = eventId++;
        publish(pins, settings.pinsTopic(), new PinCreated(id, Instant.ofEpochMilli(T0 + id), author, pin, board, author, "pin", null, null, parent, java.util.List.of()));
    }

    private PinLiked like(long user, long pin) {
        PinLiked l = new PinLiked(eventId++, Instant.ofEpochMilli(T0 + 100), user, user, pin);
        publish(likes, settings.likesTopic(), l);
        return l;
    }

    private List<FanoutChunk> sent() {
        return chunks.readRecordsToList().stream().map(r -> {
            FanoutChunk c = (FanoutChunk) r.value();
            assertThat(r.key()).isEqualTo(Long.toString(c.getPinId())); // keyed by the related pin, as every chunk
            return c;
        }).toList();
    }

    @Test
    void aLikeAndARepinReachTheirUserThroughBothRepartitions() {
        pin(1, 100, 10, null);
        pin(2, 100, 10, null);
        pin(3, 100, 20, null); // U's own
        PinLiked l = like(20, 1);
        List<FanoutChunk> sent = sent();
        assertThat(sent).extracting(FanoutChunk::getPinId).containsExactly(2L);
        assertThat(sent.get(0).getReceivers()).containsExactly(new FanoutReceiver(20L, FanoutSource.RELATED));
        assertThat(sent.get(0).getEventId()).isEqualTo(l.getEventId());

        pin(4, 200, 30, null);
        pin(5, 300, 20, 4L); // U saves 4 (board 200) onto his board 300
        assertThat(sent()).extracting(FanoutChunk::getPinId).isEmpty(); // board 200 holds nothing else
        pin(6, 200, 30, null);
        pin(7, 300, 20, 2L); // U saves 2 (board 100) onto 300: 1 is related (3 is his own)
        assertThat(sent()).extracting(FanoutChunk::getPinId).containsExactly(1L);
        like(40, 6); // 4 shares board 200 with 6
        assertThat(sent()).extracting(FanoutChunk::getPinId).containsExactly(4L);

        publish(pins, settings.pinsTopic(), new PinDeleted(eventId++, Instant.ofEpochMilli(T0), 30L, 4L, 200L, 30L, java.util.List.of()));
        like(40, 6);
        assertThat(sent()).as("a deleted pin is related no more").isEmpty();
        assertThat(meters.get("related.chunks").counter().count()).isEqualTo(3);
    }

    @Test
    void poisonGoesToTheDeadLetterTopicAndTheRestGoesOn() {
        pins.pipeInput("1", "not avro".getBytes(StandardCharsets.UTF_8));
        publish(likes, settings.likesTopic(), new UserCreated(eventId++, Instant.ofEpochMilli(T0), 9L, 9L, "someone", "Someone"));
        pin(1, 100, 10, null);
        pin(2, 100, 10, null);
        like(20, 2);
        assertThat(sent()).extracting(FanoutChunk::getPinId).containsExactly(1L);
        List<TestRecord<byte[], byte[]>> dead = deadLetters.readRecordsToList();
        assertThat(dead).extracting(d -> new String(d.headers().lastHeader(DeadLetters.HEADER_REASON).value(), StandardCharsets.UTF_8))
                .containsExactly(DeadLetters.UNDECODABLE, DeadLetters.UNEXPECTED_EVENT);
        assertThat(dead).allSatisfy(d -> assertThat(new String(d.headers().lastHeader(DeadLetters.HEADER_CONSUMER).value(), StandardCharsets.UTF_8))
                .isEqualTo(RelatedSettings.APPLICATION_ID));
        assertThat(meters.get("pinfeed.dead.letters").tags("processor", RelatedMetrics.PROCESSOR, "reason", DeadLetters.UNEXPECTED_EVENT)
                .counter().count()).isEqualTo(1);
    }

    @Test
    void aUsersLikesPastHisBudgetInAMinuteAskNothingAndAreCounted() {
        pin(1, 100, 10, null);
        pin(2, 100, 10, null);
        for (int i = 0; i < settings.maxActionsPerMinute() + 5; i++) like(20, 1); // all at T0 + 100 ms
        assertThat(sent()).hasSize(settings.maxActionsPerMinute());
        assertThat(meters.get("related.actions.shed").functionCounter().count()).isEqualTo(5);
        assertThat(meters.get("related.actions").counter().count()).isEqualTo(settings.maxActionsPerMinute());
        like(30, 1);
        assertThat(sent()).as("another user").hasSize(1);
    }

    /** The internal topics operators see (docs/operations.md): two repartitions and two stores' changelogs. */
    @Test
    void itsInternalTopicsAreNamedAfterItsStagesAndStores() {
        String description = RelatedTopology.build(settings, registry, new RelatedMetrics(new SimpleMeterRegistry())).describe().toString();
        assertThat(description).contains("by-pin-repartition", "by-board-repartition", "related-pin-boards", "related-board-pins");
    }

    @Test
    void theCodecRoundTripsEveryMessageAndState() {
        List<RelatedMessage> messages = List.of(new RelatedMessage.Created(1, 2, 3, 4, 5), new RelatedMessage.Saved(1, 2, 3, 4, 5),
                new RelatedMessage.Deleted(7), new RelatedMessage.Liked(1, 2, 3, 4),
                new RelatedMessage.Joined(9, new RelatedMessage.Member(1, 2, 3, 4)), new RelatedMessage.Left(9, 1),
                new RelatedMessage.Asked(1, 2, 3, 4, 5, 6, 7));
        for (RelatedMessage m : messages) assertThat(RelatedCodec.decodeMessage(RelatedCodec.encode(m))).isEqualTo(m);
        PinBoards p = new PinBoards(true, 1, 2, 3, 4, List.of(5L, 6L));
        assertThat(RelatedCodec.decodePinBoards(RelatedCodec.encode(p))).isEqualTo(p);
        BoardPins b = new BoardPins(List.of(new RelatedMessage.Member(1, 2, 3, 4), new RelatedMessage.Member(5, 6, 7, 8)));
        assertThat(RelatedCodec.decodeBoardPins(RelatedCodec.encode(b))).isEqualTo(b);
    }
}
