package dev.pinfeed.canonicalstore.reads;

import java.time.Instant;

/** A user as its creator sent it, plus when it was created. {@code displayName} may be null. */
public record CanonicalUser(long id, String username, String displayName, Instant createdAt) {}
