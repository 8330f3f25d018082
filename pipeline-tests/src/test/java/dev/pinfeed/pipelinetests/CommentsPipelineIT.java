package dev.pinfeed.pipelinetests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pinfeed.canonicalstore.ComparableRows;
import dev.pinfeed.canonicalstore.mysql.CanonicalSnapshot;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.ingestapi.core.IngestCommand;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Comments end to end: written through ingest, materialized from the comments topic into the pin's shard,
 * read from feed-service ({@link Pipeline}: every processor in this JVM on fresh topics), and replayed.
 */
@ExtendWith(StackExtension.class)
class CommentsPipelineIT {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @TempDir
    static Path fanoutState;

    private static Pipeline p;

    @BeforeAll
    static void start(TestStack stack) throws Exception {
        p = new Pipeline(stack, fanoutState);
    }

    @AfterAll
    static void stop() {
        if (p != null) p.close();
    }

    private static List<String> ids(JsonNode page) {
        List<String> out = new ArrayList<>();
        page.path("items").forEach(i -> out.add(i.path("id").asText()));
        return out;
    }

    @Test
    void twoCommentsOneDeletedReadNewestFirstWithTheCountAndAReplayChangesNothing() throws Exception {
        long author = p.user("maker");
        long reader = p.user("critic");
        long pin = p.pin(p.board(author, "Chairs"), author, "oak_chair");
        long first = p.send(new IngestCommand.CreateComment(pin, reader, "Lovely grain"));
        long second = p.send(new IngestCommand.CreateComment(pin, author, "Thanks!"));
        long third = p.send(new IngestCommand.CreateComment(pin, reader, "Where from?"));
        assertThat(ShardedId.decode(first).type()).isEqualTo(ObjectType.COMMENT);
        assertThat(ShardedId.decode(first).shard()).as("a comment lives on its pin's shard").isEqualTo(ShardedId.decode(pin).shard());

        // The count is cached once read: the deletes below must invalidate it.
        await().atMost(PATIENCE).until(() -> p.get("/v1/pins/" + pin).statusCode() == 200
                && p.get("/v1/pins/" + pin, 200).path("comments").asLong() == 3);
        assertThat(p.get("/v1/comments/" + second, 200).path("text").asText()).isEqualTo("Thanks!");
        p.send(new IngestCommand.DeleteComment(second));
        p.send(new IngestCommand.DeleteComment(second)); // a repeated delete is accepted and changes nothing

        await().atMost(PATIENCE).until(() -> p.get("/v1/pins/" + pin, 200).path("comments").asLong() == 2);
        JsonNode page = p.get("/v1/pins/" + pin + "/comments", 200);
        assertThat(ids(page)).containsExactly(Long.toString(third), Long.toString(first));
        assertThat(page.path("cursor").isNull()).isTrue();
        JsonNode newest = page.path("items").get(0);
        assertThat(newest.path("pinId").asText()).isEqualTo(Long.toString(pin));
        assertThat(newest.path("authorId").asText()).isEqualTo(Long.toString(reader));
        assertThat(newest.path("text").asText()).isEqualTo("Where from?");
        assertThat(newest.path("createdAt").asText()).endsWith("Z");
        assertThat(p.get("/v1/comments/" + third, 200)).isEqualTo(newest);
        assertThat(p.get("/v1/comments/" + second, 404).path("field").asText()).as("the deleted comment (its cached JSON invalidated)")
                .isEqualTo("commentId");
        JsonNode firstPage = p.get("/v1/pins/" + pin + "/comments?limit=1", 200);
        assertThat(ids(firstPage)).containsExactly(Long.toString(third));
        assertThat(ids(p.get("/v1/pins/" + pin + "/comments?limit=1&cursor=" + firstPage.path("cursor").asText(), 200)))
                .containsExactly(Long.toString(first));

        // Replay: a second materializer reads every canonical topic from offset 0 into the same store; no row changes, ts included.
        List<Long> ids = List.of(author, reader, pin, first, second, third);
        ComparableRows before = CanonicalSnapshot.read(p.db, ids, true);
        assertThat(before.table("comments")).hasSize(3);
        assertThat(before.table("pin_has_comments")).hasSize(3);
        String replay = p.replayCanonical();
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(500)).until(() -> p.caughtUp(replay));
        ComparableRows after = CanonicalSnapshot.read(p.db, ids, true);
        assertThat(after.diff(before, java.util.Set.of())).as("rows changed by the replay").isEmpty();
        assertThat(p.get("/v1/pins/" + pin, 200).path("comments").asLong()).isEqualTo(2);
        assertThat(ids(p.get("/v1/pins/" + pin + "/comments", 200))).containsExactly(Long.toString(third), Long.toString(first));
    }

    @Test
    void aCommentOnAnUnknownPinIsRefusedAndAnUnknownPinsCommentsAre404() throws Exception {
        long user = p.user("stranger");
        long ghostPin = ShardedId.compose(5, ObjectType.PIN, 1L << 34);
        var refused = p.tryIngest(new IngestCommand.CreateComment(ghostPin, user, "hello?"));
        assertThat(refused.accepted()).isFalse();
        assertThat(refused.rejection().field()).isEqualTo("pinId");
        assertThat(p.get("/v1/pins/" + ghostPin + "/comments", 404).path("field").asText()).isEqualTo("pinId");
    }
}
