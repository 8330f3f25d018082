package dev.pinfeed.ingestapi.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.events.BoardFollowed;
import dev.pinfeed.events.BoardPinsReordered;
import dev.pinfeed.events.CommentCreated;
import dev.pinfeed.events.CommentDeleted;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.PinDeleted;
import dev.pinfeed.events.PinLiked;
import dev.pinfeed.events.PinUnliked;
import dev.pinfeed.events.UserCreated;
import dev.pinfeed.idallocator.InMemorySequenceStore;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.OpenShards;
import dev.pinfeed.idallocator.ShardPlacement;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.idallocator.ShardedIdAllocator;
import dev.pinfeed.idallocator.TimeSortableIdGenerator;
import dev.pinfeed.idallocator.TimeSortableLayout;
import dev.pinfeed.ingestapi.core.IngestCommand.CreateBoard;
import dev.pinfeed.ingestapi.core.IngestCommand.CreateComment;
import dev.pinfeed.ingestapi.core.IngestCommand.CreatePin;
import dev.pinfeed.ingestapi.core.IngestCommand.CreateUser;
import dev.pinfeed.ingestapi.core.IngestCommand.DeleteComment;
import dev.pinfeed.ingestapi.core.IngestCommand.DeletePin;
import dev.pinfeed.ingestapi.core.IngestCommand.FollowBoard;
import dev.pinfeed.ingestapi.core.IngestCommand.FollowUser;
import dev.pinfeed.ingestapi.core.IngestCommand.LikePin;
import dev.pinfeed.ingestapi.core.IngestCommand.ReorderBoardPins;
import dev.pinfeed.ingestapi.core.IngestCommand.RepinPin;
import dev.pinfeed.ingestapi.core.IngestCommand.UnlikePin;
import dev.pinfeed.ingestapi.core.IngestRejection.Reason;
import dev.pinfeed.ingestapi.core.IngestService.Outcome;
import dev.pinfeed.ingestapi.fakes.InMemoryObjectDirectory;
import dev.pinfeed.ingestapi.fakes.InMemoryUsernameIndex;
import dev.pinfeed.ingestapi.fakes.RecordingEventPublisher;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

class IngestServiceTest {

    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
    private final InMemoryObjectDirectory store = new InMemoryObjectDirectory();
    /** The directory cache's clock, moved by tests of its time to live. */
    private Instant cacheNow = NOW;
    private final CachingObjectDirectory directory = new CachingObjectDirectory(store, 1000, Duration.ofSeconds(5), () -> cacheNow);
    private final InMemoryUsernameIndex usernames = new InMemoryUsernameIndex();
    private final RecordingEventPublisher publisher = new RecordingEventPublisher();
    private final IngestService service = new IngestService(
            new IdSource(new ShardedIdAllocator(new InMemorySequenceStore(), 100),
                    new ShardPlacement(OpenShards.parse("0-15"), new SplittableRandom(1)),
                    TimeSortableIdGenerator.systemClock(new TimeSortableLayout(TimeSortableLayout.DEFAULT_EPOCH), Duration.ZERO), 3),
            directory, usernames, publisher, InstantSource.fixed(NOW), Duration.ofSeconds(5), 4096);

    private long user(String name) {
        Outcome o = service.submit(new CreateUser(name, null));
        assertThat(o.accepted()).as("creating %s: %s", name, o.rejection()).isTrue();
        return o.createdId();
    }

    private long board(long owner) {
        return service.submit(new CreateBoard(owner, "Recipes", null)).createdId();
    }

    private long pin(long board, long author) {
        return service.submit(new CreatePin(board, author, "a pin", "https://example.com/a", null)).createdId();
    }

    @Test
    void createUserPublishesTheEventWithANewUserIdAndClaimsTheName() {
        Outcome o = service.submit(new CreateUser("ana_1", "Ana"));

        assertThat(o.accepted()).isTrue();
        assertThat(ShardedId.decode(o.createdId()).type()).isEqualTo(ObjectType.USER);
        UserCreated event = publisher.published(UserCreated.class).get(0);
        assertThat(event.getUserId()).isEqualTo(o.createdId());
        assertThat(event.getUsername()).isEqualTo("ana_1");
        assertThat(event.getDisplayName()).isEqualTo("Ana");
        assertThat(event.getOccurredAt()).isEqualTo(NOW);
        assertThat(event.getEventId()).isEqualTo(o.eventId());
        assertThat(new TimeSortableLayout(TimeSortableLayout.DEFAULT_EPOCH).decode(o.eventId()).shard()).isEqualTo(3);
        assertThat(usernames.find("ana_1")).hasValue(o.createdId());
    }

    @Test
    void aTakenUsernameIsAConflictAndPublishesNothing() {
        user("bob");
        Outcome second = service.submit(new CreateUser("bob", null));

        assertThat(second.rejection().reason()).isEqualTo(Reason.CONFLICT);
        assertThat(second.rejection().field()).isEqualTo("username");
        assertThat(publisher.published(UserCreated.class)).hasSize(1);
    }

    @Test
    void aBatchsNewUsersClaimTheirNamesInOneCallAndEachTakenNameIsThatUsersConflict() {
        user("dora");
        int singleBefore = usernames.singleClaims.get();

        List<Outcome> outcomes = service.submitAll(List.of(new CreateUser("eli", null), new CreateUser("dora", null),
                new CreateUser("fay", null), new CreateUser("eli", null), new CreateUser("gus", null)));

        assertThat(outcomes).extracting(Outcome::accepted).containsExactly(true, false, true, false, true);
        assertThat(outcomes.get(1).rejection().reason()).isEqualTo(Reason.CONFLICT);
        assertThat(outcomes.get(1).rejection().detail()).contains("'dora' is taken");
        assertThat(outcomes.get(3).rejection().reason()).as("taken by the batch's first eli").isEqualTo(Reason.CONFLICT);
        assertThat(usernames.claimAllCalls).hasSize(2); // dora's own, then the batch's
        assertThat(usernames.claimAllCalls.get(1)).containsOnlyKeys("eli", "dora", "fay", "gus");
        assertThat(usernames.singleClaims.get()).isEqualTo(singleBefore);
        assertThat(publisher.published(UserCreated.class)).extracting(u -> u.getUsername().toString())
                .containsExactly("dora", "eli", "fay", "gus");
        assertThat(usernames.find("eli")).hasValue(outcomes.get(0).createdId());
        assertThat(store.size()).as("dora, eli, fay, gus: no entry of a rejected user").isEqualTo(4);
    }

    @Test
    void aUsernameIndexLostMidClaimRejectsTheBatchsUsersAsUnavailableReleasesTheirNamesAndTheRestIsPublished() {
        long owner = user("hal");
        usernames.failClaimAllAfterClaiming = new StoreUnavailableException("mysql002", "mysql002 down");

        List<Outcome> outcomes = service.submitAll(List.of(new CreateUser("ida", null), new CreateBoard(owner, "Maps", null),
                new CreateUser("jon", null)));

        assertThat(outcomes).extracting(Outcome::accepted).containsExactly(false, true, false);
        assertThat(outcomes.get(0).rejection().reason()).isEqualTo(Reason.UNAVAILABLE);
        assertThat(outcomes.get(0).rejection().store()).isEqualTo("mysql002");
        assertThat(usernames.find("ida")).as("released").isEmpty();
        assertThat(usernames.find("jon")).as("released").isEmpty();
        assertThat(publisher.published(UserCreated.class)).hasSize(1);
        assertThat(store.size()).as("hal and his board").isEqualTo(2);
    }

    @Test
    void aBatchsNewObjectsLeaseTheirShardsBlocksTogetherNotOneAfterAnother() {
        // Each lease waits (at most 5 s) until another is in flight: leases taken one after another never see one.
        java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger mostInFlight = new java.util.concurrent.atomic.AtomicInteger();
        InMemorySequenceStore memory = new InMemorySequenceStore();
        dev.pinfeed.idallocator.SequenceStore together = (shard, type, size) -> {
            mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
                long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
                while (inFlight.get() < 2 && mostInFlight.get() < 2 && System.nanoTime() < until) Thread.onSpinWait();
                return memory.lease(shard, type, size);
            } finally {
                inFlight.decrementAndGet();
            }
        };
        try (ShardedIdAllocator allocator = new ShardedIdAllocator(together, 100)) {
            IngestService fresh = new IngestService(new IdSource(allocator,
                    new ShardPlacement(OpenShards.parse("0-4095"), new SplittableRandom(7)),
                    TimeSortableIdGenerator.systemClock(new TimeSortableLayout(TimeSortableLayout.DEFAULT_EPOCH), Duration.ZERO), 3),
                    directory, usernames, publisher, InstantSource.fixed(NOW), Duration.ofSeconds(5), 4096);

            List<Outcome> outcomes = fresh.submitAll(List.of(new CreateUser("kim", null), new CreateUser("lou", null),
                    new CreateUser("max", null), new CreateUser("ned", null)));

            assertThat(outcomes).allMatch(Outcome::accepted);
            assertThat(outcomes).extracting(o -> ShardedId.decode(o.createdId()).shard()).doesNotHaveDuplicates();
            assertThat(mostInFlight.get()).as("leases in flight at once").isGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void aBatchInterruptedWhilePreparingByTheServerStoppingIsRefusedWholeAndLeavesNothing() {
        java.util.concurrent.atomic.AtomicInteger instants = new java.util.concurrent.atomic.AtomicInteger();
        InstantSource stopsDuringTheSecondCommand = () -> {
            if (instants.incrementAndGet() == 2) Thread.currentThread().interrupt(); // as RunningHttpApp.close() does
            return NOW;
        };
        IngestService stopping = new IngestService(new IdSource(new ShardedIdAllocator(new InMemorySequenceStore(), 100),
                new ShardPlacement(OpenShards.parse("0-15"), new SplittableRandom(1)),
                TimeSortableIdGenerator.systemClock(new TimeSortableLayout(TimeSortableLayout.DEFAULT_EPOCH), Duration.ZERO), 3),
                directory, usernames, publisher, stopsDuringTheSecondCommand, Duration.ofSeconds(5), () -> 4096,
                id -> Optional.empty(), interestNames);
        try {
            List<Outcome> outcomes = stopping.submitAll(List.of(new IngestCommand.CreateInterest("weaving"), new CreateUser("quin", null),
                    new CreateUser("rex", null)));

            assertThat(outcomes).allSatisfy(o -> {
                assertThat(o.rejection().reason()).isEqualTo(Reason.UNAVAILABLE);
                assertThat(o.rejection().detail()).contains("stopping");
            });
        } finally {
            Thread.interrupted();
        }
        assertThat(interestNames.find("weaving")).as("the interest's name, claimed before the stop, released").isEmpty();
        assertThat(usernames.find("quin")).isEmpty();
        assertThat(store.size()).isZero();
        assertThat(publisher.published()).isEmpty();
    }

    @Test
    void aBoardLivesOnItsOwnersShardAndAPinOnItsBoards() {
        long owner = user("carol");
        long board = board(owner);
        long pin = pin(board, owner);

        assertThat(ShardedId.decode(board).shard()).isEqualTo(ShardedId.decode(owner).shard());
        assertThat(ShardedId.decode(pin).shard()).isEqualTo(ShardedId.decode(board).shard());
        PinCreated event = publisher.published(PinCreated.class).get(0);
        assertThat(event.getPinId()).isEqualTo(pin);
        assertThat(event.getBoardId()).isEqualTo(board);
        assertThat(event.getLink()).isEqualTo("https://example.com/a");
        assertThat(event.getImageUrl()).isNull();
    }

    @Test
    void unknownReferencesAre404sNamingTheFieldAndPublishNothing() {
        long ghostUser = ShardedId.compose(4, ObjectType.USER, 999_999);
        Outcome o = service.submit(new CreateBoard(ghostUser, "Nope", null));

        assertThat(o.rejection().reason()).isEqualTo(Reason.UNKNOWN_ID);
        assertThat(o.rejection().field()).isEqualTo("ownerId");
        assertThat(o.rejection().detail()).contains(Long.toString(ghostUser)).contains("user");
        assertThat(publisher.published()).isEmpty();
        assertThat(store.size()).isZero();
    }

    @Test
    void deletingAPinCarriesItsBoardAndAuthorFromTheDirectory() {
        long author = user("dave");
        long board = board(author);
        long pin = pin(board, author);

        Outcome o = service.submit(new DeletePin(pin));

        assertThat(o.accepted()).isTrue();
        PinDeleted event = publisher.published(PinDeleted.class).get(0);
        assertThat(event.getBoardId()).isEqualTo(board);
        assertThat(event.getAuthorId()).isEqualTo(author);
    }

    @Test
    void aCommentLivesOnItsPinsShardAndItsDeleteCarriesItsPinAndAuthorFromTheDirectory() {
        long owner = user("gina");
        long reader = user("hank");
        long pin = pin(board(owner), owner);

        Outcome created = service.submit(new CreateComment(pin, reader, "  lovely  "));

        assertThat(created.accepted()).as("%s", created.rejection()).isTrue();
        long comment = created.createdId();
        assertThat(ShardedId.decode(comment).type()).isEqualTo(ObjectType.COMMENT);
        assertThat(ShardedId.decode(comment).shard()).isEqualTo(ShardedId.decode(pin).shard());
        CommentCreated event = publisher.published(CommentCreated.class).get(0);
        assertThat(event.getCommentId()).isEqualTo(comment);
        assertThat(event.getPinId()).isEqualTo(pin);
        assertThat(event.getAuthorId()).isEqualTo(reader);
        assertThat(event.getActorId()).isEqualTo(reader);
        assertThat(event.getText()).isEqualTo("lovely");
        assertThat(event.getOccurredAt()).isEqualTo(NOW);
        assertThat(event.getEventId()).isEqualTo(created.eventId());

        for (int i = 0; i < 2; i++) {
            Outcome deleted = service.submit(new DeleteComment(comment));
            assertThat(deleted.accepted()).as("deleting again is accepted too (the store applies it as a no-op)").isTrue();
            assertThat(deleted.createdId()).isZero();
        }
        assertThat(publisher.published(CommentDeleted.class)).hasSize(2).allSatisfy(d -> {
            assertThat(d.getCommentId()).isEqualTo(comment);
            assertThat(d.getPinId()).isEqualTo(pin);
            assertThat(d.getAuthorId()).isEqualTo(reader);
        });
    }

    @Test
    void aCommentOnAnUnknownPinOrByAnUnknownUserOrAnUnknownCommentsDeleteIsA404NamingTheField() {
        long owner = user("ivan");
        long pin = pin(board(owner), owner);
        long ghostPin = ShardedId.compose(4, ObjectType.PIN, 999_999);
        long ghostUser = ShardedId.compose(4, ObjectType.USER, 999_999);
        int published = publisher.published().size();
        int directory = store.size();

        Outcome noPin = service.submit(new CreateComment(ghostPin, owner, "hi"));
        Outcome noAuthor = service.submit(new CreateComment(pin, ghostUser, "hi"));
        Outcome noComment = service.submit(new DeleteComment(ShardedId.compose(4, ObjectType.COMMENT, 999_999)));

        assertThat(noPin.rejection().reason()).isEqualTo(Reason.UNKNOWN_ID);
        assertThat(noPin.rejection().field()).isEqualTo("pinId");
        assertThat(noAuthor.rejection().reason()).isEqualTo(Reason.UNKNOWN_ID);
        assertThat(noAuthor.rejection().field()).isEqualTo("authorId");
        assertThat(noComment.rejection().reason()).isEqualTo(Reason.UNKNOWN_ID);
        assertThat(noComment.rejection().field()).isEqualTo("commentId");
        assertThat(publisher.published()).hasSize(published);
        assertThat(store.size()).as("nothing registered").isEqualTo(directory);
    }

    @Test
    void followingABoardCarriesItsOwner() {
        long owner = user("erin");
        long follower = user("frank");
        long board = board(owner);

        service.submit(new FollowBoard(follower, board));

        BoardFollowed event = publisher.published(BoardFollowed.class).get(0);
        assertThat(event.getBoardOwnerId()).isEqualTo(owner);
        assertThat(event.getFollowerId()).isEqualTo(follower);
    }

    @Test
    void anOwnerCannotFollowHisOwnBoard() {
        long owner = user("otto");
        long board = board(owner);

        Outcome o = service.submit(new FollowBoard(owner, board));

        assertThat(o.rejection().field()).isEqualTo("boardId");
        assertThat(o.rejection().detail()).contains("owners do not follow their own boards");
    }

    @Test
    void reorderingRejectsAPinOfAnotherBoard() {
        long owner = user("gina");
        long boardA = board(owner);
        long boardB = board(owner);
        long onA = pin(boardA, owner);
        long onB = pin(boardB, owner);

        Outcome o = service.submit(new ReorderBoardPins(boardA, List.of(onA, onB)));

        assertThat(o.rejection().reason()).isEqualTo(Reason.INVALID);
        assertThat(o.rejection().field()).isEqualTo("pinIds[1]");
        assertThat(publisher.published(BoardPinsReordered.class)).isEmpty();
    }

    @Test
    void anEventKafkaCouldNotTakeIsUndoneAndTheRestOfTheBatchIsNotSent() {
        long owner = user("hank");
        long board = board(owner);
        int before = publisher.published().size();
        publisher.failWith = e -> e instanceof UserCreated ? new IngestRejection(Reason.OVERLOADED, null, "buffer full") : null;

        List<Outcome> outcomes = service.submitAll(List.of(new CreateUser("hank_2", null), new CreatePin(board, owner, "after", null, null)));

        assertThat(outcomes).extracting(o -> o.rejection().reason()).containsExactly(Reason.OVERLOADED, Reason.OVERLOADED);
        assertThat(usernames.find("hank_2")).as("released").isEmpty();
        assertThat(publisher.published()).hasSize(before);
        publisher.failWith = e -> null;
        assertThat(service.submit(new CreateUser("hank_2", null)).accepted()).as("the name is free again").isTrue();
    }

    @Test
    void anUnconfirmedEventKeepsItsClaimsBecauseItMayBeInTheLog() {
        int entries = store.size();
        publisher.failWith = e -> e instanceof UserCreated ? new TimeoutException("no ack") : null;

        Outcome o = service.submit(new CreateUser("ivy", null));

        assertThat(o.rejection().reason()).isEqualTo(Reason.UNCONFIRMED);
        assertThat(usernames.find("ivy")).as("kept: a retry must not create a second ivy").isPresent();
        assertThat(o.createdId()).as("the id it was published with").isEqualTo(usernames.find("ivy").getAsLong());
        assertThat(o.eventId()).isPositive();
        assertThat(store.size()).isEqualTo(entries + 1);
        publisher.failWith = e -> null;
        assertThat(service.submit(new CreateUser("ivy", null)).rejection().reason()).isEqualTo(Reason.CONFLICT);
    }

    @Test
    void anIdOnAShardOutsideTheShardMapIsUnknownNotAnOutage() {
        long a = user("jack");
        long beyond = ShardedId.compose(5000, ObjectType.USER, 1);

        List<Outcome> outcomes = service.submitAll(List.of(new FollowUser(a, beyond), new FollowUser(beyond, a)));

        assertThat(outcomes).extracting(x -> x.rejection().reason()).containsExactly(Reason.UNKNOWN_ID, Reason.UNKNOWN_ID);
        assertThat(outcomes.get(0).rejection().field()).isEqualTo("targetUserId");
    }

    @Test
    void aDirectoryOutageRejectsAsUnavailableAndReleasesTheName() {
        store.failRegister = new StoreUnavailableException("mysql001", "mysql001 down");

        Outcome o = service.submit(new CreateUser("ivan", null));

        assertThat(o.rejection().reason()).isEqualTo(Reason.UNAVAILABLE);
        assertThat(o.rejection().store()).isEqualTo("mysql001");
        assertThat(store.size()).isZero();
        assertThat(o.rejection().detail()).contains("mysql001 down");
        assertThat(usernames.find("ivan")).isEmpty();
        assertThat(publisher.published()).isEmpty();
    }

    @Test
    void aBugInAnAdapterIsThrownNotReportedAsAnOutageAndLeavesNoClaim() {
        store.failRegister = new NullPointerException("a bug in the directory");

        assertThatThrownBy(() -> service.submit(new CreateUser("nina", null))).isInstanceOf(NullPointerException.class);

        assertThat(usernames.find("nina")).as("released").isEmpty();
        assertThat(publisher.published()).isEmpty();
    }

    @Test
    void aBugWhilePublishingReleasesWhatWasNotSentAndIsThrown() {
        long owner = user("olga");
        int before = publisher.published().size();
        publisher.failWith = e -> {
            if (e instanceof UserCreated u && u.getUsername().toString().equals("olga_2")) throw new IllegalStateException("publisher bug");
            return null;
        };

        assertThatThrownBy(() -> service.submitAll(List.of(new CreateBoard(owner, "first", null), new CreateUser("olga_2", null))))
                .isInstanceOf(IllegalStateException.class).hasMessage("publisher bug");

        assertThat(publisher.published()).hasSize(before + 1);
        assertThat(usernames.find("olga_2")).as("never sent: released").isEmpty();
    }

    @Test
    void kafkaOrTheRegistryDownBeforeSendingIsUnavailableNamingTheStoreAndStopsTheBatch() {
        long owner = user("pia");
        long board = board(owner);
        int before = publisher.published().size();
        publisher.failWith = e -> e instanceof PinCreated ? new StoreUnavailableException("schema-registry", "connection refused") : null;

        List<Outcome> outcomes = service.submitAll(List.of(new CreatePin(board, owner, "p", null, null), new FollowUser(owner, user("quinn"))));

        assertThat(outcomes).extracting(o -> o.rejection().reason()).containsExactly(Reason.UNAVAILABLE, Reason.UNAVAILABLE);
        assertThat(outcomes.get(0).rejection().store()).isEqualTo("schema-registry");
        assertThat(publisher.published()).hasSize(before + 1); // quinn's UserCreated only
    }

    @Test
    void aSequenceStoreOutageIsUnavailableNamingTheHost() {
        IngestService down = new IngestService(
                new IdSource(new ShardedIdAllocator((shard, type, size) -> {
                    throw new StoreUnavailableException("mysql002", "no connection to its master");
                }, 100), new ShardPlacement(OpenShards.parse("0-15"), new SplittableRandom(1)),
                        TimeSortableIdGenerator.systemClock(new TimeSortableLayout(TimeSortableLayout.DEFAULT_EPOCH), Duration.ZERO), 3),
                directory, usernames, publisher, InstantSource.fixed(NOW), Duration.ofSeconds(5), 4096);

        Outcome o = down.submit(new CreateUser("rita", null));

        assertThat(o.rejection().reason()).isEqualTo(Reason.UNAVAILABLE);
        assertThat(o.rejection().store()).isEqualTo("mysql002");
    }

    @Test
    void aBatchAnswersPerCommandAndPublishesOnlyTheAcceptedInOrder() {
        long a = user("judy");
        long b = user("karl");
        long ghost = ShardedId.compose(2, ObjectType.USER, 888_888);
        int before = publisher.published().size();

        List<Outcome> outcomes = service.submitAll(List.of(
                new FollowUser(a, b), new FollowUser(a, ghost), new CreateUser("judy", null), new FollowUser(b, a)));

        assertThat(outcomes).extracting(Outcome::accepted).containsExactly(true, false, false, true);
        assertThat(outcomes.get(1).rejection().field()).isEqualTo("targetUserId");
        assertThat(outcomes.get(2).rejection().reason()).isEqualTo(Reason.CONFLICT);
        assertThat(publisher.published().subList(before, publisher.published().size()))
                .extracting(r -> r.getClass().getSimpleName()).containsExactly("UserFollowed", "UserFollowed");
    }

    @Test
    void referencesAreLookedUpOncePerBatchAndCachedAfterwards() {
        long a = user("lena");
        long b = user("mike");
        int lookups = store.findCalls;

        service.submitAll(List.of(new FollowUser(a, b), new FollowUser(b, a)));
        service.submitAll(List.of(new FollowUser(a, b)));

        assertThat(store.findCalls - lookups).as("created objects are cached once durable").isZero();
    }

    // ---- repins: a PinCreated with parentPinId on the repinner's board, content copied from the parent

    /** The service over the same stores, copying a repin's content from {@code contents}. */
    private IngestService withContents(PinContents contents) {
        return new IngestService(new IdSource(new ShardedIdAllocator(new InMemorySequenceStore(), 100),
                new ShardPlacement(OpenShards.parse("0-15"), new SplittableRandom(2)),
                TimeSortableIdGenerator.systemClock(new TimeSortableLayout(TimeSortableLayout.DEFAULT_EPOCH), Duration.ZERO), 3),
                directory, usernames, publisher, InstantSource.fixed(NOW), Duration.ofSeconds(5), () -> 4096, contents);
    }

    @Test
    void aRepinIsAPinCreatedOnTheRepinnersBoardWithItsParentAndTheParentsContent() {
        long author = user("rp_ann");
        long saver = user("rp_ben");
        long parent = pin(board(author), author);
        long saversBoard = board(saver);
        IngestService repins = withContents(id -> id == parent
                ? Optional.of(new PinContents.Content("a pin", "https://example.com/a", "https://img.example.com/a.jpg")) : Optional.empty());

        Outcome o = repins.submit(new RepinPin(parent, saversBoard, saver));

        assertThat(o.accepted()).as("%s", o.rejection()).isTrue();
        assertThat(ShardedId.decode(o.createdId()).shard()).as("on its board's shard").isEqualTo(ShardedId.decode(saversBoard).shard());
        PinCreated event = publisher.published(PinCreated.class).get(publisher.published(PinCreated.class).size() - 1);
        assertThat(event.getPinId()).isEqualTo(o.createdId());
        assertThat(event.getParentPinId()).isEqualTo(parent);
        assertThat(event.getBoardId()).isEqualTo(saversBoard);
        assertThat(event.getAuthorId()).isEqualTo(saver);
        assertThat(event.getActorId()).isEqualTo(saver);
        assertThat(event.getDetails()).isEqualTo("a pin");
        assertThat(event.getLink()).isEqualTo("https://example.com/a");
        assertThat(event.getImageUrl()).isEqualTo("https://img.example.com/a.jpg");
        assertThat(service.submit(new LikePin(author, o.createdId())).accepted()).as("the repin is a known pin").isTrue();
    }

    @Test
    void aRepinOfAParentTheCanonicalStoreDoesNotHaveYetCarriesNoContent() {
        long author = user("rq_ann");
        long saver = user("rq_ben");
        long parent = pin(board(author), author);

        Outcome o = service.submit(new RepinPin(parent, board(saver), saver));

        assertThat(o.accepted()).isTrue();
        PinCreated event = publisher.published(PinCreated.class).get(publisher.published(PinCreated.class).size() - 1);
        assertThat(event.getParentPinId()).isEqualTo(parent);
        assertThat(event.getDetails()).isEmpty();
        assertThat(event.getLink()).isNull();
    }

    @Test
    void aRepinOntoSomeoneElsesBoardIsRefusedNamingBoardId() {
        long author = user("rr_ann");
        long saver = user("rr_ben");
        long authorsBoard = board(author);
        long parent = pin(authorsBoard, author);
        int before = publisher.published().size();

        Outcome o = service.submit(new RepinPin(parent, authorsBoard, saver));

        assertThat(o.rejection().reason()).isEqualTo(Reason.INVALID);
        assertThat(o.rejection().field()).isEqualTo("boardId");
        assertThat(o.rejection().detail()).contains(Long.toString(authorsBoard)).contains("repinner");
        assertThat(publisher.published()).hasSize(before);
    }

    @Test
    void aRepinOfADeletedOrUnknownPinIsRefusedNamingPinId() {
        long author = user("rs_ann");
        long saver = user("rs_ben");
        long board = board(author);
        long gone = pin(board, author);
        long saversBoard = board(saver);
        assertThat(service.submit(new DeletePin(gone)).accepted()).isTrue();
        int before = publisher.published().size();

        Outcome deleted = service.submit(new RepinPin(gone, saversBoard, saver));
        long unknownPin = ShardedId.compose(ShardedId.decode(gone).shard(), ObjectType.PIN, 999_999);
        Outcome unknown = service.submit(new RepinPin(unknownPin, saversBoard, saver));

        assertThat(deleted.rejection().reason()).isEqualTo(Reason.DELETED);
        assertThat(deleted.rejection().field()).isEqualTo("pinId");
        assertThat(unknown.rejection().reason()).isEqualTo(Reason.UNKNOWN_ID);
        assertThat(unknown.rejection().field()).isEqualTo("pinId");
        assertThat(publisher.published()).hasSize(before);
    }

    @Test
    void aRepinOfAPinDeletedEarlierInTheSameBatchIsRefused() {
        long author = user("rt_ann");
        long saver = user("rt_ben");
        long pin = pin(board(author), author);
        long saversBoard = board(saver);

        List<Outcome> out = service.submitAll(List.of(new DeletePin(pin), new RepinPin(pin, saversBoard, saver)));

        assertThat(out.get(0).accepted()).isTrue();
        assertThat(out.get(1).rejection().reason()).isEqualTo(Reason.DELETED);
        assertThat(out.get(1).rejection().field()).isEqualTo("pinId");
    }

    // ---- soft delete: a deleted pin stays known, marked deleted, and takes no new likes or reorders

    @Test
    void aDeletedPinRefusesLikesAndReordersNamingTheFieldAndPublishesNothing() {
        long author = user("sd_ann");
        long fan = user("sd_ben");
        long board = board(author);
        long kept = pin(board, author);
        long gone = pin(board, author);
        assertThat(service.submit(new DeletePin(gone)).accepted()).isTrue();
        int before = publisher.published().size();

        Outcome like = service.submit(new LikePin(fan, gone));
        Outcome reorder = service.submit(new ReorderBoardPins(board, List.of(kept, gone)));

        assertThat(like.rejection().reason()).isEqualTo(Reason.DELETED);
        assertThat(like.rejection().field()).isEqualTo("pinId");
        assertThat(like.rejection().detail()).contains(Long.toString(gone)).contains("deleted");
        assertThat(reorder.rejection().reason()).isEqualTo(Reason.DELETED);
        assertThat(reorder.rejection().field()).isEqualTo("pinIds[1]");
        assertThat(publisher.published()).hasSize(before);
        assertThat(service.submit(new LikePin(fan, kept)).accepted()).as("other pins are untouched").isTrue();
    }

    @Test
    void aDeletedPinCanBeUnlikedAndDeletedAgainAndEachPublishes() {
        long author = user("sd_cid");
        long fan = user("sd_dot");
        long board = board(author);
        long pin = pin(board, author);
        service.submit(new LikePin(fan, pin));
        Outcome first = service.submit(new DeletePin(pin));

        Outcome unlike = service.submit(new UnlikePin(fan, pin));
        Outcome again = service.submit(new DeletePin(pin));

        assertThat(unlike.accepted()).isTrue();
        assertThat(publisher.published(PinUnliked.class)).hasSize(1);
        assertThat(again.accepted()).isTrue();
        assertThat(again.eventId()).isNotEqualTo(first.eventId());
        assertThat(publisher.published(PinDeleted.class)).hasSize(2).allSatisfy(d -> {
            assertThat(d.getBoardId()).as("a repeated delete still carries the board").isEqualTo(board);
            assertThat(d.getAuthorId()).isEqualTo(author);
        });
        assertThat(store.find(List.of(pin)).get(pin).deleted()).isTrue();
    }

    @Test
    void aDeleteKafkaDidNotAcknowledgeIsNotRecorded() {
        long author = user("sd_eve");
        long board = board(author);
        long refused = pin(board, author);
        long unconfirmed = pin(board, author);
        publisher.failWith = e -> e instanceof PinDeleted d
                ? (d.getPinId() == refused ? new IngestRejection(Reason.OVERLOADED, null, "buffer full") : new TimeoutException("no ack"))
                : null;

        assertThat(service.submit(new DeletePin(refused)).rejection().reason()).isEqualTo(Reason.OVERLOADED);
        assertThat(service.submit(new DeletePin(unconfirmed)).rejection().reason()).isEqualTo(Reason.UNCONFIRMED);

        publisher.failWith = e -> null;
        assertThat(store.find(List.of(refused, unconfirmed))).allSatisfy((id, e) -> assertThat(e.deleted()).isFalse());
        assertThat(service.submit(new LikePin(author, unconfirmed)).accepted()).as("maybe not in the log: still live").isTrue();
        assertThat(service.submit(new DeletePin(unconfirmed)).accepted()).as("the retry publishes and records").isTrue();
        assertThat(service.submit(new LikePin(author, unconfirmed)).rejection().reason()).isEqualTo(Reason.DELETED);
    }

    @Test
    void aDirectoryOutageAfterTheAcknowledgementStillAnswersAcceptedAndADeleteAgainRecordsIt() {
        long author = user("sd_fay");
        long board = board(author);
        long pin = pin(board, author);
        store.failMarkDeleted = new StoreUnavailableException("mysql001", "mysql001 down");

        Outcome o = service.submit(new DeletePin(pin));

        assertThat(o.accepted()).as("the delete is in the log").isTrue();
        assertThat(publisher.published(PinDeleted.class)).hasSize(1);
        assertThat(service.submit(new LikePin(author, pin)).accepted()).as("the directory missed it").isTrue();
        store.failMarkDeleted = null;
        assertThat(service.submit(new DeletePin(pin)).accepted()).isTrue();
        assertThat(service.submit(new LikePin(author, pin)).rejection().reason()).isEqualTo(Reason.DELETED);
    }

    @Test
    void inABatchADeleteRefusesTheLaterCommandsNamingItNotTheEarlierOnes() {
        long author = user("sd_gus");
        long fan = user("sd_hal");
        long board = board(author);
        long pin = pin(board, author);
        long other = pin(board, author);

        List<Outcome> outcomes = service.submitAll(List.of(new LikePin(fan, pin), new DeletePin(pin), new LikePin(author, pin),
                new ReorderBoardPins(board, List.of(pin, other)), new LikePin(fan, other)));

        assertThat(outcomes).extracting(Outcome::accepted).containsExactly(true, true, false, false, true);
        assertThat(outcomes.get(2).rejection().field()).isEqualTo("pinId");
        assertThat(outcomes.get(3).rejection().field()).isEqualTo("pinIds[0]");
        assertThat(publisher.published(PinLiked.class)).extracting(PinLiked::getPinId).containsExactly(pin, other);
    }

    @Test
    void aDeletionThroughAnotherInstanceIsSeenOnceTheCachedLivePinExpires() {
        long author = user("sd_ida");
        long board = board(author);
        long pin = pin(board, author);
        assertThat(service.submit(new LikePin(author, pin)).accepted()).isTrue(); // cached live
        store.markDeleted(List.of(new ObjectDirectory.Entry(pin, author, board))); // as another instance records it

        assertThat(service.submit(new UnlikePin(author, pin)).accepted()).isTrue();
        assertThat(service.submit(new LikePin(author, pin)).accepted()).as("within the time to live").isTrue();
        cacheNow = cacheNow.plusSeconds(6);
        Outcome late = service.submit(new LikePin(author, pin));

        assertThat(late.rejection().reason()).isEqualTo(Reason.DELETED);
        int lookups = store.findCalls;
        cacheNow = cacheNow.plusSeconds(60);
        assertThat(service.submit(new LikePin(author, pin)).rejection().reason()).isEqualTo(Reason.DELETED);
        assertThat(store.findCalls).as("a deletion is final: cached for good").isEqualTo(lookups);
    }

    // ---- interests: objects with unique names, followed and unfollowed, carried by pins

    private final InMemoryUsernameIndex interestNames = new InMemoryUsernameIndex();

    /** The service over the same stores with an interest name index and repin contents from {@code contents}. */
    private IngestService withInterests(PinContents contents) {
        return new IngestService(new IdSource(new ShardedIdAllocator(new InMemorySequenceStore(), 100),
                new ShardPlacement(OpenShards.parse("0-15"), new SplittableRandom(3)),
                TimeSortableIdGenerator.systemClock(new TimeSortableLayout(TimeSortableLayout.DEFAULT_EPOCH), Duration.ZERO), 3),
                directory, usernames, publisher, InstantSource.fixed(NOW), Duration.ofSeconds(5), () -> 4096, contents, interestNames);
    }

    @Test
    void anInterestIsPublishedWithANewIdAndItsNameClaimedASecondOfTheNameIsAConflict() {
        IngestService interests = withInterests(PinContents.NONE);
        Outcome o = interests.submit(new IngestCommand.CreateInterest("mid-century-modern"));

        assertThat(o.accepted()).as("%s", o.rejection()).isTrue();
        assertThat(ShardedId.decode(o.createdId()).type()).isEqualTo(ObjectType.INTEREST);
        dev.pinfeed.events.InterestCreated event = publisher.published(dev.pinfeed.events.InterestCreated.class).get(0);
        assertThat(event.getInterestId()).isEqualTo(o.createdId());
        assertThat(event.getName()).isEqualTo("mid-century-modern");
        assertThat(interestNames.find("mid-century-modern")).hasValue(o.createdId());

        Outcome again = interests.submit(new IngestCommand.CreateInterest("mid-century-modern"));
        assertThat(again.rejection().reason()).isEqualTo(Reason.CONFLICT);
        assertThat(again.rejection().field()).isEqualTo("name");
        assertThat(publisher.published(dev.pinfeed.events.InterestCreated.class)).hasSize(1);
    }

    @Test
    void anInterestWhosePublishIsRefusedReleasesItsName() {
        IngestService interests = withInterests(PinContents.NONE);
        publisher.failWith = e -> new dev.pinfeed.config.StoreUnavailableException("kafka", "down");
        assertThat(interests.submit(new IngestCommand.CreateInterest("ceramics")).accepted()).isFalse();
        publisher.failWith = e -> null;

        assertThat(interestNames.find("ceramics")).isEmpty();
        assertThat(interests.submit(new IngestCommand.CreateInterest("ceramics")).accepted()).isTrue();
    }

    @Test
    void aPinCarriesKnownInterestsAndAnUnknownOneIsRefusedNamingItsPlace() {
        IngestService interests = withInterests(PinContents.NONE);
        long author = user("in_ann");
        long board = board(author);
        long wood = interests.submit(new IngestCommand.CreateInterest("woodworking")).createdId();
        long clay = interests.submit(new IngestCommand.CreateInterest("clay")).createdId();

        Outcome tagged = interests.submit(new CreatePin(board, author, "a bowl", null, null, List.of(clay, wood)));
        assertThat(tagged.accepted()).as("%s", tagged.rejection()).isTrue();
        PinCreated event = publisher.published(PinCreated.class).get(0);
        assertThat(event.getInterestIds()).containsExactly(clay, wood);

        long ghost = ShardedId.compose(3, ObjectType.INTEREST, 1L << 30);
        Outcome refused = interests.submit(new CreatePin(board, author, "a cup", null, null, List.of(wood, ghost)));
        assertThat(refused.rejection().reason()).isEqualTo(Reason.UNKNOWN_ID);
        assertThat(refused.rejection().field()).isEqualTo("interestIds[1]");
        assertThat(publisher.published(PinCreated.class)).hasSize(1);
    }

    @Test
    void followingAndUnfollowingAnInterestPublishTheirEventsKeyedByTheFollower() {
        IngestService interests = withInterests(PinContents.NONE);
        long reader = user("in_ben");
        long wood = interests.submit(new IngestCommand.CreateInterest("joinery")).createdId();

        assertThat(interests.submit(new IngestCommand.FollowInterest(reader, wood)).accepted()).isTrue();
        assertThat(interests.submit(new IngestCommand.UnfollowInterest(reader, wood)).accepted()).isTrue();
        dev.pinfeed.events.InterestFollowed followed = publisher.published(dev.pinfeed.events.InterestFollowed.class).get(0);
        assertThat(followed.getFollowerId()).isEqualTo(reader);
        assertThat(followed.getInterestId()).isEqualTo(wood);
        assertThat(dev.pinfeed.eventsschema.EventTopics.partitionKey(followed)).isEqualTo(Long.toString(reader));
        assertThat(publisher.published(dev.pinfeed.events.InterestUnfollowed.class).get(0).getInterestId()).isEqualTo(wood);

        long ghost = ShardedId.compose(3, ObjectType.INTEREST, 1L << 31);
        Outcome unknown = interests.submit(new IngestCommand.FollowInterest(reader, ghost));
        assertThat(unknown.rejection().reason()).isEqualTo(Reason.UNKNOWN_ID);
        assertThat(unknown.rejection().field()).isEqualTo("interestId");
    }

    @Test
    void aDeleteNamesThePinsInterestsAsTheCanonicalStoreHasThem() {
        long author = user("in_eve");
        long pin = pin(board(author), author);
        IngestService deletes = withInterests(id -> id == pin
                ? Optional.of(new PinContents.Content("a pin", null, null, List.of(91L))) : Optional.empty());

        assertThat(deletes.submit(new IngestCommand.DeletePin(pin)).accepted()).isTrue();
        assertThat(publisher.published(dev.pinfeed.events.PinDeleted.class).get(0).getInterestIds()).containsExactly(91L);
    }

    @Test
    void aRepinCarriesItsParentsInterests() {
        long author = user("in_cid");
        long saver = user("in_dan");
        long parent = pin(board(author), author);
        long saversBoard = board(saver);
        IngestService repins = withInterests(id -> id == parent
                ? Optional.of(new PinContents.Content("a pin", null, null, List.of(77L, 78L))) : Optional.empty());

        assertThat(repins.submit(new RepinPin(parent, saversBoard, saver)).accepted()).isTrue();
        PinCreated repin = publisher.published(PinCreated.class).get(1);
        assertThat(repin.getParentPinId()).isEqualTo(parent);
        assertThat(repin.getInterestIds()).containsExactly(77L, 78L);
    }
}
