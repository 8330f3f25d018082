package dev.pinfeed.idallocator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ObjectTypeTest {

    @Test
    void pinIsTypeOneAsInTheSeed() {
        assertThat(ObjectType.byId(1)).isEqualTo(ObjectType.PIN);
    }

    @ParameterizedTest
    @EnumSource(ObjectType.class)
    void everyTypeIsFoundByIdAndName(ObjectType type) {
        assertThat(ObjectType.byId(type.id())).isEqualTo(type);
        assertThat(ObjectType.byName(type.typeName().toUpperCase())).isEqualTo(type);
    }

    @Test
    void idsFitTheTenBitFieldAndAreUnique() {
        assertThat(Arrays.stream(ObjectType.values()).mapToInt(ObjectType::id))
                .doesNotHaveDuplicates().allMatch(id -> id >= 1 && id <= ShardedId.MAX_TYPE);
    }

    @Test
    void unknownTypesAreRejectedWithTheKnownOnes() {
        assertThatThrownBy(() -> ObjectType.byId(999)).isInstanceOf(InvalidIdException.class).hasMessageContaining("1=pin");
        assertThatThrownBy(() -> ObjectType.byName("photo")).isInstanceOf(InvalidIdException.class).hasMessageContaining("'photo'");
        assertThatThrownBy(() -> ObjectType.byId(-1)).isInstanceOf(InvalidIdException.class);
    }
}
