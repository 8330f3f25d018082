package dev.pinfeed.loadharness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A java.net.http client of ingest-api (HTTP/1.1, keep-alive): each calling thread blocks on its
 * own request, so N calling threads use at most N pooled connections. Answers are checked: every
 * request must get 202 and every event in a batch must be accepted; anything else is counted and
 * the first few are kept for the report.
 */
final class IngestHttp {

    /** What one request achieved: {@code accepted} events (1 for a single-event request), and failures. */
    record Result(int status, int accepted, int rejected) {
        boolean ok() {
            return status == 202 && rejected == 0;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_SAMPLES = 5;

    private final HttpClient http;
    private final URI base;
    private final String authorization;
    private final Queue<String> failureSamples = new ConcurrentLinkedQueue<>();
    private final AtomicInteger sampled = new AtomicInteger();

    IngestHttp(URI base, String token) {
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        this.base = base;
        this.authorization = "Bearer " + token;
    }

    /** POST /v1/events with a prepared body of {@code events} events. */
    Result postEvents(byte[] body, int events) {
        HttpRequest request = HttpRequest.newBuilder(base.resolve("/v1/events")).timeout(Duration.ofSeconds(60))
                .header("Authorization", authorization).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        HttpResponse<byte[]> r = send(request);
        if (r == null) return new Result(-1, 0, events);
        if (r.statusCode() != 202) {
            sample("POST /v1/events -> " + r.statusCode() + ": " + text(r.body()));
            return new Result(r.statusCode(), 0, events);
        }
        try {
            JsonNode results = JSON.readTree(r.body()).get("results");
            int accepted = 0;
            int rejected = 0;
            for (JsonNode one : results) {
                if ("accepted".equals(one.path("status").asText())) {
                    accepted++;
                } else {
                    rejected++;
                    sample("rejected event: " + one.path("error"));
                }
            }
            if (accepted + rejected != events) {
                sample("POST /v1/events answered " + (accepted + rejected) + " results for " + events + " events");
                rejected = events - accepted;
            }
            return new Result(202, accepted, rejected);
        } catch (IOException | RuntimeException e) {
            sample("unreadable 202 answer: " + e + ": " + text(r.body()));
            return new Result(202, 0, events);
        }
    }

    /** A single-event write (PUT/DELETE without body); accepted = 1 on 202. */
    Result change(String method, String path) {
        HttpRequest request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60))
                .header("Authorization", authorization).method(method, HttpRequest.BodyPublishers.noBody()).build();
        HttpResponse<byte[]> r = send(request);
        if (r == null) return new Result(-1, 0, 1);
        if (r.statusCode() != 202) {
            sample(method + " " + path + " -> " + r.statusCode() + ": " + text(r.body()));
            return new Result(r.statusCode(), 0, 1);
        }
        return new Result(202, 1, 0);
    }

    /** POST of a create (users, boards, pins); answers the new id or throws. */
    long create(String path, String jsonBody) {
        HttpRequest request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30))
                .header("Authorization", authorization).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(jsonBody)).build();
        HttpResponse<byte[]> r = send(request);
        if (r == null || r.statusCode() != 202) {
            throw new IllegalStateException("setup: POST " + path + " " + jsonBody + " -> "
                    + (r == null ? "no answer" : r.statusCode() + ": " + text(r.body())));
        }
        try {
            return Long.parseLong(JSON.readTree(r.body()).get("id").asText());
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("setup: POST " + path + " answered no id: " + text(r.body()), e);
        }
    }

    private HttpResponse<byte[]> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            sample(request.method() + " " + request.uri().getPath() + " failed: " + e);
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private void sample(String what) {
        if (sampled.getAndIncrement() < MAX_SAMPLES) failureSamples.add(what.length() > 600 ? what.substring(0, 600) + "…" : what);
    }

    /** The first failures seen (at most 5), then forgets them so the next phase starts clean. */
    java.util.List<String> drainFailureSamples() {
        java.util.List<String> out = new java.util.ArrayList<>(failureSamples);
        failureSamples.clear();
        sampled.set(0);
        return out;
    }

    private static String text(byte[] body) {
        String s = new String(body, StandardCharsets.UTF_8);
        return s.length() > 400 ? s.substring(0, 400) + "…" : s;
    }
}
