package dev.pinfeed.feedstore.scoring;

/** What the worker needs to know of a pin: where it is, who made it, when. */
public record PinFacts(long pinId, long boardId, long authorId, long createdAtMillis) {}
