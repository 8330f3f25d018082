package dev.pinfeed.canonicalstore.reads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class ListCursorsTest {

    @Test
    void roundTripsEachOrdersPositionAndIsUrlSafe() {
        ListEntry e = new ListEntry(Long.MAX_VALUE, 1_767_225_600_000L, null);
        assertThat(ListCursors.parseNewest(ListCursors.newest(e))).isEqualTo(e);
        ListEntry positioned = new ListEntry(42, 7, 3);
        String c = ListCursors.of(BoardPinOrder.CUSTOM, positioned);
        assertThat(c).matches("[A-Za-z0-9_-]+");
        assertThat(ListCursors.parse(BoardPinOrder.CUSTOM, c)).isEqualTo(positioned);
        assertThat(ListCursors.parse(BoardPinOrder.CUSTOM, ListCursors.of(BoardPinOrder.CUSTOM, e))).isEqualTo(e);
        assertThat(ListCursors.parse(BoardPinOrder.NEWEST, null)).isNull();
    }

    @Test
    void refusesWhatItDidNotIssue() {
        String overflow = Base64.getUrlEncoder().withoutPadding().encodeToString("n:99999999999999999999:1".getBytes(StandardCharsets.US_ASCII));
        for (String bad : new String[] {"", "%%", "bjox", overflow, ListCursors.of(BoardPinOrder.CUSTOM, new ListEntry(1, 2, 3))}) {
            assertThatThrownBy(() -> ListCursors.parseNewest(bad)).as(bad).isInstanceOf(BadCursorException.class);
        }
    }

    @Test
    void boardPinsValueRoundTripsAndTreatsForeignTextAsAMiss() {
        BoardPinsValue v = new BoardPinsValue(java.util.List.of(new ListEntry(5, 10, null), new ListEntry(4, 9, 0)), false);
        assertThat(BoardPinsValue.decode(v.encode())).isEqualTo(v);
        assertThat(BoardPinsValue.decode(new BoardPinsValue(java.util.List.of(), true).encode())).isEqualTo(new BoardPinsValue(java.util.List.of(), true));
        assertThat(BoardPinsValue.decode("x;1,2")).isNull();
        assertThat(BoardPinsValue.decode("c;1")).isNull();
    }
}
