package dev.pinfeed.feedstore;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pins of celebrities (authors at or above {@code fanout.celebrity-followers} followers), kept per author
 * instead of being fanned out: the fan-out records a celebrity's new pin here with a constant number of writes,
 * and a reader's feed pulls the pins of the celebrities he follows at read time. Per author only the newest
 * {@code feed.celebrity.recent-pins} are kept. Alongside, the set of authors with recorded pins (the
 * "celebrity set", small), so a read can find the celebrities a reader follows without walking his follows.
 * An author stays in the set after falling below the threshold: his recorded pins were never fanned out.
 */
public interface CelebrityPins extends AutoCloseable {

    /** One recorded pin. */
    record RecentPin(long pinId, long authorId, long boardId, long createdAtMillis) {}

    /** Records the pin and its author; trims the author's pins to the newest maximum. Idempotent (a replay changes nothing). */
    void record(RecentPin pin);

    /** Forgets the pin (deleted), so no reader pulls it any more. Idempotent; a pin never recorded is fine. */
    void remove(long authorId, long pinId);

    /** Every author with recorded pins. */
    Set<Long> celebrities();

    /** Per author (those with none are left out), his recorded pins created at or after {@code sinceMillis}, newest first. */
    Map<Long, List<RecentPin>> recent(Collection<Long> authorIds, long sinceMillis);

    /** Records nothing and holds nothing: celebrities off. */
    CelebrityPins NONE = new CelebrityPins() {
        @Override public void record(RecentPin pin) {}
        @Override public void remove(long authorId, long pinId) {}
        @Override public Set<Long> celebrities() { return Set.of(); }
        @Override public Map<Long, List<RecentPin>> recent(Collection<Long> authorIds, long sinceMillis) { return Map.of(); }
    };

    @Override
    default void close() {}
}
