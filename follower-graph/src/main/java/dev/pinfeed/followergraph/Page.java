package dev.pinfeed.followergraph;

import java.util.List;

/** One page of a list; {@code nextCursor} is null when the list is done. Cursors are opaque. */
public record Page<T>(List<T> items, String nextCursor) {

    public Page {
        items = List.copyOf(items);
    }

    public boolean hasMore() {
        return nextCursor != null;
    }
}
