package dev.pinfeed.httpkit;

import dev.pinfeed.config.StoreUnavailableException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Jetty handler of an app: each request becomes an {@link Exchange} that runs the pipeline. Declared blocking
 * because body-less public reads run their handler right on the server thread that parsed the head.
 */
final class Dispatcher extends Handler.Abstract {

    static final Logger LOG = LoggerFactory.getLogger(HttpApp.class);
    private static final Set<String> KNOWN_METHODS =
            Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT");

    final HttpApp app;
    final ExecutorService handlers;
    final Scheduler scheduler;
    /** Requests admitted and not yet answered: reading their body, queued for or running on the handler pool. */
    private final AtomicInteger inFlight = new AtomicInteger();
    /** Set when the app is closing: interrupted handlers are expected then. */
    private volatile boolean stopping;
    /** Each route's meters, found once per route, method and status ({@code withTags} builds tags and searches the registry). */
    private final Map<RouteKey, RouteMeters> routeMeters = new ConcurrentHashMap<>();

    private record RouteKey(String route, String method, int status) {}

    private record RouteMeters(Counter requests, Timer duration) {}

    Dispatcher(HttpApp app, ExecutorService handlers, Scheduler scheduler) {
        super(InvocationType.BLOCKING);
        this.app = app;
        this.handlers = handlers;
        this.scheduler = scheduler;
    }

    @Override
    public boolean handle(org.eclipse.jetty.server.Request request, org.eclipse.jetty.server.Response response,
                          Callback callback) {
        new Exchange(this, request, response, callback).run();
        return true;
    }

    int inFlight() {
        return inFlight.get();
    }

    void stopping() {
        stopping = true;
    }

    boolean appClosing() {
        return stopping;
    }

    /** Counts the request in flight; a shed route is refused once {@code maxInFlight} are. */
    boolean admit(Router.Route route) {
        if (!route.options().shed()) {
            inFlight.incrementAndGet();
            return true;
        }
        while (true) {
            int current = inFlight.get();
            if (current >= app.maxInFlight) {
                return false;
            }
            if (inFlight.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    void answered() {
        inFlight.decrementAndGet();
    }

    /** Records {@code http_requests_total} and {@code http_request_duration_seconds}. */
    void record(String route, String method, int status, long startedNanos) {
        String methodLabel = KNOWN_METHODS.contains(method) ? method : "other";
        RouteMeters meters = routeMeters.computeIfAbsent(new RouteKey(route, methodLabel, status), k -> new RouteMeters(
                app.requestsTotal.withTags("route", k.route(), "method", k.method(), "status", Integer.toString(k.status())),
                app.requestDuration.withTags("route", k.route(), "method", k.method())));
        meters.requests().increment();
        meters.duration().record(System.nanoTime() - startedNanos, TimeUnit.NANOSECONDS);
    }

    /**
     * The answer to an exception out of the pipeline or a handler: its problem for a {@link ProblemException}, 503
     * naming the store for a {@link StoreUnavailableException} (a known outage: one WARN line, no stack), else 500
     * without details and the stack logged.
     */
    Response failure(Throwable e, String method, String path, Router.Route route) {
        if (e instanceof ProblemException problem) {
            return Response.problem(problem.problem());
        }
        if (e instanceof StoreUnavailableException down) {
            LOG.warn("{}: {} {} (route {} {}): {}", app.serviceName, method, path, route.method(), route.template(),
                    Json.oneLine(down.getMessage(), 300));
            return Response.problem(Problem.storeUnavailable(down.store()), Map.of("store", down.store()))
                    .withHeader("Retry-After", "1");
        }
        if (e instanceof InterruptedException) {
            // Not re-asserted: the answer still has to be written on this thread.
            if (stopping) {
                LOG.debug("{}: {} {} interrupted by shutdown", app.serviceName, method, route.template());
            } else {
                LOG.warn("{}: {} {} (route {} {}) was interrupted", app.serviceName, method, path, route.method(),
                        route.template(), e);
            }
            return Response.problem(Problem.serviceUnavailable("the request was interrupted"));
        }
        LOG.warn("{}: {} {} (route {} {}) failed", app.serviceName, method, path, route.method(), route.template(), e);
        return Response.problem(Problem.internalError());
    }

    static String bearerToken(String authorization) {
        if (authorization == null) {
            return null;
        }
        String value = authorization.strip();
        if (value.length() < 7 || !value.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String token = value.substring(7).strip();
        return token.isEmpty() ? null : token;
    }

    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String mediaType = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip();
        return mediaType.equalsIgnoreCase("application/json");
    }
}
