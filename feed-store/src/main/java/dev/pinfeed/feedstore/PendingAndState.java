package dev.pinfeed.feedstore;

import java.util.List;
import java.util.Optional;

/** What a first page reads before generating: the user's pending chunks (oldest first) and his saved state. */
public record PendingAndState(List<Chunk> pending, Optional<GeneratorState> state) {

    public PendingAndState {
        pending = List.copyOf(pending);
    }
}
