package dev.pinfeed.loadharness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LoadLoopsTest {

    private static final long STRETCH = 2_000_000_000L;

    /** A JIT that compiles {@code perStretch[i]} ms during the i-th stretch. */
    private static LoadLoops.JitWarmup warm(int maxStretches, List<Long> ran, long... perStretch) throws Exception {
        AtomicLong compiled = new AtomicLong(1_000);
        return LoadLoops.warmUntilJitQuiet(compiled::get, maxStretches, 0.02, () -> {
            ran.add(STRETCH);
            compiled.addAndGet(perStretch[ran.size() - 1]);
            return STRETCH;
        });
    }

    @Test
    void warmsUntilAStretchCompilesForAtMostItsQuietShare() throws Exception {
        List<Long> ran = new ArrayList<>();
        LoadLoops.JitWarmup w = warm(10, ran, 900, 120, 40, 0);
        assertTrue(w.quiet());
        assertEquals(3, w.stretches()); // 40 ms of 2 s is 2 %: quiet
        assertEquals(40, w.lastCompileMillis());
        assertEquals(List.of(STRETCH, STRETCH, STRETCH), ran);
    }

    @Test
    void stopsAtItsLimitAndSaysTheJitWasStillCompiling() throws Exception {
        List<Long> ran = new ArrayList<>();
        LoadLoops.JitWarmup w = warm(2, ran, 900, 41, 0);
        assertFalse(w.quiet());
        assertEquals(2, w.stretches());
        assertEquals(41, w.lastCompileMillis());
        assertEquals(4_000_000_000L, w.totalNanos());
        assertTrue(w.describe("pairs").startsWith("the JIT was still compiling after 2 untimed pairs (4 s; 41 ms"), w.describe("pairs"));
    }
}
