package dev.pinfeed.ingestapi.core;

import java.util.Optional;

/**
 * What a repin copies from its parent: the parent's details, link, image and interests as the canonical store holds them, so
 * its PinCreated is self-contained (every consumer sees the repin's content without reading the parent). Outages
 * throw {@link dev.pinfeed.config.StoreUnavailableException}.
 */
@FunctionalInterface
public interface PinContents {

    /** A pin's content; {@code link} and {@code imageUrl} may be null; {@code interestIds} the interests it carries (a repin copies them). */
    record Content(String details, String link, String imageUrl, java.util.List<Long> interestIds) {
        /** What a repin carries when the canonical store does not have its parent yet (it lags behind ingest). */
        public static final Content UNKNOWN = new Content("", null, null);

        public Content {
            interestIds = java.util.List.copyOf(interestIds);
        }

        /** Content without interests. */
        public Content(String details, String link, String imageUrl) {
            this(details, link, imageUrl, java.util.List.of());
        }
    }

    /** Knows no pin: every repin carries {@link Content#UNKNOWN}. */
    PinContents NONE = pinId -> Optional.empty();

    /** The live pin's content, empty when the canonical store does not have it (or it is deleted). */
    Optional<Content> of(long pinId);
}
