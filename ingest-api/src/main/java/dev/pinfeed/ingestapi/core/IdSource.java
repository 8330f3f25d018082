package dev.pinfeed.ingestapi.core;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.idallocator.ClockMovedBackwardsException;
import dev.pinfeed.idallocator.IdAllocationException;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardPlacement;
import dev.pinfeed.idallocator.ShardedIdAllocator;
import dev.pinfeed.idallocator.TimeSortableIdGenerator;
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

    public long newUserId() {
        return issue(() -> allocator.newId(ObjectType.USER, placement.shardForNewUser()));
    }

    public long newBoardId(long ownerId) {
        return issue(() -> allocator.newId(ObjectType.BOARD, placement.shardForNewBoard(ownerId)));
    }

    public long newPinId(long boardId) {
        return issue(() -> allocator.newId(ObjectType.PIN, placement.shardForNewPin(boardId)));
    }

    public long newCommentId(long pinId) {
        return issue(() -> allocator.newId(ObjectType.COMMENT, placement.shardForNewComment(pinId)));
    }

    /** An interest on a random open shard, as a user is placed. */
    public long newInterestId() {
        return issue(() -> allocator.newId(ObjectType.INTEREST, placement.shardForNewUser()));
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
