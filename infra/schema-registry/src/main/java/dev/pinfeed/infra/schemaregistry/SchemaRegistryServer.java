package dev.pinfeed.infra.schemaregistry;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The dev schema registry process: the Confluent REST API on the JDK's built-in HTTP server, state in
 * a {@link SchemaLog}. {@link #main} stores it in Kafka; tests may {@link #start} it in-process.
 */
public final class SchemaRegistryServer implements AutoCloseable {

    private static final int HANDLER_THREADS = 4;

    private final HttpServer http;
    private final ExecutorService handlers;
    private final SchemaLog log;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CountDownLatch stopped = new CountDownLatch(1);

    private SchemaRegistryServer(HttpServer http, ExecutorService handlers, SchemaLog log) {
        this.http = http;
        this.handlers = handlers;
        this.log = log;
    }

    /**
     * Replays {@code log} and serves it on {@code host:port} (port 0 picks a free one, see {@link #port()}).
     * The server owns the log from here on: {@link #close()} closes it, and so does a failed start.
     */
    public static SchemaRegistryServer start(String host, int port, SchemaLog log, CompatibilityLevel defaultCompatibility) {
        return start(host, port, log, defaultCompatibility, RequestRules.DEFAULTS);
    }

    /** {@link #start(String, int, SchemaLog, CompatibilityLevel)} with a body limit and, optionally, basic auth. */
    static SchemaRegistryServer start(String host, int port, SchemaLog log, CompatibilityLevel defaultCompatibility, RequestRules rules) {
        ExecutorService handlers = null;
        try {
            SchemaRegistry registry = SchemaRegistry.replaying(log, defaultCompatibility);
            HttpServer http = HttpServer.create(new InetSocketAddress(host, port), 0);
            handlers = Executors.newFixedThreadPool(HANDLER_THREADS, daemonThreads());
            http.setExecutor(handlers);
            http.createContext("/", new RestApi(registry, rules));
            http.start();
            return new SchemaRegistryServer(http, handlers, log);
        } catch (IOException | RuntimeException e) {
            if (handlers != null) {
                handlers.shutdownNow();
            }
            log.close();
            throw e instanceof IOException io ? new UncheckedIOException("cannot listen on " + host + ":" + port + ": " + io.getMessage(), io)
                    : (RuntimeException) e;
        }
    }

    public int port() {
        return http.getAddress().getPort();
    }

    public String host() {
        return http.getAddress().getHostString();
    }

    /** Stops serving (letting requests in flight finish for up to a second) and closes the log. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            http.stop(1);
            handlers.shutdown();
            handlers.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            log.close();
            stopped.countDown();
        }
    }

    /**
     * {@code --port 18081 --bootstrap 127.0.0.1:19092 [--topic _schemas] [--replication-factor 1]
     * [--compatibility BACKWARD] [--host 127.0.0.1] [--max-body-bytes 1048576] [--basic-auth-file PATH]}. Prints one "ready" line to stdout once serving;
     * exits non-zero with a one-line reason on stderr if it cannot start. SIGTERM stops it cleanly.
     */
    public static void main(String[] args) throws InterruptedException {
        ServerOptions options;
        SchemaRegistryServer server;
        try {
            options = ServerOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("schema-registry: " + e.getMessage());
            System.exit(2);
            return;
        }
        try {
            RequestRules rules = options.requestRules();
            KafkaSchemaLog log = KafkaSchemaLog.open(options.bootstrap(), options.topic(), options.replicationFactor());
            server = start(options.host(), options.port(), log, options.compatibility(), rules);
        } catch (RuntimeException e) {
            System.err.println("schema-registry: cannot start: " + e.getMessage());
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "schema-registry-shutdown"));
        System.out.println("schema-registry ready on http://" + options.host() + ":" + server.port());
        System.out.flush();
        server.stopped.await();
    }

    private static java.util.concurrent.ThreadFactory daemonThreads() {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, "schema-registry-http-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
