package dev.pinfeed.idallocator;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

class TimeSortableLayoutPropertyTest {

    private final TimeSortableLayout layout = new TimeSortableLayout(TimeSortableLayout.DEFAULT_EPOCH);

    @Property
    void composeThenDecodeIsIdentity(@ForAll @LongRange(min = 0, max = (1L << 41) - 1) long millis,
                                     @ForAll @IntRange(min = 0, max = 8191) int shard,
                                     @ForAll @IntRange(min = 0, max = 1023) int sequence) {
        TimeSortableId decoded = layout.decode(layout.compose(millis, shard, sequence));

        assertThat(decoded.millisSinceEpoch()).isEqualTo(millis);
        assertThat(decoded.timestamp()).isEqualTo(layout.epoch().plusMillis(millis));
        assertThat(decoded.shard()).isEqualTo(shard);
        assertThat(decoded.sequence()).isEqualTo(sequence);
    }

    @Property
    void everyValueDecodesAndComposesBack(@ForAll long id) {
        TimeSortableId d = layout.decode(id);

        assertThat(layout.compose(d.millisSinceEpoch(), d.shard(), d.sequence())).isEqualTo(id);
    }

    @Property
    void laterMillisecondsSortAfterwardsWhateverTheShardAndSequence(
            @ForAll @LongRange(min = 0, max = (1L << 41) - 2) long millis,
            @ForAll @IntRange(min = 0, max = 8191) int shardA, @ForAll @IntRange(min = 0, max = 1023) int seqA,
            @ForAll @IntRange(min = 0, max = 8191) int shardB, @ForAll @IntRange(min = 0, max = 1023) int seqB) {
        long earlier = layout.compose(millis, shardA, seqA);
        long later = layout.compose(millis + 1, shardB, seqB);

        assertThat(Long.compareUnsigned(later, earlier)).isPositive();
    }
}
