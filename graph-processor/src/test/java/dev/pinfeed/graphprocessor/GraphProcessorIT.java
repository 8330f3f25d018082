package dev.pinfeed.graphprocessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.events.PinLiked;
import dev.pinfeed.eventsschema.AvroEventSerializer;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphScenarios;
import dev.pinfeed.followergraph.UserRelation;
import dev.pinfeed.followergraph.redis.RedisGraphStore;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.redisshards.RedisShards;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(StackExtension.class)
class GraphProcessorIT {

    @Test
    void badRecordsGoToTheDeadLetterTopicAndThePipelineKeepsGoing(TestStack stack) throws Exception {
        long a = stack.freshId(), b = stack.freshId(), c = stack.freshId(), board = stack.freshId();
        long t = GraphScenarios.T0;
        try (KafkaFixtures kafka = new KafkaFixtures(stack);
             RedisGraphStore graph = RedisGraphStore.connect(stack.config(),
                     () -> RedisShards.defaultShardMap(stack.config()), stack.keyPrefix("graph-proc"))) {
            kafka.publish(new GraphCommand.FollowUser(stack.freshId(), t, a, b));
            byte[] key = Long.toString(a).getBytes(StandardCharsets.UTF_8);
            kafka.publishRaw(kafka.follows, key, "not avro".getBytes(StandardCharsets.UTF_8));
            byte[] pinLiked = new AvroEventSerializer(kafka.registry).serialize(kafka.follows, new PinLiked(1L, Instant.ofEpochMilli(t), a, a, 5L));
            kafka.publishRaw(kafka.follows, key, pinLiked);
            kafka.publishRaw(kafka.boards, key, "not avro either".getBytes(StandardCharsets.UTF_8)); // poison on the boards topic too
            kafka.publish(new GraphCommand.CreateBoard(stack.freshId(), t, board, b));
            kafka.publish(new GraphCommand.FollowBoard(stack.freshId(), t + 1, c, board, b));

            RunningProcessor processor = new RunningProcessor(kafka, graph);
            try (processor) {
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(processor.records()).isEqualTo(6));
                // Published only now: topics do not order records across partitions, and the first owner claim wins.
                kafka.publish(new GraphCommand.FollowBoard(stack.freshId(), t + 2, a, board, c));
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(processor.records()).isEqualTo(7));
            }

            assertThat(processor.applied()).isEqualTo(3);
            assertThat(processor.deadLettered()).isEqualTo(4);
            assertThat(graph.relation(a, b)).isEqualTo(UserRelation.EXPLICIT);
            assertThat(graph.followsBoard(a, board)).as("through b").isTrue();
            assertThat(graph.relation(c, b)).isEqualTo(UserRelation.IMPLICIT);
            assertThat(graph.relation(a, c)).isEqualTo(UserRelation.NONE);

            List<ConsumerRecord<byte[], byte[]>> dead = kafka.deadLettered(4);
            assertThat(dead).extracting(r -> header(r, DeadLetters.HEADER_REASON)).containsExactlyInAnyOrder(
                    DeadLetters.UNDECODABLE, DeadLetters.UNDECODABLE, DeadLetters.UNEXPECTED_EVENT, DeadLetters.INVALID);
            assertThat(dead).allSatisfy(r -> {
                assertThat(header(r, DeadLetters.HEADER_SOURCE_TOPIC)).isIn(kafka.follows, kafka.boards);
                assertThat(Integer.parseInt(header(r, DeadLetters.HEADER_SOURCE_PARTITION))).isBetween(0, 2);
                assertThat(Long.parseLong(header(r, DeadLetters.HEADER_SOURCE_OFFSET))).isNotNegative();
            });
            assertThat(dead.stream().filter(r -> header(r, DeadLetters.HEADER_REASON).equals(DeadLetters.UNDECODABLE))
                    .map(r -> header(r, DeadLetters.HEADER_SOURCE_TOPIC) + ":" + new String(r.value(), StandardCharsets.UTF_8)))
                    .containsExactlyInAnyOrder(kafka.follows + ":not avro", kafka.boards + ":not avro either");

            // Everything was committed: a restarted processor would find nothing to do.
            try (Admin admin = Admin.create(stack.kafkaClientProperties())) {
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(processor.group)
                        .partitionsToOffsetAndMetadata().get();
                long total = committed.entrySet().stream().filter(e -> e.getKey().topic().equals(kafka.follows) || e.getKey().topic().equals(kafka.boards))
                        .collect(Collectors.summingLong(e -> e.getValue().offset()));
                assertThat(total).isEqualTo(7);
            }
        }
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        return TestStack.header(r, name);
    }
}
