package dev.pinfeed.feedworker.process;

import static dev.pinfeed.feedworker.Events.add;
import static dev.pinfeed.feedworker.Events.followedUser;
import static dev.pinfeed.feedworker.Events.liked;
import static dev.pinfeed.feedworker.Events.receiver;
import static dev.pinfeed.feedworker.Events.remove;
import static dev.pinfeed.feedworker.Events.unfollowedUser;
import static org.assertj.core.api.Assertions.assertThat;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedworker.AffinityStore;
import dev.pinfeed.feedstore.scoring.PinFacts;
import dev.pinfeed.feedworker.WorkerSettings;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.events.UserCreated;
import dev.pinfeed.eventsschema.AvroEventSerializer;
import dev.pinfeed.eventsschema.DeadLetters;
import java.time.Duration;
import java.time.Instant;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The worker end to end on the shared stack: events published to fresh topics (Avro through the
 * registry) become HBase pool entries in score order, follows backfill from the canonical MySQL store
 * once the Redis follower graph shows them, unfollows purge, likes move affinities in Redis.
 */
@ExtendWith(StackExtension.class)
class FeedWorkerIT {

    private static final long HOUR = Duration.ofHours(1).toMillis();

    private static List<Long> pins(List<PoolEntry> entries) {
        return entries.stream().map(PoolEntry::pinId).toList();
    }

    @Test
    void chunksOnTheFanoutTopicBecomePoolEntriesBestFirstOncePerPin(TestStack stack) throws Exception {
        try (WorkerFixtures f = new WorkerFixtures(stack, 3); WorkerFixtures.RunningWorker worker = f.start(WorkerSettings.defaults())) {
            long r1 = f.user(), r2 = f.user(), author = f.user();
            long board = f.board(author);
            long now = System.currentTimeMillis();
            PinFacts old = f.pin(board, author, now - 48 * HOUR, 0);
            PinFacts fresh = f.unknownPin(board, author, now);
            PinFacts popular = f.pin(board, author, now, 3);
            var to = List.of(receiver(r1, Source.FOLLOWED_USER), receiver(r2, Source.FOLLOWED_BOARD));
            for (PinFacts p : List.of(old, fresh, popular)) f.publish(add(p, now, to));

            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(f.pools.best(r1, Source.FOLLOWED_USER, 10)).hasSize(3));
            // 3 likes: 1 + ln 4 = 2.39; new and unliked: 1; two days old: 0.63
            assertThat(pins(f.pools.best(r1, Source.FOLLOWED_USER, 10))).containsExactly(popular.pinId(), fresh.pinId(), old.pinId());
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(pins(f.pools.best(r2, Source.FOLLOWED_BOARD, 10))).containsExactly(popular.pinId(), fresh.pinId(), old.pinId()));
            assertThat(f.pools.best(r1, Source.FOLLOWED_BOARD, 10)).isEmpty();
            PoolEntry top = f.pools.best(r1, Source.FOLLOWED_USER, 1).get(0);
            assertThat(top).extracting(PoolEntry::authorId, PoolEntry::boardId, PoolEntry::createdAtMillis).containsExactly(author, board, now);

            // A replay of the same chunks re-scores them; still one entry per pin, also in the stored rows.
            for (PinFacts p : List.of(old, fresh, popular)) f.publish(add(p, now, to));
            await().atMost(Duration.ofSeconds(60)).until(() -> worker.applied() >= 6);
            assertThat(pins(f.pools.storedRows(r1))).containsExactlyInAnyOrder(popular.pinId(), fresh.pinId(), old.pinId());

            f.publish(remove(fresh, now + 1, to)); // the pin is deleted
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                    assertThat(pins(f.pools.storedRows(r2))).containsExactlyInAnyOrder(popular.pinId(), old.pinId()));
            assertThat(pins(f.pools.storedRows(r1))).containsExactlyInAnyOrder(popular.pinId(), old.pinId());
        }
    }

    @Test
    void aFollowBackfillsOnceTheGraphShowsItAndAnUnfollowPurgesAllButExplicitlyFollowedBoards(TestStack stack) throws Exception {
        try (WorkerFixtures f = new WorkerFixtures(stack, 3); WorkerFixtures.RunningWorker worker = f.start(WorkerSettings.defaults())) {
            long follower = f.user(), followee = f.user();
            long kept = f.board(followee), purged = f.board(followee), unfollowed = f.board(followee);
            long now = System.currentTimeMillis();
            PinFacts k1 = f.pin(kept, followee, now - HOUR, 0);
            PinFacts k2 = f.pin(kept, followee, now - 2 * HOUR, 0);
            PinFacts p1 = f.pin(purged, followee, now - 3 * HOUR, 0);
            f.pin(unfollowed, followee, now - 4 * HOUR, 0);
            long t = now;
            for (long b : List.of(kept, purged, unfollowed)) f.graph.apply(new GraphCommand.CreateBoard(stack.freshId(), t, b, followee));

            f.publish(followedUser(follower, followee, t + 10)); // before the graph processor applied it
            await().atMost(Duration.ofSeconds(60)).until(() -> worker.parked() == 1); // it waits for the graph
            assertThat(f.pools.all(follower)).isEmpty();
            f.graph.apply(new GraphCommand.FollowUser(stack.freshId(), t + 10, follower, followee));
            f.graph.apply(new GraphCommand.UnfollowBoard(stack.freshId(), t + 11, follower, unfollowed, followee));

            await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                    assertThat(pins(f.pools.best(follower, Source.FOLLOWED_USER, 10))).containsExactly(k1.pinId(), k2.pinId(), p1.pinId()));

            // He likes one of the followee's pins: his affinity to the followee counts it.
            f.publish(liked(follower, k2.pinId(), t + 12));
            AffinityStore.Pair pair = new AffinityStore.Pair(follower, followee);
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(f.affinity.affinities(List.of(pair))).containsEntry(pair, 1L));

            // He follows one board explicitly, then unfollows the user: that board's pins stay.
            f.graph.apply(new GraphCommand.FollowBoard(stack.freshId(), t + 13, follower, kept, followee));
            f.graph.apply(new GraphCommand.UnfollowUser(stack.freshId(), t + 14, follower, followee));
            f.publish(unfollowedUser(follower, followee, t + 14));
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                    assertThat(pins(f.pools.storedRows(follower))).containsExactlyInAnyOrder(k1.pinId(), k2.pinId()));
            // The loop counts a record as applied when it settles it, just after the handler's writes are visible.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(worker.applied()).isGreaterThanOrEqualTo(3));
        }
    }

    @Test
    void poisonOnEveryInputTopicIsDeadLetteredWithItsReasonAndTheWorkerGoesOn(TestStack stack) throws Exception {
        try (WorkerFixtures f = new WorkerFixtures(stack, 2); WorkerFixtures.RunningWorker worker = f.start(WorkerSettings.defaults())) {
            long receiver = f.user(), author = f.user();
            long board = f.board(author);
            long now = System.currentTimeMillis();
            PinFacts pin = f.pin(board, author, now, 0);
            for (String topic : List.of(f.fanout, f.follows, f.likes)) f.publishRaw(topic, "k", ("not avro on " + topic).getBytes(UTF_8));
            // A well-formed event of a type none of its topics carries.
            f.publishRaw(f.likes, "k", new AvroEventSerializer(f.registry).serialize(f.likes,
                    UserCreated.newBuilder().setEventId(stack.freshId()).setOccurredAt(Instant.ofEpochMilli(now)).setActorId(author)
                            .setUserId(author).setUsername("poison").build()));
            f.publish(add(pin, now, List.of(receiver(receiver, Source.FOLLOWED_USER))));

            await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                    assertThat(pins(f.pools.best(receiver, Source.FOLLOWED_USER, 10))).containsExactly(pin.pinId()));
            List<ConsumerRecord<byte[], byte[]>> dead = f.deadLettered(4);
            assertThat(dead).extracting(r -> TestStack.header(r, DeadLetters.HEADER_SOURCE_TOPIC) + " " + TestStack.header(r, DeadLetters.HEADER_REASON))
                    .containsExactlyInAnyOrder(f.fanout + " " + DeadLetters.UNDECODABLE, f.follows + " " + DeadLetters.UNDECODABLE,
                            f.likes + " " + DeadLetters.UNDECODABLE, f.likes + " " + DeadLetters.UNEXPECTED_EVENT);
            assertThat(dead).allSatisfy(r -> assertThat(TestStack.header(r, DeadLetters.HEADER_CONSUMER)).isEqualTo(f.group));
            assertThat(worker.parked()).isZero();
        }
    }
}
