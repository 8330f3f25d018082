package dev.pinfeed.feedstore;

/** A place in a user's materialized feed: item {@code index} of chunk {@code chunkId}. */
public record FeedPosition(long chunkId, int index) {}
