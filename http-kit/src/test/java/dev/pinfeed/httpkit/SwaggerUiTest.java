package dev.pinfeed.httpkit;

import static dev.pinfeed.httpkit.TestHttp.get;
import static dev.pinfeed.httpkit.TestHttp.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60) // a hang guard for a loaded box, not a timing
class SwaggerUiTest {

    private static final Pattern SRC_OR_HREF = Pattern.compile("(?:src|href)=\"([^\"]*)\"");

    private static HttpApp.Builder builder() {
        return HttpApp.builder("docs-test <svc>")
                .route("GET", "/v1/items/{itemId}", r -> Response.empty(204));
    }

    private static HttpApp withDocument() {
        return builder().openApiResource("openapi/test-openapi.json").build();
    }

    @Test
    void pageNamesTheServiceAndLoadsSwaggerUiFromTheService() {
        try (RunningHttpApp running = withDocument().start("127.0.0.1", 0)) {
            HttpResponse<String> response = get(running, "/docs");

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/html"));
            assertThat(response.headers().firstValue("Content-Security-Policy"))
                    .hasValue("default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'");
            assertThat(response.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
            String html = response.body();
            assertThat(html).contains("<title>docs-test &lt;svc&gt; API</title>")
                    .contains("src=\"/docs/swagger-ui-bundle.js\"")
                    .contains("src=\"/docs/swagger-ui-standalone-preset.js\"")
                    .contains("href=\"/docs/swagger-ui.css\"")
                    .contains("src=\"/docs/docs-init.js\"")
                    .doesNotContain("http://").doesNotContain("https://")
                    .doesNotContainPattern("<script>|<script [^>]*>[^<\\s]"); // no inline script: the CSP forbids it
            Matcher m = SRC_OR_HREF.matcher(html);
            int references = 0;
            while (m.find()) {
                references++;
                assertThat(get(running, m.group(1)).statusCode()).as("%s is served", m.group(1)).isEqualTo(200);
            }
            assertThat(references).isEqualTo(6);
        }
    }

    @Test
    void initScriptShowsTheServicesOwnDocument() {
        try (RunningHttpApp running = withDocument().start("127.0.0.1", 0)) {
            HttpResponse<String> response = get(running, "/docs/docs-init.js");

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/javascript"));
            assertThat(response.body()).contains("SwaggerUIBundle(").contains("url: \"/openapi.json\"")
                    .contains("dom_id: \"#swagger-ui\"").doesNotContain("http://").doesNotContain("https://");
        }
    }

    @Test
    void webjarFilesAreServedAsTheJarHasThem() throws Exception {
        try (RunningHttpApp running = withDocument().start("127.0.0.1", 0)) {
            for (int i = 0; i < 2; i++) { // the second answer comes from the cache
                HttpResponse<byte[]> response = TestHttp.CLIENT.send(HttpRequest.newBuilder(
                                URI.create(running.baseUri() + "/docs/swagger-ui-bundle.js")).timeout(Duration.ofSeconds(30)).build(),
                        HttpResponse.BodyHandlers.ofByteArray());

                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/javascript"));
                assertThat(response.headers().firstValue("Cache-Control")).hasValue("public, max-age=86400");
                assertThat(response.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
                assertThat(response.body()).isEqualTo(webjarFile("swagger-ui-bundle.js"));
            }
            HttpResponse<String> css = get(running, "/docs/swagger-ui.css");
            assertThat(css.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/css"));
            assertThat(get(running, "/docs/favicon-32x32.png").headers().firstValue("Content-Type")).hasValue("image/png");
        }
    }

    @Test
    void onlyTheFilesThePageNeedsAreServed() {
        try (RunningHttpApp running = withDocument().start("127.0.0.1", 0)) {
            for (String path : new String[] {"/docs/index.html", "/docs/..%2Fpom.xml", "/docs/swagger-initializer.js",
                    "/docs/oauth2-redirect.html", "/docs/..%2F..%2F..%2Fmaven%2Forg.webjars%2Fswagger-ui%2Fpom.properties"}) {
                HttpResponse<String> response = get(running, path);

                assertThat(response.statusCode()).as(path).isEqualTo(404);
                assertThat(json(response).path("type").asText()).as(path).isEqualTo("https://pinfeed.dev/problems/not-found");
            }
        }
    }

    @Test
    void withoutADocumentThereAreNoDocs() {
        try (RunningHttpApp running = builder().build().start("127.0.0.1", 0)) {
            for (String path : new String[] {"/docs", "/docs/swagger-ui-bundle.js"}) {
                HttpResponse<String> response = get(running, path);

                assertThat(response.statusCode()).as(path).isEqualTo(404);
                assertThat(json(response).path("type").asText()).isEqualTo("https://pinfeed.dev/problems/not-found");
            }
        }
    }

    @Test
    void anAppWithASeparateAdminAddressStillServesTheDocs() {
        HttpApp app = builder().openApiResource("openapi/test-openapi.json").adminSeparately().build();
        try (RunningHttpApp running = app.start("127.0.0.1", 0)) {
            assertThat(get(running, "/docs").statusCode()).isEqualTo(200);
            assertThat(get(running, "/docs/swagger-ui.css").statusCode()).isEqualTo(200);
            assertThat(get(running, "/metrics").statusCode()).isEqualTo(404);
        }
        assertThat(app.routes()).contains(new RouteInfo("GET", "/docs"), new RouteInfo("GET", "/docs/{file}"));
    }

    @Test
    void docsPathsAreReserved() {
        Handler h = r -> Response.empty(204);
        assertThatThrownBy(() -> HttpApp.builder("x").route("GET", "/docs", h))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("built-in");
        assertThatThrownBy(() -> HttpApp.builder("x").route("GET", "/docs/{file}", h))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("built-in");
        assertThatThrownBy(() -> HttpApp.builder("x").route("GET", "/docs/swagger-ui-bundle.js", h))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("built-in");
        HttpApp.builder("x").route("GET", "/docsets/{id}", h).build(); // a prefix of a name is not the /docs path
    }

    /** The file as the webjar holds it, under the version its Maven metadata names. */
    private static byte[] webjarFile(String name) throws Exception {
        ClassLoader loader = SwaggerUiTest.class.getClassLoader();
        Properties properties = new Properties();
        try (InputStream in = loader.getResourceAsStream("META-INF/maven/org.webjars/swagger-ui/pom.properties")) {
            properties.load(in);
        }
        try (InputStream in = loader.getResourceAsStream(
                "META-INF/resources/webjars/swagger-ui/" + properties.getProperty("version") + "/" + name)) {
            assertThat(in).as(name + " in the webjar").isNotNull();
            return in.readAllBytes();
        }
    }
}
