package dev.pinfeed.redismasters;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.SslOptions;
import redis.clients.jedis.SslVerifyMode;

/**
 * How every pinfeed Redis connection authenticates and encrypts, read from the configuration in one
 * place: {@value #USER} (an ACL user; absent, the {@code default} user), {@value #PASSWORD},
 * {@value #TLS} ({@code true}/{@code false}) and, with TLS, {@value #TRUSTSTORE} /
 * {@value #TRUSTSTORE_PASSWORD} (absent, the JVM's default trust). With TLS the server's certificate
 * and host name are verified. Secrets may be given as {@code .file} keys ({@link PinfeedConfig}).
 */
public final class RedisClientSettings {

    public static final String USER = "redis.user";
    public static final String PASSWORD = "redis.password";
    public static final String TLS = "redis.tls";
    public static final String TRUSTSTORE = "redis.tls.truststore";
    public static final String TRUSTSTORE_PASSWORD = "redis.tls.truststore-password";

    private final Optional<String> user;
    private final Optional<String> password;
    private final Optional<SslOptions> tls;

    private RedisClientSettings(Optional<String> user, Optional<String> password, Optional<SslOptions> tls) {
        this.user = user;
        this.password = password;
        this.tls = tls;
    }

    /** The settings {@code config} gives; an invalid combination is an {@link IllegalStateException} naming the key. */
    public static RedisClientSettings from(PinfeedConfig config) {
        Optional<String> user = config.find(USER);
        Optional<String> password = config.find(PASSWORD);
        if (user.isPresent() && password.isEmpty()) {
            throw new IllegalStateException("configuration key '" + USER + "' names an ACL user but '" + PASSWORD + "' is not set");
        }
        String tls = config.get(TLS, "false");
        if (!tls.equals("true") && !tls.equals("false")) {
            throw new IllegalStateException("configuration key '" + TLS + "' is '" + tls + "': use true or false");
        }
        Optional<String> truststore = config.find(TRUSTSTORE);
        if (tls.equals("false") && truststore.isPresent()) {
            throw new IllegalStateException("configuration key '" + TRUSTSTORE + "' is set but '" + TLS + "' is not true");
        }
        Optional<SslOptions> ssl = Optional.empty();
        if (tls.equals("true")) {
            SslOptions.Builder b = SslOptions.builder().sslVerifyMode(SslVerifyMode.FULL);
            if (truststore.isPresent()) {
                try {
                    b.truststore(new File(truststore.get()), config.find(TRUSTSTORE_PASSWORD).map(String::toCharArray).orElse(null));
                } catch (IllegalArgumentException missing) {
                    throw new IllegalStateException("configuration key '" + TRUSTSTORE + "': " + missing.getMessage());
                }
            }
            ssl = Optional.of(b.build());
        }
        return new RedisClientSettings(user, password, ssl);
    }

    /** No authentication, no TLS: for a server pinfeed starts itself (a backup's scratch server) and tests' own servers. */
    public static RedisClientSettings none() {
        return new RedisClientSettings(Optional.empty(), Optional.empty(), Optional.empty());
    }

    /**
     * The client configuration of one connection: these credentials and TLS, with a connection's own name
     * (null for none), timeouts (a zero socket timeout waits for ever: a subscription) and protocol
     * negotiation (off: RESP2 for administrative connections, without the negotiation's warning).
     */
    public JedisClientConfig clientConfig(String clientName, Duration connectTimeout, Duration socketTimeout, boolean negotiateProtocol) {
        DefaultJedisClientConfig.Builder b = DefaultJedisClientConfig.builder().clientName(clientName)
                .connectionTimeoutMillis((int) connectTimeout.toMillis()).socketTimeoutMillis((int) socketTimeout.toMillis())
                .autoNegotiateProtocol(negotiateProtocol);
        user.ifPresent(b::user);
        password.ifPresent(b::password);
        tls.ifPresent(options -> b.ssl(true).sslOptions(options));
        return b.build();
    }

    /** One plain (unpooled, RESP2) connection to {@code address} for administrative commands and tools. */
    public Jedis plainConnection(HostPort address, Duration connectTimeout, Duration socketTimeout) {
        return new Jedis(new HostAndPort(address.host(), address.port()), clientConfig(null, connectTimeout, socketTimeout, false));
    }

    /**
     * {@code redis-cli} connecting with these settings: the arguments to add, the password placed in
     * {@code environment} ({@code REDISCLI_AUTH}) so it never shows in a process list. With TLS, redis-cli
     * trusts the system's CAs: it reads PEM files, not {@value #TRUSTSTORE}.
     */
    public List<String> redisCliArguments(Map<String, String> environment) {
        List<String> args = new ArrayList<>();
        user.ifPresent(u -> args.addAll(List.of("--user", u)));
        password.ifPresent(p -> environment.put("REDISCLI_AUTH", p));
        if (tls.isPresent()) args.add("--tls");
        return args;
    }

    @Override
    public String toString() {
        // Never the password.
        return "redis client settings (user " + user.orElse("default") + (password.isPresent() ? ", with password" : ", no password")
                + (tls.isPresent() ? ", TLS)" : ", no TLS)");
    }
}
