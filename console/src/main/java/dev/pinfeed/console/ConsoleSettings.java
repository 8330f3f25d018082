package dev.pinfeed.console;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.httpkit.ReaderClaims;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The console's keys: {@code console.http} (its address), {@code console.feed-service.url} and
 * {@code console.ingest-api.url} (the services it calls; default the local {@code feed.http} and {@code ingest.http}),
 * {@code console.ingest.token} (its producer token for ingest-api, a secret: give it as {@code console.ingest.token.file}),
 * {@code console.sign-in} ({@code dev}: anyone may sign in as any user by name, the console signing the reader token
 * with {@code console.sign-in.private-keys-file}; {@code token}: the reader brings a token; default {@code token}),
 * {@code console.sign-in.suggested-users}, {@code console.sign-in.ttl-minutes} (720), the reader token checks of
 * feed-service ({@code feed.auth.jwks-file}, {@code feed.auth.issuer}, {@code feed.auth.audience}),
 * {@code console.refresh-millis} (2000), {@code console.pipeline.access} ({@code token}: the pipeline page's state only
 * for a caller with a reader token; {@code open}: for anyone who reaches the console, as in dev; default token).
 */
public record ConsoleSettings(HostPort http, URI feedService, URI ingestApi, Optional<String> ingestToken, SignIn signIn,
                              Optional<Path> signingKeys, List<String> suggestedUsers, Duration tokenTtl, Path jwksFile, String issuer,
                              String audience, Duration refresh, Map<String, String> docs, boolean pipelineNeedsToken) {

    public static final String HTTP = "console.http";

    /** How a reader gets a token: signed by the console for any named user ({@code dev}), or brought along. */
    public enum SignIn { DEV, TOKEN }

    public static ConsoleSettings from(PinfeedConfig config) {
        URI feed = serviceUrl(config, "console.feed-service.url", "feed.http");
        URI ingest = serviceUrl(config, "console.ingest-api.url", "ingest.http");
        SignIn signIn = switch (config.get("console.sign-in", "token").toLowerCase(Locale.ROOT)) {
            case "dev" -> SignIn.DEV;
            case "token" -> SignIn.TOKEN;
            default -> throw new IllegalStateException("configuration key 'console.sign-in' must be dev or token: "
                    + config.get("console.sign-in", ""));
        };
        Optional<Path> keys = config.find("console.sign-in.private-keys-file").map(Path::of);
        if (signIn == SignIn.DEV && keys.isEmpty()) {
            throw new IllegalStateException("console.sign-in=dev needs console.sign-in.private-keys-file (the reader tokens' private key set)");
        }
        List<String> suggested = Arrays.stream(config.get("console.sign-in.suggested-users", "").split(","))
                .map(String::trim).filter(s -> !s.isEmpty()).toList();
        Map<String, String> docs = new LinkedHashMap<>();
        docs.put("ingest-api", ingest.resolve("/docs").toString());
        docs.put("feed-service", feed.resolve("/docs").toString());
        return new ConsoleSettings(config.hostPort(HTTP), feed, ingest, config.find("console.ingest.token"), signIn, keys, suggested,
                Duration.ofMinutes(config.getInt("console.sign-in.ttl-minutes", 720)), Path.of(config.require("feed.auth.jwks-file")),
                config.require("feed.auth.issuer"), config.get("feed.auth.audience", ReaderClaims.AUDIENCE),
                Duration.ofMillis(config.getInt("console.refresh-millis", 2000)), Map.copyOf(docs), pipelineNeedsToken(config));
    }

    /** Where the stores live and how they fare is for operators: open only where everyone reaching the console is one. */
    private static boolean pipelineNeedsToken(PinfeedConfig config) {
        return switch (config.get("console.pipeline.access", "token").toLowerCase(Locale.ROOT)) {
            case "token" -> true;
            case "open" -> false;
            default -> throw new IllegalStateException("configuration key 'console.pipeline.access' must be token or open: "
                    + config.get("console.pipeline.access", ""));
        };
    }

    private static URI serviceUrl(PinfeedConfig config, String key, String localKey) {
        String url = config.find(key).orElseGet(() -> "http://" + config.hostPort(localKey));
        URI uri = URI.create(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
        if (uri.getScheme() == null || uri.getHost() == null) {
            throw new IllegalStateException("configuration key '" + key + "' must be an http(s) URL: " + url);
        }
        return uri;
    }
}
