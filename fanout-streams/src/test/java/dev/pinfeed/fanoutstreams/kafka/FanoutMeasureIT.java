package dev.pinfeed.fanoutstreams.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.fanoutstreams.FanoutSettings;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A measurement, skipped unless asked for ({@code -Dpinfeed.measure=true} in the test JVM): with the
 * configured settings (defaults, or {@code -Dfanout.*}), how long a 20 000-receiver fan-out takes from
 * publish to its last committed chunk, and how long small pins (3 receivers) published every 100 ms
 * meanwhile wait. Run: {@code mvn -o verify -pl fanout-streams -am -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false
 * -Dit.test=FanoutMeasureIT -DargLine=-Dpinfeed.measure=true}
 */
@ExtendWith(StackExtension.class)
@EnabledIfSystemProperty(named = "pinfeed.measure", matches = "true")
class FanoutMeasureIT {

    @TempDir
    Path stateDir;

    @Test
    void measure(TestStack stack) throws Exception {
        int big = Integer.getInteger("measure.receivers", 20_000);
        try (StackFixtures f = new StackFixtures(stack)) {
            long ana = stack.freshId(), anaBoard = stack.freshId(), ben = stack.freshId(), benBoard = stack.freshId();
            long t = System.nanoTime();
            f.authorWithFollowers(ana, anaBoard, big);
            f.authorWithFollowers(ben, benBoard, 3);
            System.err.printf("[measure] graph written in %d ms%n", (System.nanoTime() - t) / 1_000_000);
            // fanout.* from -DargLine="-Dfanout.turn-max-ms=..." etc., defaults otherwise.
            // The push fan-out is measured: an author this big would otherwise be a celebrity, pulled at read time.
            FanoutSettings settings = FanoutSettings.from(stack.config().with("fanout.celebrity-followers", "0")).withTopics(f.applicationId, f.pins, f.chunks, f.deadLetters)
                    .withStateDir(stateDir);
            System.err.println("[measure] " + settings);
            try (FanoutStreamsApp app = FanoutStreamsApp.start(settings, stack.config(), "0", f.registry,
                    f.graph.store(), f.lastReads, new SimpleMeterRegistry(), Clock.systemUTC());
                 KafkaConsumer<byte[], byte[]> out = f.chunkReader()) {
                List<FanoutChunk> read = new ArrayList<>();
                long warm = stack.freshId();
                t = System.nanoTime();
                f.publish(f.pinCreated(warm, benBoard, ben));
                f.readChunks(out, read, StackFixtures.lastChunksOf(warm), Duration.ofSeconds(120));
                System.err.printf("[measure] warm-up pin (app start included): %d ms%n", (System.nanoTime() - t) / 1_000_000);

                Latencies alone = smallPins(f, out, read, stack, benBoard, ben, 0, 0, 30);
                System.err.printf("[measure] baseline, nothing else running: %s%n", alone);

                long bigPin = stack.freshId();
                long bigStart = System.nanoTime();
                f.publish(f.pinCreated(bigPin, anaBoard, ana));
                Latencies meanwhile = smallPins(f, out, read, stack, benBoard, ben, bigPin, bigStart, 0);
                assertThat(StackFixtures.receiversOf(read, bigPin)).hasSize(big).allSatisfy((u, s) -> assertThat(s).hasSize(1));
                System.err.printf("[measure] %d-receiver fan-out: %d ms from publish to the last committed chunk (%d chunks)%n", big,
                        (meanwhile.bigDone - bigStart) / 1_000_000, read.stream().filter(c -> c.getPinId() == bigPin).count());
                System.err.printf("[measure] small pins published meanwhile: %s%n", meanwhile);
            }
        }
    }

    /** Publish-to-committed-last-chunk times of small pins, and when the big pin (if any) was done. */
    private record Latencies(List<Long> millis, long bigDone) {
        @Override
        public String toString() {
            return millis.size() + " pins every 100 ms, latency min " + millis.get(0) + ", median " + millis.get(millis.size() / 2)
                    + ", max " + millis.get(millis.size() - 1) + " ms";
        }
    }

    /**
     * Publishes a small pin every 100 ms — {@code count} of them, or while {@code bigPin} is not done —
     * and waits until each is out.
     */
    private static Latencies smallPins(StackFixtures f, KafkaConsumer<byte[], byte[]> out, List<FanoutChunk> read, TestStack stack,
                                       long board, long author, long bigPin, long bigStart, int count) throws Exception {
        Map<Long, Long> sentAt = new HashMap<>();
        Map<Long, Long> doneAt = new HashMap<>();
        long bigDone = 0;
        long start = System.nanoTime();
        long nextSmall = start;
        while ((bigPin != 0 && bigDone == 0) || (bigPin == 0 && sentAt.size() < count) || sentAt.size() > doneAt.size()) {
            long now = System.nanoTime();
            boolean more = bigPin != 0 ? bigDone == 0 : sentAt.size() < count;
            if (more && now >= nextSmall) {
                long p = stack.freshId();
                sentAt.put(p, System.nanoTime());
                f.publish(f.pinCreated(p, board, author));
                nextSmall = now + 100_000_000L;
            }
            int before = read.size();
            f.readChunks(out, read, r -> r.size() > before, Duration.ofMillis(50));
            long at = System.nanoTime();
            for (FanoutChunk c : read.subList(before, read.size())) {
                if (!c.getLastChunk()) continue;
                if (c.getPinId() == bigPin) bigDone = at;
                else if (sentAt.containsKey(c.getPinId())) doneAt.put(c.getPinId(), at);
            }
            if (now - start > 300_000_000_000L) throw new AssertionError("no end in 5 minutes");
        }
        List<Long> lat = new ArrayList<>();
        for (Map.Entry<Long, Long> e : doneAt.entrySet()) lat.add((e.getValue() - sentAt.get(e.getKey())) / 1_000_000);
        lat.sort(null);
        return new Latencies(lat, bigDone);
    }
}
