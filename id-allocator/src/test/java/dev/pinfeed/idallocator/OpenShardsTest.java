package dev.pinfeed.idallocator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class OpenShardsTest {

    @Test
    void indexesAcrossSeveralRangesInOrder() {
        OpenShards open = OpenShards.parse("0-3, 10, 4096-4097");

        assertThat(open.count()).isEqualTo(7);
        assertThat(open.shardAt(0)).isZero();
        assertThat(open.shardAt(3)).isEqualTo(3);
        assertThat(open.shardAt(4)).isEqualTo(10);
        assertThat(open.shardAt(6)).isEqualTo(4097);
        assertThat(open.contains(10)).isTrue();
        assertThat(open.contains(11)).isFalse();
        assertThat(open.toString()).isEqualTo("0-3,10-10,4096-4097");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a-b", "5-3", "-1-4", "0-65536", "0-10,5-20", "10-20,0-5"})
    void rejectsMalformedOrOverlappingRanges(String text) {
        assertThatThrownBy(() -> OpenShards.parse(text)).isInstanceOf(IllegalArgumentException.class);
    }
}
