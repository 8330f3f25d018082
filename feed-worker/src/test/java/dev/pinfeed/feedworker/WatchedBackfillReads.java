package dev.pinfeed.feedworker;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;

/**
 * Canonical reads whose backfill reads a test watches: {@code beforeEach} runs before each read of a board's newest pins
 * ({@link CanonicalPins#newestOfBoard}, one per board follow) and of followees' newest pins ({@link CanonicalPins#newestOfUsers},
 * one per batch), with the method's name and arguments (to move a test's clock: a slow read; or to record what was asked).
 */
public final class WatchedBackfillReads {

    /** What a backfill read is told. */
    @FunctionalInterface
    public interface Watcher {
        void before(String method, List<Object> args);
    }

    private WatchedBackfillReads() {}

    public static CanonicalPins of(CanonicalPins reads, Watcher beforeEach) {
        return (CanonicalPins) Proxy.newProxyInstance(CanonicalPins.class.getClassLoader(), new Class<?>[] {CanonicalPins.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("newestOfBoard") || method.getName().equals("newestOfUsers")) {
                        beforeEach.before(method.getName(), List.of(args));
                    }
                    try {
                        return method.invoke(reads, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
