package dev.pinfeed.httpkit;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A request that passed the pipeline (route, shedding, auth, body limit, media type). Immutable apart from the
 * lazily parsed JSON body, which is parsed once and shared.
 */
public final class Request {

    private final String method;
    private final String path;
    private final String routeTemplate;
    private final Map<String, String> pathParams;
    private final String rawQuery;
    private final Map<String, List<String>> headers;
    private final byte[] body;
    private final Principal principal;
    private final Instant receivedAt;
    private volatile Map<String, List<String>> query;
    private volatile JsonNode json;

    Request(String method, String path, String routeTemplate, Map<String, String> pathParams, String rawQuery,
            Map<String, List<String>> headers, byte[] body, Principal principal, Instant receivedAt) {
        this.method = method;
        this.path = path;
        this.routeTemplate = routeTemplate;
        this.pathParams = pathParams;
        this.rawQuery = rawQuery;
        this.headers = headers;
        this.body = body;
        this.principal = principal;
        this.receivedAt = receivedAt;
    }

    /** Builds a request without HTTP, for unit-testing handlers. */
    public static Builder builder(String method, String path) {
        return new Builder(method, path);
    }

    public String method() {
        return method;
    }

    /** The decoded request path, e.g. {@code /v1/users/42}. */
    public String path() {
        return path;
    }

    /** The matched route's template, e.g. {@code /v1/users/{userId}}. */
    public String routeTemplate() {
        return routeTemplate;
    }

    /**
     * A decoded path parameter of the matched template.
     *
     * @throws ProblemException 400 invalid-field naming {@code name} when the template has no such parameter
     */
    public String pathParam(String name) {
        String value = pathParams.get(name);
        if (value == null) {
            throw new ProblemException(Problem.badRequest(name, "missing path parameter '" + name + "'"));
        }
        return value;
    }

    public Map<String, String> pathParams() {
        return pathParams;
    }

    /** The query string as received (without {@code ?}), for passing a request on unchanged; empty when there is none. */
    public String rawQuery() {
        return rawQuery == null ? "" : rawQuery;
    }

    /** The first value of a query parameter ({@code ?name=value}; {@code ?name} gives ""). */
    public Optional<String> query(String name) {
        List<String> values = queryParams().get(name);
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }

    /** All values of a query parameter, in order. */
    public List<String> queryAll(String name) {
        return queryParams().getOrDefault(name, List.of());
    }

    /** The first value of a header; names are case-insensitive. */
    public Optional<String> header(String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? Optional.empty() : Optional.ofNullable(values.get(0));
    }

    /** The request body (a copy); empty when there is none. */
    public byte[] body() {
        return body.clone();
    }

    public boolean hasBody() {
        return body.length > 0;
    }

    /**
     * The body parsed as JSON: duplicate keys and trailing tokens are errors.
     *
     * @throws ProblemException 400 {@code malformed-json} when the body is empty or not exactly one JSON value
     */
    public JsonNode json() {
        JsonNode node = json;
        if (node == null) {
            node = Json.parse(body);
            json = node;
        }
        return node;
    }

    /** The authenticated caller; null on routes that are not authenticated. */
    public Principal principal() {
        return principal;
    }

    /** When the server received the request (before queueing for a handler thread). */
    public Instant receivedAt() {
        return receivedAt;
    }

    @Override
    public String toString() {
        return "Request[" + method + " " + path + "]";
    }

    private Map<String, List<String>> queryParams() {
        Map<String, List<String>> parsed = query;
        if (parsed == null) {
            parsed = parseQuery(rawQuery);
            query = parsed;
        }
        return parsed;
    }

    static Map<String, List<String>> parseQuery(String rawQuery) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return Map.of();
        }
        Map<String, List<String>> params = new LinkedHashMap<>();
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decodeQuery(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decodeQuery(pair.substring(eq + 1));
            params.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
        params.replaceAll((k, v) -> List.copyOf(v));
        return Collections.unmodifiableMap(params);
    }

    private static String decodeQuery(String raw) {
        try {
            return URLDecoder.decode(raw, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new ProblemException(Problem.badRequest(null, "malformed query string: " + Json.oneLine(e.getMessage(), 120)));
        }
    }

    static Map<String, List<String>> headerMap() {
        return new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    }

    /** Builds a {@link Request} without a server, for handler unit tests. */
    public static final class Builder {
        private final String method;
        private final String path;
        private String routeTemplate;
        private final Map<String, String> pathParams = new LinkedHashMap<>();
        private final List<String> query = new ArrayList<>();
        private final Map<String, List<String>> headers = headerMap();
        private byte[] body = new byte[0];
        private Principal principal;
        private Instant receivedAt = Instant.now();

        private Builder(String method, String path) {
            this.method = Objects.requireNonNull(method, "method");
            this.path = Objects.requireNonNull(path, "path");
            this.routeTemplate = path;
        }

        public Builder routeTemplate(String template) {
            this.routeTemplate = Objects.requireNonNull(template);
            return this;
        }

        public Builder pathParam(String name, String value) {
            pathParams.put(name, value);
            return this;
        }

        public Builder query(String name, String value) {
            query.add(URLEncoder.encode(name, StandardCharsets.UTF_8) + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8));
            return this;
        }

        public Builder header(String name, String value) {
            headers.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
            return this;
        }

        public Builder body(byte[] body) {
            this.body = body.clone();
            return this;
        }

        /** A UTF-8 JSON body; also sets {@code Content-Type: application/json}. */
        public Builder jsonBody(String json) {
            headers.put("Content-Type", new ArrayList<>(List.of(Response.JSON)));
            return body(json.getBytes(StandardCharsets.UTF_8));
        }

        public Builder principal(Principal principal) {
            this.principal = principal;
            return this;
        }

        public Builder receivedAt(Instant receivedAt) {
            this.receivedAt = Objects.requireNonNull(receivedAt);
            return this;
        }

        public Request build() {
            Map<String, List<String>> h = headerMap();
            headers.forEach((k, v) -> h.put(k, List.copyOf(v)));
            return new Request(method, path, routeTemplate, Map.copyOf(pathParams),
                    query.isEmpty() ? null : String.join("&", query), Collections.unmodifiableMap(h),
                    body.clone(), principal, receivedAt);
        }
    }
}
