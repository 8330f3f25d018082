package dev.pinfeed.canonicalstore.reads;

import java.time.Instant;

/** A live (not deleted) comment on a pin, as its author wrote it, and when. */
public record CanonicalComment(long id, long pinId, long authorId, String text, Instant createdAt) {}
