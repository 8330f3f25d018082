package dev.pinfeed.ingestapi.core;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.events.BoardCreated;
import dev.pinfeed.events.BoardFollowed;
import dev.pinfeed.events.BoardPinsReordered;
import dev.pinfeed.events.BoardUnfollowed;
import dev.pinfeed.events.CommentCreated;
import dev.pinfeed.events.CommentDeleted;
import dev.pinfeed.events.InterestCreated;
import dev.pinfeed.events.InterestFollowed;
import dev.pinfeed.events.InterestUnfollowed;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.PinDeleted;
import dev.pinfeed.events.PinLiked;
import dev.pinfeed.events.PinUnliked;
import dev.pinfeed.events.UserCreated;
import dev.pinfeed.events.UserFollowed;
import dev.pinfeed.events.UserUnfollowed;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.ingestapi.core.IngestCommand.CreateBoard;
import dev.pinfeed.ingestapi.core.IngestCommand.CreateComment;
import dev.pinfeed.ingestapi.core.IngestCommand.CreateInterest;
import dev.pinfeed.ingestapi.core.IngestCommand.FollowInterest;
import dev.pinfeed.ingestapi.core.IngestCommand.UnfollowInterest;
import dev.pinfeed.ingestapi.core.IngestCommand.CreatePin;
import dev.pinfeed.ingestapi.core.IngestCommand.CreateUser;
import dev.pinfeed.ingestapi.core.IngestCommand.DeleteComment;
import dev.pinfeed.ingestapi.core.IngestCommand.DeletePin;
import dev.pinfeed.ingestapi.core.IngestCommand.FollowBoard;
import dev.pinfeed.ingestapi.core.IngestCommand.FollowUser;
import dev.pinfeed.ingestapi.core.IngestCommand.LikePin;
import dev.pinfeed.ingestapi.core.IngestCommand.ReorderBoardPins;
import dev.pinfeed.ingestapi.core.IngestCommand.RepinPin;
import dev.pinfeed.ingestapi.core.IngestCommand.UnfollowBoard;
import dev.pinfeed.ingestapi.core.IngestCommand.UnfollowUser;
import dev.pinfeed.ingestapi.core.IngestCommand.UnlikePin;
import dev.pinfeed.ingestapi.core.IngestRejection.Reason;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.avro.specific.SpecificRecord;

/**
 * Turns validated commands into published events: checks that referenced objects exist (and, for
 * likes, reorders and repins, that a pin is not deleted; for a repin, that the board is the repinner's),
 * copies a repin's content from its parent ({@link PinContents}), assigns IDs, claims usernames, records new objects
 * in the directory, publishes, waits for the acknowledgement and then records deleted pins. A
 * command that fails at any step leaves nothing behind: its username claim and directory entry are
 * undone and no event of it is published. The one exception is an event Kafka
 * did not confirm (UNCONFIRMED): it may be in the log, so its claims stay (see {@link #publish}).
 *
 * <p>Failure classes: a rejection ({@link IngestRejection}) for bad input, unknown ids, conflicts and
 * overload; UNAVAILABLE for a store that was down ({@code StoreUnavailableException} from an adapter,
 * naming the store; nothing published, safe to retry); UNCONFIRMED for an event Kafka did not
 * acknowledge. Anything else is a bug and is thrown, never reported as "safe to retry".
 *
 * <p>Why an UNCONFIRMED UserCreated keeps its username claim: Kafka's producer reports a batch that
 * expired before any broker had it and one whose acknowledgement was lost with the same error, so the
 * event may be in the log. Releasing the claim then could let another user take a name the log already
 * gives this one: two users with one name, which no repair can undo without renaming one of them.
 * Keeping it costs, when the event really was lost, an orphan claim (a name nobody can take, naming a
 * user who never appears). Those are few: a log that is unreachable refuses new events before they
 * enter the producer ({@code LogReachability}), and those claims are released at once; only events in
 * flight when it went away are unconfirmed. {@code ./pinfeed verify index --repair} is the remedy: it
 * deletes a claim only once its user has no row and no UserCreated in the users topic, after a settle
 * time longer than a publish can take, and only while the claim still names that user.
 */
public final class IngestService {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(IngestService.class);

    /** The answer for one command: accepted with its event (and new object) id, or rejected. */
    public record Outcome(IngestCommand command, long createdId, long eventId, IngestRejection rejection) {
        public boolean accepted() {
            return rejection == null;
        }

        public static Outcome rejected(IngestCommand command, IngestRejection rejection) {
            return new Outcome(command, 0, 0, rejection);
        }

        /** An UNCONFIRMED publish: the event may be in the log, so it keeps the ids it was published with. */
        private static Outcome unconfirmed(Prepared p, IngestRejection rejection) {
            return new Outcome(p.command(), p.createdId(), p.eventId(), rejection);
        }
    }

    /** One command ready to publish, what to undo if publishing fails, and the pin it deletes (recorded once acknowledged). */
    private record Prepared(int index, IngestCommand command, SpecificRecord event, long createdId, long eventId,
                            ObjectDirectory.Entry newEntry, String claimedUsername, ObjectDirectory.Entry deletes) {}

    private final IdSource ids;
    private final CachingObjectDirectory directory;
    private final UsernameIndex usernames;
    private final EventPublisher publisher;
    private final InstantSource clock;
    private final Duration publishTimeout;
    private final java.util.function.IntSupplier shardCount;
    private final PinContents contents;
    /** Interest names → ids; null: names are not checked for uniqueness (services that never create interests). */
    private final UsernameIndex interestNames;

    /** {@code shardCount}: logical shards in the shard map; an id on a shard beyond it names nothing. */
    public IngestService(IdSource ids, CachingObjectDirectory directory, UsernameIndex usernames, EventPublisher publisher,
                         InstantSource clock, Duration publishTimeout, int shardCount) {
        this(ids, directory, usernames, publisher, clock, publishTimeout, () -> shardCount);
    }

    /** {@code shardCount}: asked at each request (the live shard map grows when an operator opens shards). */
    public IngestService(IdSource ids, CachingObjectDirectory directory, UsernameIndex usernames, EventPublisher publisher,
                         InstantSource clock, Duration publishTimeout, java.util.function.IntSupplier shardCount) {
        this(ids, directory, usernames, publisher, clock, publishTimeout, shardCount, PinContents.NONE);
    }

    /** {@code contents}: where a repin's details, link and image come from (its parent in the canonical store). */
    public IngestService(IdSource ids, CachingObjectDirectory directory, UsernameIndex usernames, EventPublisher publisher,
                         InstantSource clock, Duration publishTimeout, java.util.function.IntSupplier shardCount, PinContents contents) {
        this(ids, directory, usernames, publisher, clock, publishTimeout, shardCount, contents, null);
    }

    /** {@code interestNames}: the index that keeps interest names unique (a second interest of a name is 409 naming {@code name}). */
    public IngestService(IdSource ids, CachingObjectDirectory directory, UsernameIndex usernames, EventPublisher publisher,
                         InstantSource clock, Duration publishTimeout, java.util.function.IntSupplier shardCount, PinContents contents,
                         UsernameIndex interestNames) {
        this.interestNames = interestNames;
        this.contents = contents;
        this.ids = ids;
        this.directory = directory;
        this.usernames = usernames;
        this.publisher = publisher;
        this.clock = clock;
        this.publishTimeout = publishTimeout;
        this.shardCount = shardCount;
    }

    public Outcome submit(IngestCommand command) {
        return submitAll(List.of(command)).get(0);
    }

    /**
     * Processes the commands in order; each gets its own outcome. Events of accepted commands are
     * published in order. A store that is down ({@link StoreUnavailableException}) rejects the commands
     * it concerns as UNAVAILABLE; any other exception is a bug: what the batch claimed and did not
     * send is released and the exception passes on (an HTTP 500, not "503, safe to retry").
     */
    public List<Outcome> submitAll(List<? extends IngestCommand> commands) {
        Outcome[] outcomes = new Outcome[commands.size()];
        Map<Long, ObjectDirectory.Entry> known;
        try {
            known = directory.find(referencedIds(commands, shardCount.getAsInt()));
        } catch (StoreUnavailableException e) {
            return rejectAll(commands, IngestRejection.unavailable("looking up the referenced objects", e));
        }
        IdSource.Batch batchIds = ids.batch(commands);
        List<Prepared> prepared = new ArrayList<>();
        Set<Long> deletedEarlier = new HashSet<>(); // pins this batch deletes before a later command names them
        try {
            for (int i = 0; i < commands.size(); i++) {
                if (stopping()) return refusedWhole(commands, prepared);
                IngestCommand command = commands.get(i);
                try {
                    checkReferences(command, known, deletedEarlier);
                    Prepared p = prepare(i, command, known, batchIds);
                    prepared.add(p);
                    if (p.deletes() != null) deletedEarlier.add(p.deletes().id());
                } catch (IngestRejection r) {
                    outcomes[i] = Outcome.rejected(command, r);
                } catch (StoreUnavailableException e) {
                    outcomes[i] = Outcome.rejected(command, IngestRejection.unavailable("assigning ids or claiming the username", e));
                }
            }
            if (stopping()) return refusedWhole(commands, prepared);
            claimUsernames(prepared, outcomes);
            List<ObjectDirectory.Entry> newEntries = prepared.stream().map(Prepared::newEntry).filter(e -> e != null).toList();
            if (!newEntries.isEmpty()) {
                try {
                    directory.register(newEntries);
                } catch (StoreUnavailableException e) {
                    IngestRejection r = IngestRejection.unavailable("registering the new objects", e);
                    undo(prepared); // one host may have committed before the other failed
                    for (Prepared p : prepared) outcomes[p.index()] = Outcome.rejected(p.command(), r);
                    return List.of(outcomes);
                }
            }
        } catch (RuntimeException | Error bug) {
            undo(prepared); // nothing of this batch was sent yet
            throw bug;
        }
        publish(prepared, outcomes);
        return List.of(outcomes);
    }

    /**
     * Sends in order and waits for every acknowledgement within one deadline. After the first event
     * Kafka cannot take (OVERLOADED, or Kafka / the registry down before sending), the rest of the
     * batch is not sent: that bounds the time a full buffer can hold the caller, and a retried event
     * cannot overtake a later one of its key.
     *
     * <p>A deleted pin is recorded in the directory only after Kafka acknowledged its PinDeleted: the
     * directory then never calls a pin deleted whose delete is not in the log (no atomic write spans
     * MySQL and Kafka; recording first would leave a live pin refusing likes after a crash or an
     * unconfirmed publish). The cost is the other way round: if recording fails after the
     * acknowledgement (or the process dies in between), the answer is still 202, the delete is in the
     * log, and the directory misses it until the delete is sent again (a repeated delete publishes again
     * and records it; see docs/operations.md).
     */
    private void publish(List<Prepared> prepared, Outcome[] outcomes) {
        long deadline = System.nanoTime() + publishTimeout.toNanos();
        List<CompletableFuture<Void>> acks = new ArrayList<>(prepared.size());
        IngestRejection refused = null;
        for (int k = 0; k < prepared.size(); k++) {
            CompletableFuture<Void> ack;
            if (refused != null) {
                ack = CompletableFuture.failedFuture(refused);
            } else {
                try {
                    ack = send(prepared.get(k).event());
                } catch (RuntimeException | Error bug) {
                    // The events before this one may be in the log: their claims stay. This one and the rest were never sent.
                    undo(prepared.subList(k, prepared.size()));
                    throw bug;
                }
                if (ack.isCompletedExceptionally()) {
                    IngestRejection notSent = notSent(ack.handle((v, e) -> e).join());
                    if (notSent != null) {
                        refused = notSent;
                        ack = CompletableFuture.failedFuture(notSent);
                    }
                }
            }
            acks.add(ack);
        }
        List<Prepared> notPublished = new ArrayList<>();
        List<ObjectDirectory.Entry> durable = new ArrayList<>();
        List<ObjectDirectory.Entry> deleted = new ArrayList<>();
        for (int k = 0; k < prepared.size(); k++) {
            Prepared p = prepared.get(k);
            try {
                acks.get(k).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                outcomes[p.index()] = new Outcome(p.command(), p.createdId(), p.eventId(), null);
                if (p.newEntry() != null) durable.add(p.newEntry());
                if (p.deletes() != null) deleted.add(p.deletes());
            } catch (ExecutionException e) {
                IngestRejection known = notSent(e.getCause());
                IngestRejection r = known != null ? known
                        : new IngestRejection(Reason.UNCONFIRMED, null, "Kafka did not acknowledge the event: " + e.getCause().getMessage(),
                                e.getCause());
                // Only what certainly never reached Kafka is undone; an unconfirmed event may be in the
                // log, and undoing it would let a retry create the object twice. It keeps its ids, so the
                // producer can look the object up later and learn whether it landed.
                if (r.reason() != Reason.UNCONFIRMED) {
                    outcomes[p.index()] = Outcome.rejected(p.command(), r);
                    notPublished.add(p);
                } else {
                    outcomes[p.index()] = Outcome.unconfirmed(p, r);
                }
            } catch (TimeoutException e) {
                outcomes[p.index()] = Outcome.unconfirmed(p, new IngestRejection(Reason.UNCONFIRMED, null,
                        "Kafka did not acknowledge the event within " + publishTimeout.toMillis() + " ms"));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                outcomes[p.index()] = Outcome.unconfirmed(p, new IngestRejection(Reason.UNCONFIRMED, null,
                        "interrupted while waiting for Kafka's acknowledgement", e));
            }
        }
        directory.remember(durable);
        undo(notPublished);
        try {
            directory.markDeleted(deleted);
        } catch (StoreUnavailableException e) {
            LOG.warn("pins {} are deleted (their PinDeleted is in the log) but the directory could not record it: {}; "
                    + "deleting them again records it", deleted.stream().map(ObjectDirectory.Entry::id).toList(), e.getMessage());
        }
    }

    /** Starts publishing; a publisher that throws an outage instead of failing the future is treated the same. */
    private CompletableFuture<Void> send(SpecificRecord event) {
        try {
            return publisher.publish(event);
        } catch (StoreUnavailableException | IngestRejection e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * The rejection for a publish failure that certainly sent nothing (a rejection other than
     * UNCONFIRMED, a store down before sending), or null: the event may be in the log.
     */
    private static IngestRejection notSent(Throwable failure) {
        if (failure instanceof IngestRejection r) return r.reason() == Reason.UNCONFIRMED ? null : r;
        if (failure instanceof StoreUnavailableException down) return IngestRejection.unavailable("publishing the event", down);
        return null;
    }

    /**
     * The server interrupts its handlers when it stops: a batch still preparing (a large one waits for id leases) is then
     * refused whole rather than cut halfway by the stores' pools closing under it, which left usernames claimed for users
     * never published.
     */
    private static boolean stopping() {
        return Thread.currentThread().isInterrupted();
    }

    private static final IngestRejection STOPPING = new IngestRejection(Reason.UNAVAILABLE, null,
            "ingest-api is stopping; nothing of the request was published: send it again");

    /** The batch refused before its usernames were claimed and its rows registered: only interest names are held yet. */
    private List<Outcome> refusedWhole(List<? extends IngestCommand> commands, List<Prepared> prepared) {
        for (Prepared p : prepared) {
            if (p.command() instanceof CreateInterest && p.claimedUsername() != null) releaseInterestNameQuietly(p.claimedUsername(), p.createdId());
        }
        return rejectAll(commands, STOPPING);
    }

    /**
     * Claims the usernames of the batch's new users together (one transaction per index host, where one a user took as
     * long as the rest of his creation); a user whose name is taken, also by an earlier user of the batch, is rejected
     * and leaves the batch, as one whose claim met a store that was down (his name released: the claim may have
     * committed).
     */
    private void claimUsernames(List<Prepared> prepared, Outcome[] outcomes) {
        List<Prepared> users = prepared.stream().filter(p -> p.command() instanceof CreateUser).toList();
        if (users.isEmpty()) return;
        Map<String, Long> claims = new LinkedHashMap<>(); // a name twice: the batch's first user claims it
        for (Prepared p : users) claims.putIfAbsent(p.claimedUsername(), p.createdId());
        Set<String> claimed;
        try {
            claimed = usernames.claimAll(claims);
        } catch (StoreUnavailableException e) {
            IngestRejection r = IngestRejection.unavailable("claiming the username", e);
            for (Prepared p : users) {
                releaseQuietly(p.claimedUsername(), p.createdId());
                outcomes[p.index()] = Outcome.rejected(p.command(), r);
            }
            prepared.removeAll(users);
            return;
        }
        List<Prepared> taken = users.stream()
                .filter(p -> !claimed.contains(p.claimedUsername()) || claims.get(p.claimedUsername()) != p.createdId()).toList();
        for (Prepared p : taken) {
            outcomes[p.index()] = Outcome.rejected(p.command(),
                    new IngestRejection(Reason.CONFLICT, "username", "username '" + p.claimedUsername() + "' is taken"));
        }
        prepared.removeAll(taken);
    }

    /** Best effort: releases what commands that were certainly not published claimed. */
    private void undo(List<Prepared> notPublished) {
        List<ObjectDirectory.Entry> entries = notPublished.stream().map(Prepared::newEntry).filter(e -> e != null).toList();
        if (!entries.isEmpty()) {
            try {
                directory.remove(entries);
            } catch (RuntimeException e) {
                LOG.warn("could not remove {} directory entries of unpublished commands: {}", entries.size(), e.getMessage());
            }
        }
        for (Prepared p : notPublished) {
            if (p.claimedUsername() != null && p.command() instanceof CreateInterest) {
                releaseInterestNameQuietly(p.claimedUsername(), p.createdId());
            } else if (p.claimedUsername() != null) {
                releaseQuietly(p.claimedUsername(), p.createdId());
            }
        }
    }

    private void releaseQuietly(String username, long userId) {
        try {
            usernames.release(username, userId);
        } catch (RuntimeException e) {
            LOG.warn("could not release username '{}' of unpublished user {}: {}", username, userId, e.getMessage());
        }
    }

    private void releaseInterestNameQuietly(String name, long interestId) {
        try {
            interestNames.release(name, interestId);
        } catch (RuntimeException e) {
            LOG.warn("could not release interest name '{}' of unpublished interest {}: {}", name, interestId, e.getMessage());
        }
    }

    /** Ids to look up; ids on shards beyond the shard map cannot exist and are left out (they answer 404). */
    private static Set<Long> referencedIds(List<? extends IngestCommand> commands, int shardCount) {
        Set<Long> refs = new HashSet<>();
        for (IngestCommand c : commands) {
            for (IngestCommand.Reference r : c.references()) {
                if (ShardedId.decode(r.id()).shard() < shardCount) refs.add(r.id());
            }
        }
        return refs;
    }

    private static void checkReferences(IngestCommand command, Map<Long, ObjectDirectory.Entry> known, Set<Long> deletedEarlier) {
        for (IngestCommand.Reference r : command.references()) {
            ObjectDirectory.Entry entry = known.get(r.id());
            if (entry == null) {
                throw new IngestRejection(Reason.UNKNOWN_ID, r.field(), r.field() + " " + r.id() + " names no known "
                        + ShardedId.decode(r.id()).typeName());
            }
            if (r.live()) (deletedEarlier.contains(r.id()) ? entry.asDeleted() : entry).requireLive(r.field());
        }
        // The follower model has no edge from an owner to his own board (seed 004): refuse it here.
        long boardId = command instanceof FollowBoard f ? f.boardId() : command instanceof UnfollowBoard u ? u.boardId() : 0;
        long userId = command instanceof FollowBoard f ? f.userId() : command instanceof UnfollowBoard u ? u.userId() : 0;
        if (boardId != 0 && known.get(boardId).ownerId() == userId) {
            throw IngestRejection.invalid("boardId", "board " + boardId + " belongs to user " + userId + "; owners do not follow their own boards");
        }
        if (command instanceof RepinPin repin && known.get(repin.boardId()).ownerId() != repin.authorId()) {
            throw IngestRejection.invalid("boardId", "board " + repin.boardId() + " belongs to user " + known.get(repin.boardId()).ownerId()
                    + ", not to the repinner " + repin.authorId() + "; a repin goes on one of the repinner's boards");
        }
        if (command instanceof ReorderBoardPins reorder) {
            for (int i = 0; i < reorder.pinIds().size(); i++) {
                ObjectDirectory.Entry pin = known.get(reorder.pinIds().get(i));
                if (pin.parentId() != reorder.boardId()) {
                    throw IngestRejection.invalid("pinIds[" + i + "]", "pin " + pin.id() + " is on board " + pin.parentId()
                            + ", not on board " + reorder.boardId());
                }
            }
        }
    }

    private Prepared prepare(int index, IngestCommand command, Map<Long, ObjectDirectory.Entry> known, IdSource.Batch batchIds) {
        long eventId = ids.newEventId();
        Instant now = clock.instant();
        if (command instanceof CreateUser c) {
            long userId = batchIds.newId(index, c); // its username is claimed with the batch's others (claimUsernames)
            return new Prepared(index, c, UserCreated.newBuilder().setEventId(eventId).setOccurredAt(now).setActorId(userId)
                    .setUserId(userId).setUsername(c.username()).setDisplayName(c.displayName()).build(),
                    userId, eventId, new ObjectDirectory.Entry(userId, userId, 0), c.username(), null);
        }
        if (command instanceof CreateBoard c) {
            long boardId = batchIds.newId(index, c);
            return new Prepared(index, c, BoardCreated.newBuilder().setEventId(eventId).setOccurredAt(now).setActorId(c.ownerId())
                    .setBoardId(boardId).setOwnerId(c.ownerId()).setName(c.name()).setDescription(c.description()).build(),
                    boardId, eventId, new ObjectDirectory.Entry(boardId, c.ownerId(), 0), null, null);
        }
        if (command instanceof CreatePin c) {
            long pinId = batchIds.newId(index, c);
            return new Prepared(index, c, PinCreated.newBuilder().setEventId(eventId).setOccurredAt(now).setActorId(c.authorId())
                    .setPinId(pinId).setBoardId(c.boardId()).setAuthorId(c.authorId()).setDetails(c.details())
                    .setLink(c.link()).setImageUrl(c.imageUrl()).setInterestIds(c.interestIds()).build(),
                    pinId, eventId, new ObjectDirectory.Entry(pinId, c.authorId(), c.boardId()), null, null);
        }
        if (command instanceof RepinPin c) {
            // The parent's content as the canonical store has it (normally: a pin is repinned well after the materializer wrote it).
            PinContents.Content from = contents.of(c.pinId()).orElse(PinContents.Content.UNKNOWN);
            long pinId = batchIds.newId(index, c);
            return new Prepared(index, c, PinCreated.newBuilder().setEventId(eventId).setOccurredAt(now).setActorId(c.authorId())
                    .setPinId(pinId).setBoardId(c.boardId()).setAuthorId(c.authorId()).setDetails(from.details())
                    .setLink(from.link()).setImageUrl(from.imageUrl()).setParentPinId(c.pinId()).setInterestIds(from.interestIds()).build(),
                    pinId, eventId, new ObjectDirectory.Entry(pinId, c.authorId(), c.boardId()), null, null);
        }
        if (command instanceof CreateInterest c) {
            long interestId = batchIds.newId(index, c);
            if (interestNames != null) {
                boolean claimed;
                try {
                    claimed = interestNames.claim(c.name(), interestId);
                } catch (RuntimeException e) {
                    releaseInterestNameQuietly(c.name(), interestId); // the INSERT may have committed before the failure
                    throw e;
                }
                if (!claimed) {
                    throw new IngestRejection(Reason.CONFLICT, "name", "interest name '" + c.name() + "' is taken by interest "
                            + interestNames.find(c.name()).orElse(0));
                }
            }
            return new Prepared(index, c, InterestCreated.newBuilder().setEventId(eventId).setOccurredAt(now)
                    .setInterestId(interestId).setName(c.name()).build(),
                    interestId, eventId, new ObjectDirectory.Entry(interestId, 0, 0), interestNames != null ? c.name() : null, null);
        }
        if (command instanceof FollowInterest c) {
            return published(index, c, eventId, InterestFollowed.newBuilder().setEventId(eventId).setOccurredAt(now)
                    .setActorId(c.userId()).setFollowerId(c.userId()).setInterestId(c.interestId()).build());
        }
        if (command instanceof UnfollowInterest c) {
            return published(index, c, eventId, InterestUnfollowed.newBuilder().setEventId(eventId).setOccurredAt(now)
                    .setActorId(c.userId()).setFollowerId(c.userId()).setInterestId(c.interestId()).build());
        }
        if (command instanceof DeletePin c) {
            // Also when the pin is already deleted: the delete may be a retry whose first answer was lost.
            ObjectDirectory.Entry pin = known.get(c.pinId());
            // Its interests as the canonical store has them (none once it is deleted there: a repeated delete names none).
            List<Long> interests = pin.deleted() ? List.of() : contents.of(c.pinId()).map(PinContents.Content::interestIds).orElse(List.of());
            return new Prepared(index, c, PinDeleted.newBuilder().setEventId(eventId).setOccurredAt(now)
                    .setActorId(pin.ownerId()).setPinId(c.pinId()).setBoardId(pin.parentId()).setAuthorId(pin.ownerId())
                    .setInterestIds(interests).build(),
                    0, eventId, null, null, pin);
        }
        if (command instanceof CreateComment c) {
            // Its pin was checked as a like's pin is (checkReferences): known to the object directory and not deleted.
            long commentId = batchIds.newId(index, c);
            return new Prepared(index, c, CommentCreated.newBuilder().setEventId(eventId).setOccurredAt(now).setActorId(c.authorId())
                    .setCommentId(commentId).setPinId(c.pinId()).setAuthorId(c.authorId()).setText(c.text()).build(),
                    commentId, eventId, new ObjectDirectory.Entry(commentId, c.authorId(), c.pinId()), null, null);
        }
        if (command instanceof DeleteComment c) {
            ObjectDirectory.Entry comment = known.get(c.commentId());
            return published(index, c, eventId, CommentDeleted.newBuilder().setEventId(eventId).setOccurredAt(now)
                    .setActorId(comment.ownerId()).setCommentId(c.commentId()).setPinId(comment.parentId()).setAuthorId(comment.ownerId())
                    .build());
        }
        if (command instanceof FollowUser c) {
            return published(index, c, eventId, UserFollowed.newBuilder().setEventId(eventId).setOccurredAt(now)
                    .setActorId(c.userId()).setFollowerId(c.userId()).setFolloweeId(c.targetUserId()).build());
        }
        if (command instanceof UnfollowUser c) {
            return published(index, c, eventId, UserUnfollowed.newBuilder().setEventId(eventId).setOccurredAt(now)
                    .setActorId(c.userId()).setFollowerId(c.userId()).setFolloweeId(c.targetUserId()).build());
        }
        if (command instanceof FollowBoard c) {
            long owner = known.get(c.boardId()).ownerId();
            return published(index, c, eventId, BoardFollowed.newBuilder().setEventId(eventId).setOccurredAt(now)
                    .setActorId(c.userId()).setFollowerId(c.userId()).setBoardId(c.boardId()).setBoardOwnerId(owner).build());
        }
        if (command instanceof UnfollowBoard c) {
            long owner = known.get(c.boardId()).ownerId();
            return published(index, c, eventId, BoardUnfollowed.newBuilder().setEventId(eventId).setOccurredAt(now)
                    .setActorId(c.userId()).setFollowerId(c.userId()).setBoardId(c.boardId()).setBoardOwnerId(owner).build());
        }
        if (command instanceof LikePin c) {
            return published(index, c, eventId, PinLiked.newBuilder().setEventId(eventId).setOccurredAt(now)
                    .setActorId(c.userId()).setUserId(c.userId()).setPinId(c.pinId()).build());
        }
        if (command instanceof UnlikePin c) {
            return published(index, c, eventId, PinUnliked.newBuilder().setEventId(eventId).setOccurredAt(now)
                    .setActorId(c.userId()).setUserId(c.userId()).setPinId(c.pinId()).build());
        }
        if (command instanceof ReorderBoardPins c) {
            long owner = known.get(c.boardId()).ownerId();
            return published(index, c, eventId, BoardPinsReordered.newBuilder().setEventId(eventId).setOccurredAt(now)
                    .setActorId(owner).setBoardId(c.boardId()).setPinIds(c.pinIds()).build());
        }
        throw new IllegalArgumentException("unknown command " + command);
    }

    private static Prepared published(int index, IngestCommand command, long eventId, SpecificRecord event) {
        return new Prepared(index, command, event, 0, eventId, null, null, null);
    }

    private static List<Outcome> rejectAll(List<? extends IngestCommand> commands, IngestRejection r) {
        return commands.stream().map(c -> Outcome.rejected(c, r)).toList();
    }
}
