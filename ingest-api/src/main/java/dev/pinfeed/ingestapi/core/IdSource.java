package dev.pinfeed.ingestapi.core;

import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardPlacement;
import dev.pinfeed.idallocator.ShardedIdAllocator;
import dev.pinfeed.idallocator.TimeSortableIdGenerator;

/**
 * Where ingest gets its IDs: object IDs from leased per-shard blocks, placed as the seed places
 * them (a board on its owner's shard, a pin on its board's), and time-sortable event IDs from
 * this instance's logical shard.
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
        return allocator.newId(ObjectType.USER, placement.shardForNewUser());
    }

    public long newBoardId(long ownerId) {
        return allocator.newId(ObjectType.BOARD, placement.shardForNewBoard(ownerId));
    }

    public long newPinId(long boardId) {
        return allocator.newId(ObjectType.PIN, placement.shardForNewPin(boardId));
    }

    public long newEventId() {
        return eventIds.next(eventIdShard);
    }
}
