package dev.pinfeed.httpkit;

import static dev.pinfeed.httpkit.TestHttp.get;
import static dev.pinfeed.httpkit.TestHttp.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A token over its rate is answered 429 with Retry-After before its handler runs; other tokens and public routes go on. */
@Timeout(60) // a hang guard for a loaded box, not a timing
class RateLimitTest {

    @Test
    void aTokenOverItsRateIs429WithRetryAfterAndOthersAreServed() {
        AtomicLong nanos = new AtomicLong(); // frozen: no refill during the test
        HttpApp app = HttpApp.builder("rate-test")
                .authenticator(token -> new Principal(token, Set.of()))
                .rateLimit(new PrincipalRateLimiter(1, 2, nanos::get))
                .route("GET", "/v1/mine", new RouteOptions(true, 0, false), r -> Response.json(200, Map.of("who", r.principal().name())))
                .route("GET", "/v1/public", r -> Response.json(200, Map.of()))
                .build();
        try (RunningHttpApp running = app.start("127.0.0.1", 0)) {
            assertThat(get(running, "/v1/mine", "Authorization", "Bearer hog").statusCode()).isEqualTo(200);
            assertThat(get(running, "/v1/mine", "Authorization", "Bearer hog").statusCode()).isEqualTo(200);
            HttpResponse<String> limited = get(running, "/v1/mine", "Authorization", "Bearer hog");
            assertThat(limited.statusCode()).isEqualTo(429);
            assertThat(limited.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(json(limited).get("type").asText()).endsWith("/too-many-requests");
            assertThat(get(running, "/v1/mine", "Authorization", "Bearer polite").statusCode()).isEqualTo(200);
            assertThat(get(running, "/v1/public").statusCode()).isEqualTo(200);
            nanos.addAndGet(1_000_000_000L);
            assertThat(get(running, "/v1/mine", "Authorization", "Bearer hog").statusCode()).as("a second later, one more").isEqualTo(200);
        }
    }
}
