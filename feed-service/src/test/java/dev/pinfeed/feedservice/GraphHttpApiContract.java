package dev.pinfeed.feedservice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pinfeed.canonicalstore.reads.CanonicalReads;
import dev.pinfeed.canonicalstore.reads.CanonicalSeed;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.httpkit.Meters;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The graph endpoints of the read contract, over any {@link GraphStore} (in-memory and real Redis); the
 * users and boards they name exist in the canonical store ({@link #reads()}), as they do in production.
 */
abstract class GraphHttpApiContract {

    private static final AtomicLong EVENT = new AtomicLong(1);
    private final FeedAppClient app = new FeedAppClient(
                auth -> FeedServiceServer.app(PinfeedConfig.of(new Properties()), auth, store(), reads(), Meters.newRegistry(), Map.of()));

    protected abstract GraphStore store();

    /** The canonical store the routes check ids against, and how to put users and boards into it. */
    protected abstract CanonicalReads reads();

    protected abstract CanonicalSeed seed();

    /** A local id part no other test (or run) used. */
    protected abstract long freshLocal();

    @AfterEach
    void stop() {
        app.close();
    }

    long user() {
        long user = ShardedId.compose((int) (freshLocal() % 4096), ObjectType.USER, freshLocal());
        seed().user(user, "u" + Long.toString(ShardedId.decode(user).localId(), 36), null, 1_000);
        return user;
    }

    long board(long owner) {
        long board = ShardedId.compose(ShardedId.decode(owner).shard(), ObjectType.BOARD, freshLocal());
        seed().board(board, owner, "board", null, 1_000);
        store().apply(new GraphCommand.CreateBoard(EVENT.incrementAndGet(), 1_000, board, owner));
        return board;
    }

    void follow(long follower, long followee, long at) {
        store().apply(new GraphCommand.FollowUser(EVENT.incrementAndGet(), at, follower, followee));
    }

    JsonNode get(String path, int status) throws Exception {
        return app.get(path, status);
    }

    JsonNode post(String path, String body, int status) throws Exception {
        return app.post(path, body, status);
    }

    @Test
    void pointQueriesTellExplicitFromImplicit() throws Exception {
        long ana = user();
        long ben = user();
        long cat = user();
        long bensBoard = board(ben);
        follow(ana, ben, 2_000);
        store().apply(new GraphCommand.FollowBoard(EVENT.incrementAndGet(), 3_000, cat, bensBoard, ben));

        JsonNode explicit = get("/v1/users/" + ana + "/following/users/" + ben, 200);
        assertThat(explicit.get("following").asBoolean()).isTrue();
        assertThat(explicit.get("explicit").asBoolean()).isTrue();
        JsonNode implicit = get("/v1/users/" + cat + "/following/users/" + ben, 200);
        assertThat(implicit.get("following").asBoolean()).isTrue();
        assertThat(implicit.get("explicit").asBoolean()).isFalse();
        assertThat(get("/v1/users/" + ben + "/following/users/" + ana, 200).get("following").asBoolean()).isFalse();
        assertThat(get("/v1/users/" + ana + "/following/boards/" + bensBoard, 200).get("following").asBoolean())
                .as("following a user follows his boards").isTrue();
        JsonNode counts = get("/v1/users/" + ben + "/counts", 200);
        assertThat(counts.get("followers").asLong()).isEqualTo(2);
        assertThat(counts.get("boards").asLong()).isEqualTo(1);
    }

    @Test
    void checkAnswersWhichOfTheIdsAreFollowedInRequestOrder() throws Exception {
        long me = user();
        List<Long> others = new ArrayList<>();
        for (int i = 0; i < 6; i++) others.add(user());
        follow(me, others.get(1), 1_000);
        follow(me, others.get(4), 1_001);
        StringBuilder ids = new StringBuilder();
        for (Long o : others) ids.append(ids.length() == 0 ? "" : ",").append('"').append(o).append('"');

        JsonNode answer = post("/v1/users/" + me + "/following/users:check", "{\"ids\":[" + ids + "]}", 200);

        assertThat(answer.get("following")).extracting(JsonNode::asText)
                .containsExactly(Long.toString(others.get(1)), Long.toString(others.get(4)));
    }

    @Test
    void followersPageNewestFirstWithCursorsUntilNull() throws Exception {
        long star = user();
        List<Long> fans = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            long fan = user();
            fans.add(fan);
            follow(fan, star, 10_000 + i);
        }
        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            JsonNode page = get("/v1/users/" + star + "/followers?limit=25" + (cursor == null ? "" : "&cursor=" + cursor), 200);
            page.get("items").forEach(item -> seen.add(item.get("userId").asText()));
            cursor = page.get("cursor").isNull() ? null : page.get("cursor").asText();
            pages++;
        } while (cursor != null);

        assertThat(pages).isEqualTo(3);
        List<String> newestFirst = new ArrayList<>();
        for (int i = fans.size() - 1; i >= 0; i--) newestFirst.add(Long.toString(fans.get(i)));
        assertThat(seen).containsExactlyElementsOf(newestFirst);
    }

    @Test
    void aBoardsReceiversAreItsOwnersFollowersMinusUnfollowersPlusItsOwnFollowers() throws Exception {
        long owner = user();
        long board = board(owner);
        long fan = user();
        long leaver = user();
        long boardOnly = user();
        follow(fan, owner, 1_000);
        follow(leaver, owner, 1_000);
        store().apply(new GraphCommand.UnfollowBoard(EVENT.incrementAndGet(), 2_000, leaver, board, owner));
        store().apply(new GraphCommand.FollowBoard(EVENT.incrementAndGet(), 2_000, boardOnly, board, owner));

        Set<String> receivers = new HashSet<>();
        String cursor = null;
        do {
            JsonNode page = get("/v1/boards/" + board + "/followers?limit=1" + (cursor == null ? "" : "&cursor=" + cursor), 200);
            page.get("items").forEach(item -> receivers.add(item.get("userId").asText()));
            cursor = page.get("cursor").isNull() ? null : page.get("cursor").asText();
        } while (cursor != null);

        assertThat(receivers).containsExactlyInAnyOrder(Long.toString(fan), Long.toString(boardOnly));
    }

    @Test
    void badParametersAreProblemsNamingTheField() throws Exception {
        long me = user();
        long board = board(me);
        assertThat(get("/v1/users/" + board + "/followers", 400).get("field").asText()).isEqualTo("userId");
        assertThat(get("/v1/users/x/followers", 400).get("field").asText()).isEqualTo("userId");
        assertThat(get("/v1/users/" + me + "/followers?limit=251", 400).get("field").asText()).isEqualTo("limit");
        assertThat(get("/v1/users/" + me + "/followers?cursor=garbage", 400).get("field").asText()).isEqualTo("cursor");
        StringBuilder tooMany = new StringBuilder();
        for (int i = 0; i < 1001; i++) tooMany.append(i == 0 ? "" : ",").append('"').append(me).append('"');
        assertThat(post("/v1/users/" + me + "/following/users:check", "{\"ids\":[" + tooMany + "]}", 400).get("field").asText())
                .isEqualTo("ids");
    }

    @Test
    void unknownUsersAndBoardsAre404NamingTheIdNotZeros() throws Exception {
        long me = user();
        long board = board(me);
        long ghost = ShardedId.compose(ShardedId.decode(me).shard(), ObjectType.USER, freshLocal());
        long ghostBoard = ShardedId.compose(ShardedId.decode(me).shard(), ObjectType.BOARD, freshLocal());
        JsonNode problem = get("/v1/users/" + ghost + "/counts", 404);
        assertThat(problem.get("field").asText()).isEqualTo("userId");
        assertThat(problem.get("status").asInt()).isEqualTo(404);
        assertThat(get("/v1/users/" + ghost + "/followers", 404).get("field").asText()).isEqualTo("userId");
        assertThat(get("/v1/users/" + ghost + "/following/boards", 404).get("field").asText()).isEqualTo("userId");
        assertThat(get("/v1/users/" + me + "/following/users/" + ghost, 404).get("field").asText()).isEqualTo("targetUserId");
        assertThat(get("/v1/users/" + me + "/following/boards/" + ghostBoard, 404).get("field").asText()).isEqualTo("boardId");
        assertThat(get("/v1/boards/" + ghostBoard + "/followers", 404).get("field").asText()).isEqualTo("boardId");
        assertThat(post("/v1/users/" + ghost + "/following/users:check", "{\"ids\":[]}", 404).get("field").asText()).isEqualTo("userId");
        assertThat(get("/v1/users/" + me + "/following/boards/" + board, 200).get("following").asBoolean()).isFalse();
    }

    @Test
    void idsDecode() throws Exception {
        JsonNode id = get("/v1/ids/241294492511762325", 200);
        assertThat(id.get("shard").asInt()).isEqualTo(3429);
        assertThat(id.get("typeName").asText()).isEqualTo("pin");
        assertThat(id.get("localId").asText()).isEqualTo("7075733");
        assertThat(get("/v1/ids/" + (1L << 62), 400).get("field").asText()).isEqualTo("id");
    }
}
