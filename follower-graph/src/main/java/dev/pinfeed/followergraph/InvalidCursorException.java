package dev.pinfeed.followergraph;

/**
 * A paging cursor the store did not issue, or cannot read: the caller's error (HTTP 400), never a bug
 * of ours. A dedicated type so callers catch exactly this, not every {@link IllegalArgumentException}.
 */
public final class InvalidCursorException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public InvalidCursorException(String cursor) {
        super("invalid cursor: " + cursor);
    }
}
