package dev.pinfeed.fanoutstreams;

import dev.pinfeed.events.FanoutAction;
import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.events.FanoutReceiver;
import dev.pinfeed.events.FanoutSource;
import dev.pinfeed.feedstore.MaterializedFeedStore;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.Page;
import dev.pinfeed.followergraph.Receiver;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fan-out's core, one step at a time and free of Kafka: a step reads the board's receivers from
 * the graph until it holds more than a chunk (or the walk is done, or it read {@code readsPerStep}
 * pages), drops inactive receivers from an ADD, and cuts off one chunk of at most {@code chunkSize}.
 * Reading one receiver past the chunk is what makes {@code lastChunk} exact: the last chunk is the one
 * after which nothing is buffered and the walk is done, never an empty trailer (unless every receiver
 * after the previous chunk turned out inactive).
 *
 * <p>A step has no effect of its own: it returns the chunk and the job's next state, and the caller
 * stores both in one transaction. A store outage ({@link dev.pinfeed.config.StoreUnavailableException})
 * propagates with nothing changed, so the same step can simply be taken again.
 */
public final class FanoutStepper {

    private static final long DAY_MS = 86_400_000L;

    /**
     * What one step produced.
     *
     * @param chunk           the chunk to send, or null (all receivers read so far were inactive, or the fan-out had none)
     * @param next            the job's next state, or null when the fan-out is complete
     * @param skippedInactive receivers left out of an ADD because they have not read their feed for too long
     */
    public record Step(FanoutChunk chunk, FanoutJob next, int skippedInactive) {}

    private final GraphStore graph;
    private final MaterializedFeedStore feeds;
    private final FanoutSettings settings;
    private final Clock clock;

    public FanoutStepper(GraphStore graph, MaterializedFeedStore feeds, FanoutSettings settings, Clock clock) {
        this.graph = graph;
        this.feeds = feeds;
        this.settings = settings;
        this.clock = clock;
    }

    public Step step(FanoutJob job) {
        int size = settings.chunkSize();
        List<Receiver> buffer = new ArrayList<>(job.buffered());
        Set<Long> inBuffer = new HashSet<>();
        for (Receiver r : buffer) inBuffer.add(r.userId());
        String cursor = job.cursor();
        boolean exhausted = job.exhausted();
        int skipped = 0;
        for (int reads = 0; !exhausted && buffer.size() <= size && reads < settings.readsPerStep(); reads++) {
            Page<Receiver> page = graph.receivers(job.boardId(), cursor, size);
            List<Receiver> got = job.action() == FanoutAction.ADD ? active(page.items()) : page.items();
            skipped += page.items().size() - got.size();
            for (Receiver r : got) {
                if (inBuffer.add(r.userId())) buffer.add(r); // a chunk names each receiver once
            }
            cursor = page.nextCursor();
            exhausted = cursor == null;
        }
        if (!exhausted && buffer.size() <= size) {
            // Not a full chunk yet (inactive receivers thinned it out): keep reading next time.
            return new Step(null, job.advanced(job.nextChunkIndex(), cursor, false, buffer), skipped);
        }
        int n = Math.min(size, buffer.size());
        List<Receiver> rest = buffer.subList(n, buffer.size());
        boolean last = exhausted && rest.isEmpty();
        if (n == 0 && job.nextChunkIndex() == 0) {
            return new Step(null, null, skipped); // nobody to tell: no chunk at all
        }
        FanoutChunk chunk = chunk(job, buffer.subList(0, n), last);
        return new Step(chunk, last ? null : job.advanced(job.nextChunkIndex() + 1, cursor, exhausted, rest), skipped);
    }

    /** The receivers who read their feed within {@code activeDays}, or never (no recorded read counts as active). */
    private List<Receiver> active(List<Receiver> receivers) {
        if (settings.activeDays() == 0 || receivers.isEmpty()) return receivers;
        long cutoff = clock.millis() - settings.activeDays() * DAY_MS;
        Map<Long, Long> lastReads = feeds.lastReads(receivers.stream().map(Receiver::userId).toList());
        List<Receiver> out = new ArrayList<>(receivers.size());
        for (Receiver r : receivers) {
            long read = lastReads.getOrDefault(r.userId(), 0L);
            if (read == 0 || read >= cutoff) out.add(r);
        }
        return out;
    }

    static FanoutChunk chunk(FanoutJob job, List<Receiver> receivers, boolean last) {
        List<FanoutReceiver> out = new ArrayList<>(receivers.size());
        for (Receiver r : receivers) {
            out.add(new FanoutReceiver(r.userId(), r.viaOwner() ? FanoutSource.FOLLOWED_USER : FanoutSource.FOLLOWED_BOARD));
        }
        return FanoutChunk.newBuilder().setEventId(job.eventId()).setOccurredAt(java.time.Instant.ofEpochMilli(job.occurredAt()))
                .setAction(job.action()).setPinId(job.pinId()).setBoardId(job.boardId()).setAuthorId(job.authorId())
                .setPinCreatedAt(java.time.Instant.ofEpochMilli(job.pinCreatedAt())).setChunkIndex(job.nextChunkIndex())
                .setLastChunk(last).setReceivers(out).build();
    }
}
