package dev.pinfeed.eventsschema;

/** A request the schema registry refused, with its HTTP status and Confluent error code (409 = incompatible schema). */
public final class SchemaRegistryException extends RuntimeException {

    public static final int INCOMPATIBLE = 409;
    public static final int NOT_FOUND = 404;

    private final int httpStatus;
    private final int errorCode;

    public SchemaRegistryException(int httpStatus, int errorCode, String message) {
        super("schema registry: HTTP " + httpStatus + ", error " + errorCode + ": " + message);
        this.httpStatus = httpStatus;
        this.errorCode = errorCode;
    }

    public int httpStatus() {
        return httpStatus;
    }

    /** Confluent's finer code, e.g. 40403 schema not found, 42203 invalid compatibility level. */
    public int errorCode() {
        return errorCode;
    }
}
