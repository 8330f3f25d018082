package dev.pinfeed.deployment;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the apps read from a configuration file (the repository's infra/definitions/production.example.properties):
 * which apps there are, their ports, and the files and directories each one opens.
 */
final class ExampleConfiguration {

    static final Path ROOT = Path.of(System.getProperty("user.dir")).resolve("..").normalize();
    static final Path PRODUCTION_EXAMPLE = ROOT.resolve("infra/definitions/production.example.properties");

    /** The public address of each HTTP service; the other apps serve only their admin address. */
    static final Map<String, String> PUBLIC_ADDRESS_KEYS = Map.of("ingest-api", "ingest.http", "feed-service", "feed.http", "console", "console.http");
    /**
     * Key prefixes apps read besides {@code <app>.}, the longest that matches deciding (the console checks readers'
     * tokens with feed-service's {@code feed.auth.*}); a key of none of them is a store's, read by every app.
     */
    private static final Map<String, Set<String>> APP_PREFIXES = Map.of("ingest.", Set.of("ingest-api"), "feed.", Set.of("feed-service"),
            "feed.auth.", Set.of("feed-service", "console"), "fanout.", Set.of("fanout-streams"), "related.", Set.of("fanout-streams"));
    /** The operators' commands (./pinfeed backup, failover, shard moves) read these; no app does. */
    private static final List<String> OPERATOR_PREFIXES = List.of("backup.", "mysql.admin.");
    /** Keys naming a file or directory: secrets as K.file, token and key files, trust stores, state directories. */
    private static final Pattern PATH_KEY = Pattern.compile(".*([.-]file|[.-]truststore|[.-]keystore|\\.location|state-dir)");

    private static final Pattern CONSOLE_URL = Pattern.compile("console\\.(process\\.)?([a-z0-9-]+)\\.url");

    private final byte[] bytes;
    private final Properties properties = new Properties();

    private ExampleConfiguration(byte[] bytes) {
        this.bytes = bytes;
        try {
            properties.load(new StringReader(new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ExampleConfiguration of(byte[] bytes) {
        return new ExampleConfiguration(bytes.clone());
    }

    static ExampleConfiguration load(Path file) {
        try {
            return new ExampleConfiguration(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    byte[] bytes() {
        return bytes.clone();
    }

    /** Every module of the repository with an admin address ({@code <module>.admin.http}): the long-running apps. */
    List<String> apps() {
        return properties.stringPropertyNames().stream().filter(k -> k.endsWith(".admin.http"))
                .map(k -> k.substring(0, k.length() - ".admin.http".length()))
                .filter(name -> Files.exists(ROOT.resolve(name).resolve("pom.xml")))
                .sorted().toList();
    }

    int adminPort(String app) {
        return port(app + ".admin.http");
    }

    OptionalInt publicPort(String app) {
        String key = PUBLIC_ADDRESS_KEYS.get(app);
        return key == null ? OptionalInt.empty() : OptionalInt.of(port(key));
    }

    /** Address keys ({@code *.http}) that are neither an admin address nor a known app's public one. */
    List<String> unknownPublicAddresses() {
        return properties.stringPropertyNames().stream()
                .filter(k -> k.endsWith(".http") && !k.endsWith(".admin.http") && !PUBLIC_ADDRESS_KEYS.containsValue(k))
                .sorted().toList();
    }

    /** An app's address as the console calls it: {@code console.<app>.url} its public port, {@code console.process.<app>.url} its admin port. */
    record ConsoleUrl(String key, String url, String app, boolean admin) {}

    /** The console's URLs of the apps of this configuration (a key naming no app is left out: the console reads none). */
    List<ConsoleUrl> consoleUrls() {
        List<String> apps = apps();
        return properties.stringPropertyNames().stream().sorted().map(CONSOLE_URL::matcher).filter(Matcher::matches)
                .filter(m -> apps.contains(m.group(2)) && (m.group(1) != null || publicPort(m.group(2)).isPresent()))
                .map(m -> new ConsoleUrl(m.group(), properties.getProperty(m.group()).trim(), m.group(2), m.group(1) != null)).toList();
    }

    /** Key → path of every file or directory {@code app} opens. */
    Map<String, String> pathsReadBy(String app) {
        Map<String, String> paths = new TreeMap<>();
        for (String key : properties.stringPropertyNames()) {
            if (PATH_KEY.matcher(key).matches() && readBy(key, app)) paths.put(key, properties.getProperty(key).trim());
        }
        return paths;
    }

    private boolean readBy(String key, String app) {
        if (OPERATOR_PREFIXES.stream().anyMatch(key::startsWith)) return false;
        for (String other : apps()) {
            if (key.startsWith(other + ".")) return other.equals(app);
        }
        return APP_PREFIXES.entrySet().stream().filter(prefix -> key.startsWith(prefix.getKey()))
                .max(Comparator.comparingInt(prefix -> prefix.getKey().length()))
                .map(prefix -> prefix.getValue().contains(app)).orElse(true);
    }

    private int port(String key) {
        String address = properties.getProperty(key);
        if (address == null) throw new IllegalArgumentException(key + " is not in the configuration");
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1).trim());
    }
}
