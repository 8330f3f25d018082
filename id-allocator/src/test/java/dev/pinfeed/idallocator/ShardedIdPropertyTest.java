package dev.pinfeed.idallocator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

class ShardedIdPropertyTest {

    @Property
    void composeThenDecodeIsIdentity(@ForAll @IntRange(min = 0, max = 65535) int shard,
                                     @ForAll ObjectType type,
                                     @ForAll @LongRange(min = 1, max = (1L << 36) - 1) long localId) {
        long id = ShardedId.compose(shard, type, localId);

        assertThat(id).isPositive();
        assertThat(ShardedId.decode(id)).isEqualTo(new ShardedId(shard, type, localId));
    }

    @Property
    void decodeAcceptsExactlyTheIdsComposeCanMake(@ForAll("nearlyValidIds") long id) {
        boolean reservedClear = id >>> 62 == 0;
        boolean knownType = Arrays.stream(ObjectType.values()).anyMatch(t -> t.id() == ((id >>> 36) & 1023));
        boolean localFromOne = (id & ((1L << 36) - 1)) != 0;

        if (reservedClear && knownType && localFromOne) {
            assertThat(ShardedId.decode(id).value()).isEqualTo(id);
        } else {
            assertThatThrownBy(() -> ShardedId.decode(id)).isInstanceOf(InvalidIdException.class);
        }
    }

    @Property
    void anyReservedBitIsRejected(@ForAll @LongRange(min = 0, max = (1L << 62) - 1) long lowBits,
                                  @ForAll("reservedBits") long reserved) {
        assertThatThrownBy(() -> ShardedId.decode(reserved | lowBits)).isInstanceOf(InvalidIdException.class);
    }

    @Property
    void shardsOutsideSixteenBitsAreRejected(@ForAll("outsideShardRange") int shard) {
        assertThatThrownBy(() -> ShardedId.compose(shard, ObjectType.USER, 1)).isInstanceOf(InvalidIdException.class);
    }

    @Property
    void idsOfOneShardAndTypeOrderByLocalId(@ForAll @IntRange(min = 0, max = 65535) int shard, @ForAll ObjectType type,
                                            @ForAll @LongRange(min = 1, max = (1L << 36) - 2) long localId) {
        assertThat(ShardedId.compose(shard, type, localId + 1)).isGreaterThan(ShardedId.compose(shard, type, localId));
    }

    /** Raw 64-bit values whose fields are often, but not always, valid. */
    @Provide
    Arbitrary<Long> nearlyValidIds() {
        Arbitrary<Long> reserved = Arbitraries.frequencyOf(Tuple.of(8, Arbitraries.just(0L)), Tuple.of(1, Arbitraries.longs().between(1, 3)));
        Arbitrary<Long> shard = Arbitraries.longs().between(0, 65535);
        Arbitrary<Long> type = Arbitraries.frequencyOf(Tuple.of(4, Arbitraries.longs().between(0, 6)), Tuple.of(1, Arbitraries.longs().between(0, 1023)));
        Arbitrary<Long> local = Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.just(0L)), Tuple.of(8, Arbitraries.longs().between(0, (1L << 36) - 1)));
        return Combinators.combine(reserved, shard, type, local).as((r, s, t, l) -> r << 62 | s << 46 | t << 36 | l);
    }

    @Provide
    Arbitrary<Long> reservedBits() {
        return Arbitraries.of(1L << 62, 1L << 63, 3L << 62);
    }

    @Provide
    Arbitrary<Integer> outsideShardRange() {
        return Arbitraries.oneOf(Arbitraries.integers().lessOrEqual(-1), Arbitraries.integers().greaterOrEqual(65536));
    }
}
