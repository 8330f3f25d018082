package dev.pinfeed.graphprocessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.events.BoardCreated;
import dev.pinfeed.events.BoardPinsReordered;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphScenarios;
import dev.pinfeed.followergraph.redis.RedisGraphStore;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.redisshards.RedisShards;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A crafted record announcing a huge array or string, published to the graph processor's input, is
 * dead-lettered with the limit it broke, and the processor (same JVM, ordinary heap) goes on with the next record.
 */
@ExtendWith(StackExtension.class)
class DecodeLimitsIT {

    /** The wire format of a registered {@code schema}: magic byte, its id, then the four longs every event starts with and {@code rest}. */
    private static byte[] crafted(KafkaFixtures kafka, Schema schema, long... rest) throws IOException {
        int id = kafka.registry.register(kafka.boards + "-" + schema.getFullName(), schema);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.write(0);
        bytes.write(ByteBuffer.allocate(Integer.BYTES).putInt(id).array());
        BinaryEncoder out = EncoderFactory.get().directBinaryEncoder(bytes, null);
        for (long field : new long[] {1, GraphScenarios.T0, 7, 9}) out.writeLong(field); // eventId, occurredAt, actorId, boardId
        for (long value : rest) out.writeLong(value);
        out.flush();
        return bytes.toByteArray();
    }

    @Test
    void aRecordOverTheDecodingLimitsIsDeadLetteredWithItsReasonAndTheNextIsApplied(TestStack stack) throws Exception {
        long board = stack.freshId(), owner = stack.freshId();
        try (KafkaFixtures kafka = new KafkaFixtures(stack);
             RedisGraphStore graph = RedisGraphStore.connect(stack.config(),
                     () -> RedisShards.defaultShardMap(stack.config()), stack.keyPrefix("decode-limits"))) {
            byte[] key = Long.toString(board).getBytes(StandardCharsets.UTF_8); // one partition: the good record comes after both
            kafka.publishRaw(kafka.boards, key, crafted(kafka, BoardPinsReordered.getClassSchema(), 1L << 30)); // pinIds: 2^30 items
            kafka.publishRaw(kafka.boards, key, crafted(kafka, BoardCreated.getClassSchema(), 2, 1L << 31)); // ownerId, then a 2 GiB name
            kafka.publish(new GraphCommand.CreateBoard(stack.freshId(), GraphScenarios.T0, board, owner));

            RunningProcessor processor = new RunningProcessor(kafka, graph);
            long started = System.nanoTime();
            try (processor) {
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(processor.records()).isEqualTo(3));
            }
            System.out.printf("DecodeLimitsIT: 2 crafted records dead-lettered and 1 applied in %d ms%n",
                    Duration.ofNanos(System.nanoTime() - started).toMillis());

            assertThat(processor.deadLettered()).isEqualTo(2);
            assertThat(processor.applied()).isEqualTo(1);
            assertThat(graph.boardOwner(board)).hasValue(owner);

            List<ConsumerRecord<byte[], byte[]>> dead = kafka.deadLettered(2);
            assertThat(dead).extracting(r -> TestStack.header(r, DeadLetters.HEADER_REASON))
                    .containsOnly(DeadLetters.UNDECODABLE);
            assertThat(dead).extracting(r -> TestStack.header(r, DeadLetters.HEADER_SOURCE_TOPIC)).containsOnly(kafka.boards);
            assertThat(dead).extracting(r -> TestStack.header(r, DeadLetters.HEADER_ERROR)).satisfiesExactly(
                    e -> assertThat(e).startsWith("array of 1073741824 items exceeds the limit of 100000 (events.decode.max-collection-items)"),
                    e -> assertThat(e).startsWith("string of 2147483648 bytes exceeds the limit of 262144 (events.decode.max-string-bytes)"));
        }
    }
}
