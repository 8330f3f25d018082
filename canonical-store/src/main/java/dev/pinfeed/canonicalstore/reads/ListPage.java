package dev.pinfeed.canonicalstore.reads;

import java.util.List;

/** One page of a list and the opaque cursor of the next page ({@code null} on the last page). */
public record ListPage<T>(List<T> items, String cursor) {

    public ListPage {
        items = List.copyOf(items);
    }
}
