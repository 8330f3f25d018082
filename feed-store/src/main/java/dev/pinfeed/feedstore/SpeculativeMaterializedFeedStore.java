package dev.pinfeed.feedstore;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * A {@link MaterializedFeedStore} whose reads are speculative ({@link SpeculativeReads}: the primary,
 * or the standby when the primary fails or is late) and whose writes go to the primary only: the
 * standby is a replica, written by replication alone, so a write while the primary is down fails with
 * the primary's {@code StoreUnavailableException} and the caller retries or queues it. A read served by
 * the standby may miss the last few hundred ms of writes (a chunk just journaled, a state just saved).
 * Closes nothing: whoever built the stores closes them.
 */
public final class SpeculativeMaterializedFeedStore implements MaterializedFeedStore {

    private final SpeculativeReads<MaterializedFeedStore> reads;

    public SpeculativeMaterializedFeedStore(SpeculativeReads<MaterializedFeedStore> reads) {
        this.reads = reads;
    }

    @Override
    public void journal(Chunk chunk) {
        reads.write(s -> {
            s.journal(chunk);
            return null;
        });
    }

    @Override
    public List<Chunk> pending(long userId) {
        return reads.read(s -> s.pending(userId));
    }

    @Override
    public void materialize(Chunk chunk) {
        reads.write(s -> {
            s.materialize(chunk);
            return null;
        });
    }

    @Override
    public FeedPage read(long userId, FeedPosition after, int limit) {
        return reads.read(s -> s.read(userId, after, limit));
    }

    @Override
    public Optional<FeedPage> readUnlessPending(long userId, FeedPosition after, int limit) {
        return reads.read(s -> s.readUnlessPending(userId, after, limit));
    }

    @Override
    public PendingAndState pendingAndState(long userId) {
        return reads.read(s -> s.pendingAndState(userId));
    }

    @Override
    public FirstPageView firstPageView(long userId, int limit) {
        return reads.read(s -> s.firstPageView(userId, limit));
    }

    @Override
    public void removePins(long userId, Collection<Long> pinIds) {
        reads.write(s -> {
            s.removePins(userId, pinIds);
            return null;
        });
    }

    @Override
    public List<FeedPage.Positioned> all(long userId) {
        return reads.read(s -> s.all(userId));
    }

    @Override
    public int trim(long userId, int maxItems) {
        return reads.write(s -> s.trim(userId, maxItems));
    }

    @Override
    public Optional<GeneratorState> state(long userId) {
        return reads.read(s -> s.state(userId));
    }

    @Override
    public void reset(long userId) {
        reads.write(s -> {
            s.reset(userId);
            return null;
        });
    }

    @Override
    public void saveState(long userId, GeneratorState state) {
        reads.write(s -> {
            s.saveState(userId, state);
            return null;
        });
    }
}
