package dev.pinfeed.httpkit;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * One request through the pipeline: route (404/405) → shed (429) → auth (401/403) → body limit (413) → media type
 * (415) → handler. Everything up to the body runs on the server thread that parsed the head. The body is then read
 * without holding a thread (Jetty calls back as bytes arrive) within the request-read deadline, and only a
 * complete body is handed to the handler pool. Body-less public reads skip all that and run their handler right
 * away on the server thread.
 *
 * <p>Thread safety: after {@link #run()} three parties can race, the read callbacks, the deadline timer and (once
 * dispatched) the handler; {@link #bodySettled}, {@link #answered} and {@link #drainDone} let exactly one of them
 * act at each step.
 */
final class Exchange {

    private static final String UNMATCHED = "unmatched";
    private static final byte[] NO_BODY = new byte[0];
    private static final int INITIAL_BUFFER = 16 * 1024;

    private final Dispatcher dispatcher;
    private final HttpApp app;
    private final org.eclipse.jetty.server.Request request;
    private final org.eclipse.jetty.server.Response response;
    private final Callback callback;
    private final long startedNanos = System.nanoTime();
    private final Instant receivedAt = Instant.now();
    private final String method;
    private final String rawPath;

    // Written by run() before any callback or timer can see them.
    private String label = UNMATCHED;
    private Router.Route route;
    private Map<String, String> params;
    private Principal principal;
    private boolean admitted;

    private final AtomicBoolean bodySettled = new AtomicBoolean();
    private final AtomicBoolean answered = new AtomicBoolean();
    private final AtomicBoolean drainDone = new AtomicBoolean();
    private volatile Scheduler.Task deadline;
    // Touched only by the read callbacks, which Jetty serializes.
    private byte[] body = NO_BODY;
    private int size;
    private long drained;

    Exchange(Dispatcher dispatcher, org.eclipse.jetty.server.Request request,
             org.eclipse.jetty.server.Response response, Callback callback) {
        this.dispatcher = dispatcher;
        this.app = dispatcher.app;
        this.request = request;
        this.response = response;
        this.callback = callback;
        this.method = request.getMethod();
        String path = request.getHttpURI().getPath();
        this.rawPath = path == null ? "" : path;
    }

    void run() {
        try {
            Router.Match match = app.router.match(method, rawPath);
            if (match.resource() == null) {
                answerUnread(Response.problem(Problem.notFound(null, "no route for " + method + " " + Json.oneLine(path(), 200))),
                        false);
                return;
            }
            label = match.resource().template;
            if (match.route() == null) {
                List<String> allowed = List.copyOf(match.resource().allowed());
                answerUnread(Response.problem(Problem.methodNotAllowed(method, allowed)).withHeader("Allow", String.join(", ", allowed)),
                        false);
                return;
            }
            route = match.route();
            params = match.params();
            label = route.template();
            if (dispatcher.appClosing()) {
                // close() waits for the requests in flight; one that came after would keep it waiting, or be cut.
                answerUnread(Response.problem(Problem.serviceUnavailable(app.serviceName + " is stopping; retry shortly")), false);
                return;
            }
            if (!dispatcher.admit(route)) {
                answerUnread(Response.problem(Problem.tooManyRequests(app.maxInFlight + " requests already in flight; retry shortly")),
                        false);
                return;
            }
            admitted = true;
            RouteOptions options = route.options();
            long declared = request.getLength(); // -1: chunked, length unknown
            if (!options.shed() && !options.authRequired() && options.maxBodyBytes() == 0 && declared == 0) {
                // A body-less public read runs here on the server thread: one thread hand-off less matters for
                // sub-millisecond point queries.
                invoke(NO_BODY);
                return;
            }
            if (options.authRequired()) {
                principal = authenticate();
            }
            if (declared > options.maxBodyBytes()) {
                tooLarge();
                return;
            }
            if (declared != 0) {
                // Memory grows with the bytes that arrive, not with what the client announces.
                body = new byte[(int) Math.min(INITIAL_BUFFER, declared > 0 ? declared : options.maxBodyBytes())];
                deadline = dispatcher.scheduler.schedule(this::readTimedOut,
                        Math.max(0, readDeadlineNanos() - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
            onContent();
        } catch (Throwable e) {
            // Auth refused or failed, or a bug; answer() ignores a second answer should one already be out.
            bodySettled.set(true);
            cancelDeadline();
            if (route == null) {
                Dispatcher.LOG.warn("{}: dispatching {} {} failed", app.serviceName, method, rawPath, e);
                answerUnread(Response.problem(Problem.internalError()), true);
            } else {
                answerUnread(dispatcher.failure(e, method, path(), route), false);
            }
        }
    }

    /** Reads what has arrived, then asks Jetty to call again when more does; never blocks. */
    private void onContent() {
        while (!bodySettled.get()) {
            Content.Chunk chunk = request.read();
            if (chunk == null) {
                request.demand(this::onContent);
                return;
            }
            if (Content.Chunk.isFailure(chunk)) {
                bodyFailed(chunk.getFailure());
                return;
            }
            boolean last = chunk.isLast();
            boolean fits;
            try {
                fits = append(chunk.getByteBuffer());
            } finally {
                chunk.release();
            }
            if (!fits) {
                tooLarge();
                return;
            }
            if (last) {
                bodyComplete();
                return;
            }
        }
    }

    private boolean append(ByteBuffer bytes) {
        int n = bytes.remaining();
        long limit = route.options().maxBodyBytes();
        if ((long) size + n > limit) {
            return false;
        }
        if (size + n > body.length) {
            body = Arrays.copyOf(body, (int) Math.min(limit, Math.max(size + n, 2L * body.length)));
        }
        bytes.get(body, size, n);
        size += n;
        return true;
    }

    private void bodyComplete() {
        if (!settleBody()) {
            return;
        }
        byte[] complete = size == body.length ? body : Arrays.copyOf(body, size);
        if (complete.length > 0) {
            String contentType = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
            if (!Dispatcher.isJson(contentType)) {
                answer(Response.problem(Problem.unsupportedMediaType(contentType)), false, false);
                return;
            }
        }
        try {
            dispatcher.handlers.execute(() -> invoke(complete));
        } catch (RejectedExecutionException e) {
            answer(Response.problem(Problem.serviceUnavailable("the server is shutting down")), true, false);
        }
    }

    private void bodyFailed(Throwable failure) {
        if (!settleBody()) {
            return;
        }
        if (failure instanceof TimeoutException) {
            answer(Response.problem(Problem.requestTimeout("the request body stalled")), true, false);
        } else {
            Dispatcher.LOG.debug("{}: reading the body of {} {} failed", app.serviceName, method, label, failure);
            answer(Response.problem(Problem.badRequest(null, "could not read the request body")), true, false);
        }
    }

    private void readTimedOut() {
        if (settleBody()) {
            answer(Response.problem(Problem.requestTimeout("the request did not arrive within "
                    + app.limits.requestReadTimeout().toMillis() + " ms")), true, false);
        }
    }

    /** 413 and close. */
    private void tooLarge() {
        if (settleBody()) {
            answerUnread(Response.problem(Problem.payloadTooLarge(route.options().maxBodyBytes())), true);
        }
    }

    /**
     * Answers a request whose body has not been (completely) read. A client that sends its whole body before
     * reading (Python's urllib, curl without Expect) would lose the answer to the reset the kernel sends when a
     * socket is closed on unread data, so the rest of the body is read and discarded after the answer, when the
     * client has announced no more than the drain limit; otherwise the connection is closed at once. A body drained
     * to its end leaves the connection usable unless {@code close}. A client that sent {@code Expect: 100-continue}
     * has not sent its body: it gets the answer instead of the 100, and the connection is closed.
     */
    private void answerUnread(Response answer, boolean close) {
        long declared = request.getLength();
        if (declared == 0) {
            answer(answer, close, false);
            return;
        }
        boolean drain = (declared < 0 || declared - size <= app.limits.uploadDrainLimit())
                && !request.getHeaders().contains(HttpHeader.EXPECT, "100-continue");
        answer(answer, close || !drain, drain);
    }

    private boolean settleBody() {
        if (!bodySettled.compareAndSet(false, true)) {
            return false;
        }
        cancelDeadline();
        return true;
    }

    private void cancelDeadline() {
        Scheduler.Task task = deadline;
        if (task != null) {
            task.cancel();
        }
    }

    /** The handler, on the calling thread, then the answer. */
    private void invoke(byte[] requestBody) {
        Response answer;
        try {
            Request r = new Request(method, path(), route.template(), params, request.getHttpURI().getQuery(), headers(),
                    requestBody, principal, receivedAt);
            answer = route.handler().handle(r);
            if (answer == null) {
                throw new IllegalStateException("handler returned no response");
            }
            answer.bytes(); // serialize now, while a failure can still become a 500
        } catch (Throwable e) {
            answer = dispatcher.failure(e, method, path(), route);
        }
        answer(answer, false, false);
    }

    private Principal authenticate() {
        String token = Dispatcher.bearerToken(request.getHeaders().get(HttpHeader.AUTHORIZATION));
        if (token == null) {
            throw new ProblemException(Problem.unauthorized("missing bearer token"));
        }
        Principal p = app.authenticator.authenticate(token);
        if (p == null) {
            throw new ProblemException(Problem.unauthorized("invalid bearer token"));
        }
        if (app.rateLimiter != null && !app.rateLimiter.tryAcquire(p.name())) {
            throw new ProblemException(Problem.tooManyRequests("more than " + Math.round(app.rateLimiter.perSecond())
                    + " requests a second with this token; retry shortly"));
        }
        return p;
    }

    /**
     * Records the metrics, then sends the answer; never throws. Metrics come first so a client that has read the
     * answer also sees it counted on {@code GET /metrics}. With {@code drain}, the exchange completes only after
     * the rest of the upload has been read and discarded, so the answer is not lost to a reset.
     */
    private void answer(Response answer, boolean close, boolean drain) {
        if (!answered.compareAndSet(false, true)) {
            return;
        }
        byte[] bytes;
        try {
            bytes = answer.bytes();
        } catch (RuntimeException e) {
            Dispatcher.LOG.warn("{}: cannot serialize the response to {} {}", app.serviceName, method, label, e);
            answer = Response.problem(Problem.internalError());
            bytes = answer.bytes();
        }
        int status = answer.status();
        dispatcher.record(label, method, status, startedNanos);
        if (admitted) {
            dispatcher.answered();
        }
        try {
            HttpFields.Mutable out = response.getHeaders();
            answer.headers().forEach(out::put);
            if (status == 401 && !out.contains("WWW-Authenticate")) {
                out.put("WWW-Authenticate", "Bearer");
            }
            if (status == 429 && !out.contains("Retry-After")) {
                out.put("Retry-After", "1");
            }
            if (close) {
                out.put(HttpHeader.CONNECTION, "close");
            }
            response.setStatus(status);
            boolean noBody = bytes.length == 0 || status == 204 || status == 304 || "HEAD".equals(method);
            if (!noBody) {
                out.put(HttpHeader.CONTENT_LENGTH, Integer.toString(bytes.length));
            }
            response.write(true, noBody ? BufferUtil.EMPTY_BUFFER : ByteBuffer.wrap(bytes), new Callback() {
                @Override
                public void succeeded() {
                    if (drain) {
                        drain();
                    } else {
                        callback.succeeded();
                    }
                }

                @Override
                public void failed(Throwable x) {
                    Dispatcher.LOG.debug("{}: sending the response to {} {} failed", app.serviceName, method, label, x);
                    callback.failed(x);
                }
            });
        } catch (RuntimeException e) {
            Dispatcher.LOG.debug("{}: sending the response to {} {} failed", app.serviceName, method, label, e);
            callback.failed(e);
        }
    }

    /** Reads and discards the rest of an unread upload, up to the drain limit and the request-read deadline. */
    private void drain() {
        long remaining = readDeadlineNanos() - System.nanoTime();
        if (remaining <= 0 || app.limits.uploadDrainLimit() == 0) {
            drainEnded();
            return;
        }
        deadline = dispatcher.scheduler.schedule(this::drainEnded, remaining, TimeUnit.NANOSECONDS);
        drainMore();
    }

    private void drainMore() {
        while (!drainDone.get()) {
            if (drained > app.limits.uploadDrainLimit()) {
                drainEnded();
                return;
            }
            Content.Chunk chunk = request.read();
            if (chunk == null) {
                request.demand(this::drainMore);
                return;
            }
            if (Content.Chunk.isFailure(chunk)) {
                drainEnded();
                return;
            }
            drained += chunk.remaining();
            boolean last = chunk.isLast();
            chunk.release();
            if (last) {
                drainEnded();
                return;
            }
        }
    }

    /** Completes the exchange; Jetty then closes the connection (the answer said {@code Connection: close}). */
    private void drainEnded() {
        if (drainDone.compareAndSet(false, true)) {
            cancelDeadline();
            callback.succeeded();
        }
    }

    /** First byte of the request plus the request-read timeout. */
    private long readDeadlineNanos() {
        long begin = request.getBeginNanoTime();
        return (begin != 0 ? begin : startedNanos) + app.limits.requestReadTimeout().toNanos();
    }

    private String path() {
        return Router.decode(rawPath);
    }

    private Map<String, List<String>> headers() {
        Map<String, List<String>> copy = Request.headerMap();
        for (HttpField field : request.getHeaders()) {
            copy.computeIfAbsent(field.getName(), k -> new ArrayList<>(1)).add(field.getValue());
        }
        copy.replaceAll((name, values) -> List.copyOf(values));
        return Collections.unmodifiableMap(copy);
    }
}
