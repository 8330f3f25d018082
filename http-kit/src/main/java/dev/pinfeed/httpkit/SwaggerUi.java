package dev.pinfeed.httpkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Swagger UI over the app's {@code /openapi.json}: {@code GET /docs} is our page, {@code GET /docs/{file}} the few
 * files it loads, from the swagger-ui webjar on the classpath (no CDN, so it works offline). Webjar files are read
 * on first request and kept in memory, shared by every app of the process.
 */
final class SwaggerUi {

    static final String PAGE = "/docs";
    static final String FILE = "/docs/{file}";
    /** Swagger UI styles elements inline; the page's own script is a file, so no inline script is allowed. */
    static final String PAGE_CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'";

    private static final String WEBJAR_PROPERTIES = "META-INF/maven/org.webjars/swagger-ui/pom.properties";
    private static final String WEBJAR_FILES = "META-INF/resources/webjars/swagger-ui/";
    private static final String INIT = "docs-init.js";
    private static final String CSS = "text/css; charset=utf-8";
    private static final String JS = "text/javascript; charset=utf-8";
    private static final String PNG = "image/png";
    /** Only what the page needs: nothing else of the webjar (its demo index.html, the OAuth redirect) is served. */
    private static final Map<String, String> FILES = Map.of(
            "swagger-ui.css", CSS,
            "swagger-ui-bundle.js", JS,
            "swagger-ui-standalone-preset.js", JS,
            "favicon-32x32.png", PNG,
            "favicon-16x16.png", PNG,
            INIT, JS);
    private static final ConcurrentMap<String, Response> LOADED = new ConcurrentHashMap<>();

    private final Response page;

    SwaggerUi(String serviceName) {
        String html = new String(ownResource("docs.html"), StandardCharsets.UTF_8).replace("{{serviceName}}", escape(serviceName));
        this.page = secured(Response.text(200, "text/html; charset=utf-8", html))
                .withHeader("Content-Security-Policy", PAGE_CSP)
                .withHeader("Cache-Control", "no-cache");
    }

    Response page() {
        return page;
    }

    /** The allow-listed file; 404 for any other name. */
    static Response file(String name) {
        String contentType = FILES.get(name);
        if (contentType == null) {
            throw new ProblemException(Problem.notFound("file", "no such file of the API docs page: " + Json.oneLine(name, 100)));
        }
        return LOADED.computeIfAbsent(name, n -> n.equals(INIT)
                // Ours, and it may change with a release of the service: revalidated, unlike the versioned webjar's.
                ? secured(Response.shared(200, contentType, ownResource(INIT))).withHeader("Cache-Control", "no-cache")
                : secured(Response.shared(200, contentType, webjarFile(n))).withHeader("Cache-Control", "public, max-age=86400"));
    }

    private static Response secured(Response response) {
        return response.withHeader("X-Content-Type-Options", "nosniff");
    }

    private static byte[] ownResource(String name) {
        try (InputStream in = SwaggerUi.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("http-kit resource missing from the classpath: " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read http-kit resource " + name, e);
        }
    }

    /** The webjar's path carries its version; read it from the jar rather than repeating the pom's. */
    private static byte[] webjarFile(String name) {
        ClassLoader loader = SwaggerUi.class.getClassLoader();
        try (InputStream props = loader.getResourceAsStream(WEBJAR_PROPERTIES)) {
            if (props == null) {
                throw new IllegalStateException("the swagger-ui webjar is not on the classpath (" + WEBJAR_PROPERTIES + ")");
            }
            Properties properties = new Properties();
            properties.load(props);
            String version = properties.getProperty("version");
            if (version == null || version.isBlank()) {
                throw new IllegalStateException(WEBJAR_PROPERTIES + " names no version");
            }
            String path = WEBJAR_FILES + version.trim() + "/" + name;
            try (InputStream in = loader.getResourceAsStream(path)) {
                if (in == null) {
                    throw new IllegalStateException("swagger-ui webjar file missing: " + path);
                }
                return in.readAllBytes();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the swagger-ui webjar file " + name, e);
        }
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;").replace("'", "&#39;");
    }
}
