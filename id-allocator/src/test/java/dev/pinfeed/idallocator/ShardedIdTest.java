package dev.pinfeed.idallocator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ShardedIdTest {

    /** The seed's pin https://www.pinterest.com/pin/241294492511762325/ . */
    private static final long SEED_PIN = 241294492511762325L;

    @Test
    void decodesTheSeedPin() {
        ShardedId id = ShardedId.decode(SEED_PIN);

        assertThat(id.shard()).isEqualTo(3429);
        assertThat(id.type()).isEqualTo(ObjectType.PIN);
        assertThat(id.typeId()).isEqualTo(1);
        assertThat(id.typeName()).isEqualTo("pin");
        assertThat(id.localId()).isEqualTo(7075733L);
    }

    @Test
    void composesTheSeedPin() {
        assertThat(ShardedId.compose(3429, ObjectType.PIN, 7075733L)).isEqualTo(SEED_PIN);
    }

    @Test
    void parsesDecimalText() {
        assertThat(ShardedId.parse(" 241294492511762325 ").shard()).isEqualTo(3429);
    }

    @Test
    void rejectsNegativeIds() {
        assertThatThrownBy(() -> ShardedId.decode(-SEED_PIN)).isInstanceOf(InvalidIdException.class).hasMessageContaining("negative");
    }

    @ParameterizedTest
    @ValueSource(longs = {1L << 62, (1L << 62) | SEED_PIN})
    void rejectsReservedBits(long id) {
        assertThatThrownBy(() -> ShardedId.decode(id)).isInstanceOf(InvalidIdException.class).hasMessageContaining("reserved bits");
    }

    @Test
    void rejectsUnknownTypes() {
        long typeZero = SEED_PIN & ~(1023L << 36);
        long type1023 = SEED_PIN | (1023L << 36);
        assertThatThrownBy(() -> ShardedId.decode(typeZero)).isInstanceOf(InvalidIdException.class).hasMessageContaining("unknown type 0");
        assertThatThrownBy(() -> ShardedId.decode(type1023)).isInstanceOf(InvalidIdException.class).hasMessageContaining("unknown type 1023");
    }

    @Test
    void rejectsLocalIdZero() {
        long localZero = SEED_PIN & ~ShardedId.MAX_LOCAL_ID;
        assertThatThrownBy(() -> ShardedId.decode(localZero)).isInstanceOf(InvalidIdException.class).hasMessageContaining("local id 0");
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 65536, Integer.MAX_VALUE, Integer.MIN_VALUE})
    void rejectsShardsOutOfRange(int shard) {
        assertThatThrownBy(() -> ShardedId.compose(shard, ObjectType.PIN, 1))
                .isInstanceOf(InvalidIdException.class).hasMessageContaining("shard " + shard + " is out of range 0-65535");
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1, 1L << 36, Long.MAX_VALUE})
    void rejectsLocalIdsOutOfRange(long localId) {
        assertThatThrownBy(() -> ShardedId.compose(0, ObjectType.PIN, localId))
                .isInstanceOf(InvalidIdException.class).hasMessageContaining("local id " + localId);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  ", "pin", "12x", "99999999999999999999"})
    void rejectsTextThatIsNotAnId(String text) {
        assertThatThrownBy(() -> ShardedId.parse(text)).isInstanceOf(InvalidIdException.class);
    }

    @Test
    void fieldBoundsComposeToTheExtremes() {
        assertThat(ShardedId.compose(0, ObjectType.byId(1), 1)).isEqualTo((1L << 36) + 1);
        long max = ShardedId.compose(ShardedId.MAX_SHARD, ObjectType.COMMENT, ShardedId.MAX_LOCAL_ID);
        assertThat(max).isPositive();
        assertThat(Long.numberOfLeadingZeros(max)).isEqualTo(2);
    }
}
