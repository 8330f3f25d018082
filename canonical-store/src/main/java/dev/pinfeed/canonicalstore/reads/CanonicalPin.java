package dev.pinfeed.canonicalstore.reads;

import java.time.Instant;

/**
 * A live (not deleted) pin as its creator sent it, when it was created, how many users like it now, its live comments,
 * the pin it was saved from ({@code parentPinId}, null for an original pin), how many live repins name it as their parent and the
 * interests it carries (ids, in the order given at creation; empty when none).
 */
public record CanonicalPin(long id, long boardId, long authorId, String details, String link, String imageUrl, Instant createdAt,
                           long likes, long comments, Long parentPinId, long repins, java.util.List<Long> interests) {
    public CanonicalPin {
        interests = java.util.List.copyOf(interests);
    }
}
