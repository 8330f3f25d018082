package dev.pinfeed.fanoutstreams.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.events.FanoutReceiver;
import dev.pinfeed.events.FanoutSource;
import dev.pinfeed.events.PinLiked;
import dev.pinfeed.eventsschema.AvroEventSerializer;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.infra.stacktestkit.ChildJvm;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.processorruntime.KafkaClients;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The related-pins application as the fanout-streams process runs it (a child JVM running {@link FanoutStreamsMain} on
 * fresh topics and ids): ready with both applications, a like sends the liked pin's board neighbour to the liker; after
 * a kill -9 and a restart on the same state directory the board membership is still there (a second user's like gets the
 * same neighbour) and nothing the first run committed is sent again.
 */
@ExtendWith(StackExtension.class)
class RelatedPinsProcessIT {

    private static final Duration PATIENCE = Duration.ofSeconds(120);

    @TempDir
    Path stateDir;

    @Test
    void aLikeGetsItsRelatedPinAndTheMembershipSurvivesAKillNine(TestStack stack) throws Exception {
        try (StackFixtures f = new StackFixtures(stack);
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(KafkaClients.producer(stack.config(), "related-it"),
                     new ByteArraySerializer(), new ByteArraySerializer());
             KafkaConsumer<byte[], byte[]> out = f.chunkReader()) {
            String likes = stack.uniqueTopic("related-likes");
            stack.createTopics(Map.of(likes, 3)); // as many partitions as the pins topic: a pin's events and likes meet in one task
            AvroEventSerializer serializer = new AvroEventSerializer(f.registry);
            Map<String, String> props = f.processProperties(stateDir);
            props.put("fanout.celebrity-followers", "0");
            props.put("graph.redis.key-prefix", f.keyPrefix);
            props.put("related.application-id", stack.uniqueName("related_it"));
            props.put("related.likes-topic", likes);
            props.put(KafkaClients.INSTANCE, "related-it");

            long author = stack.freshId(), board = stack.freshId(), liked = stack.freshId(), neighbour = stack.freshId();
            long first = stack.freshId(), second = stack.freshId();
            List<FanoutChunk> read = new ArrayList<>();
            try (ChildJvm app = start(props)) {
                f.publish(f.pinCreated(liked, board, author));
                f.publish(f.pinCreated(neighbour, board, author));
                // The two pins travel different partitions: a like racing their creations may find the board without the
                // neighbour yet (nothing is related then, as documented). Probe users like until one is answered, so the
                // membership is in place before the likes this test counts.
                awaitMembership(f, out, producer, serializer, likes, liked, app);
                like(producer, serializer, likes, first, liked);
                f.readChunks(out, read, r -> !ofUsers(r, first, second).isEmpty(), PATIENCE);
                List<FanoutChunk> counted = ofUsers(read, first, second);
                assertThat(counted).as("app output:%n%s", app.output()).extracting(FanoutChunk::getPinId).containsExactly(neighbour);
                assertThat(counted.get(0).getReceivers()).containsExactly(new FanoutReceiver(first, FanoutSource.RELATED));
                app.kill9();
            }
            try (ChildJvm again = start(props)) {
                like(producer, serializer, likes, second, liked);
                f.readChunks(out, read, r -> ofUsers(r, first, second).size() >= 2, PATIENCE);
                f.readChunks(out, read, r -> false, Duration.ofSeconds(5)); // anything sent twice would be committed by now
                List<FanoutChunk> counted = ofUsers(read, first, second);
                assertThat(counted).as("app output:%n%s", again.output()).extracting(c -> c.getReceivers().get(0).getUserId())
                        .containsExactly(first, second);
                assertThat(read).extracting(FanoutChunk::getPinId).containsOnly(neighbour);
            }
        }
    }

    /** Likes of {@code liked} by fresh probe users, one every 2 s, until one of them is sent the neighbour. */
    private static void awaitMembership(StackFixtures f, KafkaConsumer<byte[], byte[]> out, KafkaProducer<byte[], byte[]> producer,
                                        AvroEventSerializer serializer, String likes, long liked, ChildJvm app) throws Exception {
        List<FanoutChunk> probes = new ArrayList<>();
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (probes.isEmpty()) {
            assertThat(System.nanoTime()).as("no probe like answered within %s; app output:%n%s", PATIENCE, app.output()).isLessThan(deadline);
            like(producer, serializer, likes, f.stack.freshId(), liked);
            f.readChunks(out, probes, r -> !r.isEmpty(), Duration.ofSeconds(2));
        }
    }

    /** The chunks sent to any of {@code users}. */
    private static List<FanoutChunk> ofUsers(List<FanoutChunk> chunks, long... users) {
        java.util.Set<Long> wanted = java.util.Arrays.stream(users).boxed().collect(java.util.stream.Collectors.toSet());
        return chunks.stream().filter(c -> wanted.contains(c.getReceivers().get(0).getUserId())).toList();
    }

    /** The process with a fresh admin port, once its admin endpoint says ready (both Streams applications RUNNING). */
    private static ChildJvm start(Map<String, String> props) throws Exception {
        int port = ChildJvm.freePort();
        props.put(FanoutStreamsMain.NAME + ".admin.http", "127.0.0.1:" + port);
        ChildJvm app = ChildJvm.start(FanoutStreamsMain.class.getName(), props);
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health/ready"))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
                last = r.statusCode() + " " + r.body();
                if (r.statusCode() == 200) return app;
            } catch (java.io.IOException notYet) {
                last = notYet.toString();
            }
            Thread.sleep(250);
        }
        String output = app.output();
        app.close();
        throw new AssertionError("not ready: " + last + "; output:\n" + output);
    }

    private static void like(KafkaProducer<byte[], byte[]> producer, AvroEventSerializer serializer, String topic, long user, long pin)
            throws Exception {
        PinLiked l = new PinLiked(System.nanoTime(), Instant.now(), user, user, pin);
        producer.send(new ProducerRecord<>(topic, EventTopics.partitionKey(l).getBytes(StandardCharsets.UTF_8), serializer.serialize(topic, l))).get();
    }
}
