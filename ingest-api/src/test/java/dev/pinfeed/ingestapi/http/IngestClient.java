package dev.pinfeed.ingestapi.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/** A small HTTP client for the ingest API in tests. */
final class IngestClient {

    record Answer(int status, String contentType, String body, JsonNode json, HttpResponse<String> raw) {
        String field() {
            return json == null || json.get("field") == null ? null : json.get("field").asText();
        }

        String text(String name) {
            return json.get(name).asText();
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI base;
    private final String token;

    IngestClient(URI base, String token) {
        this.base = base;
        this.token = token;
    }

    IngestClient as(String otherToken) {
        return new IngestClient(base, otherToken);
    }

    Answer send(String method, String path, String body) {
        return send(method, path, body, "application/json", Map.of());
    }

    Answer send(String method, String path, String body, String contentType, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) b.header("Authorization", "Bearer " + token);
        if (body != null && contentType != null) b.header("Content-Type", contentType);
        headers.forEach(b::header);
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            String ct = r.headers().firstValue("Content-Type").orElse("");
            JsonNode json = ct.contains("json") && !r.body().isEmpty() ? JSON.readTree(r.body()) : null;
            return new Answer(r.statusCode(), ct, r.body(), json, r);
        } catch (Exception e) {
            throw new IllegalStateException(method + " " + path + " failed: " + e, e);
        }
    }

    Answer post(String path, String body) {
        return send("POST", path, body);
    }

    Answer put(String path) {
        return send("PUT", path, null);
    }

    Answer delete(String path) {
        return send("DELETE", path, null);
    }

    static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }
}
