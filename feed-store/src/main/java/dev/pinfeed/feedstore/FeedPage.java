package dev.pinfeed.feedstore;

import java.util.List;

/** Items of the materialized feed in feed order, each with its position (for cursors); {@code more} when items follow. */
public record FeedPage(List<Positioned> items, boolean more) {

    public record Positioned(FeedPosition position, FeedItem item) {}
}
