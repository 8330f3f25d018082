package dev.pinfeed.canonicalstore.reads;

import java.time.Instant;

/** A live (not deleted) pin as its creator sent it, when it was created, and how many users like it now. */
public record CanonicalPin(long id, long boardId, long authorId, String details, String link, String imageUrl, Instant createdAt,
                           long likes) {}
