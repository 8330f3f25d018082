package dev.pinfeed.mysqlshards;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class UnreachableHostGateTest {

    private final AtomicLong now = new AtomicLong(5_000_000_000L);
    private final UnreachableHostGate gate = new UnreachableHostGate(now::get);

    @Test
    void anOpenGateLetsEveryoneThroughAtOnce() {
        assertThat(gate.enter()).isNull();
        assertThat(gate.enter()).isNull();
        gate.reached();
        gate.done();
        assertThat(gate.enter()).isNull();
    }

    @Test
    void afterAnUnreachableHostCallersAreRefusedUntilTheNextAttemptIsDueThenOneTriesAtATime() {
        assertThat(gate.enter()).isNull();
        gate.unreachable("Connection refused");
        assertThat(gate.enter()).contains("Connection refused").contains("next attempt in 1000 ms");
        now.addAndGet(UnreachableHostGate.RETRY_NANOS - 1);
        assertThat(gate.enter()).isNotNull();
        now.addAndGet(1);
        assertThat(gate.enter()).as("the one let through to try").isNull();
        assertThat(gate.enter()).as("while it tries").contains("one is under way");
        gate.unreachable("Connection refused again");
        assertThat(gate.enter()).contains("again");
        now.addAndGet(UnreachableHostGate.RETRY_NANOS);
        assertThat(gate.enter()).isNull();
        gate.reached();
        assertThat(gate.enter()).as("reached: open for everyone").isNull();
        assertThat(gate.enter()).isNull();
    }

    @Test
    void aBorrowThatFailedForAnotherReasonLetsTheNextOneTry() {
        gate.unreachable("refused");
        now.addAndGet(UnreachableHostGate.RETRY_NANOS);
        assertThat(gate.enter()).isNull();
        gate.done(); // e.g. every connection busy: nothing learned
        assertThat(gate.enter()).as("the next caller tries").isNull();
    }
}
