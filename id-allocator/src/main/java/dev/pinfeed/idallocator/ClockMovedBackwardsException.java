package dev.pinfeed.idallocator;

/** The clock went back further, or for longer, than the generator is configured to wait out. */
public class ClockMovedBackwardsException extends IdAllocationException {

    public ClockMovedBackwardsException(String message) {
        super(message);
    }
}
