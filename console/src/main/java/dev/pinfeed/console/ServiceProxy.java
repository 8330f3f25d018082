package dev.pinfeed.console;

import dev.pinfeed.httpkit.Problem;
import dev.pinfeed.httpkit.ProblemException;
import dev.pinfeed.httpkit.Request;
import dev.pinfeed.httpkit.Response;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Optional;

/**
 * Passes a browser's call on to one of pinfeed's services (feed-service or ingest-api) and its answer back unchanged:
 * status, content type and body. A service that cannot be reached is a 503 naming it, never a 500.
 */
final class ServiceProxy {

    private final String service;
    private final URI base;
    private final HttpClient http;
    private final Duration timeout;

    ServiceProxy(String service, URI base, HttpClient http, Duration timeout) {
        this.service = service;
        this.base = base;
        this.http = http;
        this.timeout = timeout;
    }

    /** {@code method path?query} on the service with {@code authorization} (a bearer header value) and {@code body} (JSON) if any. */
    Response forward(String method, String path, String rawQuery, Optional<String> authorization, byte[] body) {
        URI target = URI.create(base + path + (rawQuery == null || rawQuery.isEmpty() ? "" : "?" + rawQuery));
        HttpRequest.Builder request = HttpRequest.newBuilder(target).timeout(timeout)
                .method(method, body == null || body.length == 0 ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        if (body != null && body.length > 0) request.header("Content-Type", Response.JSON);
        authorization.ifPresent(a -> request.header("Authorization", a));
        try {
            HttpResponse<byte[]> answer = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            String type = answer.headers().firstValue("Content-Type").orElse(Response.JSON);
            return Response.bytes(answer.statusCode(), type, answer.body());
        } catch (HttpTimeoutException e) {
            throw new ProblemException(Problem.serviceUnavailable(service + " did not answer within " + timeout.toSeconds() + " s"));
        } catch (IOException e) {
            throw new ProblemException(Problem.serviceUnavailable(service + " cannot be reached at " + base + ": " + e.getClass().getSimpleName()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProblemException(Problem.serviceUnavailable(service + " call interrupted"));
        }
    }

    /** The request passed on as received, its path without {@code prefix}. */
    Response forward(Request r, String prefix, Optional<String> authorization) {
        return forward(r.method(), r.path().substring(prefix.length()), r.rawQuery(), authorization, r.hasBody() ? r.body() : null);
    }

    String service() {
        return service;
    }
}
