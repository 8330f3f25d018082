package dev.pinfeed.feedstore;

import dev.pinfeed.feedstore.CelebrityPins.RecentPin;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pins of popular interests (at or above {@code fanout.popular-interest-followers} followers), kept per interest
 * instead of being fanned out to every follower: the interests' half of what {@link CelebrityPins} is for authors. The
 * fan-out records a pin carrying a popular interest here with a constant number of writes, and a reader's first page pulls
 * the pins of the popular interests he follows into his interests pool. Per interest only the newest
 * {@code feed.interest.recent-pins} are kept. Alongside, the set of interests with recorded pins (the "popular set", small),
 * so a read finds them without asking about every interest. An interest stays in the set after falling below the
 * threshold: its recorded pins were never fanned out.
 */
public interface InterestPins extends AutoCloseable {

    /** Records {@code pin} under {@code interestId}; trims the interest's pins to the newest maximum. Idempotent. */
    void record(long interestId, RecentPin pin);

    /** Forgets the pin (deleted) under {@code interestId}. Idempotent; a pin never recorded is fine. */
    void remove(long interestId, long pinId);

    /** Every interest with recorded pins. */
    Set<Long> popular();

    /**
     * Per interest (those with none are left out), its newest recorded pins created at or after {@code sinceMillis}, at most
     * {@code maxEach} of them, newest first.
     */
    Map<Long, List<RecentPin>> recent(Collection<Long> interestIds, long sinceMillis, int maxEach);

    /** Records nothing and holds nothing: every interest is fanned out. */
    InterestPins NONE = new InterestPins() {
        @Override public void record(long interestId, RecentPin pin) {}
        @Override public void remove(long interestId, long pinId) {}
        @Override public Set<Long> popular() { return Set.of(); }
        @Override public Map<Long, List<RecentPin>> recent(Collection<Long> interestIds, long sinceMillis, int maxEach) { return Map.of(); }
    };

    @Override
    default void close() {}
}
