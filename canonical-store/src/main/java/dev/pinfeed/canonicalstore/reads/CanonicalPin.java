package dev.pinfeed.canonicalstore.reads;

import java.time.Instant;

/** A live (not deleted) pin as its creator sent it, when it was created, how many users like it now and its live comments. */
public record CanonicalPin(long id, long boardId, long authorId, String details, String link, String imageUrl, Instant createdAt,
                           long likes, long comments) {}
