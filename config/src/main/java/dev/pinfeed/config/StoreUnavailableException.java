package dev.pinfeed.config;

/**
 * A store pinfeed depends on did not answer, or refused work it normally takes: a transient outage,
 * safe to retry. The store is named as in the configuration ({@code redis001}, {@code mysql002},
 * {@code hbase-primary}, {@code kafka}, {@code schema-registry}), so an operator knows where to look.
 * Adapters wrap their client's connection and timeout errors in it; HTTP services answer 503 naming
 * the store, processors retry in place. Never used for bad input or for bugs.
 */
public class StoreUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String store;

    public StoreUnavailableException(String store, String message, Throwable cause) {
        super(store + " unavailable: " + message, cause);
        this.store = store;
    }

    public StoreUnavailableException(String store, String message) {
        this(store, message, null);
    }

    /** The store's configured name. */
    public String store() {
        return store;
    }
}
