package dev.pinfeed.operations.feed;

import static dev.pinfeed.contentgenerator.HomeFeedWorld.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.contentgenerator.HomeFeedWorld;
import dev.pinfeed.contentgenerator.PoolRegenerator;
import dev.pinfeed.contentgenerator.RegenerationSettings;
import dev.pinfeed.feedstore.Chunk;
import dev.pinfeed.feedstore.FeedItem;
import dev.pinfeed.feedstore.GeneratorState;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolRows;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedstore.scoring.WeightedScorer;
import dev.pinfeed.operations.verify.pools.Deliveries;
import dev.pinfeed.operations.verify.pools.PoolCheckSettings;
import dev.pinfeed.operations.verify.pools.PoolVerifier;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FeedRebuilderTest {

    private final HomeFeedWorld w = new HomeFeedWorld();
    private final FeedRebuilder rebuilder = new FeedRebuilder(w.pools, w.pools, w.feeds, new PoolRegenerator(w.pools, w.feeds, w.canonical, w.graph,
            new WeightedScorer(WeightedScorer.Settings.defaults(), Clock.fixed(Instant.ofEpochMilli(T0), ZoneOffset.UTC)),
            RegenerationSettings.defaults()), Clock.fixed(Instant.ofEpochMilli(T0), ZoneOffset.UTC));

    private final long u = w.user();
    private final long author = w.user();
    private final long authorsBoard = w.board(author);
    private final long shownBefore = w.pin(authorsBoard, author, T0 - 30_000);
    private final long newer = w.pin(authorsBoard, author, T0 - 20_000);
    private final long owner = w.user();
    private final long followedBoard = w.board(owner);
    private final long boardPin = w.pin(followedBoard, owner, T0 - 10_000);
    private final long stranger = w.user();
    private final long strangersPin = w.pin(w.board(stranger), stranger, T0 - 5_000);
    private final long lastRead = T0 - 86_400_000;

    {
        w.follow(u, author);
        w.followBoard(u, followedBoard, owner);
        PoolEntry junk = new PoolEntry(u, Source.FOLLOWED_USER, 3, strangersPin, stranger, 1, T0);
        PoolEntry lostIndex = new PoolEntry(u, Source.FOLLOWED_USER, 2, newer, author, authorsBoard, T0);
        PoolEntry lostRow = new PoolEntry(u, Source.FOLLOWED_BOARD, 1, boardPin, owner, followedBoard, T0);
        w.pools.upsert(List.of(junk, lostIndex, lostRow));
        w.pools.deleteIndexRows(u, List.of(newer));
        w.pools.deleteEntryRows(List.of(lostRow));
        w.feeds.materialize(new Chunk(u, 100, List.of(new FeedItem(shownBefore, Source.FOLLOWED_USER, 1, author, authorsBoard),
                new FeedItem(strangersPin, Source.FOLLOWED_USER, 1, stranger, 1))));
        w.feeds.journal(new Chunk(u, 200, List.of(new FeedItem(newer, Source.FOLLOWED_USER, 1, author, authorsBoard))));
        w.feeds.saveState(u, new GeneratorState(100, lastRead, 2));
    }

    @Test
    void theUsersPoolsComeFromWhatHeFollowsAndHisViewStartsAfresh() {
        FeedRebuilder.Outcome o = rebuilder.rebuild(u, false);
        assertThat(o).isEqualTo(new FeedRebuilder.Outcome(u, 1, 2, 2, 1, 3));

        PoolRows.UserRows rows = w.pools.rows(u);
        assertThat(rows.orphans()).isEmpty();
        assertThat(rows.dangling()).isEmpty();
        assertThat(w.pools.best(u, Source.FOLLOWED_USER, 10)).extracting(PoolEntry::pinId).containsExactly(newer, shownBefore);
        assertThat(w.pools.best(u, Source.FOLLOWED_BOARD, 10)).extracting(PoolEntry::pinId).containsExactly(boardPin);
        assertThat(w.feeds.all(u)).isEmpty();
        assertThat(w.feeds.pending(u)).isEmpty();
        assertThat(w.feeds.state(u)).contains(new GeneratorState(0, lastRead, 0));
        assertThat(w.pools.rebuiltAt(u)).as("the pools remember when").hasValue(T0);

        PoolVerifier verifier = new PoolVerifier(w.feeds, w.canonical, w.graph, PoolCheckSettings.defaults(), Clock.fixed(Instant.ofEpochMilli(T0), ZoneOffset.UTC));
        assertThat(verifier.check(w.pools.rows(u), new Deliveries(x -> true).to(u), w.pools.rebuiltAt(u)).differences()).as("what verify pools says after").isEmpty();

        List<PoolEntry> first = w.pools.all(u);
        assertThat(rebuilder.rebuild(u, false)).isEqualTo(new FeedRebuilder.Outcome(u, 3, 0, 0, 0, 3));
        assertThat(w.pools.all(u)).as("a second rebuild ends the same way").isEqualTo(first);
    }

    @Test
    void aDryRunSaysWhatItWouldDoAndChangesNothing() {
        PoolRows.UserRows rowsBefore = w.pools.rows(u);
        FeedRebuilder.Outcome o = rebuilder.rebuild(u, true);
        assertThat(o).isEqualTo(new FeedRebuilder.Outcome(u, 1, 2, 2, 1, 3));
        assertThat(w.pools.rows(u)).isEqualTo(rowsBefore);
        assertThat(w.feeds.all(u)).hasSize(2);
        assertThat(w.feeds.pending(u)).hasSize(1);
        assertThat(w.feeds.state(u)).contains(new GeneratorState(100, lastRead, 2));
        assertThat(w.pools.rebuiltAt(u)).isEmpty();
    }

    @Test
    void aUserWhoNeverReadGetsNoState() {
        long reader = w.user();
        w.follow(reader, author);
        rebuilder.rebuild(reader, false);
        assertThat(w.feeds.state(reader)).isEqualTo(Optional.empty());
        assertThat(w.pools.all(reader)).extracting(PoolEntry::pinId).containsExactlyInAnyOrder(newer, shownBefore);
    }
}
