package dev.pinfeed.console.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.console.pipeline.PipelineSources.AdminEndpoints;
import dev.pinfeed.console.pipeline.PipelineSources.HealthAnswer;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The apps' admin endpoints over HTTP: their health routes ({@code {"status", "checks": {name: "up" | "down: why"}}},
 * or a problem document with {@code detail} and {@code checks} when not healthy) and {@code /metrics}.
 */
public final class HttpAdminEndpoints implements AdminEndpoints {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http;
    private final Duration timeout;

    public HttpAdminEndpoints(Duration timeout) {
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    @Override
    public HealthAnswer health(URI url) throws IOException, InterruptedException {
        HttpResponse<byte[]> r = get(http, url, timeout, Map.of());
        Map<String, String> checks = new LinkedHashMap<>();
        String detail = null;
        try {
            JsonNode body = JSON.readTree(r.body());
            if (body != null) {
                body.path("checks").properties().forEach(e -> checks.put(e.getKey(), e.getValue().asText()));
                if (body.path("detail").isTextual()) detail = body.path("detail").asText();
            }
        } catch (IOException notJson) {
            // A bare probe's answer: its status says it all.
        }
        return new HealthAnswer(r.statusCode(), checks, detail);
    }

    @Override
    public String metrics(URI url) throws IOException, InterruptedException {
        HttpResponse<byte[]> r = get(http, url, timeout, Map.of());
        if (r.statusCode() != 200) throw new IOException("GET " + url + " answered HTTP " + r.statusCode());
        return new String(r.body(), java.nio.charset.StandardCharsets.UTF_8);
    }

    /** {@code GET url} with {@code headers}; what could not be reached says so in a few words. */
    static HttpResponse<byte[]> get(HttpClient http, URI url, Duration timeout, Map<String, String> headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(url).timeout(timeout).GET();
        headers.forEach(request::header);
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpTimeoutException e) {
            throw new IOException("no answer within " + timeout.toMillis() + " ms");
        } catch (ConnectException e) {
            // Its causes say no more than this (a closed channel).
            throw new IOException("connection refused");
        }
    }
}
