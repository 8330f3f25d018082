package dev.pinfeed.console;

import dev.pinfeed.httpkit.Problem;
import dev.pinfeed.httpkit.ProblemException;
import dev.pinfeed.httpkit.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/** The console's web files (HTML, CSS, JavaScript modules, images), from the classpath under {@code dev/pinfeed/console/web/}. */
final class WebFiles {

    private static final String ROOT = "dev/pinfeed/console/web/";
    /** One plain name: no directories, no "..", nothing the classpath could resolve elsewhere. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9_.-]{0,80}");
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8", "css", "text/css; charset=utf-8", "js", "text/javascript; charset=utf-8",
            "svg", "image/svg+xml", "png", "image/png", "json", "application/json", "ico", "image/x-icon");

    static final String CSP = "default-src 'self'; img-src 'self' data: https:; style-src 'self'; script-src 'self'; "
            + "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

    private final Map<String, byte[]> cache = new ConcurrentHashMap<>();

    Response file(String name) {
        if (name == null || !NAME.matcher(name).matches() || name.contains("..")) {
            throw new ProblemException(Problem.notFound(null, "no such file"));
        }
        String ext = name.substring(name.lastIndexOf('.') + 1);
        String type = TYPES.get(ext);
        if (type == null) throw new ProblemException(Problem.notFound(null, "no such file"));
        byte[] bytes = cache.computeIfAbsent(name, WebFiles::load);
        if (bytes.length == 0) throw new ProblemException(Problem.notFound(null, "no such file: " + name));
        // The files change with the build, not while it runs; no-cache keeps a reload after an upgrade correct.
        Response r = Response.bytes(200, type, bytes).withHeader("Cache-Control", "no-cache")
                .withHeader("X-Content-Type-Options", "nosniff");
        // Scripts, styles and calls only from the console itself; pins' images from anywhere on https.
        return ext.equals("html") ? r.withHeader("Content-Security-Policy", CSP).withHeader("Referrer-Policy", "same-origin") : r;
    }

    private static byte[] load(String name) {
        try (InputStream in = WebFiles.class.getClassLoader().getResourceAsStream(ROOT + name)) {
            return in == null ? new byte[0] : in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
