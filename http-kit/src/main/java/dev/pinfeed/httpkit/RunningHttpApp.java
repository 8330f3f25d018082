package dev.pinfeed.httpkit;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/** A started {@link HttpApp}. {@link #close()} stops it within about a second and frees the port. */
public final class RunningHttpApp implements AutoCloseable {

    static {
        // The JDK server leaves Nagle on and writes headers and body separately, so every response
        // waits ~40 ms for the client's delayed ACK. Read once, when the first server is created.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    private static final long DRAIN_MILLIS = 500;
    private static final long TERMINATION_MILLIS = 400;

    private final HttpApp app;
    private final HttpServer server;
    private final ExecutorService ioPool;
    private final ExecutorService handlerPool;
    private final Dispatcher dispatcher;
    private final URI baseUri;
    private final AtomicBoolean closed = new AtomicBoolean();

    private RunningHttpApp(HttpApp app, HttpServer server, ExecutorService ioPool, ExecutorService handlerPool,
                           Dispatcher dispatcher, URI baseUri) {
        this.app = app;
        this.server = server;
        this.ioPool = ioPool;
        this.handlerPool = handlerPool;
        this.dispatcher = dispatcher;
        this.baseUri = baseUri;
    }

    static RunningHttpApp start(HttpApp app, String host, int port) {
        InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw new UncheckedIOException(new IOException("cannot resolve host " + host));
        }
        HttpServer server;
        try {
            server = HttpServer.create(address, 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind " + host + ":" + port, e);
        }
        // io: parses request heads, matches routes, sheds, hands over; runs only body-less public reads itself.
        ExecutorService io = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS,
                new SynchronousQueue<>(), threads(app.serviceName + "-http-io-"));
        // handlers: auth, body, handler, response; its queue is bounded in practice by maxInFlight for shed routes.
        ExecutorService handlers = new ThreadPoolExecutor(app.handlerThreads, app.handlerThreads, 0, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), threads(app.serviceName + "-http-"));
        Dispatcher dispatcher = new Dispatcher(app, handlers);
        server.createContext("/", dispatcher);
        server.setExecutor(io);
        server.start();
        int bound = server.getAddress().getPort();
        return new RunningHttpApp(app, server, io, handlers, dispatcher, URI.create("http://" + uriHost(address) + ":" + bound));
    }

    /** The bound port (the ephemeral one when started with port 0). */
    public int port() {
        return server.getAddress().getPort();
    }

    /** {@code http://host:port} without a trailing slash; a wildcard bind address is reported as loopback. */
    public URI baseUri() {
        return baseUri;
    }

    int inFlight() {
        return dispatcher.inFlight();
    }

    /**
     * Waits up to ~0.5 s for in-flight requests, stops the server (closing the port and every connection), then
     * shuts both thread pools down, interrupting handlers still running. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            long drainUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_MILLIS);
            while (dispatcher.inFlight() > 0 && System.nanoTime() < drainUntil) {
                Thread.sleep(5);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        server.stop(0);
        handlerPool.shutdownNow();
        ioPool.shutdownNow();
        try {
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TERMINATION_MILLIS);
            handlerPool.awaitTermination(TERMINATION_MILLIS, TimeUnit.MILLISECONDS);
            ioPool.awaitTermination(Math.max(0, until - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        app.stopped(this);
    }

    @Override
    public String toString() {
        return "RunningHttpApp[" + app.serviceName + " " + baseUri + "]";
    }

    private static String uriHost(InetSocketAddress address) {
        InetAddress ip = address.getAddress();
        if (ip.isAnyLocalAddress()) {
            return "127.0.0.1";
        }
        String literal = ip.getHostAddress();
        return literal.contains(":") ? "[" + literal.replaceFirst("%.*$", "") + "]" : literal;
    }

    private static ThreadFactory threads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
