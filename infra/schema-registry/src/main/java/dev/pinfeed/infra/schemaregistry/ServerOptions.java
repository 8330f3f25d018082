package dev.pinfeed.infra.schemaregistry;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The command line of {@link SchemaRegistryServer#main}; {@link #parse} explains any mistake in one line.
 * {@code basicAuthFile} (null: no auth) holds {@code user:password}: a file, so the password is not in the process list.
 */
record ServerOptions(String host, int port, String bootstrap, String topic, short replicationFactor, CompatibilityLevel compatibility,
                     int maxBodyBytes, Path basicAuthFile) {

    static final String USAGE = "usage: --port PORT --bootstrap HOST:PORT[,...] [--topic _schemas] [--replication-factor 1]"
            + " [--compatibility BACKWARD] [--host 127.0.0.1] [--max-body-bytes " + RequestRules.DEFAULT_MAX_BODY_BYTES + "]"
            + " [--basic-auth-file PATH]";
    private static final Set<String> FLAGS = Set.of("--port", "--bootstrap", "--topic", "--replication-factor", "--compatibility", "--host",
            "--max-body-bytes", "--basic-auth-file");

    static ServerOptions parse(String... args) {
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            String flag = args[i];
            if (!FLAGS.contains(flag)) {
                throw new IllegalArgumentException("unknown argument '" + flag + "'; " + USAGE);
            }
            if (i + 1 >= args.length || args[i + 1].isBlank()) {
                throw new IllegalArgumentException(flag + " needs a value; " + USAGE);
            }
            values.put(flag, args[i + 1]);
        }
        String bootstrap = values.get("--bootstrap");
        if (bootstrap == null) {
            throw new IllegalArgumentException("--bootstrap is required; " + USAGE);
        }
        if (!values.containsKey("--port")) {
            throw new IllegalArgumentException("--port is required; " + USAGE);
        }
        return new ServerOptions(
                values.getOrDefault("--host", "127.0.0.1"),
                number(values, "--port", 0, 65535),
                bootstrap,
                values.getOrDefault("--topic", KafkaSchemaLog.DEFAULT_TOPIC),
                (short) number(values, "--replication-factor", 1, Short.MAX_VALUE),
                compatibility(values.getOrDefault("--compatibility", CompatibilityLevel.BACKWARD.name())),
                values.containsKey("--max-body-bytes") ? number(values, "--max-body-bytes", 1, Integer.MAX_VALUE) : RequestRules.DEFAULT_MAX_BODY_BYTES,
                values.containsKey("--basic-auth-file") ? Path.of(values.get("--basic-auth-file")) : null);
    }

    /** The body limit and the basic-auth user (its file read now: a missing or malformed file fails the start). */
    RequestRules requestRules() {
        return new RequestRules(maxBodyBytes, Optional.ofNullable(basicAuthFile).map(RequestRules.BasicCredentials::read));
    }

    private static int number(Map<String, String> values, String flag, int min, int max) {
        String text = values.getOrDefault(flag, "1");
        try {
            int value = Integer.parseInt(text);
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        throw new IllegalArgumentException(flag + " must be a number from " + min + " to " + max + ", not '" + text + "'");
    }

    private static CompatibilityLevel compatibility(String name) {
        try {
            return CompatibilityLevel.parse(name);
        } catch (RegistryException e) {
            throw new IllegalArgumentException("--compatibility: " + e.getMessage());
        }
    }
}
