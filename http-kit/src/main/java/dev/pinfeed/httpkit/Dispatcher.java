package dev.pinfeed.httpkit;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The request pipeline. On the server's io thread: route match (404/405) and load shedding (429), then hand-off
 * to the handler pool, which does auth (401), body limit (413), media type (415) and the handler (500 on a
 * surprise). Shedding happens before queueing, so a saturated handler pool answers 429 at once instead of
 * growing a queue.
 */
final class Dispatcher implements HttpHandler {

    private static final Logger LOG = LoggerFactory.getLogger(HttpApp.class);
    private static final Set<String> KNOWN_METHODS =
            Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT");
    private static final String UNMATCHED = "unmatched";

    private final HttpApp app;
    private final ExecutorService handlers;
    /** Requests handed to the handler pool and not yet answered (queued or running). */
    private final AtomicInteger inFlight = new AtomicInteger();

    Dispatcher(HttpApp app, ExecutorService handlers) {
        this.app = app;
        this.handlers = handlers;
    }

    int inFlight() {
        return inFlight.get();
    }

    @Override
    public void handle(HttpExchange exchange) {
        long started = System.nanoTime();
        Instant receivedAt = Instant.now();
        String method = exchange.getRequestMethod();
        String label = UNMATCHED;
        try {
            Router.Match match = app.router.match(method, rawPath(exchange.getRequestURI()));
            if (match.resource() == null) {
                finish(exchange, started, label, method, Response.problem(Problem.notFound(null,
                        "no route for " + method + " " + Json.oneLine(path(exchange.getRequestURI()), 200))), false);
                return;
            }
            label = match.resource().template;
            Router.Route route = match.route();
            if (route == null) {
                List<String> allowed = List.copyOf(match.resource().allowed());
                finish(exchange, started, label, method, Response.problem(Problem.methodNotAllowed(method, allowed))
                        .withHeader("Allow", String.join(", ", allowed)), false);
                return;
            }
            label = route.template();
            if (!admit(route)) {
                finish(exchange, started, label, method, Response.problem(Problem.tooManyRequests(
                        app.maxInFlight + " requests already in flight; retry shortly")), false);
                return;
            }
            String routeLabel = label;
            if (!route.options().shed() && !route.options().authRequired() && route.options().maxBodyBytes() == 0) {
                // Body-less public reads run right here on the (unbounded) io thread: one thread
                // hand-off less matters for sub-millisecond point queries.
                process(exchange, started, receivedAt, route, match.params(), routeLabel);
                return;
            }
            try {
                handlers.execute(() -> process(exchange, started, receivedAt, route, match.params(), routeLabel));
            } catch (RejectedExecutionException e) {
                inFlight.decrementAndGet();
                finish(exchange, started, label, method,
                        Response.problem(Problem.serviceUnavailable("the server is shutting down")), true);
            }
        } catch (RuntimeException | Error e) {
            LOG.warn("{}: dispatching {} {} failed", app.serviceName, method, exchange.getRequestURI(), e);
            finish(exchange, started, label, method, Response.problem(Problem.internalError()), true);
        }
    }

    /** Counts the request in flight; a shed route is refused once {@code maxInFlight} are. */
    private boolean admit(Router.Route route) {
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

    private void process(HttpExchange exchange, long started, Instant receivedAt, Router.Route route,
                         Map<String, String> params, String label) {
        String method = exchange.getRequestMethod();
        Response response;
        boolean closeConnection = false;
        try {
            Principal principal = route.options().authRequired() ? authenticate(exchange) : null;
            long limit = route.options().maxBodyBytes();
            byte[] body = readBody(exchange, limit);
            if (body == null) {
                closeConnection = true; // the rest of the body is unread
                throw new ProblemException(Problem.payloadTooLarge(limit));
            }
            if (body.length > 0) {
                String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
                if (!isJson(contentType)) {
                    throw new ProblemException(Problem.unsupportedMediaType(contentType));
                }
            }
            Request request = new Request(method, path(exchange.getRequestURI()), route.template(), params,
                    exchange.getRequestURI().getRawQuery(), headers(exchange), body, principal, receivedAt);
            response = route.handler().handle(request);
            if (response == null) {
                throw new IllegalStateException("handler returned no response");
            }
            response.bytes(); // serialize now, while a failure can still become a 500
        } catch (ProblemException e) {
            response = Response.problem(e.problem());
        } catch (BodyReadFailed e) {
            LOG.debug("{}: reading the body of {} {} failed", app.serviceName, method, route.template(), e.getCause());
            response = Response.problem(Problem.badRequest(null, "could not read the request body"));
            closeConnection = true;
        } catch (InterruptedException e) {
            // Not re-asserted: the answer still has to be written on this (pool) thread.
            if (handlers.isShutdown()) {
                LOG.debug("{}: {} {} interrupted by shutdown", app.serviceName, method, route.template());
            } else {
                LOG.warn("{}: {} {} (route {} {}) was interrupted", app.serviceName, method,
                        path(exchange.getRequestURI()), route.method(), route.template(), e);
            }
            response = Response.problem(Problem.serviceUnavailable("the request was interrupted"));
        } catch (Exception | Error e) {
            LOG.warn("{}: {} {} (route {} {}) failed", app.serviceName, method, path(exchange.getRequestURI()),
                    route.method(), route.template(), e);
            response = Response.problem(Problem.internalError());
        }
        try {
            finish(exchange, started, label, method, response, closeConnection);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    private Principal authenticate(HttpExchange exchange) {
        String token = bearerToken(exchange.getRequestHeaders().getFirst("Authorization"));
        if (token == null) {
            throw new ProblemException(Problem.unauthorized("missing bearer token"));
        }
        Principal principal = app.authenticator.authenticate(token);
        if (principal == null) {
            throw new ProblemException(Problem.unauthorized("invalid bearer token"));
        }
        return principal;
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

    /** The body, or null when it exceeds {@code limit} (announced by Content-Length or found while reading). */
    private static byte[] readBody(HttpExchange exchange, long limit) throws BodyReadFailed {
        String declared = exchange.getRequestHeaders().getFirst("Content-Length");
        if (declared != null) {
            try {
                if (Long.parseLong(declared.strip()) > limit) {
                    return null;
                }
            } catch (NumberFormatException e) {
                throw new ProblemException(Problem.badRequest(null, "invalid Content-Length"));
            }
        }
        int cap = (int) Math.min(limit + 1, Integer.MAX_VALUE - 16);
        try {
            InputStream in = exchange.getRequestBody();
            byte[] body = in.readNBytes(cap);
            return body.length > limit ? null : body;
        } catch (IOException e) {
            throw new BodyReadFailed(e);
        }
    }

    /** The raw path; a request target starting with {@code //} parses as an authority, which is put back. */
    static String rawPath(URI uri) {
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        if (uri.getScheme() == null && uri.getRawAuthority() != null) {
            return "//" + uri.getRawAuthority() + path;
        }
        return path;
    }

    /** The decoded path, with the same {@code //} repair as {@link #rawPath(URI)}. */
    static String path(URI uri) {
        String path = uri.getPath() == null ? "" : uri.getPath();
        if (uri.getScheme() == null && uri.getAuthority() != null) {
            return "//" + uri.getAuthority() + path;
        }
        return path;
    }

    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String mediaType = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip();
        return mediaType.equalsIgnoreCase("application/json");
    }

    private static Map<String, List<String>> headers(HttpExchange exchange) {
        Map<String, List<String>> copy = Request.headerMap();
        exchange.getRequestHeaders().forEach((name, values) -> copy.put(name, List.copyOf(values)));
        return Collections.unmodifiableMap(copy);
    }

    /**
     * Records the metrics, then sends the response and closes the exchange; never throws. Metrics come first so a
     * client that has read the answer also sees it counted on {@code GET /metrics}.
     */
    private void finish(HttpExchange exchange, long started, String label, String method, Response response,
                        boolean closeConnection) {
        try {
            byte[] bytes;
            try {
                bytes = response.bytes();
            } catch (RuntimeException e) {
                LOG.warn("{}: cannot serialize the response to {} {}", app.serviceName, method, label, e);
                response = Response.problem(Problem.internalError());
                bytes = response.bytes();
            }
            int status = response.status();
            String methodLabel = KNOWN_METHODS.contains(method) ? method : "other";
            app.requestsTotal.inc(app.serviceName, label, methodLabel, Integer.toString(status));
            app.requestDuration.observe((System.nanoTime() - started) / 1e9, app.serviceName, label, methodLabel);

            Headers out = exchange.getResponseHeaders();
            response.headers().forEach(out::set);
            if (status == 401 && !out.containsKey("WWW-Authenticate")) {
                out.set("WWW-Authenticate", "Bearer");
            }
            if (status == 429 && !out.containsKey("Retry-After")) {
                out.set("Retry-After", "1");
            }
            if (closeConnection) {
                out.set("Connection", "close");
            }
            boolean noBody = bytes.length == 0 || status == 204 || status == 304 || "HEAD".equals(method);
            exchange.sendResponseHeaders(status, noBody ? -1 : bytes.length);
            if (!noBody) {
                // Closing the body flushes the answer before the server drains any unread request body.
                try (OutputStream body = exchange.getResponseBody()) {
                    body.write(bytes);
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("{}: sending the response to {} {} failed", app.serviceName, method, label, e);
        } finally {
            exchange.close();
        }
    }

    /** The request body could not be read (the client went away or sent a broken chunked encoding). */
    private static final class BodyReadFailed extends Exception {
        private static final long serialVersionUID = 1L;

        BodyReadFailed(IOException cause) {
            super(cause);
        }
    }
}
