package dev.pinfeed.processorruntime;

/** A record that can never apply, with the dead-letter reason (see {@link dev.pinfeed.eventsschema.DeadLetters}). */
public class RejectedRecordException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String reason;

    public RejectedRecordException(String reason, String message) {
        super(message);
        this.reason = reason;
    }

    public String reason() {
        return reason;
    }
}
