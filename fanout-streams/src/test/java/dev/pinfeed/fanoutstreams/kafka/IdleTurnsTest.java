package dev.pinfeed.fanoutstreams.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class IdleTurnsTest {

    @Test
    void withJobsPendingEveryTurnScansAndIdleOnlyOneTurnInCheckEvery() {
        IdleTurns turns = new IdleTurns(3);
        List<Boolean> idle = new ArrayList<>();
        for (int i = 0; i < 7; i++) idle.add(turns.scan(0));
        assertThat(idle).containsExactly(true, false, false, true, false, false, true);

        assertThat(turns.scan(2)).isTrue();
        assertThat(turns.scan(1)).isTrue();
        assertThat(turns.scan(0)).as("the first idle turn after work looks once more").isTrue();
        assertThat(turns.scan(0)).isFalse();
    }
}
