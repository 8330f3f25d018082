package dev.pinfeed.followergraph;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

class VersionTest {

    @Property(tries = 3000) // four parameters: enough tries to cover their edge-case combinations too
    void sortKeysOrderAsVersionsDo(@ForAll @LongRange(min = 0, max = Version.MAX_OCCURRED_AT) long t1, @ForAll long id1,
                                   @ForAll @LongRange(min = 0, max = Version.MAX_OCCURRED_AT) long t2, @ForAll long id2) {
        Version a = new Version(t1, id1);
        Version b = new Version(t2, id2);

        assertThat(a.sortKey()).hasSize(Version.SORT_KEY_LENGTH).matches("[0-9]+");
        assertThat(Integer.signum(a.sortKey().compareTo(b.sortKey()))).isEqualTo(Integer.signum(a.compareTo(b)));
        assertThat(Version.ofSortKey(a.sortKey())).isEqualTo(a);
    }

    @Property
    void registersRoundTrip(@ForAll boolean follow, @ForAll @LongRange(min = 0, max = Version.MAX_OCCURRED_AT) long t, @ForAll long id) {
        Register r = new Register(follow, new Version(t, id));
        assertThat(Register.decode(r.encode())).isEqualTo(r);
    }
}
