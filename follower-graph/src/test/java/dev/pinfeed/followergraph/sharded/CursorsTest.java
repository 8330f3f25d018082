package dev.pinfeed.followergraph.sharded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.followergraph.InvalidCursorException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** Cursor strings are held by clients between requests: their form is pinned, and each kind reads back only as itself. */
class CursorsTest {

    private static String text(String cursor) {
        return new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
    }

    @Test
    void eachPositionHasItsDocumentedFormAndReadsBack() {
        Cursors.After after = new Cursors.After(1_767_225_600_000L, 241294492511762325L);
        assertThat(text(after.encode())).isEqualTo("s|1767225600000|241294492511762325");
        assertThat(after.encode()).doesNotContain("=", "+", "/");
        assertThat(Cursors.After.decode(after.encode())).isEqualTo(after);

        Cursors.Receivers phase1 = new Cursors.OwnersFollowers(after);
        assertThat(text(phase1.encode())).isEqualTo("e|1767225600000|241294492511762325");
        assertThat(Cursors.Receivers.decode(phase1.encode())).isEqualTo(phase1);
        Cursors.Receivers phase2 = new Cursors.BoardFollowers("18446744073709551615");
        assertThat(text(phase2.encode())).isEqualTo("h|18446744073709551615");
        assertThat(Cursors.Receivers.decode(phase2.encode())).isEqualTo(phase2);

        Cursors.AfterId id = new Cursors.AfterId(42);
        assertThat(text(id.encode())).isEqualTo("i|42");
        assertThat(Cursors.AfterId.decode(id.encode())).isEqualTo(id);
    }

    @Test
    void noCursorMeansTheStart() {
        assertThat(Cursors.After.decode(null)).isNull();
        assertThat(Cursors.AfterId.decode(null)).isNull();
        assertThat(Cursors.Receivers.decode(null)).isEqualTo(new Cursors.OwnersFollowers(null));
        assertThatThrownBy(() -> new Cursors.OwnersFollowers(null).encode()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aPositionOfAnotherKindIsAnInvalidCursor() {
        String after = new Cursors.After(1, 2).encode();
        String receivers = new Cursors.OwnersFollowers(new Cursors.After(1, 2)).encode();
        String id = new Cursors.AfterId(2).encode();

        assertThatThrownBy(() -> Cursors.After.decode(receivers)).isInstanceOf(InvalidCursorException.class);
        assertThatThrownBy(() -> Cursors.After.decode(id)).isInstanceOf(InvalidCursorException.class);
        assertThatThrownBy(() -> Cursors.Receivers.decode(after)).isInstanceOf(InvalidCursorException.class);
        assertThatThrownBy(() -> Cursors.Receivers.decode(id)).isInstanceOf(InvalidCursorException.class);
        assertThatThrownBy(() -> Cursors.AfterId.decode(after)).isInstanceOf(InvalidCursorException.class);
        assertThatThrownBy(() -> Cursors.AfterId.decode("not a cursor!")).isInstanceOf(InvalidCursorException.class)
                .hasMessageContaining("not a cursor!");
    }
}
