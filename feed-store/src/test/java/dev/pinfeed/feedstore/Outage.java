package dev.pinfeed.feedstore;

import dev.pinfeed.config.StoreUnavailableException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

/**
 * A switchable outage in front of a store port: while {@link #start started}, every call throws the
 * {@link StoreUnavailableException} an adapter throws for a down cluster; while {@link #stall stalled},
 * every call hangs until {@link #end}. The store behind is not reached meanwhile. For tests that take a
 * cluster away from one reader without stopping a shared server.
 */
public final class Outage {

    private final String store;
    private volatile boolean down;
    private boolean stalled;

    public Outage(String store) {
        this.store = store;
    }

    public void start() {
        down = true;
    }

    public synchronized void stall() {
        stalled = true;
    }

    public synchronized void end() {
        down = false;
        stalled = false;
        notifyAll();
    }

    private synchronized void passStall() throws InterruptedException {
        while (stalled) wait();
    }

    /** {@code delegate} behind this outage, as {@code port}. */
    public <T> T wrap(Class<T> port, T delegate) {
        Object proxy = Proxy.newProxyInstance(port.getClassLoader(), new Class<?>[] {port}, (self, method, args) -> {
            if (method.getDeclaringClass() == Object.class) return method.invoke(delegate, args);
            passStall();
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
