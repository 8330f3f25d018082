package dev.pinfeed.config;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/** Waiting for work handed to a pool, with the task's own exception rethrown as it was thrown. */
public final class Futures {

    private Futures() {}

    /**
     * The result of {@code f}; a task that threw a {@link RuntimeException} (e.g. a
     * {@link StoreUnavailableException} naming its store) rethrows that exception itself, so callers
     * see the same type as if they had run the task on their own thread.
     */
    public static <T> T join(Future<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            throw new IllegalStateException(e.getCause());
        }
    }
}
