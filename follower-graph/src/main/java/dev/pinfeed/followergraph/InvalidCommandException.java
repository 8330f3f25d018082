package dev.pinfeed.followergraph;

/** A command the graph refuses: it breaks a rule of the data (self-follow, bad id, a second owner for a board). */
public final class InvalidCommandException extends IllegalArgumentException {

    public InvalidCommandException(String message) {
        super(message);
    }
}
