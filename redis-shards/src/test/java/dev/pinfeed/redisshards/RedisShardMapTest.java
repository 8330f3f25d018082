package dev.pinfeed.redisshards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RedisShardMapTest {

    @Test
    void parsesAndFormatsTheZnodeText() {
        RedisShardMap map = RedisShardMap.parse(" 0-4095:redis001, 4096-8191:redis002 ");

        assertThat(map.format()).isEqualTo("0-4095:redis001,4096-8191:redis002");
        assertThat(map.instanceOf(0)).isEqualTo("redis001");
        assertThat(map.instanceOf(4095)).isEqualTo("redis001");
        assertThat(map.instanceOf(4096)).isEqualTo("redis002");
        assertThat(map.instanceOf(8191)).isEqualTo("redis002");
        assertThat(map.instances()).containsExactly("redis001", "redis002");
        assertThat(RedisShardMap.parse(map.format())).isEqualTo(map);
    }

    @Test
    void anInstanceMayServeSeveralRanges() {
        RedisShardMap map = RedisShardMap.parse("0-99:a,100-199:b,200-8191:a");
        assertThat(map.instanceOf(150)).isEqualTo("b");
        assertThat(map.instanceOf(5000)).isEqualTo("a");
        assertThat(map.instances()).containsExactly("a", "b");
    }

    @Test
    void theDefaultSplitsEvenlyInOrder() {
        assertThat(RedisShardMap.evenlyOver(List.of("redis001", "redis002")).format()).isEqualTo("0-4095:redis001,4096-8191:redis002");
        assertThat(RedisShardMap.evenlyOver(List.of("a", "b", "c")).format()).isEqualTo("0-2729:a,2730-5459:b,5460-8191:c");
        assertThat(RedisShardMap.evenlyOver(List.of("solo")).format()).isEqualTo("0-8191:solo");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "0-4095:a", "1-8191:a", "0-4095:a,4095-8191:b", "0-4095:a,4097-8191:b", "0-8192:a",
            "0-8191:", "0-8191", "a-b:c", "0-8191:bad name", "5-3:a"})
    void rejectsMapsThatDoNotCoverEveryShardOnce(String text) {
        assertThatThrownBy(() -> RedisShardMap.parse(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsShardsOutsideTheSpace() {
        RedisShardMap map = RedisShardMap.parse("0-8191:a");
        assertThatThrownBy(() -> map.instanceOf(8192)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> map.instanceOf(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void fencesTravelInTheTextAndAMoveReassignsAndMergesRanges() {
        RedisShardMap map = RedisShardMap.parse("0-4095:redis001,4096-8191:redis002").fencing(0, 1023);

        assertThat(map.format()).isEqualTo("0-4095:redis001,4096-8191:redis002;fenced=0-1023");
        assertThat(RedisShardMap.parse(map.format())).isEqualTo(map);
        assertThat(map.isFenced(1023)).isTrue();
        assertThat(map.isFenced(1024)).isFalse();
        assertThat(map).isNotEqualTo(map.unfencing(0, 1023));

        RedisShardMap moved = map.assigning(0, 1023, "redis002").unfencing(0, 1023);
        assertThat(moved.format()).isEqualTo("0-1023:redis002,1024-4095:redis001,4096-8191:redis002");
        assertThat(moved.assigning(1024, 4095, "redis002").format()).isEqualTo("0-8191:redis002");
        assertThat(moved.instanceOfRange(1024, 2000)).isEqualTo("redis001");
        assertThatThrownBy(() -> moved.instanceOfRange(1000, 1100)).hasMessageContaining("more than one instance");
        assertThatThrownBy(() -> RedisShardMap.parse("0-8191:redis001;fenced=9000-9001")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RedisShardMap.parse("0-8191:redis001;paused=1-2")).hasMessageContaining("fenced=");
    }
}
