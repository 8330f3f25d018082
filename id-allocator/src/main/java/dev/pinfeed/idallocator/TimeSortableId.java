package dev.pinfeed.idallocator;

import java.time.Instant;

/** The fields of a time-sortable ID: when (since the layout's epoch), which logical shard, which of that millisecond. */
public record TimeSortableId(long id, Instant timestamp, long millisSinceEpoch, int shard, int sequence) {
}
