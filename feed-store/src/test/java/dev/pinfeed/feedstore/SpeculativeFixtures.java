package dev.pinfeed.feedstore;

import io.micrometer.core.instrument.MeterRegistry;

/** {@link SpeculativeReads} for tests of what sits on it: calls on the calling thread, a clock that never moves. */
public final class SpeculativeFixtures {

    private SpeculativeFixtures() {}

    /**
     * Primary first; the standby on a primary failure (a cutoff never passes: time stands still); with
     * {@code warmPercent} 100 every read also asks the standby and drops its answer.
     */
    public static <S> SpeculativeReads<S> inline(S primary, S standby, double warmPercent, MeterRegistry registry) {
        return inline(primary, standby, warmPercent, 1_000_000, registry);
    }

    /** {@link #inline(Object, Object, double, MeterRegistry)}, the primary counted as down after {@code downAfter} failed reads. */
    public static <S> SpeculativeReads<S> inline(S primary, S standby, double warmPercent, int downAfter, MeterRegistry registry) {
        SpeculativeSettings d = SpeculativeSettings.defaults();
        SpeculativeSettings s = new SpeculativeSettings(d.floor(), d.ceiling(), d.quantile(), d.margin(), d.window(), d.warmupSamples(),
                warmPercent, downAfter, d.probeInterval(), d.deadline());
        FakeTime time = new FakeTime();
        return new SpeculativeReads<>("test", new SpeculativeReads.Target<>("hbase-primary", primary, Runnable::run),
                new SpeculativeReads.Target<>("hbase-standby", standby, Runnable::run), s,
                new SpeculativeReads.Environment(time, time, () -> 0.0), ReplicaLag.UNKNOWN, registry);
    }
}
