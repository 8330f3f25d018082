package dev.pinfeed.feedstore;

import java.util.List;
import java.util.Optional;

/**
 * What a first page reads before it generates: the user's pending chunks (oldest first), his saved state, and, when
 * nothing is pending, the page itself ({@link MaterializedFeedStore#read} from the newest). With a pending chunk the
 * page is empty: completing the chunk puts new items on top, so the caller reads the page after that.
 *
 * @param stateToResave the state was found only where an older row layout kept it: the next save moves it
 */
public record FirstPageView(List<Chunk> pending, Optional<GeneratorState> state, boolean stateToResave, Optional<FeedPage> page) {

    public FirstPageView {
        pending = List.copyOf(pending);
        if (!pending.isEmpty() && page.isPresent()) throw new IllegalArgumentException("a page read before its pending chunks completed");
    }
}
