package dev.pinfeed.idallocator;

/**
 * An ID could not be issued safely (sequence store unreachable, a local-ID space or the time
 * layout exhausted, interrupted while waiting). Thrown instead of ever risking a duplicate.
 */
public class IdAllocationException extends IllegalStateException {

    public IdAllocationException(String message) {
        super(message);
    }

    public IdAllocationException(String message, Throwable cause) {
        super(message, cause);
    }
}
