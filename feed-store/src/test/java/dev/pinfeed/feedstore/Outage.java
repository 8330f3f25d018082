package dev.pinfeed.feedstore;

import dev.pinfeed.config.StoreUnavailableException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

/**
 * A switchable outage in front of a store port: while {@link #start started}, every call throws the
 * {@link StoreUnavailableException} an adapter throws for a down cluster, and the store behind is not
 * reached. For tests that take a cluster away from one reader without stopping a shared server.
 */
public final class Outage {

    private final String store;
    private volatile boolean down;

    public Outage(String store) {
        this.store = store;
    }

    public void start() {
        down = true;
    }

    public void end() {
        down = false;
    }

    /** {@code delegate} behind this outage, as {@code port}. */
    public <T> T wrap(Class<T> port, T delegate) {
        Object proxy = Proxy.newProxyInstance(port.getClassLoader(), new Class<?>[] {port}, (self, method, args) -> {
            if (method.getDeclaringClass() == Object.class) return method.invoke(delegate, args);
            if (down) throw new StoreUnavailableException(store, method.getName() + " failed: outage (test)");
            try {
                return method.invoke(delegate, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
        return port.cast(proxy);
    }
}
