package dev.pinfeed.fanoutstreams;

/**
 * An input record the fan-out refuses for good (not a pin event, an empty value): the processing
 * exception handler dead-letters it under {@code reason} ({@link dev.pinfeed.eventsschema.DeadLetters}).
 */
public final class PoisonEventException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String reason;

    public PoisonEventException(String reason, String message) {
        super(message);
        this.reason = reason;
    }

    public String reason() {
        return reason;
    }
}
