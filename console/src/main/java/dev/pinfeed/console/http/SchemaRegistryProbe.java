package dev.pinfeed.console.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.console.pipeline.PipelineSources.ServerProbe;
import dev.pinfeed.eventsschema.HttpSchemaRegistryClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/** The schema registry: {@code GET /subjects} with its credentials ({@link HttpSchemaRegistryClient#authorization}) answers 200. */
public final class SchemaRegistryProbe implements ServerProbe {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI subjects;
    private final Map<String, String> headers;
    private final Duration timeout;
    private final HttpClient http;

    public SchemaRegistryProbe(PinfeedConfig config, Duration timeout) {
        String base = config.schemaRegistryUrl();
        this.subjects = URI.create((base.endsWith("/") ? base : base + "/") + "subjects");
        this.headers = HttpSchemaRegistryClient.authorization(config).map(a -> Map.of("Authorization", a)).orElse(Map.of());
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    @Override
    public String check() throws IOException, InterruptedException {
        HttpResponse<byte[]> r = HttpAdminEndpoints.get(http, subjects, timeout, headers);
        if (r.statusCode() != 200) throw new IOException("GET /subjects answered HTTP " + r.statusCode());
        JsonNode body = JSON.readTree(r.body());
        int n = body.isArray() ? body.size() : 0;
        return n + (n == 1 ? " subject" : " subjects");
    }
}
