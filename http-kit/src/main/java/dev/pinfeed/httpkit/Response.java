package dev.pinfeed.httpkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * An immutable HTTP answer. JSON bodies are serialized lazily (once) by the shared Jackson mapper, without
 * dropping nulls: {@code Map.of("cursor", ...)} style bodies keep explicit {@code null}s.
 */
public final class Response {

    public static final String JSON = "application/json";

    private static final Object NO_JSON = new Object();

    private final int status;
    private final Map<String, String> headers;
    private final Object jsonBody;
    private final byte[] rawBody;
    private volatile byte[] serialized;

    private Response(int status, Map<String, String> headers, Object jsonBody, byte[] rawBody) {
        if (status < 200 || status > 599) {
            throw new IllegalArgumentException("status must be 200..599: " + status);
        }
        this.status = status;
        this.headers = headers;
        this.jsonBody = jsonBody;
        this.rawBody = rawBody;
    }

    /** {@code body} serialized by Jackson, {@code Content-Type: application/json}. */
    public static Response json(int status, Object body) {
        return new Response(status, headersWith(JSON), body, null);
    }

    /** No body, no Content-Type (e.g. 204). */
    public static Response empty(int status) {
        return new Response(status, Collections.unmodifiableMap(newHeaders()), NO_JSON, new byte[0]);
    }

    /** A UTF-8 text body with the given Content-Type. */
    public static Response text(int status, String contentType, String body) {
        Objects.requireNonNull(body, "body");
        return bytes(status, contentType, body.getBytes(StandardCharsets.UTF_8));
    }

    /** A raw body with the given Content-Type. */
    public static Response bytes(int status, String contentType, byte[] body) {
        Objects.requireNonNull(contentType, "contentType");
        Objects.requireNonNull(body, "body");
        return new Response(status, headersWith(contentType), NO_JSON, body.clone());
    }

    /** Like {@link #bytes} without the copy, for large bodies cached and answered many times; never modify {@code body}. */
    static Response shared(int status, String contentType, byte[] body) {
        Objects.requireNonNull(contentType, "contentType");
        Objects.requireNonNull(body, "body");
        return new Response(status, headersWith(contentType), NO_JSON, body);
    }

    /**
     * The problem document ({@code application/problem+json}) with the problem's status; 401 answers carry
     * {@code WWW-Authenticate: Bearer}, 429 answers {@code Retry-After: 1}.
     */
    public static Response problem(Problem problem) {
        return problem(problem, Map.of());
    }

    /** A problem document with extension members appended after the standard ones (e.g. {@code "checks"}). */
    public static Response problem(Problem problem, Map<String, ?> extensions) {
        Map<String, Object> body = problem.toMap();
        extensions.forEach((name, value) -> {
            if (body.containsKey(name)) {
                throw new IllegalArgumentException("extension member clashes with a standard one: " + name);
            }
            body.put(name, value);
        });
        Map<String, String> headers = newHeaders();
        headers.put("Content-Type", Problem.CONTENT_TYPE);
        if (problem.status() == 401) {
            headers.put("WWW-Authenticate", "Bearer");
        } else if (problem.status() == 429) {
            headers.put("Retry-After", "1");
        }
        return new Response(problem.status(), Collections.unmodifiableMap(headers), body, null);
    }

    /** A copy with the header set (replacing a previous value of the same name, case-insensitively). */
    public Response withHeader(String name, String value) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        if (name.isBlank() || !name.chars().allMatch(c -> c > 32 && c < 127 && c != ':')) {
            throw new IllegalArgumentException("invalid header name: " + name);
        }
        if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("header value must not contain CR/LF: " + name);
        }
        if (name.equalsIgnoreCase("Content-Length") || name.equalsIgnoreCase("Transfer-Encoding")) {
            throw new IllegalArgumentException(name + " is set by the server");
        }
        Map<String, String> copy = newHeaders();
        copy.putAll(headers);
        copy.put(name, value);
        Response response = new Response(status, Collections.unmodifiableMap(copy), jsonBody, rawBody);
        response.serialized = serialized;
        return response;
    }

    public int status() {
        return status;
    }

    /** All headers including Content-Type; case-insensitive keys, read-only. */
    public Map<String, String> headers() {
        return headers;
    }

    /** The Content-Type, or null for an empty response. */
    public String contentType() {
        return headers.get("Content-Type");
    }

    /** The object given to {@link #json} (or the problem's member map), null for text/empty responses. */
    public Object body() {
        return jsonBody == NO_JSON ? null : jsonBody;
    }

    /**
     * The body as sent (a copy). JSON is serialized on first use.
     *
     * @throws UncheckedIOException when Jackson cannot serialize the body
     */
    public byte[] bodyBytes() {
        return bytes().clone();
    }

    byte[] bytes() {
        if (rawBody != null) {
            return rawBody;
        }
        byte[] bytes = serialized;
        if (bytes == null) {
            try {
                bytes = Json.bytes(jsonBody);
            } catch (JsonProcessingException e) {
                throw new UncheckedIOException("cannot serialize response body", e);
            }
            serialized = bytes;
        }
        return bytes;
    }

    @Override
    public String toString() {
        return "Response[" + status + " " + headers + "]";
    }

    private static Map<String, String> newHeaders() {
        return new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    }

    private static Map<String, String> headersWith(String contentType) {
        Map<String, String> headers = newHeaders();
        headers.put("Content-Type", contentType);
        return Collections.unmodifiableMap(headers);
    }

    static Map<String, Object> ordered(Object... namesAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            map.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return map;
    }
}
