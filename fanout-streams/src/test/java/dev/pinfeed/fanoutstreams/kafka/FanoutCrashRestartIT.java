package dev.pinfeed.fanoutstreams.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.events.FanoutSource;
import dev.pinfeed.infra.stacktestkit.ChildJvm;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.processorruntime.KafkaClients;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once across kill -9: the fan-out process (a child JVM running {@link FanoutStreamsMain}) is
 * killed while it works through a 20 000-receiver fan-out, started again on the same state directory,
 * and the committed output names every receiver exactly once, in chunks 0..199 each sent once (1..199 in order
 * on the bulk lane).
 */
@ExtendWith(StackExtension.class)
class FanoutCrashRestartIT {

    private static final int RECEIVERS = 20_000;
    private static final int CHUNK = 100;
    private static final int CHUNKS = RECEIVERS / CHUNK;

    @TempDir
    Path stateDir;

    @Test
    void aFanOutKilledMidWayIsResumedAndEveryReceiverIsNamedExactlyOnce(TestStack stack) throws Exception {
        try (StackFixtures f = new StackFixtures(stack)) {
            long author = stack.freshId(), board = stack.freshId(), pin = stack.freshId();
            long t0 = System.nanoTime();
            List<Long> followers = f.authorWithFollowers(author, board, RECEIVERS);
            long graphMs = (System.nanoTime() - t0) / 1_000_000;
            Map<String, String> props = f.processProperties(stateDir);
            // Slow enough to be caught mid-way: 2 chunks of 100 per 100 ms turn, ~10 s for the whole fan-out.
            props.put("fanout.chunk-size", Integer.toString(CHUNK));
            props.put("fanout.steps-per-turn", "2");
            // 20 000 followers would make the author a celebrity (pulled at read time, not fanned out): this is about a big fan-out.
            props.put("fanout.celebrity-followers", "0");
            props.put("graph.redis.key-prefix", f.keyPrefix);
            props.put(KafkaClients.INSTANCE, "crash-it");
            props.put("related.enabled", "false"); // the fan-out alone: no related-pins app on the shared likes topic
            props.put(FanoutStreamsMain.NAME + ".admin.http", "127.0.0.1:" + ChildJvm.freePort());

            List<FanoutChunk> read = new ArrayList<>();
            try (KafkaConsumer<byte[], byte[]> out = f.chunkReader()) {
                long t1 = System.nanoTime();
                try (ChildJvm first = ChildJvm.start(FanoutStreamsMain.class.getName(), props)) {
                    f.publish(f.pinCreated(pin, board, author));
                    f.readChunks(out, read, r -> r.size() >= CHUNKS / 4, Duration.ofSeconds(120));
                    assertThat(read).as("chunks committed before the kill; child output:%n%s", first.output()).hasSizeGreaterThanOrEqualTo(CHUNKS / 4);
                    first.kill9();
                }
                long firstMs = (System.nanoTime() - t1) / 1_000_000;
                f.readChunks(out, read, r -> false, Duration.ofSeconds(5)); // what the killed process had committed (5 s: all of it, on a loaded box too)
                int beforeRestart = read.size();
                assertThat(read).as("killed mid-way").noneMatch(FanoutChunk::getLastChunk);

                props.put(FanoutStreamsMain.NAME + ".admin.http", "127.0.0.1:" + ChildJvm.freePort());
                long t2 = System.nanoTime();
                long secondMs;
                try (ChildJvm second = ChildJvm.start(FanoutStreamsMain.class.getName(), props)) {
                    f.readChunks(out, read, StackFixtures.lastChunksOf(pin), Duration.ofSeconds(120));
                    secondMs = (System.nanoTime() - t2) / 1_000_000;
                    assertThat(read).as("the restarted process finishes; its output:%n%s", second.output()).anyMatch(FanoutChunk::getLastChunk);
                    f.readChunks(out, read, r -> false, Duration.ofSeconds(3)); // nothing may follow the last chunk
                    second.stop(Duration.ofSeconds(30));
                }
                System.err.printf("[fanout-crash-it] graph of %d followers written in %d ms; first process: start to kill %d ms,"
                        + " %d chunks committed; restart to last chunk %d ms, %d chunks%n", RECEIVERS, graphMs, firstMs, beforeRestart,
                        secondMs, read.size() - beforeRestart);
            }

            // Chunk 0 travels on the chunk topic, chunks 1.. on its bulk lane: ordered within the lane, not across the two.
            assertThat(read).extracting(FanoutChunk::getChunkIndex).as("each chunk committed once")
                    .containsExactlyInAnyOrderElementsOf(IntStream.range(0, CHUNKS).boxed().toList());
            assertThat(read).extracting(FanoutChunk::getChunkIndex).filteredOn(i -> i > 0).as("the bulk lane's chunks in order")
                    .containsExactlyElementsOf(IntStream.range(1, CHUNKS).boxed().toList());
            Map<Long, List<FanoutSource>> receivers = StackFixtures.receiversOf(read, pin);
            assertThat(receivers.keySet()).containsExactlyInAnyOrderElementsOf(followers);
            assertThat(receivers.values()).allSatisfy(s -> assertThat(s).containsExactly(FanoutSource.FOLLOWED_USER));
        }
    }
}
