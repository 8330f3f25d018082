package dev.pinfeed.feedservice.homefeed;

import dev.pinfeed.feedstore.Source;
import java.time.Duration;

/** What the home feed reports (feed-service's meters implement it); every method is cheap and never throws. */
public interface HomeFeedListener {

    /** Why a first page was served without a new chunk. */
    enum Fallback {
        ERROR("error"), DEADLINE("deadline");

        private final String tag;

        Fallback(String tag) {
            this.tag = tag;
        }

        public String tag() {
            return tag;
        }
    }

    /** What a first page's generation learnt from, or did with, the quiet pools ({@link dev.pinfeed.feedstore.QuietPools}). */
    enum QuietPoolsOutcome {
        /** The pools were quiet: not read. */
        SKIPPED("skipped"),
        /** This process found the pools quiet a moment ago ({@code QuietPools.knownQuiet}): no generation at all. */
        REMEMBERED("remembered"),
        /** A generation found nothing and marked them quiet. */
        MARKED("marked"),
        /** The quiet pools' store failed a look, a mark or a writer's notice (the pools are read; a lost notice lapses). */
        ERROR("error");

        private final String tag;

        QuietPoolsOutcome(String tag) {
            this.tag = tag;
        }

        public String tag() {
            return tag;
        }
    }

    default void quietPools(QuietPoolsOutcome outcome) {}

    /** A generation that finished (in time or not). */
    default void generated(Duration took, int chunkSize) {}

    default void fallback(Fallback reason) {}

    /**
     * A chunk that missed its deadline, once done: {@code kept} = materialized (the next view shows it);
     * else dropped because a newer view generated meanwhile (its pins stay in the pools).
     */
    default void lateChunk(boolean kept) {}

    default void served(Source source, int n) {}

    /** Items left out because their pin is deleted or unknown. */
    default void hydrationDropped(int n) {}

    /** A post-answer step that failed (it is redone from the journal, or on the next view). */
    default void afterAnswerFailed(RuntimeException e) {}

    HomeFeedListener NONE = new HomeFeedListener() {};
}
