package dev.pinfeed.feedstore;

import java.util.List;

/**
 * What the content generator chose for one feed view, in the order shown (seed 002: the service
 * adds it ahead of the materialized feed in exactly this order). {@code chunkId} grows with time
 * (a time-sortable id), so newer chunks sort first.
 */
public record Chunk(long userId, long chunkId, List<FeedItem> items) {

    public Chunk {
        items = List.copyOf(items);
    }
}
