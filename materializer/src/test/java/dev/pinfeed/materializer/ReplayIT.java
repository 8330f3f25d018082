package dev.pinfeed.materializer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.canonicalstore.ComparableRows;
import dev.pinfeed.processorruntime.ConsumerLoop;
import dev.pinfeed.processorruntime.KafkaClients;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * A mixed history (creates, deletes, likes and unlikes, comments and their deletes in shuffled order, reorders) is materialized;
 * then every topic is replayed from offset 0 by a new consumer group into the running store, and not
 * one affected row changes — not even {@code ts} (every write of a replay is a no-op upsert: MySQL
 * leaves a row whose values do not change untouched, ON UPDATE timestamp included).
 */
class ReplayIT extends FixtureIT {

    @Test
    void replayingEveryTopicFromTheStartChangesNoRow() throws Exception {
        Random random = new Random(20261124);
        History h = History.mixed(f::freshId, random, 30, 20, 150, 400, 25);
        ComparableRows expected = h.expected();
        f.publishAll(h.shuffled(random));

        f.run(f.settings(f.stack.uniqueName("canonical_live")), f.handler(f.cache));
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> History.matches(f, h, expected).get());
        ComparableRows before = f.snapshot(h.ids, true);
        assertThat(before.table("pins")).hasSize(150);
        assertThat(before.table("user_likes_pins")).isNotEmpty();
        assertThat(before.table("comments")).hasSize(75);
        assertThat(before.table("pin_has_comments")).hasSize(75);

        String replayGroup = f.stack.uniqueName("canonical_replay");
        ConsumerLoop.Settings s = f.settings(replayGroup);
        ConsumerLoop replay = f.run(new ConsumerLoop.Settings("materializer-replay", s.groupId(), s.topics(), s.pollTimeout(), s.maxParked(),
                s.retryMin(), s.retryMax(), s.bugAttempts(), s.stallLimit(), s.waitGrace(), s.bounds(), s.upstream()), f.handler(f.cache));
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> caughtUp(replayGroup) && replay.parkedCount() == 0);

        ComparableRows after = f.snapshot(h.ids, true);
        assertThat(after.diff(before, java.util.Set.of())).as("rows changed by the replay").isEmpty();
        assertThat(after).isEqualTo(before);
    }

    /** The group has committed every partition of the topics to its end. */
    private boolean caughtUp(String group) throws Exception {
        try (Admin admin = Admin.create(KafkaClients.admin(f.config))) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (String t : f.topics.all()) {
                for (int p = 0; p < 3; p++) latest.put(new TopicPartition(t, p), OffsetSpec.latest());
            }
            var ends = admin.listOffsets(latest).all().get();
            for (var e : ends.entrySet()) {
                OffsetAndMetadata c = committed.get(e.getKey());
                if (e.getValue().offset() > 0 && (c == null || c.offset() < e.getValue().offset())) return false;
            }
            return true;
        }
    }

}
