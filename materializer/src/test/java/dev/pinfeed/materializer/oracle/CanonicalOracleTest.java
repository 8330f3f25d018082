package dev.pinfeed.materializer.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pinfeed.canonicalstore.CanonicalLayout;
import dev.pinfeed.canonicalstore.ComparableRows;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.materializer.EventPlanner;
import dev.pinfeed.materializer.Events;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/** The oracle's rules, and that its result depends only on the set of events (any order, any repeats). */
class CanonicalOracleTest {

    private static final long USER = Events.id(ObjectType.USER, 1, 1);
    private static final long USER2 = Events.id(ObjectType.USER, 2, 1);
    private static final long BOARD = Events.id(ObjectType.BOARD, 1, 2);
    private static final long PIN = Events.id(ObjectType.PIN, 1, 3);
    private static final long PIN2 = Events.id(ObjectType.PIN, 3, 3);

    private final EventPlanner planner = new EventPlanner();

    private ComparableRows rowsOf(List<? extends SpecificRecord> events) {
        CanonicalOracle model = new CanonicalOracle();
        model.applyAll(events.stream().map(planner::plan).toList());
        return model.rows();
    }

    private static Map<String, Object> row(ComparableRows rows, String table, String key) {
        return rows.table(table).get(key);
    }

    @Test
    void aDeleteBeforeTheCreateEndsLikeTheCreateThenTheDelete() {
        List<SpecificRecord> inOrder = List.of(Events.user(USER, 1), Events.board(BOARD, USER, 2), Events.pin(PIN, BOARD, USER, 3),
                Events.deleted(PIN, BOARD, USER, 9));
        List<SpecificRecord> deleteFirst = List.of(inOrder.get(3), inOrder.get(0), inOrder.get(1), inOrder.get(2));
        ComparableRows a = rowsOf(inOrder);
        assertThat(rowsOf(deleteFirst)).isEqualTo(a);
        JsonNode pin = (JsonNode) row(a, CanonicalLayout.PINS, ComparableRows.objectKey(PIN)).get(CanonicalLayout.DATA);
        assertThat(pin.get("active").asBoolean(true)).isFalse();
        assertThat(pin.get("details").asText()).as("the create's fields are kept").isEqualTo("details of " + PIN);
        assertThat(row(a, "board_has_pins", ComparableRows.mappingKey(BOARD, PIN)))
                .as("the create's sequence wins over the delete's stand-in").containsEntry("sequence", 3L).containsEntry("active", 0L)
                .containsEntry("position", null);
        assertThat(row(a, "user_has_pins", ComparableRows.mappingKey(USER, PIN))).containsEntry("active", 0L);
    }

    @Test
    void theNewestLikeOrUnlikeWinsInBothDirectionsWhateverTheOrder() {
        var setup = List.<SpecificRecord>of(Events.user(USER, 1), Events.board(BOARD, USER, 2), Events.pin(PIN, BOARD, USER, 3));
        var like = Events.liked(USER2, PIN, 10);
        var unlike = Events.unliked(USER2, PIN, 20);
        var likeAgainSameMs = Events.liked(USER2, PIN, 20); // later event id, same ms: wins over the unlike
        List<SpecificRecord> events = new ArrayList<>(setup);
        events.addAll(List.of(likeAgainSameMs, unlike, like));
        ComparableRows rows = rowsOf(events);
        assertThat(row(rows, "user_likes_pins", ComparableRows.mappingKey(USER2, PIN))).containsEntry("liked", 1L).containsEntry("sequence", 20L);
        assertThat(row(rows, "pin_liked_by_users", ComparableRows.mappingKey(PIN, USER2))).containsEntry("liked", 1L);

        List<SpecificRecord> withoutLast = new ArrayList<>(setup);
        withoutLast.addAll(List.of(unlike, like));
        assertThat(row(rowsOf(withoutLast), "user_likes_pins", ComparableRows.mappingKey(USER2, PIN))).containsEntry("liked", 0L);
    }

    @Test
    void theNewestReorderWinsAndUnlistedPinsHaveNoPosition() {
        var older = Events.reordered(BOARD, USER, 50, List.of(PIN, PIN2));
        var newer = Events.reordered(BOARD, USER, 60, List.of(PIN2));
        List<SpecificRecord> events = List.of(newer, older, Events.user(USER, 1), Events.board(BOARD, USER, 2),
                Events.pin(PIN, BOARD, USER, 3), Events.pin(PIN2, BOARD, USER, 4));
        ComparableRows rows = rowsOf(events);
        assertThat(row(rows, "board_has_pins", ComparableRows.mappingKey(BOARD, PIN2))).containsEntry("position", 0L);
        assertThat(row(rows, "board_has_pins", ComparableRows.mappingKey(BOARD, PIN))).containsEntry("position", null);
        assertThat(row(rows, CanonicalLayout.BOARDS, ComparableRows.objectKey(BOARD)).get("order_version"))
                .isEqualTo(java.util.HexFormat.of().formatHex(CanonicalLayout.version(60, newer.getEventId())));
    }

    @Test
    void aCommentDeletedBeforeItsCreateStaysDeletedAndLeavesTheCount() {
        long comment = Events.id(ObjectType.COMMENT, 1, 9);
        List<SpecificRecord> inOrder = List.of(Events.user(USER, 1), Events.board(BOARD, USER, 2), Events.pin(PIN, BOARD, USER, 3),
                Events.commented(comment, PIN, USER2, 4), Events.uncommented(comment, PIN, USER2, 9));
        List<SpecificRecord> deleteFirst = List.of(inOrder.get(4), inOrder.get(0), inOrder.get(3), inOrder.get(1), inOrder.get(2));
        ComparableRows a = rowsOf(inOrder);
        assertThat(rowsOf(deleteFirst)).isEqualTo(a);
        Map<String, Object> row = row(a, CanonicalLayout.COMMENTS, ComparableRows.objectKey(comment));
        JsonNode data = (JsonNode) row.get(CanonicalLayout.DATA);
        assertThat(data.get("active").asBoolean(true)).isFalse();
        assertThat(data.get("text").asText()).as("the create's fields are kept").isEqualTo("comment " + comment);
        assertThat(row(a, "pin_has_comments", ComparableRows.mappingKey(PIN, comment)))
                .as("the create's sequence wins over the delete's stand-in").containsEntry("sequence", 4L).containsEntry("active", 0L);
        CanonicalOracle withTs = new CanonicalOracle();
        withTs.applyAll(deleteFirst.stream().map(planner::plan).toList());
        assertThat(withTs.rows(true).table(CanonicalLayout.COMMENTS).get(ComparableRows.objectKey(comment)))
                .as("ts: the delete, the newest event applied").containsEntry(CanonicalLayout.TS, CanonicalLayout.ts(9).toString());
    }

    @Test
    void eventsWhoseRowsNeverComeAreReportedNotApplied() {
        CanonicalOracle model = new CanonicalOracle();
        List<EventPlanner.Plan> never = model.applyAll(List.of(planner.plan(Events.liked(USER, PIN, 1)),
                planner.plan(Events.reordered(BOARD, USER, 1, List.of(PIN))),
                planner.plan(Events.commented(Events.id(ObjectType.COMMENT, 1, 9), PIN, USER, 1))));
        assertThat(never).hasSize(3);
        assertThat(model.rows().size()).isZero();
    }

    /** A random history over a few objects: every create, some deletes, likes and unlikes, comments and their deletes, reorders. */
    private static List<SpecificRecord> history(Random random) {
        long[] users = {USER, USER2};
        long[] boards = {BOARD, Events.id(ObjectType.BOARD, 2, 5)};
        long[] pins = {PIN, PIN2, Events.id(ObjectType.PIN, 4, 6), Events.id(ObjectType.PIN, 1, 7)};
        List<SpecificRecord> events = new ArrayList<>();
        for (long u : users) events.add(Events.user(u, random.nextInt(100)));
        for (int b = 0; b < boards.length; b++) events.add(Events.board(boards[b], users[b], random.nextInt(100)));
        List<List<Long>> onBoard = List.of(new ArrayList<>(), new ArrayList<>());
        for (long p : pins) {
            int b = random.nextInt(boards.length);
            onBoard.get(b).add(p);
            events.add(Events.pin(p, boards[b], users[b], random.nextInt(100)));
            if (random.nextInt(3) == 0) events.add(Events.deleted(p, boards[b], users[b], 100 + random.nextInt(100)));
        }
        for (int i = 0; i < 12; i++) {
            long u = users[random.nextInt(users.length)];
            long p = pins[random.nextInt(pins.length)];
            // Few distinct times, so equal occurredAt (event id decides) happens often.
            events.add(random.nextBoolean() ? Events.liked(u, p, random.nextInt(5)) : Events.unliked(u, p, random.nextInt(5)));
        }
        for (int i = 0; i < 6; i++) {
            long c = Events.id(ObjectType.COMMENT, 1, 100 + i);
            long p = pins[random.nextInt(pins.length)];
            long u = users[random.nextInt(users.length)];
            events.add(Events.commented(c, p, u, random.nextInt(100)));
            if (random.nextInt(3) == 0) events.add(Events.uncommented(c, p, u, 100 + random.nextInt(100)));
        }
        for (int b = 0; b < boards.length; b++) {
            for (int i = random.nextInt(3); i > 0; i--) {
                List<Long> order = new ArrayList<>(onBoard.get(b));
                Collections.shuffle(order, random);
                events.add(Events.reordered(boards[b], users[b], random.nextInt(5), order.subList(0, random.nextInt(order.size() + 1))));
            }
        }
        return events;
    }

    @Property(tries = 200)
    void theRowsDependOnlyOnTheSetOfEvents(@ForAll long seed, @ForAll @IntRange(min = 0, max = 10) int repeats) {
        Random random = new Random(seed);
        List<SpecificRecord> events = history(random);
        ComparableRows expected = rowsOf(events);
        List<SpecificRecord> shuffled = new ArrayList<>(events);
        for (int i = 0; i < repeats; i++) shuffled.add(events.get(random.nextInt(events.size())));
        Collections.shuffle(shuffled, random);
        assertThat(rowsOf(shuffled)).isEqualTo(expected);
        assertThat(expected.tableNames()).contains("users", "boards", "pins", "board_has_pins", "comments", "pin_has_comments");
    }

    @Test
    void rowsCompareByMeaningAndNameEachDifference() {
        ComparableRows expected = rowsOf(List.of(Events.user(USER, 1), Events.board(BOARD, USER, 2)));
        ComparableRows actual = new ComparableRows();
        expected.table("users").forEach((k, v) -> actual.put("users", k, v));
        actual.put("user_has_boards", ComparableRows.mappingKey(USER, BOARD), Map.of("sequence", 3));
        actual.put("user_has_boards", ComparableRows.mappingKey(USER, 99), Map.of("sequence", 3));
        List<ComparableRows.Difference> diff = expected.diff(actual, Set.of());
        assertThat(diff).extracting(d -> d.table() + " " + d.kind()).containsExactly("boards MISSING", "user_has_boards DIFFERS",
                "user_has_boards EXTRA");
        assertThat(diff.get(1).columns()).containsExactly("sequence");
        assertThat(expected.diff(expected, Set.of())).isEmpty();
    }
}
