package dev.pinfeed.feedservice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.canonicalstore.reads.InMemoryCanonicalReads;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.feedservice.homefeed.HomeFeedFixture;
import dev.pinfeed.followergraph.sharded.InMemoryGraphStore;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.Meters;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import dev.pinfeed.httpkit.RouteInfo;
import java.io.InputStream;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The published OpenAPI document describes every route the service serves, with its path parameters. */
class FeedOpenApiTest {

    @Test
    void everyRouteIsDocumentedWithItsPathParameters() throws Exception {
        HomeFeedFixture feed = new HomeFeedFixture(); // the production app serves the home feed too
        HttpApp app = FeedServiceServer.app(PinfeedConfig.of(new Properties()),
                ReaderAuth.selfIssued(PinfeedConfig.of(new Properties()), java.time.Clock.systemUTC()).auth(), new InMemoryGraphStore(), new InMemoryCanonicalReads(),
                feed.feed(), Meters.newRegistry(), Map.of());
        feed.close();
        JsonNode doc;
        try (InputStream in = getClass().getResourceAsStream("/openapi/feed-service.json")) {
            doc = new ObjectMapper().readTree(in);
        }
        for (RouteInfo route : app.applicationRoutes()) {
            JsonNode op = doc.path("paths").path(route.pathTemplate()).path(route.method().toLowerCase(Locale.ROOT));
            assertThat(op.isObject()).as(route.method() + " " + route.pathTemplate() + " is documented").isTrue();
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\{([^}]+)}").matcher(route.pathTemplate());
            while (m.find()) {
                String name = m.group(1);
                boolean declared = false;
                for (JsonNode p : op.path("parameters")) declared |= p.path("in").asText().equals("path") && p.path("name").asText().equals(name);
                assertThat(declared).as(route.pathTemplate() + " declares " + name).isTrue();
            }
        }
    }
}
