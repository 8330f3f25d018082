package dev.pinfeed.feedworker;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

/** Canonical reads whose follow backfills ({@link CanonicalPins#newestOfUser}) take time: {@code beforeEach} moves a test's clock. */
public final class SlowBackfillReads {

    private SlowBackfillReads() {}

    public static CanonicalPins of(CanonicalPins reads, Runnable beforeEach) {
        return (CanonicalPins) Proxy.newProxyInstance(CanonicalPins.class.getClassLoader(), new Class<?>[] {CanonicalPins.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("newestOfUser")) beforeEach.run();
                    try {
                        return method.invoke(reads, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
