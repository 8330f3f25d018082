package dev.pinfeed.ingestapi.core;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.idallocator.ClockMovedBackwardsException;
import dev.pinfeed.idallocator.IdAllocationException;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardPlacement;
import dev.pinfeed.idallocator.ShardedIdAllocator;
import dev.pinfeed.idallocator.TimeSortableIdGenerator;
import dev.pinfeed.ingestapi.core.IngestCommand.CreateBoard;
import dev.pinfeed.ingestapi.core.IngestCommand.CreateComment;
import dev.pinfeed.ingestapi.core.IngestCommand.CreateInterest;
import dev.pinfeed.ingestapi.core.IngestCommand.CreatePin;
import dev.pinfeed.ingestapi.core.IngestCommand.CreateUser;
import dev.pinfeed.ingestapi.core.IngestCommand.RepinPin;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Where ingest gets its IDs: object IDs from leased per-shard blocks, placed as the seed places
 * them (a board on its owner's shard, a pin on its board's, a comment on its pin's), and time-sortable event IDs from
 * this instance's logical shard. Failures are classified for {@link IngestService}: a sequence store
 * that is down surfaces as its {@link StoreUnavailableException}, a clock that stepped back further
 * than the generator waits out as an UNAVAILABLE rejection (both safe to retry); anything else passes
 * on as it is (a bug, an exhausted id space).
 */
public final class IdSource {

    private final ShardedIdAllocator allocator;
    private final ShardPlacement placement;
    private final TimeSortableIdGenerator eventIds;
    private final int eventIdShard;

    /** {@code eventIdShard} must differ between ingest instances, or their event IDs could collide. */
    public IdSource(ShardedIdAllocator allocator, ShardPlacement placement, TimeSortableIdGenerator eventIds, int eventIdShard) {
        this.allocator = allocator;
        this.placement = placement;
        this.eventIds = eventIds;
        this.eventIdShard = eventIdShard;
    }

    /**
     * The ids of a batch's new objects, their blocks leased ahead: each command that creates an object is placed now, and
     * every (type, shard) sequence the batch needs without ids left starts its lease at once
     * ({@link ShardedIdAllocator#leaseAhead}). After a start every sequence is empty, and a batch of new users (each on a
     * shard of his own) waited for one lease after another.
     */
    public Batch batch(List<? extends IngestCommand> commands) {
        ObjectType[] types = new ObjectType[commands.size()];
        int[] shards = new int[commands.size()];
        Map<ObjectType, Set<Integer>> needed = new EnumMap<>(ObjectType.class);
        for (int i = 0; i < commands.size(); i++) {
            try {
                types[i] = typeOfNew(commands.get(i));
                if (types[i] == null) continue;
                shards[i] = shardOfNew(commands.get(i));
                needed.computeIfAbsent(types[i], t -> new HashSet<>()).add(shards[i]);
            } catch (RuntimeException unplaceable) {
                types[i] = null; // not leased ahead; its checks reject it before it asks for an id, or the id asks again
            }
        }
        needed.forEach(allocator::leaseAhead);
        return new Batch(types, shards);
    }

    /** The new objects' ids of one batch, by the command's index in it. */
    public final class Batch {
        private final ObjectType[] types;
        private final int[] shards;

        private Batch(ObjectType[] types, int[] shards) {
            this.types = types;
            this.shards = shards;
        }

        /** The id of the object {@code command}, at {@code index} in the batch, creates, on the shard the batch placed it. */
        public long newId(int index, IngestCommand command) {
            if (types[index] == null) return issue(() -> allocator.newId(typeOfNew(command), shardOfNew(command))); // placing it threw: again
            return issue(() -> allocator.newId(types[index], shards[index]));
        }
    }

    private static ObjectType typeOfNew(IngestCommand command) {
        if (command instanceof CreateUser) return ObjectType.USER;
        if (command instanceof CreateBoard) return ObjectType.BOARD;
        if (command instanceof CreatePin || command instanceof RepinPin) return ObjectType.PIN;
        if (command instanceof CreateComment) return ObjectType.COMMENT;
        if (command instanceof CreateInterest) return ObjectType.INTEREST;
        return null;
    }

    /** Placed as the seed places them: a board on its owner's shard, a pin on its board's, a comment on its pin's. */
    private int shardOfNew(IngestCommand command) {
        if (command instanceof CreateBoard c) return placement.shardForNewBoard(c.ownerId());
        if (command instanceof CreatePin c) return placement.shardForNewPin(c.boardId());
        if (command instanceof RepinPin c) return placement.shardForNewPin(c.boardId());
        if (command instanceof CreateComment c) return placement.shardForNewComment(c.pinId());
        return placement.shardForNewUser(); // a user, or an interest: a random open shard
    }

    public long newEventId() {
        return issue(() -> eventIds.next(eventIdShard));
    }

    private static long issue(LongSupplier id) {
        try {
            return id.getAsLong();
        } catch (ClockMovedBackwardsException e) {
            throw new IngestRejection(IngestRejection.Reason.UNAVAILABLE, null, "event ids are paused: " + e.getMessage(), e);
        } catch (IdAllocationException e) {
            // The allocator wraps what its store threw; an outage it names is the caller's to report.
            for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
                if (cause instanceof StoreUnavailableException down) throw down;
            }
            throw e;
        }
    }
}
