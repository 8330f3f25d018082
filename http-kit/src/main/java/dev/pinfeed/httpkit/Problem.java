package dev.pinfeed.httpkit;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An RFC 9457 problem document ({@code application/problem+json}). {@code field} is a pinfeed extension naming
 * the offending request field; it (and {@code detail}) is omitted from the JSON when null.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"type", "title", "status", "detail", "field"})
public record Problem(String type, String title, int status, String detail, String field) {

    public static final String CONTENT_TYPE = "application/problem+json";
    /** Problem types are {@code TYPE_BASE + slug}. */
    public static final String TYPE_BASE = "https://pinfeed.dev/problems/";

    public Problem {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(title, "title");
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("a problem status is 4xx or 5xx: " + status);
        }
    }

    /** {@code TYPE_BASE + slug}; a value that is already an absolute URI is returned unchanged. */
    public static String type(String slugOrUri) {
        Objects.requireNonNull(slugOrUri, "type");
        return slugOrUri.contains(":") ? slugOrUri : TYPE_BASE + slugOrUri;
    }

    /** 400 {@code invalid-field}, title "Invalid field". */
    public static Problem badRequest(String field, String detail) {
        return new Problem(TYPE_BASE + "invalid-field", "Invalid field", 400, detail, field);
    }

    /** 400 {@code malformed-json}, title "Malformed JSON". */
    public static Problem malformedJson(String detail) {
        return new Problem(TYPE_BASE + "malformed-json", "Malformed JSON", 400, detail, null);
    }

    /** 401 {@code unauthorized}; answered with {@code WWW-Authenticate: Bearer}. */
    public static Problem unauthorized(String detail) {
        return new Problem(TYPE_BASE + "unauthorized", "Unauthorized", 401, detail, null);
    }

    /** 403 {@code forbidden}. */
    public static Problem forbidden(String detail) {
        return new Problem(TYPE_BASE + "forbidden", "Forbidden", 403, detail, null);
    }

    /** 404 {@code not-found}; {@code field} names the path parameter that names the missing thing (may be null). */
    public static Problem notFound(String field, String detail) {
        return new Problem(TYPE_BASE + "not-found", "Not found", 404, detail, field);
    }

    /** 405 {@code method-not-allowed}. */
    public static Problem methodNotAllowed(String method, Collection<String> allowed) {
        return new Problem(TYPE_BASE + "method-not-allowed", "Method not allowed", 405,
                method + " is not allowed here; allowed: " + String.join(", ", allowed), null);
    }

    /**
     * 409, title "Conflict". {@code type} is either an absolute URI or a slug that gets {@link #TYPE_BASE} in front
     * (so {@code "already-following"} and {@code "https://pinfeed.dev/problems/already-following"} are the same).
     */
    public static Problem conflict(String type, String field, String detail) {
        return new Problem(type(type), "Conflict", 409, detail, field);
    }

    /** 408 {@code request-timeout}: the request's head and body did not arrive within the request-read timeout. */
    public static Problem requestTimeout(String detail) {
        return new Problem(TYPE_BASE + "request-timeout", "Request timeout", 408, detail, null);
    }

    /** 413 {@code payload-too-large}. */
    public static Problem payloadTooLarge(long limit) {
        return new Problem(TYPE_BASE + "payload-too-large", "Payload too large", 413,
                "request body exceeds the limit of " + limit + " bytes", null);
    }

    /** 415 {@code unsupported-media-type}; {@code got} is the request's Content-Type (may be null). */
    public static Problem unsupportedMediaType(String got) {
        return new Problem(TYPE_BASE + "unsupported-media-type", "Unsupported media type", 415,
                "expected Content-Type application/json, got " + (got == null || got.isBlank() ? "none" : got), null);
    }

    /** 429 {@code too-many-requests}; answered with {@code Retry-After: 1}. */
    public static Problem tooManyRequests(String detail) {
        return new Problem(TYPE_BASE + "too-many-requests", "Too many requests", 429, detail, null);
    }

    /** 500 {@code internal-error}; never carries exception details. */
    public static Problem internalError() {
        return new Problem(TYPE_BASE + "internal-error", "Internal error", 500,
                "unexpected server error; it has been logged", null);
    }

    /** 503 {@code service-unavailable}. */
    public static Problem serviceUnavailable(String detail) {
        return new Problem(TYPE_BASE + "service-unavailable", "Service unavailable", 503, detail, null);
    }

    /**
     * 503 {@code service-unavailable} naming a store that is down or timed out (safe to retry); answered with a
     * {@code "store"} member and {@code Retry-After: 1} when a handler throws
     * {@code dev.pinfeed.config.StoreUnavailableException}.
     */
    public static Problem storeUnavailable(String store) {
        return serviceUnavailable(store + " is unavailable; retry shortly");
    }

    /** 503 {@code dependency-down}, as answered by {@code GET /health}. */
    public static Problem dependencyDown(String detail) {
        return new Problem(TYPE_BASE + "dependency-down", "Dependency down", 503, detail, null);
    }

    /** The JSON members in order, without null {@code detail}/{@code field}: for embedding in other documents. */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("type", type);
        map.put("title", title);
        map.put("status", status);
        if (detail != null) {
            map.put("detail", detail);
        }
        if (field != null) {
            map.put("field", field);
        }
        return map;
    }
}
