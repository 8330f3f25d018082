package dev.pinfeed.eventsschema;

import org.apache.kafka.common.errors.SerializationException;

/** An event refused by {@link DecodeLimits}: its message says which length exceeded which limit (and key). */
public final class DecodeLimitException extends SerializationException {

    private static final long serialVersionUID = 1L;

    DecodeLimitException(String message) {
        super(message);
    }
}
