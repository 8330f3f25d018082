package dev.pinfeed.feedservice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pinfeed.canonicalstore.reads.CanonicalRowReads;
import dev.pinfeed.canonicalstore.reads.ForwardingCanonicalRows;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.feedservice.homefeed.HomeFeedFixture;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.httpkit.Meters;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The home feed route over the in-memory stores: the contract's shape, paging, errors naming the field, meters. */
class HomeFeedHttpTest {

    private final HomeFeedFixture f = new HomeFeedFixture();
    private final PrometheusMeterRegistry meters = Meters.newRegistry();
    private final FeedMetrics metrics = new FeedMetrics(meters);
    private final FeedAppClient app = new FeedAppClient(
                auth -> FeedServiceServer.app(PinfeedConfig.of(new Properties()), auth, f.graph, f.canonical,
            f.feed(p -> p, metrics), meters, Map.of()));

    @AfterEach
    void stop() {
        app.close();
        f.close();
    }

    private static List<String> ids(JsonNode page) {
        List<String> out = new ArrayList<>();
        page.path("items").forEach(i -> out.add(i.path("pin").path("id").asText()));
        return out;
    }

    @Test
    void publicObjectsNeedNoTokenUnlessConfiguredPrivateReadsAlways() throws Exception {
        long u = f.user();
        assertThat(app.get("/v1/users/" + u, null, 200).path("id").asText()).isEqualTo(Long.toString(u));
        assertThat(app.get("/v1/users/" + u + "/counts", null, 200).has("followers")).isTrue();
        assertThat(app.get("/v1/users/" + u + "/likes", null, 401).path("status").asInt()).isEqualTo(401);
        assertThat(app.get("/v1/users/" + u + "/following/boards", app.userToken(f.user()), 403).path("status").asInt()).isEqualTo(403);
        assertThat(app.get("/v1/users/" + u + "/following/interests", null, 401).path("status").asInt()).isEqualTo(401);
        assertThat(app.get("/v1/users/" + u + "/following/interests", app.userToken(f.user()), 403).path("status").asInt()).isEqualTo(403);

        Properties tokenOnly = new Properties();
        tokenOnly.setProperty("feed.auth.public-reads", "token");
        try (FeedAppClient closed = new FeedAppClient(PinfeedConfig.of(tokenOnly), auth -> FeedServiceServer.app(PinfeedConfig.of(tokenOnly), auth,
                f.graph, f.canonical, f.feed(p -> p, metrics), meters, Map.of()))) {
            assertThat(closed.get("/v1/users/" + u, null, 401).path("detail").asText()).contains("missing bearer token");
            assertThat(closed.get("/v1/pins/" + f.pin(), null, 401).path("status").asInt()).isEqualTo(401);
            assertThat(closed.get("/v1/users/" + u, closed.serviceToken("any-reader"), 200).path("id").asText()).isEqualTo(Long.toString(u));
            assertThat(closed.get("/v1/users/" + u, closed.userToken(f.user()), 200).path("id").asText())
                    .as("any user's token reads public objects").isEqualTo(Long.toString(u));
        }
    }

    @Test
    void newPinsThenTheMaterializedFeedPageByPage() throws Exception {
        long u = f.user();
        long old1 = f.pin(), old2 = f.pin(), new1 = f.pin();
        f.materialized(u, 1L << 40, old1, old2);
        f.pool(u, Source.FOLLOWED_BOARD, new1);

        JsonNode first = app.get("/v1/users/" + u + "/feed?limit=2", 200);
        assertThat(ids(first)).containsExactly(Long.toString(new1), Long.toString(old1));
        JsonNode item = first.path("items").get(0);
        assertThat(item.path("source").asText()).isEqualTo("followed_board");
        assertThat(item.path("score").asDouble()).isEqualTo(100.0);
        assertThat(item.path("pin").path("details").asText()).isEqualTo("pin " + new1);
        // The contract's members in its order, nulls written.
        assertThat(first.fieldNames()).toIterable().containsExactly("items", "cursor");
        assertThat(item.fieldNames()).toIterable().containsExactly("pin", "source", "score");
        assertThat(item.path("pin").fieldNames()).toIterable()
                .containsExactly("id", "boardId", "authorId", "details", "link", "imageUrl", "createdAt", "likes", "comments", "repins", "parentPinId",
                        "interests");
        assertThat(item.path("pin").get("parentPinId").isNull()).as("an original pin").isTrue();
        assertThat(item.path("pin").get("interests").isArray()).as("none: an empty array").isTrue();
        assertThat(item.path("pin").get("imageUrl").isNull()).isTrue();
        assertThat(first.path("cursor").isTextual()).isTrue();

        JsonNode second = app.get("/v1/users/" + u + "/feed?limit=2&cursor=" + first.path("cursor").asText(), 200);
        assertThat(ids(second)).containsExactly(Long.toString(old2));
        assertThat(second.path("cursor").isNull()).isTrue();
        assertThat(meters.find("feed_items_served_total").tag("source", "followed_user").counter().count()).isEqualTo(2);
        assertThat(meters.find("feed_items_served_total").tag("source", "followed_board").counter().count()).isEqualTo(1);
        assertThat(meters.find("feed_chunk_size").summary().count()).isEqualTo(1);
    }

    @Test
    void badRequestsNameTheirField() throws Exception {
        long u = f.user();
        assertThat(app.get("/v1/users/" + u + "/feed?limit=0", 400).path("field").asText()).isEqualTo("limit");
        assertThat(app.get("/v1/users/" + u + "/feed?limit=251", 400).path("field").asText()).isEqualTo("limit");
        assertThat(app.get("/v1/users/" + u + "/feed?cursor=bogus", 400).path("field").asText()).isEqualTo("cursor");
        assertThat(app.get("/v1/users/abc/feed", 400).path("field").asText()).isEqualTo("userId");
        long pinId = f.pin();
        assertThat(app.get("/v1/users/" + pinId + "/feed", 400).path("field").asText()).isEqualTo("userId");
        long unknown = ShardedId.compose(5, ObjectType.USER, 999_999_999L);
        assertThat(app.get("/v1/users/" + unknown + "/feed", 404).path("field").asText()).isEqualTo("userId");
    }

    @Test
    void anEmptyFeedIsAnEmptyLastPage() throws Exception {
        JsonNode page = app.get("/v1/users/" + f.user() + "/feed", 200);
        assertThat(page.path("items").size()).isZero();
        assertThat(page.path("cursor").isNull()).isTrue();
    }

    @Test
    void aUserSeenToExistIsNotReadAgainByRoutesThatNeedOnlyTheId() throws Exception {
        long u = f.user();
        UserReadCounter reads = new UserReadCounter(f.canonical);
        try (FeedAppClient counted = new FeedAppClient(
                auth -> FeedServiceServer.app(PinfeedConfig.of(new Properties()), auth, f.graph, reads,
                f.feed(p -> p, metrics), meters, Map.of()))) {
            counted.get("/v1/users/" + u + "/feed", 200);
            counted.get("/v1/users/" + u + "/feed", 200);
            counted.get("/v1/users/" + u + "/followers", 200);
            assertThat(reads.userReads).isEqualTo(1);
            counted.get("/v1/users/" + u, 200); // the object itself is read each time
            assertThat(reads.userReads).isEqualTo(2);
            long unknown = ShardedId.compose(5, ObjectType.USER, 999_999_998L);
            counted.get("/v1/users/" + unknown + "/feed", 404);
            counted.get("/v1/users/" + unknown + "/feed", 404); // a miss is not remembered
            assertThat(reads.userReads).isEqualTo(4);
        }
    }

    /** The canonical reads of {@code f}, counting the user objects asked for. */
    private static final class UserReadCounter extends ForwardingCanonicalRows {
        volatile int userReads;

        UserReadCounter(CanonicalRowReads delegate) {
            super(delegate);
        }

        @Override
        public Map<Long, String> objects(ObjectType type, Collection<Long> ids) {
            if (type == ObjectType.USER && !ids.isEmpty()) userReads++;
            return super.objects(type, ids);
        }
    }
}
