package dev.pinfeed.fanoutstreams;

import dev.pinfeed.events.FanoutAction;
import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.events.FanoutReceiver;
import dev.pinfeed.events.FanoutSource;
import dev.pinfeed.feedstore.CelebrityPins;
import dev.pinfeed.feedstore.InterestPins;
import dev.pinfeed.feedstore.LastReadStore;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.Page;
import dev.pinfeed.followergraph.Receiver;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The fan-out's core, free of Kafka, in three parts so the slow one can run off the stream thread:
 * <ul>
 * <li>the read, the I/O in two halves: {@link #receivers}, the next page of the board's receivers from
 *     the graph at a cursor, then {@link #kept}, that page without an ADD's inactive receivers (one
 *     {@code lastReads} batch). It changes nothing, so it may run ahead on other threads, be repeated
 *     or thrown away.</li>
 * <li>{@link #absorb}: the page into the job's buffer (each receiver once) and cursor.</li>
 * <li>{@link #cut}: one chunk of at most {@code chunkSize} off the buffer, once the job holds more than
 *     a chunk or the walk is done ({@link #needsPage} false).</li>
 * </ul>
 * Holding one receiver past the chunk before cutting is what makes {@code lastChunk} exact: the last
 * chunk is the one after which nothing is buffered and the walk is done, never an empty trailer
 * (unless every receiver after the previous chunk turned out inactive). The caller stores the cut
 * chunk and the job's next state in one transaction; a store outage in the read
 * ({@link dev.pinfeed.config.StoreUnavailableException}) changes nothing and can simply be retried.
 *
 * <p>Celebrities: the first read of an ADD looks up the author's follower count; at or above
 * {@code fanout.celebrity-followers} the pin goes to {@link CelebrityPins} (a constant number of idempotent
 * writes, repeated harmlessly with the read) and the walk ends there with nobody to tell, so no chunk is
 * sent: his followers' feeds pull the pin at read time. The first read of a REMOVE takes the pin out of
 * {@link CelebrityPins} (whoever the author is: he may have become a celebrity since) and walks on, so pulled
 * copies still waiting in pools leave them too.
 *
 * <p>Interests: after the board's receivers (or at once, for a celebrity's pin) the walk goes through the followers of each
 * interest the pin carries, in order, as receivers {@link Receiver#viaInterest}: the walk's cursor is then an
 * {@link #interestCursor} (the interest's place and its followers' page cursor), so the job's layout and its crash-restart are the
 * board walk's. An ADD leaves out of an interest's page the pin's author, the board's receivers (they get the pin as
 * followed_user / followed_board, which wins) and the followers of the pin's earlier interests (they got it already), so every
 * receiver is in one chunk once. A REMOVE leaves out nobody (a removal is idempotent).
 *
 * <p>Popular interests: the first read of an interest's followers looks up its follower count; at or above
 * {@code fanout.popular-interest-followers} an ADD records the pin under the interest in {@link InterestPins} (a constant
 * number of idempotent writes) and the walk goes on to the next interest with nobody of this one to tell: its followers'
 * feeds pull the pin at read time. Its followers still count as reached for the pin's later interests, as they would
 * pushed. A REMOVE takes the pin out of {@link InterestPins} there and walks the interest's followers as any, so pulled
 * copies still waiting in pools leave them too.
 */
public final class FanoutStepper {

    /**
     * The page after {@code cursor}: the receivers kept, how many were dropped as inactive, how many
     * last reads were looked up for that (the others were known active), and the cursor of the page
     * after it (null: the walk is done).
     */
    public record PageRead(String cursor, List<Receiver> receivers, int skippedInactive, int lastReadsLookedUp, String nextCursor) {
        public PageRead {
            receivers = List.copyOf(receivers);
        }
    }

    /**
     * A cut.
     *
     * @param chunk the chunk to send, or null (the fan-out ended without anyone to tell)
     * @param next  the job's next state, or null when the fan-out is complete
     */
    public record Step(FanoutChunk chunk, FanoutJob next) {}

    private final GraphStore graph;
    private final LastReadStore lastReads;
    private final FanoutSettings settings;
    private final Clock clock;
    private final KnownActiveUsers knownActive;
    private final CelebrityPins celebrityPins;
    private final InterestPins interestPins;

    /** Without celebrities: every pin is fanned out. */
    public FanoutStepper(GraphStore graph, LastReadStore lastReads, FanoutSettings settings, Clock clock) {
        this(graph, lastReads, settings, new KnownActiveUsers(KnownActiveUsers.DEFAULT_SLOT_BITS), CelebrityPins.NONE, clock);
    }

    /** Without popular interests: every interest's followers are walked. */
    public FanoutStepper(GraphStore graph, LastReadStore lastReads, FanoutSettings settings, KnownActiveUsers knownActive,
                         CelebrityPins celebrityPins, Clock clock) {
        this(graph, lastReads, settings, knownActive, celebrityPins, InterestPins.NONE, clock);
    }

    /**
     * @param knownActive   receivers already known to be active (the app keeps it across restarts)
     * @param celebrityPins where celebrities' pins go instead of a fan-out; {@link CelebrityPins#NONE}: nobody is one
     * @param interestPins  where popular interests' pins go instead of a fan-out; {@link InterestPins#NONE}: none is
     */
    public FanoutStepper(GraphStore graph, LastReadStore lastReads, FanoutSettings settings, KnownActiveUsers knownActive,
                         CelebrityPins celebrityPins, InterestPins interestPins, Clock clock) {
        this.graph = graph;
        this.lastReads = lastReads;
        this.settings = settings;
        this.knownActive = knownActive;
        this.celebrityPins = celebrityPins;
        this.interestPins = interestPins;
        this.clock = clock;
    }

    /** True while the job must read another page before it can cut a chunk. */
    public boolean needsPage(FanoutJob job) {
        return !job.exhausted() && job.buffered().size() <= settings.chunkSize();
    }

    /** Marks a walk cursor of the interests phase; the graph's own cursors are URL-safe Base64, which never holds it. */
    private static final String INTEREST_PHASE = "~";

    /** The cursor of the page of the {@code index}th interest's followers after {@code followersCursor} (null: its first page). */
    public static String interestCursor(int index, String followersCursor) {
        return INTEREST_PHASE + index + INTEREST_PHASE + (followersCursor == null ? "" : followersCursor);
    }

    /** The first half of a read at {@code cursor}: the graph page alone (its next cursor lets the next read start). */
    public Page<Receiver> receivers(FanoutJob job, String cursor) {
        if (cursor != null && cursor.startsWith(INTEREST_PHASE)) return interestFollowers(job, cursor);
        if (cursor == null && celebrityPins != CelebrityPins.NONE) {
            if (job.action() == FanoutAction.REMOVE) {
                celebrityPins.remove(job.authorId(), job.pinId());
            } else if (settings.celebrityFollowers() > 0 && settings.celebrity(graph.counts(job.authorId()).followers())) {
                celebrityPins.record(new CelebrityPins.RecentPin(job.pinId(), job.authorId(), job.boardId(), job.pinCreatedAt()));
                return new Page<>(List.of(), afterBoard(job)); // no board receiver to tell; the interests' followers still are
            }
        }
        Page<Receiver> page = graph.receivers(job.boardId(), cursor, settings.chunkSize());
        return page.nextCursor() != null ? page : new Page<>(page.items(), afterBoard(job));
    }

    /** Where the walk goes once the board's receivers are done: the first interest's followers, or nowhere. */
    private static String afterBoard(FanoutJob job) {
        return job.interestIds().isEmpty() ? null : interestCursor(0, null);
    }

    /** A page of the followers of the interest an interests-phase cursor names, less those who get the pin otherwise (an ADD). */
    private Page<Receiver> interestFollowers(FanoutJob job, String cursor) {
        int split = cursor.indexOf(INTEREST_PHASE, 1);
        int index;
        try {
            index = split < 0 ? -1 : Integer.parseInt(cursor.substring(1, split));
        } catch (NumberFormatException e) {
            index = -1;
        }
        if (index < 0 || index >= job.interestIds().size()) {
            throw new IllegalArgumentException("cursor " + cursor + " names no interest of pin " + job.pinId() + " " + job.interestIds());
        }
        String inner = cursor.substring(split + 1);
        long interest = job.interestIds().get(index);
        String afterInterest = index + 1 < job.interestIds().size() ? interestCursor(index + 1, null) : null;
        if (inner.isEmpty() && interestPins != InterestPins.NONE) {
            if (job.action() == FanoutAction.REMOVE) {
                interestPins.remove(interest, job.pinId());
            } else if (settings.popularInterest(graph.interestFollowerCount(interest))) {
                interestPins.record(interest, new CelebrityPins.RecentPin(job.pinId(), job.authorId(), job.boardId(), job.pinCreatedAt()));
                return new Page<>(List.of(), afterInterest); // its followers pull the pin
            }
        }
        Page<dev.pinfeed.followergraph.Edge> followers = graph.interestFollowers(interest, inner.isEmpty() ? null : inner, settings.chunkSize());
        List<Long> users = new ArrayList<>(followers.items().size());
        for (var e : followers.items()) if (e.id() != job.authorId()) users.add(e.id());
        Set<Long> elsewhere = job.action() == FanoutAction.ADD ? reachedOtherwise(job, index, users) : Set.of();
        List<Receiver> out = new ArrayList<>(users.size());
        for (long u : users) if (!elsewhere.contains(u)) out.add(Receiver.ofInterest(u));
        String next = followers.nextCursor() != null ? interestCursor(index, followers.nextCursor()) : afterInterest;
        return new Page<>(out, next);
    }

    /** Which of {@code users} receive the pin as the board's receivers or as followers of one of its interests before {@code index}. */
    private Set<Long> reachedOtherwise(FanoutJob job, int index, List<Long> users) {
        Set<Long> out = new HashSet<>();
        for (int from = 0; from < users.size(); from += GraphStore.MAX_BATCH) {
            List<Long> slice = users.subList(from, Math.min(users.size(), from + GraphStore.MAX_BATCH));
            out.addAll(graph.boardReceiversAmong(job.boardId(), slice));
            for (int k = 0; k < index; k++) out.addAll(graph.interestFollowersAmong(job.interestIds().get(k), slice));
        }
        return out;
    }

    /** The second half: {@code page}, read at {@code cursor}, without an ADD's inactive receivers (the slow part). */
    public PageRead kept(FanoutJob job, String cursor, Page<Receiver> page) {
        Active active = job.action() == FanoutAction.ADD ? active(page.items()) : new Active(page.items(), 0);
        return new PageRead(cursor, active.receivers(), page.items().size() - active.receivers().size(), active.lookedUp(), page.nextCursor());
    }


    /** The job with {@code page} (read at the job's current cursor) appended, each receiver once. */
    public FanoutJob absorb(FanoutJob job, PageRead page) {
        if (job.exhausted() || !Objects.equals(page.cursor(), job.cursor())) {
            throw new IllegalArgumentException("page read at cursor " + page.cursor() + " does not continue job of pin " + job.pinId());
        }
        List<Receiver> buffer = new ArrayList<>(job.buffered());
        Set<Long> inBuffer = new HashSet<>();
        for (Receiver r : buffer) inBuffer.add(r.userId());
        for (Receiver r : page.receivers()) {
            if (inBuffer.add(r.userId())) buffer.add(r); // a chunk names each receiver once
        }
        return job.advanced(job.nextChunkIndex(), page.nextCursor(), page.nextCursor() == null, buffer);
    }

    /** Cuts the next chunk; only when {@link #needsPage} is false. */
    public Step cut(FanoutJob job) {
        if (needsPage(job)) throw new IllegalStateException("pin " + job.pinId() + " holds no full chunk yet");
        List<Receiver> buffer = job.buffered();
        int n = Math.min(settings.chunkSize(), buffer.size());
        List<Receiver> rest = buffer.subList(n, buffer.size());
        boolean last = job.exhausted() && rest.isEmpty();
        if (n == 0 && job.nextChunkIndex() == 0) return new Step(null, null); // nobody to tell: no chunk at all
        FanoutChunk chunk = chunk(job, buffer.subList(0, n), last);
        return new Step(chunk, last ? null : job.advanced(job.nextChunkIndex() + 1, job.cursor(), job.exhausted(), rest));
    }

    /** The receivers kept, and how many last reads it took to find them. */
    private record Active(List<Receiver> receivers, int lookedUp) {}

    /**
     * The receivers who read their feed within {@code activeDays}, or never (no recorded read counts as
     * active). Only those not already {@link KnownActiveUsers known} to be active are looked up.
     */
    private Active active(List<Receiver> receivers) {
        if (settings.activeDays() == 0 || receivers.isEmpty()) return new Active(receivers, 0);
        long now = clock.millis();
        long window = settings.activityWindowMillis();
        boolean[] known = new boolean[receivers.size()];
        List<Long> unknown = new ArrayList<>();
        for (int i = 0; i < known.length; i++) {
            known[i] = knownActive.isActive(receivers.get(i).userId(), now);
            if (!known[i]) unknown.add(receivers.get(i).userId());
        }
        Map<Long, Long> reads = unknown.isEmpty() ? Map.of() : lastReads.lastReads(unknown);
        List<Receiver> out = new ArrayList<>(receivers.size());
        for (int i = 0; i < known.length; i++) {
            Receiver r = receivers.get(i);
            if (known[i]) {
                out.add(r);
                continue;
            }
            Long read = reads.get(r.userId()); // none: never read
            long activeUntil = read == null ? now + window : read + window;
            if (activeUntil >= now) {
                out.add(r);
                knownActive.activeUntil(r.userId(), activeUntil);
            }
        }
        return new Active(out, unknown.size());
    }

    static FanoutChunk chunk(FanoutJob job, List<Receiver> receivers, boolean last) {
        List<FanoutReceiver> out = new ArrayList<>(receivers.size());
        for (Receiver r : receivers) {
            out.add(new FanoutReceiver(r.userId(), r.viaInterest() ? FanoutSource.INTERESTS
                    : r.viaOwner() ? FanoutSource.FOLLOWED_USER : FanoutSource.FOLLOWED_BOARD));
        }
        return FanoutChunk.newBuilder().setEventId(job.eventId()).setOccurredAt(Instant.ofEpochMilli(job.occurredAt()))
                .setAction(job.action()).setPinId(job.pinId()).setBoardId(job.boardId()).setAuthorId(job.authorId())
                .setPinCreatedAt(Instant.ofEpochMilli(job.pinCreatedAt())).setChunkIndex(job.nextChunkIndex())
                .setLastChunk(last).setReceivers(out).setParentPinId(job.parentPinId() == 0 ? null : job.parentPinId()).build();
    }
}
