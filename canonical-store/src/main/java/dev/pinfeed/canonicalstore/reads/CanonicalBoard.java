package dev.pinfeed.canonicalstore.reads;

import java.time.Instant;

/** A board as its creator sent it, plus when it was created. {@code description} may be null. */
public record CanonicalBoard(long id, long ownerId, String name, String description, Instant createdAt) {}
