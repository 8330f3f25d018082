package dev.pinfeed.followergraph;

import dev.pinfeed.config.StoreUnavailableException;

/**
 * What became of one command of {@link GraphStore#applyAll}: applied ({@code failure} null), refused
 * ({@link InvalidCommandException}: it breaks a rule, dead letter), or not applied because a Redis
 * instance it writes to did not answer ({@link StoreUnavailableException} naming it: retry later; the
 * command may be half-written, which a retry completes). Exactly what {@link GraphStore#apply} would
 * have thrown for it.
 */
public record CommandOutcome(GraphCommand command, RuntimeException failure) {

    public CommandOutcome {
        if (failure != null && !(failure instanceof InvalidCommandException) && !(failure instanceof StoreUnavailableException)) {
            throw new IllegalArgumentException("a command's outcome is applied, invalid or unavailable, not " + failure);
        }
    }

    public static CommandOutcome applied(GraphCommand command) {
        return new CommandOutcome(command, null);
    }

    public boolean isApplied() {
        return failure == null;
    }

    public boolean isInvalid() {
        return failure instanceof InvalidCommandException;
    }

    public boolean isUnavailable() {
        return failure instanceof StoreUnavailableException;
    }
}
