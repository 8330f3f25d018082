package dev.pinfeed.followergraph.sharded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.followergraph.Version;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/** The stored text of a register: its version prefix sorts as versions do (Lua compares it as a string). */
class RegisterTest {

    @Property(tries = 3000) // four parameters: enough tries to cover their edge-case combinations too
    void versionKeysOrderAsVersionsDo(@ForAll @LongRange(min = 0, max = Version.MAX_OCCURRED_AT) long t1, @ForAll long id1,
                                      @ForAll @LongRange(min = 0, max = Version.MAX_OCCURRED_AT) long t2, @ForAll long id2) {
        Version a = new Version(t1, id1);
        Version b = new Version(t2, id2);

        assertThat(Register.versionKey(a)).hasSize(Register.VERSION_KEY_LENGTH).matches("[0-9]+");
        assertThat(Integer.signum(Register.versionKey(a).compareTo(Register.versionKey(b)))).isEqualTo(Integer.signum(a.compareTo(b)));
        assertThat(Register.ofVersionKey(Register.versionKey(a))).isEqualTo(a);
    }

    @Property
    void registersRoundTrip(@ForAll boolean follow, @ForAll @LongRange(min = 0, max = Version.MAX_OCCURRED_AT) long t, @ForAll long id) {
        Register r = new Register(follow, new Version(t, id));
        assertThat(Register.decode(r.encode())).isEqualTo(r);
    }
}
