package dev.pinfeed.infra.schemaregistry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Confluent Schema Registry REST API (the Avro subset pinfeed's clients use) over a {@link SchemaRegistry}.
 * Errors are {@code {"error_code":..., "message":...}} with Confluent's codes; never a stack trace.
 */
final class RestApi implements HttpHandler {

    static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final Set<String> ACCEPTED_BODY_TYPES =
            Set.of(CONTENT_TYPE, "application/vnd.schemaregistry+json", "application/json");
    private static final Logger LOG = LoggerFactory.getLogger(RestApi.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final SchemaRegistry registry;
    private final RequestRules rules;
    private final List<Route> routes = new ArrayList<>();

    RestApi(SchemaRegistry registry, RequestRules rules) {
        this.registry = registry;
        this.rules = rules;
        route("GET", "/", call -> Map.of());
        route("GET", "/schemas/types", call -> List.of("AVRO"));
        route("GET", "/schemas/ids/{id}", call -> Map.of("schema", registry.schemaById(call.schemaId())));
        route("GET", "/schemas/ids/{id}/versions", call -> registry.versionsOfId(call.schemaId()).stream()
                .map(v -> fields("subject", v.subject(), "version", v.version())).toList());
        route("GET", "/schemas/ids/{id}/subjects", call -> registry.versionsOfId(call.schemaId()).stream()
                .map(RegisteredSchema::subject).distinct().toList());
        route("GET", "/subjects", call -> registry.subjects());
        route("POST", "/subjects/{subject}", call -> describe(registry.lookup(call.param(0), call.avroSchema())));
        route("DELETE", "/subjects/{subject}", call -> registry.deleteSubject(call.softDeletedSubject()));
        route("GET", "/subjects/{subject}/versions", call -> registry.versions(call.param(0)));
        route("POST", "/subjects/{subject}/versions", call -> Map.of("id", registry.register(call.param(0), call.avroSchema())));
        route("GET", "/subjects/{subject}/versions/{version}", call -> describe(registry.version(call.param(0), call.param(1))));
        route("DELETE", "/subjects/{subject}/versions/{version}", call -> registry.deleteVersion(call.softDeletedSubject(), call.param(1)));
        route("GET", "/subjects/{subject}/versions/{version}/schema",
                call -> JSON.readTree(registry.version(call.param(0), call.param(1)).schema()));
        route("GET", "/config", call -> Map.of("compatibilityLevel", registry.globalCompatibility().name()));
        route("PUT", "/config", call -> {
            CompatibilityLevel level = call.compatibilityLevel();
            registry.setGlobalCompatibility(level);
            return Map.of("compatibility", level.name());
        });
        route("GET", "/config/{subject}", call -> Map.of("compatibilityLevel", subjectConfig(call).name()));
        route("PUT", "/config/{subject}", call -> {
            CompatibilityLevel level = call.compatibilityLevel();
            registry.setSubjectCompatibility(call.param(0), level);
            return Map.of("compatibility", level.name());
        });
        route("DELETE", "/config/{subject}", call -> Map.of("compatibilityLevel", registry.clearSubjectCompatibility(call.param(0)).name()));
        route("POST", "/compatibility/subjects/{subject}/versions/{version}", call -> {
            List<String> problems = registry.testCompatibility(call.param(0), call.param(1), call.avroSchema());
            Map<String, Object> answer = fields("is_compatible", problems.isEmpty());
            if (call.flag("verbose")) {
                answer.put("messages", problems);
            }
            return answer;
        });
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            int status = 200;
            Object body;
            try {
                if (!rules.admits(exchange.getRequestHeaders().getFirst("Authorization"))) {
                    exchange.getResponseHeaders().set("WWW-Authenticate", "Basic realm=\"schema-registry\", charset=\"UTF-8\"");
                    throw new RegistryException(401, 401, "Unauthorized: this registry needs HTTP basic auth");
                }
                body = dispatch(exchange);
            } catch (RegistryException e) {
                status = e.httpStatus();
                body = fields("error_code", e.errorCode(), "message", e.getMessage());
            } catch (SchemaLog.SchemaLogException e) {
                LOG.warn("schema log failure on {} {}", exchange.getRequestMethod(), exchange.getRequestURI(), e);
                status = 500;
                body = fields("error_code", 50001, "message", "Error in the backend data store: " + e.getMessage());
            } catch (RuntimeException | IOException e) {
                LOG.warn("failed {} {}", exchange.getRequestMethod(), exchange.getRequestURI(), e);
                status = 500;
                body = fields("error_code", 50000, "message", "Internal error: " + e.getClass().getSimpleName());
            }
            byte[] bytes = JSON.writeValueAsBytes(body);
            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
            if (status == 413) exchange.getResponseHeaders().set("Connection", "close"); // the rest of the body is not read
            exchange.sendResponseHeaders(status, bytes.length);
            // Closing the response first sends it before the server drains what is left of a refused body.
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private Object dispatch(HttpExchange exchange) throws IOException {
        List<String> segments = segments(exchange.getRequestURI().getRawPath());
        boolean pathKnown = false;
        for (Route route : routes) {
            List<String> params = route.match(segments);
            if (params == null) {
                continue;
            }
            pathKnown = true;
            if (route.method().equals(exchange.getRequestMethod())) {
                return route.handler().handle(new Call(exchange, params, query(exchange.getRequestURI().getRawQuery()), rules.maxBodyBytes()));
            }
        }
        throw pathKnown
                ? new RegistryException(405, 405, "HTTP 405 Method Not Allowed")
                : new RegistryException(404, 404, "HTTP 404 Not Found");
    }

    private CompatibilityLevel subjectConfig(Call call) {
        String subject = call.param(0);
        if (call.flag("defaultToGlobal")) {
            return registry.effectiveCompatibility(subject);
        }
        return registry.subjectCompatibility(subject).orElseThrow(() -> RegistryException.subjectConfigNotFound(subject));
    }

    private static Map<String, Object> describe(RegisteredSchema schema) {
        // schemaType is omitted for AVRO, as Confluent does.
        return fields("subject", schema.subject(), "version", schema.version(), "id", schema.id(), "schema", schema.schema());
    }

    /** An ordered JSON object from alternating names and values. */
    private static Map<String, Object> fields(Object... namesAndValues) {
        Map<String, Object> object = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            object.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return object;
    }

    private void route(String method, String pattern, Handler handler) {
        routes.add(new Route(method, segments(pattern), handler));
    }

    private static List<String> segments(String rawPath) {
        return Arrays.stream(rawPath.split("/")).filter(s -> !s.isEmpty()).map(RestApi::decode).toList();
    }

    private static Map<String, String> query(String rawQuery) {
        Map<String, String> query = new HashMap<>();
        if (rawQuery != null) {
            for (String pair : rawQuery.split("&")) {
                int eq = pair.indexOf('=');
                query.put(decode(eq < 0 ? pair : pair.substring(0, eq)), eq < 0 ? "" : decode(pair.substring(eq + 1)));
            }
        }
        return query;
    }

    private static String decode(String raw) {
        return URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8); // '+' is literal in paths
    }

    private interface Handler {
        Object handle(Call call) throws IOException;
    }

    /** A path pattern like /subjects/{subject}/versions; each {...} segment is captured in order. */
    private record Route(String method, List<String> pattern, Handler handler) {
        List<String> match(List<String> segments) {
            if (segments.size() != pattern.size()) {
                return null;
            }
            List<String> params = new ArrayList<>();
            for (int i = 0; i < pattern.size(); i++) {
                String expected = pattern.get(i);
                if (expected.startsWith("{")) {
                    params.add(segments.get(i));
                } else if (!expected.equals(segments.get(i))) {
                    return null;
                }
            }
            return params;
        }
    }

    /** One request matched to a route: its path parameters, query and body. */
    private record Call(HttpExchange exchange, List<String> params, Map<String, String> query, int maxBodyBytes) {

        String param(int index) {
            return params.get(index);
        }

        boolean flag(String name) {
            return Boolean.parseBoolean(query.get(name));
        }

        int schemaId() {
            try {
                return Integer.parseInt(param(0));
            } catch (NumberFormatException e) {
                throw new RegistryException(404, 40403, "Schema " + param(0) + " not found");
            }
        }

        /** The subject of a DELETE; hard deletes are not offered (this registry only soft-deletes). */
        String softDeletedSubject() {
            if (flag("permanent")) {
                throw new RegistryException(422, 42299, "Permanent deletion is not supported by this dev registry; soft delete only");
            }
            return param(0);
        }

        /** The "schema" of a register/lookup/compatibility body, after refusing what only Confluent supports. */
        String avroSchema() throws IOException {
            JsonNode body = body();
            String type = body.path("schemaType").asText("AVRO"); // absent or null means AVRO
            if (!"AVRO".equalsIgnoreCase(type)) {
                throw RegistryException.invalidSchema("schemaType '" + type + "' is not supported; this dev registry supports AVRO only");
            }
            if (body.path("references").size() > 0) {
                throw RegistryException.invalidSchema("schema references are not supported by this dev registry");
            }
            JsonNode schema = body.get("schema");
            if (schema == null || !schema.isTextual()) {
                throw RegistryException.invalidSchema("the request needs a \"schema\" field holding the schema as a JSON string");
            }
            return schema.asText();
        }

        CompatibilityLevel compatibilityLevel() throws IOException {
            JsonNode level = body().get("compatibility");
            return CompatibilityLevel.parse(level == null || !level.isTextual() ? null : level.asText());
        }

        private JsonNode body() throws IOException {
            String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
            if (contentType != null) {
                String mediaType = contentType.split(";")[0].trim().toLowerCase(Locale.ROOT);
                if (!ACCEPTED_BODY_TYPES.contains(mediaType)) {
                    throw new RegistryException(415, 415, "Unsupported Content-Type '" + mediaType + "'; send one of " + ACCEPTED_BODY_TYPES);
                }
            }
            JsonNode body;
            try {
                body = JSON.readTree(boundedBody());
            } catch (JsonProcessingException e) {
                throw new RegistryException(400, 400, "Malformed JSON request body: " + e.getOriginalMessage());
            }
            if (body == null || !body.isObject()) {
                throw new RegistryException(400, 400, "The request body must be a JSON object");
            }
            return body;
        }

        /**
         * The body, refused with 413 as soon as it is known to exceed the limit: by its Content-Length before
         * reading a byte, else (chunked) after reading one byte past the limit. Never holds more than the limit.
         */
        private byte[] boundedBody() throws IOException {
            String declared = exchange.getRequestHeaders().getFirst("Content-Length");
            if (declared != null && parseLength(declared) > maxBodyBytes) throw tooLarge(declared + " bytes");
            // Not closed here: closing drains the rest, which must wait until the answer is sent (handle).
            InputStream in = exchange.getRequestBody();
            byte[] body = in.readNBytes(maxBodyBytes);
            if (in.read() != -1) throw tooLarge("more than " + maxBodyBytes + " bytes");
            return body;
        }

        private static long parseLength(String declared) {
            try {
                return Long.parseLong(declared.strip());
            } catch (NumberFormatException e) {
                throw new RegistryException(400, 400, "Malformed Content-Length '" + declared + "'");
            }
        }

        private RegistryException tooLarge(String size) {
            return new RegistryException(413, 413, "Request body of " + size + " exceeds the limit of " + maxBodyBytes + " bytes");
        }
    }
}
