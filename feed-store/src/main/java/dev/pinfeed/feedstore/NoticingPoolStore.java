package dev.pinfeed.feedstore;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A {@link PoolStore} whose every upsert, once it returned, is noticed in {@link QuietPools} for the users it wrote to:
 * every process that adds pool entries writes through one (feed-worker, feed-service's celebrity pulls and
 * regenerations, the operators' rebuilds and repairs). Removals need no notice: they never give a quiet pool something
 * to generate. A notice that fails goes to {@code noticeFailed} and the write stands (the mark it missed lapses within
 * its maximum age).
 */
public final class NoticingPoolStore extends ForwardingPoolStore {

    private final QuietPools quiet;
    private final Consumer<RuntimeException> noticeFailed;

    public NoticingPoolStore(PoolStore pools, QuietPools quiet, Consumer<RuntimeException> noticeFailed) {
        super(pools);
        this.quiet = quiet;
        this.noticeFailed = noticeFailed;
    }

    /** {@code pools} itself when {@code quiet} is {@link QuietPools#NONE}: nothing to notice. */
    public static PoolStore over(PoolStore pools, QuietPools quiet, Consumer<RuntimeException> noticeFailed) {
        return quiet == QuietPools.NONE ? pools : new NoticingPoolStore(pools, quiet, noticeFailed);
    }

    @Override
    protected void afterUpsert(Collection<PoolEntry> entries) {
        if (entries.isEmpty()) return;
        Set<Long> users = new LinkedHashSet<>();
        for (PoolEntry e : entries) users.add(e.userId());
        try {
            quiet.written(users);
        } catch (RuntimeException e) {
            noticeFailed.accept(e);
        }
    }
}
