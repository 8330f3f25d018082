package dev.pinfeed.materializer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.canonicalstore.CanonicalLayout;
import dev.pinfeed.canonicalstore.ComparableRows;
import dev.pinfeed.events.UserFollowed;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.idallocator.ObjectType;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Topics are not ordered with each other: a like (or a comment) may come before its pin. It waits (retried)
 * for the test-shortened grace: applied when the pin arrives in time, dead-lettered as missing-reference when
 * it never does. Poison on every topic goes to the dead-letter topic with its reason, and the rest goes on.
 */
class MissingReferenceIT extends FixtureIT {

    /**
     * The test-shortened grace (60 s in production). The late pin is published 3 s into the run and must be applied
     * before the grace runs out, which on a loaded box takes seconds (the like is retried with backoff up to 5 s):
     * 15 s leaves it 12 s. The like that never gets its pin is still dead-lettered, 15 to 20 s after it was read.
     */
    private static final Duration GRACE = Duration.ofSeconds(15);
    /** How long after the start the late pin is published: the like of {@code late} is waiting by then. */
    private static final Duration PIN_LATE_BY = Duration.ofSeconds(3);
    @Test
    void aLikeWaitsForItsPinAndIsDeadLetteredWhenItNeverComesWhilePoisonIsSetAside() throws Exception {
        long owner = f.freshId(ObjectType.USER);
        long liker = f.freshId(ObjectType.USER);
        long board = f.freshId(ObjectType.BOARD);
        long late = f.freshId(ObjectType.PIN);
        long never = f.freshId(ObjectType.PIN);
        long after = f.freshId(ObjectType.USER);
        long lateComment = f.freshId(ObjectType.COMMENT);
        long orphanComment = f.freshId(ObjectType.COMMENT);
        long t = 1_780_000_000_000L;
        f.publish(Events.user(owner, t), Events.board(board, owner, t + 1), Events.liked(liker, late, t + 2), Events.liked(liker, never, t + 3),
                Events.commented(lateComment, late, liker, t + 2), Events.commented(orphanComment, never, liker, t + 3));
        for (String topic : f.topics.all()) f.publishRaw(topic, "poison", "not an event".getBytes(StandardCharsets.UTF_8));
        // A well-formed event on the wrong topic, and one whose ids are of the wrong type.
        f.publishTo(f.topics.likes(), new UserFollowed(Events.nextEventId(), Instant.ofEpochMilli(t), liker, liker, owner));
        f.publish(Events.pin(f.freshId(ObjectType.PIN), late /* a pin id as board */, owner, t + 4));
        f.publish(Events.user(after, t + 5));

        f.run(f.settings(f.stack.uniqueName("canonical_missing")).withWaitGrace(GRACE), f.handler(f.cache));
        Thread.sleep(PIN_LATE_BY.toMillis()); // the like of `late` is waiting by now
        f.publish(Events.pin(late, board, owner, t + 6));

        List<ConsumerRecord<byte[], byte[]>> dead = f.deadLettered(10, GRACE.plus(Duration.ofSeconds(60)));
        Map<String, List<String>> reasonsByTopic = dead.stream().collect(Collectors.groupingBy(
                r -> Fixture.header(r, DeadLetters.HEADER_SOURCE_TOPIC), Collectors.mapping(Fixture::reason, Collectors.toList())));
        assertThat(reasonsByTopic.get(f.topics.users())).containsExactlyInAnyOrder(DeadLetters.UNDECODABLE);
        assertThat(reasonsByTopic.get(f.topics.boards())).containsExactlyInAnyOrder(DeadLetters.UNDECODABLE);
        assertThat(reasonsByTopic.get(f.topics.pins())).containsExactlyInAnyOrder(DeadLetters.UNDECODABLE, DeadLetters.INVALID);
        assertThat(reasonsByTopic.get(f.topics.likes()))
                .containsExactlyInAnyOrder(DeadLetters.UNDECODABLE, DeadLetters.MISSING_REFERENCE, DeadLetters.UNEXPECTED_EVENT);
        assertThat(reasonsByTopic.get(f.topics.comments())).containsExactlyInAnyOrder(DeadLetters.UNDECODABLE, DeadLetters.MISSING_REFERENCE);
        assertThat(reasonsByTopic.get(f.topics.interests())).containsExactlyInAnyOrder(DeadLetters.UNDECODABLE);
        List<ConsumerRecord<byte[], byte[]>> missing = dead.stream().filter(r -> DeadLetters.MISSING_REFERENCE.equals(Fixture.reason(r))).toList();
        assertThat(missing).hasSize(2).allSatisfy(r -> {
            assertThat(new String(r.key(), StandardCharsets.UTF_8)).as("keyed by the pin").isEqualTo(Long.toString(never));
            assertThat(Fixture.header(r, DeadLetters.HEADER_ERROR)).contains("pin " + never);
        });
        assertThat(dead).hasSize(10);

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            ComparableRows rows = f.snapshot(List.of(liker, late, never, after), false);
            assertThat(rows.table("user_likes_pins")).as("the like whose pin came late applied")
                    .containsOnlyKeys(ComparableRows.mappingKey(liker, late));
            assertThat(rows.table("pin_liked_by_users")).containsOnlyKeys(ComparableRows.mappingKey(late, liker));
            assertThat(rows.table(CanonicalLayout.USERS)).as("events after the poison applied").containsKey(ComparableRows.objectKey(after));
            ComparableRows comments = f.snapshot(List.of(lateComment, orphanComment), false);
            assertThat(comments.table(CanonicalLayout.COMMENTS)).as("the comment whose pin came late applied")
                    .containsOnlyKeys(ComparableRows.objectKey(lateComment));
            assertThat(rows.table("pin_has_comments")).containsOnlyKeys(ComparableRows.mappingKey(late, lateComment));
        });
    }
}
