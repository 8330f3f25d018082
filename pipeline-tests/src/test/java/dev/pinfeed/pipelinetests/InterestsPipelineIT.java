package dev.pinfeed.pipelinetests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.followergraph.UserRelation;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.ingestapi.core.IngestCommand;
import dev.pinfeed.ingestapi.core.IngestRejection;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Interests end to end ({@link Pipeline}: every processor in this JVM on fresh topics): an interest created and followed through
 * ingest, a pin carrying it fanned out to the interest's followers into their interests pool and home feed, the interest's reads on
 * feed-service, an unfollow stopping later pins. Where a test claims a pin did <em>not</em> reach someone, a witness who follows
 * the author shows first that the pin was fanned out and written.
 */
@ExtendWith(StackExtension.class)
class InterestsPipelineIT {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @TempDir
    static Path fanoutState;

    private static Pipeline p;
    private static TestStack stack;

    @BeforeAll
    static void start(TestStack testStack) throws Exception {
        stack = testStack;
        p = new Pipeline(testStack, fanoutState);
    }

    @AfterAll
    static void stop() {
        if (p != null) p.close();
    }

    /** A name no other run used (names are unique in the shared store). */
    private static String freshName(String stem) {
        return stem + "-" + Long.toString(stack.freshId(), 36);
    }

    @Test
    void aFollowedInterestsPinReachesTheFollowerAsInterestsOnceAndAnUnfollowStopsLaterOnes() throws Exception {
        String name = freshName("woodworking");
        long wood = p.send(new IngestCommand.CreateInterest(name));
        assertThat(ShardedId.decode(wood).type()).isEqualTo(ObjectType.INTEREST);
        long author = p.user("maker");
        long board = p.board(author, "Workshop");
        long reader = p.user("reader");
        long fan = p.user("fan"); // follows the author and the interest: gets the pin once, as followed_user
        long witness = p.user("witness"); // follows the author only: proof that a pin was fanned out and written

        p.send(new IngestCommand.FollowInterest(reader, wood));
        p.send(new IngestCommand.FollowInterest(fan, wood));
        p.send(new IngestCommand.FollowUser(fan, author));
        p.send(new IngestCommand.FollowUser(witness, author));
        awaitGraph(() -> p.graph.store().followsInterest(reader, wood) && p.graph.store().followsInterest(fan, wood)
                && p.graph.store().relation(fan, author) == UserRelation.EXPLICIT
                && p.graph.store().relation(witness, author) == UserRelation.EXPLICIT);

        long tagged = p.send(new IngestCommand.CreatePin(board, author, "dovetail", "https://example.com/dovetail", null, List.of(wood)));
        long plain = p.pin(board, author, "plain_shelf");
        awaitPooled(witness, tagged, plain);
        awaitPooled(reader, tagged);
        awaitPooled(fan, tagged, plain);
        assertThat(p.pooled(reader)).as("a pin without the interest").doesNotContain(plain);
        assertThat(sources(reader, tagged)).containsExactly(Source.INTERESTS);
        assertThat(sources(fan, tagged)).as("the board's receiver keeps his source, once").containsExactly(Source.FOLLOWED_USER);
        assertThat(p.pooled(author)).as("the author is not told of his own pin").doesNotContain(tagged);

        Map<Long, JsonNode> feed = Pipeline.itemsById(p.feed(reader));
        assertThat(feed).containsKey(tagged).doesNotContainKey(plain);
        assertThat(feed.get(tagged).path("source").asText()).isEqualTo("interests");
        JsonNode pin = feed.get(tagged).path("pin");
        assertThat(pin.path("details").asText()).isEqualTo("dovetail");
        assertThat(pin.path("interests").get(0).asText()).isEqualTo(Long.toString(wood));

        // The interest's reads on feed-service.
        await().atMost(PATIENCE).until(() -> p.get("/v1/interests/" + wood).statusCode() == 200
                && p.get("/v1/interests/" + wood, 200).path("pins").asLong() == 1);
        JsonNode interest = p.get("/v1/interests/" + wood, 200);
        assertThat(interest.path("id").asText()).isEqualTo(Long.toString(wood));
        assertThat(interest.path("name").asText()).isEqualTo(name);
        assertThat(interest.path("followers").asLong()).isEqualTo(2);
        assertThat(interest.path("createdAt").asText()).endsWith("Z");
        JsonNode pins = p.get("/v1/interests/" + wood + "/pins", 200);
        assertThat(pins.path("items")).hasSize(1);
        assertThat(pins.path("items").get(0).path("id").asText()).isEqualTo(Long.toString(tagged));
        assertThat(p.get("/v1/pins/" + plain, 200).path("interests")).isEmpty();
        assertThat(p.getAs(reader, "/v1/users/" + reader + "/following/interests/" + wood, 200).path("following").asBoolean()).isTrue();
        assertThat(p.getAs(witness, "/v1/users/" + witness + "/following/interests/" + wood, 200).path("following").asBoolean()).isFalse();
        JsonNode following = p.getAs(reader, "/v1/users/" + reader + "/following/interests", 200);
        assertThat(following.path("items").get(0).path("interestId").asText()).isEqualTo(Long.toString(wood));
        assertThat(p.get("/v1/users/" + reader + "/counts", 200).path("followingInterests").asLong()).isEqualTo(1);

        // Unfollowed: a later pin of the interest reaches the fan and the witness, not him.
        p.send(new IngestCommand.UnfollowInterest(reader, wood));
        awaitGraph(() -> !p.graph.store().followsInterest(reader, wood));
        long later = p.send(new IngestCommand.CreatePin(board, author, "mortise", null, null, List.of(wood)));
        awaitPooled(witness, later);
        awaitPooled(fan, later);
        assertThat(p.pooled(reader)).doesNotContain(later);
        assertThat(Pipeline.itemsById(p.feed(reader))).doesNotContainKey(later);
        assertThat(p.get("/v1/users/" + reader + "/counts", 200).path("followingInterests").asLong()).isZero();
    }

    @Test
    void aDeletedPinLeavesItsInterestsFollowersPoolsAndTheInterestsPins() throws Exception {
        long clay = p.send(new IngestCommand.CreateInterest(freshName("ceramics")));
        long author = p.user("potter");
        long board = p.board(author, "Bowls");
        long follower = p.user("collector");
        p.send(new IngestCommand.FollowInterest(follower, clay));
        awaitGraph(() -> p.graph.store().followsInterest(follower, clay));

        long bowl = p.send(new IngestCommand.CreatePin(board, author, "raku_bowl", null, null, List.of(clay)));
        awaitPooled(follower, bowl);
        await().atMost(PATIENCE).until(() -> p.get("/v1/interests/" + clay, 200).path("pins").asLong() == 1);

        // Ingest names the pin's interests in its PinDeleted (read from the canonical store): the withdrawal reaches the follower.
        p.send(new IngestCommand.DeletePin(bowl));
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(p.pooled(follower)).doesNotContain(bowl));
        await().atMost(PATIENCE).until(() -> p.get("/v1/interests/" + clay, 200).path("pins").asLong() == 0);
        assertThat(p.get("/v1/interests/" + clay + "/pins", 200).path("items")).isEmpty();
    }

    @Test
    void ingestRefusesAnUnknownInterestNamingTheFieldAndATakenName() throws Exception {
        long author = p.user("stranger");
        long board = p.board(author, "Odds");
        long ghost = ShardedId.compose(5, ObjectType.INTEREST, 1L << 34);

        var unknown = p.tryIngest(new IngestCommand.CreatePin(board, author, "lost", null, null, List.of(ghost)));
        assertThat(unknown.accepted()).isFalse();
        assertThat(unknown.rejection().reason()).isEqualTo(IngestRejection.Reason.UNKNOWN_ID);
        assertThat(unknown.rejection().field()).isEqualTo("interestIds[0]");
        var follow = p.tryIngest(new IngestCommand.FollowInterest(author, ghost));
        assertThat(follow.rejection().field()).isEqualTo("interestId");

        String name = freshName("ceramics");
        p.send(new IngestCommand.CreateInterest(name));
        var taken = p.tryIngest(new IngestCommand.CreateInterest(name));
        assertThat(taken.rejection().reason()).isEqualTo(IngestRejection.Reason.CONFLICT);
        assertThat(taken.rejection().field()).isEqualTo("name");

        assertThat(p.get("/v1/interests/" + ghost, 404).path("field").asText()).isEqualTo("interestId");
    }

    private static void awaitGraph(BooleanSupplier applied) {
        await().atMost(PATIENCE).until(applied::getAsBoolean);
    }

    /** Until every pin is in the user's pools and in the canonical store (so a feed read can hydrate it). */
    private static void awaitPooled(long user, long... pins) {
        List<Long> wanted = java.util.Arrays.stream(pins).boxed().toList();
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(p.pooled(user)).containsAll(wanted));
        await().atMost(PATIENCE).until(() -> wanted.stream().allMatch(pin -> p.reads.pin(pin).isPresent()));
    }


    private static List<Source> sources(long user, long pin) {
        return p.pools.all(user).stream().filter(e -> e.pinId() == pin).map(PoolEntry::source).toList();
    }

}
