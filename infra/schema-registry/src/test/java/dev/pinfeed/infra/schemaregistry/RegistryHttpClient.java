package dev.pinfeed.infra.schemaregistry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.util.Map;

/** Raw HTTP against a running registry, as Confluent's clients would talk to it. */
final class RegistryHttpClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    private final String baseUrl;

    RegistryHttpClient(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    record Reply(int status, String contentType, JsonNode body) {
        int errorCode() {
            return body.path("error_code").asInt();
        }
    }

    /** A register / lookup / compatibility request body for an Avro schema. */
    static Map<String, Object> schemaBody(String schema) {
        return Map.of("schema", schema);
    }

    Reply get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    Reply delete(String path) {
        return send(HttpRequest.newBuilder(uri(path)).DELETE());
    }

    Reply post(String path, Object body) {
        return sendJson("POST", path, json(body), RestApi.CONTENT_TYPE);
    }

    Reply put(String path, Object body) {
        return sendJson("PUT", path, json(body), RestApi.CONTENT_TYPE);
    }

    Reply sendJson(String method, String path, String body, String contentType) {
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", contentType).method(method, BodyPublishers.ofString(body)));
    }

    private URI uri(String path) {
        return URI.create(baseUrl + path);
    }

    private static String json(Object body) {
        try {
            return JSON.writeValueAsString(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Reply send(HttpRequest.Builder request) {
        try {
            var response = http.send(request.build(), BodyHandlers.ofString());
            return new Reply(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                    JSON.readTree(response.body()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
