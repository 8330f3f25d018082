package dev.pinfeed.feedservice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.ReaderClaims;
import dev.pinfeed.httpkit.RunningHttpApp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Properties;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A feed-service app started on first use (subclasses connect their stores in their own @BeforeEach, after the caller's), and
 * calls to it. The app accepts the tokens of a key of its own; {@link #get} reads as the user the path names (his own token),
 * or as a service when it names none.
 */
final class FeedAppClient implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern USER_PATH = Pattern.compile("^/v1/users/(\\d+)(/.*)?$");
    private final HttpClient http = HttpClient.newHttpClient();
    private final ReaderAuth.SelfIssued readers;
    private final Function<ReaderAuth, HttpApp> app;
    private RunningHttpApp running;

    FeedAppClient(Function<ReaderAuth, HttpApp> app) {
        this(PinfeedConfig.of(new Properties()), app);
    }

    /** With the readers' settings ({@code feed.auth.*}) of {@code readerConfig}. */
    FeedAppClient(PinfeedConfig readerConfig, Function<ReaderAuth, HttpApp> app) {
        this.readers = ReaderAuth.selfIssued(readerConfig, Clock.systemUTC());
        this.app = app;
    }

    URI base() {
        if (running == null) running = app.apply(readers.auth()).start("127.0.0.1", 0);
        return running.baseUri();
    }

    String userToken(long userId) {
        return ReaderClaims.userToken(readers.issuer(), userId, Duration.ofMinutes(10));
    }

    String serviceToken(String name) {
        return ReaderClaims.serviceToken(readers.issuer(), name, Duration.ofMinutes(10));
    }

    /** GET {@code path} as the user it names (or a service), asserting the status; the body as JSON. */
    JsonNode get(String path, int status) throws Exception {
        return get(path, ownToken(path), status);
    }

    /** GET {@code path} with {@code token} (null: none). */
    JsonNode get(String path, String token, int status) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(base() + path)).GET();
        if (token != null) r.header("Authorization", "Bearer " + token);
        return send(r.build(), status);
    }

    JsonNode post(String path, String body, int status) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(base() + path)).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + ownToken(path)).POST(HttpRequest.BodyPublishers.ofString(body)).build(), status);
    }

    private String ownToken(String path) {
        Matcher m = USER_PATH.matcher(path.split("\\?")[0]);
        return m.matches() && m.group(1).length() < 19 ? userToken(Long.parseLong(m.group(1))) : serviceToken("feed-tests");
    }

    private JsonNode send(HttpRequest request, int status) throws Exception {
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        return JSON.readTree(r.body());
    }

    @Override
    public void close() {
        if (running != null) running.close();
        running = null;
    }
}
