package dev.pinfeed.operations.shards;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KeyspaceWatchTest {

    @Test
    void addsTheKeyspaceChannelAndEveryEventToWhatTheServerHad() {
        assertThat(KeyspaceWatch.withNeededFlags("")).isEqualTo("KA");
        assertThat(KeyspaceWatch.withNeededFlags("Ex")).isEqualTo("ExKA");
        assertThat(KeyspaceWatch.withNeededFlags("AK")).isEqualTo("AK");
        assertThat(KeyspaceWatch.withNeededFlags(null)).isEqualTo("KA");
    }
}
