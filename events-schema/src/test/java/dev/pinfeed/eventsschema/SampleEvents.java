package dev.pinfeed.eventsschema;

import dev.pinfeed.events.BoardCreated;
import dev.pinfeed.events.BoardFollowed;
import dev.pinfeed.events.BoardPinsReordered;
import dev.pinfeed.events.BoardUnfollowed;
import dev.pinfeed.events.CommentCreated;
import dev.pinfeed.events.CommentDeleted;
import dev.pinfeed.events.InterestCreated;
import dev.pinfeed.events.InterestFollowed;
import dev.pinfeed.events.InterestUnfollowed;
import dev.pinfeed.events.FanoutAction;
import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.events.FanoutReceiver;
import dev.pinfeed.events.FanoutSource;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.PinDeleted;
import dev.pinfeed.events.PinLiked;
import dev.pinfeed.events.PinUnliked;
import dev.pinfeed.events.UserCreated;
import dev.pinfeed.events.UserFollowed;
import dev.pinfeed.events.UserUnfollowed;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;

/** One filled-in instance of every event, each with distinct ids so a wrong key or field shows. */
final class SampleEvents {

    static final Path CURRENT_SCHEMAS = Path.of("src/main/avro");
    static final Path RELEASED_SCHEMAS = Path.of("src/main/avro-released");

    private static final Instant AT = Instant.ofEpochMilli(1_767_225_600_123L);

    private SampleEvents() {}

    static List<SpecificRecord> all() {
        return List.of(
                new UserCreated(1L, AT, 2L, 10L, "ada", "Ada L."),
                new BoardCreated(3L, AT, 4L, 20L, 21L, "Kitchens", null),
                new PinCreated(5L, AT, 6L, 30L, 31L, 32L, "oak table", "https://example.com/t", null, null, List.of(33L, 34L)),
                new PinDeleted(7L, AT, 8L, 40L, 41L, 42L, List.of(43L)),
                new BoardPinsReordered(9L, AT, 10L, 50L, List.of(53L, 51L, 52L)),
                new UserFollowed(11L, AT, 12L, 60L, 61L),
                new UserUnfollowed(13L, AT, 14L, 70L, 71L),
                new BoardFollowed(15L, AT, 16L, 80L, 81L, 82L),
                new BoardUnfollowed(17L, AT, 18L, 90L, 91L, 92L),
                new PinLiked(19L, AT, 20L, 100L, 101L),
                new PinUnliked(21L, AT, 22L, 110L, 111L),
                new CommentCreated(25L, AT, 26L, 130L, 131L, 132L, "nice table"),
                new CommentDeleted(27L, AT, 28L, 140L, 141L, 142L),
                new InterestCreated(29L, AT, 150L, "woodworking"),
                new InterestFollowed(30L, AT, 31L, 160L, 161L),
                new InterestUnfollowed(32L, AT, 33L, 170L, 171L),
                new FanoutChunk(23L, AT, FanoutAction.ADD, 120L, 121L, 122L, AT, 0, true,
                        List.of(new FanoutReceiver(123L, FanoutSource.FOLLOWED_USER), new FanoutReceiver(124L, FanoutSource.FOLLOWED_BOARD)), null));
    }

    /** Every .avsc directly under {@code dir}, parsed (each file its own parser: they are independent). */
    static List<Schema> schemasIn(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".avsc")).sorted().map(SampleEvents::parse).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Schema parse(Path file) {
        try {
            return new Schema.Parser().parse(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Keeps {@link #all()} honest: a new .avsc without a sample fails the tests that use it. */
    static void assertCoversEverySchema() {
        assertThat(all()).extracting(e -> e.getSchema().getFullName())
                .containsExactlyInAnyOrderElementsOf(schemasIn(CURRENT_SCHEMAS).stream().map(Schema::getFullName).toList());
    }
}
