package dev.pinfeed.feedservice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pinfeed.canonicalstore.reads.CanonicalReads;
import dev.pinfeed.canonicalstore.reads.CanonicalSeed;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.followergraph.sharded.InMemoryGraphStore;
import dev.pinfeed.httpkit.Meters;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The canonical object routes of the read contract, over any {@link CanonicalReads} (in memory; MySQL behind Redis). */
abstract class CanonicalReadsHttpContract {

    protected static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

    /** The graph the app reads (interest followers). */
    protected final InMemoryGraphStore graph = new InMemoryGraphStore();

    protected final FeedAppClient app = new FeedAppClient(
                auth -> FeedServiceServer.app(PinfeedConfig.of(new Properties()), auth, graph, reads(), metrics(), Map.of()));

    protected abstract CanonicalReads reads();

    protected abstract CanonicalSeed seed();

    protected abstract long freshLocal();

    protected PrometheusMeterRegistry metrics() {
        return Meters.newRegistry();
    }

    @AfterEach
    void stop() {
        app.close();
    }

    protected long user() {
        long local = freshLocal();
        long id = ShardedId.compose((int) (local % 4096), ObjectType.USER, local);
        seed().user(id, "usr" + Long.toString(local, 36), "User " + local, T0);
        return id;
    }

    protected long board(long owner) {
        long id = ShardedId.compose(ShardedId.decode(owner).shard(), ObjectType.BOARD, freshLocal());
        seed().board(id, owner, "Board", "about things", T0 + 1);
        return id;
    }

    protected long pin(long board, long author, long createdAt) {
        long id = ShardedId.compose(ShardedId.decode(board).shard(), ObjectType.PIN, freshLocal());
        seed().pin(id, board, author, "pin " + createdAt, "https://example.com/" + createdAt, "https://img.example/" + createdAt, createdAt);
        return id;
    }

    protected long comment(long pin, long author, long createdAt) {
        long id = ShardedId.compose(ShardedId.decode(pin).shard(), ObjectType.COMMENT, freshLocal());
        seed().comment(id, pin, author, "comment " + createdAt, createdAt);
        return id;
    }

    protected long unknown(ObjectType type) {
        return ShardedId.compose(7, type, freshLocal());
    }

    protected static List<String> ids(JsonNode page, String field) {
        List<String> out = new ArrayList<>();
        page.get("items").forEach(i -> out.add(i.get(field).asText()));
        return out;
    }

    /** Every page of {@code path} (a query string included) by cursor, running {@code between} before each further page. */
    protected List<String> allByCursor(String path, Runnable between) throws Exception {
        return allByCursor(path, null, between);
    }

    /** Every page from {@code cursor} on (null: the first page), at most 100 pages. */
    protected List<String> allByCursor(String path, String cursor, Runnable between) throws Exception {
        List<String> seen = new ArrayList<>();
        int pages = 0;
        do {
            assertThat(++pages).as("pages of " + path).isLessThanOrEqualTo(100);
            JsonNode page = app.get(path + (cursor == null ? "" : "&cursor=" + cursor), 200);
            seen.addAll(ids(page, "id"));
            cursor = page.get("cursor").isNull() ? null : page.get("cursor").asText();
            if (cursor != null) between.run();
        } while (cursor != null);
        return seen;
    }

    @Test
    void everyRouteAnswersWithTheStoredObjectsIdsAsStrings() throws Exception {
        long ana = user();
        long ben = user();
        long board = board(ana);
        long pin = pin(board, ana, T0 + 10);
        seed().like(ben, pin, T0 + 20, true);
        String name = "usr" + Long.toString(ShardedId.decode(ana).localId(), 36);

        JsonNode user = app.get("/v1/users/" + ana, 200);
        assertThat(user.get("id").asText()).isEqualTo(Long.toString(ana));
        assertThat(user.get("username").asText()).isEqualTo(name);
        assertThat(user.get("displayName").asText()).startsWith("User ");
        assertThat(user.get("createdAt").asText()).isEqualTo("2026-01-01T00:00:00Z");
        assertThat(app.get("/v1/users/by-username/" + name, 200)).isEqualTo(user);
        JsonNode b = app.get("/v1/boards/" + board, 200);
        assertThat(b.get("ownerId").isTextual()).isTrue();
        assertThat(b.get("ownerId").asText()).isEqualTo(Long.toString(ana));
        assertThat(b.get("name").asText()).isEqualTo("Board");
        assertThat(b.get("description").asText()).isEqualTo("about things");
        JsonNode p = app.get("/v1/pins/" + pin, 200);
        assertThat(p.get("boardId").asText()).isEqualTo(Long.toString(board));
        assertThat(p.get("authorId").asText()).isEqualTo(Long.toString(ana));
        assertThat(p.get("details").asText()).isEqualTo("pin " + (T0 + 10));
        assertThat(p.get("link").asText()).isEqualTo("https://example.com/" + (T0 + 10));
        assertThat(p.get("imageUrl").asText()).isEqualTo("https://img.example/" + (T0 + 10));
        assertThat(p.get("createdAt").asText()).isEqualTo("2026-01-01T00:00:00.010Z");
        assertThat(p.get("likes").asLong()).isEqualTo(1);
        assertThat(p.get("comments").asLong()).isZero();
        assertThat(p.fieldNames()).toIterable()
                .containsExactly("id", "boardId", "authorId", "details", "link", "imageUrl", "createdAt", "likes", "comments", "repins",
                        "parentPinId", "interests");

        for (String order : List.of("", "?order=newest", "?order=custom")) {
            JsonNode page = app.get("/v1/boards/" + board + "/pins" + order, 200);
            assertThat(page.get("items")).containsExactly(p);
            assertThat(page.get("cursor").isNull()).isTrue();
        }
        assertThat(app.get("/v1/users/" + ana + "/boards", 200).get("items")).containsExactly(b);
        assertThat(app.get("/v1/users/" + ana + "/pins", 200).get("items")).containsExactly(p);
        JsonNode likers = app.get("/v1/pins/" + pin + "/likers", 200);
        assertThat(ids(likers, "userId")).containsExactly(Long.toString(ben));
        assertThat(likers.get("items").get(0).get("likedAt").asText()).isEqualTo("2026-01-01T00:00:00.020Z");
        assertThat(ids(app.get("/v1/users/" + ben + "/likes", 200), "pinId")).containsExactly(Long.toString(pin));
        JsonNode anaCounts = app.get("/v1/users/" + ana + "/counts", 200);
        assertThat(anaCounts.get("pins").asLong()).isEqualTo(1);
        assertThat(anaCounts.get("likes").asLong()).isZero();
        assertThat(app.get("/v1/users/" + ben + "/counts", 200).get("likes").asLong()).isEqualTo(1);
    }

    @Test
    void unknownOrDeletedIdsAre404NamingTheField() throws Exception {
        long ana = user();
        long board = board(ana);
        long deleted = pin(board, ana, T0 + 1);
        seed().deletePin(deleted);
        long ghostUser = unknown(ObjectType.USER);
        long ghostBoard = unknown(ObjectType.BOARD);
        long ghostPin = unknown(ObjectType.PIN);

        for (String path : List.of("/v1/users/" + ghostUser, "/v1/users/" + ghostUser + "/boards", "/v1/users/" + ghostUser + "/pins",
                "/v1/users/" + ghostUser + "/likes", "/v1/users/" + ghostUser + "/counts")) {
            JsonNode problem = app.get(path, 404);
            assertThat(problem.get("field").asText()).as(path).isEqualTo("userId");
            assertThat(problem.get("type").asText()).endsWith("/not-found");
        }
        assertThat(app.get("/v1/boards/" + ghostBoard, 404).get("field").asText()).isEqualTo("boardId");
        assertThat(app.get("/v1/boards/" + ghostBoard + "/pins", 404).get("field").asText()).isEqualTo("boardId");
        for (long pin : new long[] {ghostPin, deleted}) {
            assertThat(app.get("/v1/pins/" + pin, 404).get("field").asText()).isEqualTo("pinId");
            assertThat(app.get("/v1/pins/" + pin + "/likers", 404).get("field").asText()).isEqualTo("pinId");
            assertThat(app.get("/v1/pins/" + pin + "/comments", 404).get("field").asText()).isEqualTo("pinId");
        }
        long deletedComment = comment(pin(board, ana, T0 + 2), ana, T0 + 3);
        seed().deleteComment(deletedComment);
        for (long c : new long[] {unknown(ObjectType.COMMENT), deletedComment}) {
            JsonNode problem = app.get("/v1/comments/" + c, 404);
            assertThat(problem.get("field").asText()).isEqualTo("commentId");
            assertThat(problem.get("detail").asText()).contains("no comment " + c);
        }
        assertThat(app.get("/v1/users/by-username/nobody_" + freshLocal(), 404).get("field").asText()).isEqualTo("username");
    }

    @Test
    void badInputIsAProblemNamingTheField() throws Exception {
        long ana = user();
        long board = board(ana);
        pin(board, ana, T0 + 1);
        pin(board, ana, T0 + 2);
        String pins = "/v1/boards/" + board + "/pins";
        String cursor = app.get(pins + "?limit=1", 200).get("cursor").asText();

        assertThat(app.get("/v1/users/abc", 400).get("field").asText()).isEqualTo("userId");
        assertThat(app.get("/v1/users/" + (1L << 62), 400).get("field").asText()).isEqualTo("userId");
        assertThat(app.get("/v1/users/" + board, 400).get("detail").asText()).contains("board id");
        assertThat(app.get("/v1/boards/" + ana + "/pins", 400).get("field").asText()).isEqualTo("boardId");
        assertThat(app.get("/v1/pins/" + board, 400).get("field").asText()).isEqualTo("pinId");
        assertThat(app.get("/v1/pins/" + board + "/comments", 400).get("field").asText()).isEqualTo("pinId");
        assertThat(app.get("/v1/comments/" + board, 400).get("field").asText()).isEqualTo("commentId");
        assertThat(app.get("/v1/comments/x", 400).get("field").asText()).isEqualTo("commentId");
        for (String limit : List.of("0", "251", "x")) {
            assertThat(app.get(pins + "?limit=" + limit, 400).get("field").asText()).isEqualTo("limit");
            assertThat(app.get("/v1/users/" + ana + "/pins?limit=" + limit, 400).get("field").asText()).isEqualTo("limit");
        }
        assertThat(app.get(pins + "?offset=-1", 400).get("field").asText()).isEqualTo("offset");
        assertThat(app.get(pins + "?offset=x", 400).get("field").asText()).isEqualTo("offset");
        assertThat(app.get(pins + "?offset=1&cursor=" + cursor, 400).get("field").asText()).isEqualTo("offset");
        assertThat(app.get(pins + "?cursor=garbage", 400).get("field").asText()).isEqualTo("cursor");
        assertThat(app.get(pins + "?order=custom&cursor=" + cursor, 400).get("field").asText())
                .as("a newest-first cursor in the custom order").isEqualTo("cursor");
        assertThat(app.get("/v1/users/" + ana + "/likes?cursor=garbage", 400).get("field").asText()).isEqualTo("cursor");
        assertThat(app.get(pins + "?order=oldest", 400).get("field").asText()).isEqualTo("order");
        assertThat(app.get("/v1/users/by-username/Not%20A%20Name", 400).get("field").asText()).isEqualTo("username");
    }

    @Test
    void aPinsCommentsPageNewestFirstWithoutTheDeletedAndThePinCountsThem() throws Exception {
        long ana = user();
        long ben = user();
        long pin = pin(board(ana), ana, T0 + 1);
        List<Long> comments = new ArrayList<>();
        for (int i = 0; i < 5; i++) comments.add(comment(pin, i % 2 == 0 ? ben : ana, T0 + 100 + i));
        seed().deleteComment(comments.get(3));
        List<String> newestFirst = new ArrayList<>();
        for (int i = 4; i >= 0; i--) if (i != 3) newestFirst.add(Long.toString(comments.get(i)));

        JsonNode first = app.get("/v1/pins/" + pin + "/comments?limit=3", 200);
        assertThat(first.fieldNames()).toIterable().containsExactly("items", "cursor");
        assertThat(ids(first, "id")).isEqualTo(newestFirst.subList(0, 3));
        JsonNode newest = first.get("items").get(0);
        assertThat(newest.fieldNames()).toIterable().containsExactly("id", "pinId", "authorId", "text", "createdAt");
        assertThat(newest.get("pinId").asText()).isEqualTo(Long.toString(pin));
        assertThat(newest.get("authorId").asText()).isEqualTo(Long.toString(ben));
        assertThat(newest.get("text").asText()).isEqualTo("comment " + (T0 + 104));
        assertThat(newest.get("createdAt").asText()).isEqualTo("2026-01-01T00:00:00.104Z");
        assertThat(app.get("/v1/comments/" + comments.get(4), 200)).isEqualTo(newest);
        assertThat(allByCursor("/v1/pins/" + pin + "/comments?limit=2", () -> {})).isEqualTo(newestFirst);
        assertThat(app.get("/v1/pins/" + pin, 200).get("comments").asLong()).isEqualTo(4);
        assertThat(app.get("/v1/pins/" + pin + "/comments?cursor=garbage", 400).get("field").asText()).isEqualTo("cursor");
        assertThat(app.get("/v1/pins/" + pin + "/comments?limit=0", 400).get("field").asText()).isEqualTo("limit");
    }

    @Test
    void boardPinsPageByOffsetAndByCursorsWhilePinsAreAdded() throws Exception {
        long ana = user();
        long board = board(ana);
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 60; i++) created.add(Long.toString(pin(board, ana, T0 + 1_000 + i)));
        List<String> newest = new ArrayList<>(created);
        Collections.reverse(newest);
        List<Long> customOrder = new ArrayList<>();
        for (int i = 0; i < 40; i++) customOrder.add(Long.parseLong(created.get(i))); // the 40 oldest, oldest first
        seed().reorder(board, customOrder);
        List<String> custom = new ArrayList<>(newest.subList(0, 20)); // unlisted: newest first, before the listed
        for (int i = 0; i < 40; i++) custom.add(created.get(i));
        String path = "/v1/boards/" + board + "/pins";

        long[] t = {T0 + 5_000};
        List<String> added = new ArrayList<>(); // newest first: unlisted in the custom order, so first there too
        for (String order : List.of("newest", "custom")) {
            List<String> expected = new ArrayList<>(added);
            expected.addAll(order.equals("newest") ? newest : custom);
            List<String> byOffset = new ArrayList<>();
            for (int offset = 0; offset < expected.size(); offset += 25) {
                JsonNode page = app.get(path + "?order=" + order + "&limit=25&offset=" + offset, 200);
                byOffset.addAll(ids(page, "id"));
                assertThat(page.get("cursor").isNull()).isEqualTo(offset + 25 >= expected.size());
            }
            assertThat(byOffset).as(order + " by offset").isEqualTo(expected);
            Runnable addPin = () -> added.add(0, Long.toString(pin(board, ana, t[0]++)));

            assertThat(allByCursor(path + "?order=" + order + "&limit=25", addPin))
                    .as(order + " by cursor, a pin added before each further page: no duplicate, no skip").isEqualTo(expected);

            JsonNode second = app.get(path + "?order=" + order + "&limit=20&offset=20", 200);
            List<String> now = ids(app.get(path + "?order=" + order + "&limit=250", 200), "id");
            List<String> after = now.subList(now.indexOf(ids(second, "id").get(19)) + 1, now.size());
            addPin.run();
            List<String> rest = allByCursor(path + "?order=" + order + "&limit=20", second.get("cursor").asText(), () -> {});
            assertThat(rest).as(order + ": the cursor of an offset page goes on from there, unshifted by a new pin").isEqualTo(after);
        }
    }

    @Test
    void anInterestAnswersWithItsCountsAndItsLivePinsNewestFirstAndAnUnknownOneIs404() throws Exception {
        long ana = user();
        long board = board(ana);
        long interest = ShardedId.compose(ShardedId.decode(ana).shard(), ObjectType.INTEREST, freshLocal());
        seed().interest(interest, "woodworking", T0 + 2);
        long older = pin(board, ana, T0 + 20);
        long newer = pin(board, ana, T0 + 30);
        long gone = pin(board, ana, T0 + 40);
        for (long p : List.of(older, newer, gone)) seed().tagPin(interest, p, T0 + 20);
        seed().deletePin(gone);
        long bob = user();
        graph.apply(new dev.pinfeed.followergraph.GraphCommand.FollowInterest(1, T0 + 50, bob, interest));

        JsonNode i = app.get("/v1/interests/" + interest, 200);
        assertThat(i.get("id").asText()).isEqualTo(Long.toString(interest));
        assertThat(i.get("name").asText()).isEqualTo("woodworking");
        assertThat(i.get("createdAt").asText()).isEqualTo("2026-01-01T00:00:00.002Z");
        assertThat(i.get("followers").asLong()).isEqualTo(1);
        assertThat(i.get("pins").asLong()).isEqualTo(2);
        assertThat(ids(app.get("/v1/interests/" + interest + "/pins", 200), "id")).containsExactlyInAnyOrder(Long.toString(older),
                Long.toString(newer));
        assertThat(app.get("/v1/interests/" + unknown(ObjectType.INTEREST), 404).get("field").asText()).isEqualTo("interestId");
        assertThat(app.get("/v1/interests/" + unknown(ObjectType.INTEREST) + "/pins", 404).get("field").asText()).isEqualTo("interestId");
        assertThat(app.get("/v1/interests/" + board, 400).get("field").asText()).as("a board id").isEqualTo("interestId");
    }
}
