package dev.pinfeed.httpkit;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jetty.JettyConnectionMetrics;
import io.micrometer.core.instrument.binder.jetty.JettyServerThreadPoolMetrics;
import io.micrometer.core.instrument.binder.jvm.ExecutorServiceMetrics;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;

/** A started {@link HttpApp}. {@link #close()} stops it within about a second and frees the port. */
public final class RunningHttpApp implements AutoCloseable {

    private static final long TERMINATION_MILLIS = 400;
    /** Jetty's per-connection header cache: fields up to this many characters (below a JWT bearer token's length). */
    private static final int HEADER_CACHE_CHARS = 256;

    /**
     * The router splits and decodes the raw path itself, so what Jetty's default compliance rejects as ambiguous
     * ({@code //}, {@code %2F} in a segment) is fine here: empty segments are ignored, an encoded slash stays
     * inside its parameter.
     */
    private static final UriCompliance URI_COMPLIANCE = UriCompliance.DEFAULT.with("pinfeed",
            UriCompliance.Violation.AMBIGUOUS_EMPTY_SEGMENT, UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR,
            UriCompliance.Violation.AMBIGUOUS_PATH_ENCODING, UriCompliance.Violation.AMBIGUOUS_PATH_SEGMENT);

    private final HttpApp app;
    private final Server server;
    private final ServerConnector connector;
    private final ExecutorService handlerPool;
    private final Dispatcher dispatcher;
    private final HeadDeadlines heads;
    private final List<Meter> meters;
    private final URI baseUri;
    private final AtomicBoolean closed = new AtomicBoolean();

    private RunningHttpApp(HttpApp app, Server server, ServerConnector connector, ExecutorService handlerPool,
                           Dispatcher dispatcher, HeadDeadlines heads, List<Meter> meters, URI baseUri) {
        this.app = app;
        this.server = server;
        this.connector = connector;
        this.handlerPool = handlerPool;
        this.dispatcher = dispatcher;
        this.heads = heads;
        this.meters = meters;
        this.baseUri = baseUri;
    }

    static RunningHttpApp start(HttpApp app, String host, int port) {
        InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw new UncheckedIOException(new IOException("cannot resolve host " + host));
        }
        ServerLimits limits = app.limits;
        PrometheusMeterRegistry registry = app.registry;
        Set<Meter.Id> before = registry.getMeters().stream().map(Meter::getId).collect(Collectors.toSet());
        Tags tags = Tags.of("service", app.serviceName);

        // Server threads: selector, acceptor, head parsing, body callbacks and body-less public reads. Bounded: a
        // flood of such reads queues here instead of growing threads without limit.
        QueuedThreadPool threads = new QueuedThreadPool(limits.serverThreads(), Math.min(8, limits.serverThreads()));
        threads.setName(app.serviceName + "-http-server");
        threads.setDaemon(true);
        threads.setStopTimeout(TERMINATION_MILLIS); // then it interrupts handlers still running
        ScheduledExecutorScheduler scheduler = new ScheduledExecutorScheduler(app.serviceName + "-http-timer", true);
        Server server = new Server(threads, scheduler, null);
        server.setStopTimeout(0); // close() does its own short drain; no graceful wait for idle connections

        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        // While a request is in progress, a read or write with no progress for this long fails (a client that
        // does not read its response); between requests the connector's idle timeout applies.
        http.setIdleTimeout(limits.responseWriteTimeout().toMillis());
        http.setUriCompliance(URI_COMPLIANCE);
        // Jetty keeps each connection's recent header fields up to this many characters: 1 024 by default, which took in
        // each reader's bearer token (a JWT of ~600), so a connection carrying many readers' tokens filled its table and
        // cleared it (an Arrays.fill of the whole table) every request or two; a profile of feed pages showed that clear in
        // 9 % of samples. Repeated short fields (Host, Accept, a producer's token) are still kept.
        http.setHeaderCacheSize(HEADER_CACHE_CHARS);
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
        connector.setHost(address.getAddress().getHostAddress());
        connector.setPort(port);
        connector.setIdleTimeout(limits.idleTimeout().toMillis());
        server.addConnector(connector);
        server.addBean(new NetworkConnectionLimit(limits.maxConnections(), connector));
        HeadDeadlines heads = new HeadDeadlines(scheduler, limits.requestReadTimeout().toNanos());
        connector.addBean(heads);

        // Handler pool: the handlers of everything but body-less public reads, once the body is read; its queue is
        // bounded in practice by maxInFlight for shed routes.
        ExecutorService handlers = ExecutorServiceMetrics.monitor(registry,
                new ThreadPoolExecutor(app.handlerThreads, app.handlerThreads, 0, TimeUnit.SECONDS,
                        new LinkedBlockingQueue<>(), threads(app.serviceName + "-http-")),
                "http-handlers", tags);
        Dispatcher dispatcher = new Dispatcher(app, handlers, scheduler);
        server.setHandler(dispatcher);
        server.setErrorHandler(new ProblemErrorHandler());
        JettyConnectionMetrics.addToAllConnectors(server, registry, tags);
        new JettyServerThreadPoolMetrics(threads, tags).bindTo(registry);
        try {
            server.start();
        } catch (Exception e) {
            stopQuietly(server);
            handlers.shutdownNow();
            throw new UncheckedIOException("cannot bind " + host + ":" + port,
                    e instanceof IOException io ? io : new IOException(e));
        }
        heads.start();
        // The meters bound to this server's pools and connector; close() removes them so a later start binds anew.
        List<Meter> meters = registry.getMeters().stream()
                .filter(m -> !before.contains(m.getId()))
                .filter(m -> m.getId().getName().startsWith("executor") || m.getId().getName().startsWith("jetty."))
                .toList();
        URI baseUri = URI.create("http://" + uriHost(address) + ":" + connector.getLocalPort());
        return new RunningHttpApp(app, server, connector, handlers, dispatcher, heads, meters, baseUri);
    }

    /** The bound port (the ephemeral one when started with port 0). */
    public int port() {
        return connector.getLocalPort();
    }

    /** {@code http://host:port} without a trailing slash; a wildcard bind address is reported as loopback. */
    public URI baseUri() {
        return baseUri;
    }

    int inFlight() {
        return dispatcher.inFlight();
    }

    /**
     * Waits up to its {@link HttpApp.Builder#stopDrain} (0.5 s by default) for in-flight requests, answering new ones
     * 503, then stops the server (closing the port and every connection,
     * interrupting handlers still running on its threads), then shuts the handler pool down, interrupting handlers
     * still running there. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        dispatcher.stopping();
        try {
            long drainUntil = System.nanoTime() + app.stopDrain.toNanos();
            while (dispatcher.inFlight() > 0 && System.nanoTime() < drainUntil) {
                Thread.sleep(5);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        heads.stop();
        stopQuietly(server);
        handlerPool.shutdownNow();
        try {
            handlerPool.awaitTermination(TERMINATION_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        meters.forEach(app.registry::remove);
        app.stopped(this);
    }

    @Override
    public String toString() {
        return "RunningHttpApp[" + app.serviceName + " " + baseUri + "]";
    }

    private static void stopQuietly(Server server) {
        try {
            server.stop();
        } catch (Exception e) {
            Dispatcher.LOG.debug("stopping the HTTP server failed", e);
        }
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
