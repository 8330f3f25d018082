package dev.pinfeed.feedstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What every {@link MaterializedFeedStore} does; run against the in-memory store (unit) and HBase (IT). */
public abstract class MaterializedFeedStoreContract {

    protected abstract MaterializedFeedStore store();

    protected abstract long freshUser();

    protected static FeedItem item(long pin) {
        return new FeedItem(pin, pin % 2 == 0 ? Source.FOLLOWED_USER : Source.FOLLOWED_BOARD, pin / 10.0, 1000 + pin, 2000 + pin);
    }

    protected static Chunk chunk(long user, long chunkId, long... pins) {
        return new Chunk(user, chunkId, java.util.Arrays.stream(pins).mapToObj(MaterializedFeedStoreContract::item).toList());
    }

    private static List<Long> pins(FeedPage page) {
        return page.items().stream().map(p -> p.item().pinId()).toList();
    }

    @Test
    void newerChunksComeFirstEachInTheGeneratorsOrder() {
        long u = freshUser();
        store().materialize(chunk(u, 100, 3, 1, 2));
        store().materialize(chunk(u, 200, 9, 7));
        FeedPage page = store().read(u, null, 10);
        assertThat(pins(page)).containsExactly(9L, 7L, 3L, 1L, 2L);
        assertThat(page.more()).isFalse();
        assertThat(page.items().get(0).item()).isEqualTo(item(9));
        assertThat(page.items().get(0).position()).isEqualTo(new FeedPosition(200, 0));
    }

    @Test
    void pagesContinueAfterAPositionAndStayStableWhenANewChunkArrives() {
        long u = freshUser();
        store().materialize(chunk(u, 100, 1, 2, 3, 4, 5));
        FeedPage first = store().read(u, null, 2);
        assertThat(pins(first)).containsExactly(1L, 2L);
        assertThat(first.more()).isTrue();
        store().materialize(chunk(u, 300, 8, 9)); // arrives between two page requests
        FeedPage second = store().read(u, first.items().get(1).position(), 2);
        assertThat(pins(second)).containsExactly(3L, 4L);
        FeedPage last = store().read(u, second.items().get(1).position(), 2);
        assertThat(pins(last)).containsExactly(5L);
        assertThat(last.more()).isFalse();
    }

    @Test
    void theJournalHoldsAChunkUntilItIsMaterializedAndRepeatsChangeNothing() {
        long u = freshUser();
        Chunk c = chunk(u, 500, 4, 6);
        store().journal(c);
        store().journal(c);
        assertThat(store().pending(u)).containsExactly(c);
        assertThat(store().read(u, null, 10).items()).isEmpty();
        store().materialize(c);
        store().materialize(c);
        assertThat(store().pending(u)).isEmpty();
        assertThat(pins(store().read(u, null, 10))).containsExactly(4L, 6L);
    }

    @Test
    void aPageIsReadUnlessAChunkIsPendingAndOtherUsersJournalsDoNotCount() {
        long u = freshUser();
        long other = freshUser();
        store().materialize(chunk(u, 100, 1, 2, 3, 4, 5));
        store().journal(chunk(other, 400, 7));
        FeedPage first = store().read(u, null, 2);
        FeedPosition after = first.items().get(1).position();
        assertThat(store().readUnlessPending(u, after, 2)).hasValueSatisfying(p -> {
            assertThat(pins(p)).containsExactly(3L, 4L);
            assertThat(p.more()).isTrue();
        });
        assertThat(store().readUnlessPending(u, null, 10)).hasValueSatisfying(p -> {
            assertThat(pins(p)).containsExactly(1L, 2L, 3L, 4L, 5L);
            assertThat(p.more()).isFalse();
        });
        Chunk c = chunk(u, 300, 8, 9);
        store().journal(c);
        assertThat(store().readUnlessPending(u, after, 2)).isEmpty();
        assertThat(store().readUnlessPending(u, null, 1)).isEmpty();
        store().materialize(c);
        assertThat(store().readUnlessPending(u, null, 3)).hasValueSatisfying(p -> assertThat(pins(p)).containsExactly(8L, 9L, 1L));
        assertThat(store().readUnlessPending(other, null, 3)).isEmpty();
    }

    @Test
    void removedPinsAndTrimmedItemsAreGone() {
        long u = freshUser();
        store().materialize(chunk(u, 100, 1, 2, 3));
        store().materialize(chunk(u, 200, 4, 5, 6));
        store().removePins(u, List.of(5L, 2L));
        assertThat(pins(store().read(u, null, 10))).containsExactly(4L, 6L, 1L, 3L);
        assertThat(store().trim(u, 3)).as("what the feed holds after the trim").isEqualTo(3);
        assertThat(pins(store().read(u, null, 10))).containsExactly(4L, 6L, 1L);
        assertThat(store().all(u)).hasSize(3);
        assertThat(store().trim(u, 10)).as("nothing to trim").isEqualTo(3);
    }

    @Test
    void stateIsKeptPerUser() {
        long u = freshUser();
        assertThat(store().state(u)).isEmpty();
        store().saveState(u, new GeneratorState(50, 1_767_225_600_000L));
        assertThat(store().state(u)).contains(new GeneratorState(50, 1_767_225_600_000L, GeneratorState.UNKNOWN_ITEMS));
        store().saveState(u, new GeneratorState(75, 1_767_225_700_000L, 120));
        assertThat(store().state(u)).contains(new GeneratorState(75, 1_767_225_700_000L, 120));
        store().saveState(u, new GeneratorState(75, 1_767_225_800_000L));
        assertThat(store().state(u)).as("an unknown size replaces a known one").contains(new GeneratorState(75, 1_767_225_800_000L));
        assertThat(store().state(freshUser())).isEmpty();
    }

    @Test
    void pendingAndStateReadsTheJournalAndTheStateButNoItemAndNoOtherUser() {
        long u = freshUser();
        long next = freshUser(); // usually u + 1: his rows sort right after u's
        assertThat(store().pendingAndState(u)).isEqualTo(new PendingAndState(List.of(), Optional.empty()));
        store().materialize(chunk(u, 100, 1, 2, 3));
        store().journal(chunk(next, 500, 9));
        store().saveState(next, new GeneratorState(40, 1_767_225_600_000L));
        assertThat(store().pendingAndState(u)).isEqualTo(new PendingAndState(List.of(), Optional.empty()));
        store().saveState(u, new GeneratorState(50, 1_767_225_600_000L));
        Chunk older = chunk(u, 200, 4);
        Chunk newer = chunk(u, 300, 5, 6);
        store().journal(newer);
        store().journal(older);
        assertThat(store().pendingAndState(u))
                .isEqualTo(new PendingAndState(List.of(older, newer), Optional.of(new GeneratorState(50, 1_767_225_600_000L))));
        store().materialize(older);
        store().materialize(newer);
        assertThat(store().pendingAndState(u)).isEqualTo(new PendingAndState(List.of(), Optional.of(new GeneratorState(50, 1_767_225_600_000L))));
        assertThat(store().pendingAndState(next)).isEqualTo(new PendingAndState(List.of(chunk(next, 500, 9)),
                Optional.of(new GeneratorState(40, 1_767_225_600_000L))));
    }

    @Test
    void aFirstPageViewIsTheStateAndTheNewestItemsOrThePendingChunksWithoutAPage() {
        long u = freshUser();
        long next = freshUser(); // usually u + 1: his rows sort right after u's
        FirstPageView empty = store().firstPageView(u, 3);
        assertThat(empty.pending()).isEmpty();
        assertThat(empty.state()).isEmpty();
        assertThat(empty.stateToResave()).isFalse();
        assertThat(empty.page()).hasValueSatisfying(p -> assertThat(p).isEqualTo(new FeedPage(List.of(), false)));

        store().materialize(chunk(u, 100, 1, 2, 3));
        store().materialize(chunk(u, 200, 4, 5));
        store().materialize(chunk(next, 100, 7));
        store().journal(chunk(next, 300, 8));
        store().saveState(next, new GeneratorState(40, 1_767_225_600_000L));
        FirstPageView noState = store().firstPageView(u, 3);
        assertThat(noState.state()).isEmpty();
        assertThat(noState.page()).hasValueSatisfying(p -> {
            assertThat(pins(p)).containsExactly(4L, 5L, 1L);
            assertThat(p.more()).isTrue();
            assertThat(p).isEqualTo(store().read(u, null, 3));
        });

        store().saveState(u, new GeneratorState(50, 1_767_225_600_000L, 5));
        FirstPageView all = store().firstPageView(u, 5);
        assertThat(all.state()).contains(new GeneratorState(50, 1_767_225_600_000L, 5));
        assertThat(all.stateToResave()).isFalse();
        assertThat(all.pending()).isEmpty();
        assertThat(all.page()).hasValueSatisfying(p -> {
            assertThat(pins(p)).containsExactly(4L, 5L, 1L, 2L, 3L);
            assertThat(p.more()).isFalse();
        });

        Chunk older = chunk(u, 300, 6);
        Chunk newer = chunk(u, 400, 9, 10);
        store().journal(newer);
        store().journal(older);
        FirstPageView pending = store().firstPageView(u, 1); // fewer rows than the journal holds: it is still read whole
        assertThat(pending.pending()).containsExactly(older, newer);
        assertThat(pending.state()).contains(new GeneratorState(50, 1_767_225_600_000L, 5));
        assertThat(pending.page()).isEmpty();

        store().materialize(older);
        store().materialize(newer);
        assertThat(store().firstPageView(u, 2).page()).hasValueSatisfying(p -> assertThat(pins(p)).containsExactly(9L, 10L));
        FirstPageView other = store().firstPageView(next, 5);
        assertThat(other.pending()).containsExactly(chunk(next, 300, 8));
        assertThat(other.state()).contains(new GeneratorState(40, 1_767_225_600_000L));
    }

    @Test
    void resetRemovesTheUsersItemsJournalAndStateAndNoOneElses() {
        long u = freshUser();
        long next = freshUser(); // usually u + 1: his rows sort right after u's
        store().materialize(chunk(u, 100, 1, 2, 3));
        store().journal(chunk(u, 200, 4));
        store().saveState(u, new GeneratorState(50, 1_767_225_600_000L, 3));
        store().materialize(chunk(next, 100, 7));
        store().saveState(next, new GeneratorState(40, 1_767_225_600_000L));
        store().reset(u);
        store().reset(u); // again: nothing left to remove
        assertThat(store().all(u)).isEmpty();
        assertThat(store().pendingAndState(u)).isEqualTo(new PendingAndState(List.of(), Optional.empty()));
        assertThat(pins(store().read(next, null, 10))).containsExactly(7L);
        assertThat(store().state(next)).contains(new GeneratorState(40, 1_767_225_600_000L));
    }
}
