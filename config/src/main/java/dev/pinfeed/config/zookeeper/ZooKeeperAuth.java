package dev.pinfeed.config.zookeeper;

import dev.pinfeed.config.PinfeedConfig;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;

/**
 * Who pinfeed is on its application ZooKeeper, and what its znodes allow: with
 * {@code app.zookeeper.auth.user} and {@code app.zookeeper.auth.password} (a secret: give it as
 * {@code app.zookeeper.auth.password.file}), pinfeed's clients authenticate with the digest scheme and
 * every znode they create (the live shard and master maps, moves, fence followers) is writable by that
 * identity only and readable by anyone: whoever else reaches ZooKeeper cannot redirect the services'
 * writes. Without them, znodes stay open, as ZooKeeper's default.
 */
public record ZooKeeperAuth(String user, String password) {

    public static final String USER = "app.zookeeper.auth.user";
    public static final String PASSWORD = "app.zookeeper.auth.password";

    public ZooKeeperAuth {
        if (user.isBlank() || user.contains(":")) throw new IllegalStateException("configuration key '" + USER + "' must be a name without ':'");
        if (password.isEmpty()) throw new IllegalStateException("configuration key '" + PASSWORD + "' is empty");
    }

    /** The configured identity, or empty when ZooKeeper is used without authentication. */
    public static Optional<ZooKeeperAuth> from(PinfeedConfig config) {
        Optional<String> user = config.find(USER);
        Optional<String> password = config.find(PASSWORD);
        if (user.isEmpty() && password.isEmpty()) return Optional.empty();
        if (user.isEmpty() || password.isEmpty()) {
            throw new IllegalStateException("configuration keys '" + USER + "' and '" + PASSWORD + "' go together: one is not set");
        }
        return Optional.of(new ZooKeeperAuth(user.get(), password.get()));
    }

    /** The digest scheme's credentials, as {@code addauth digest} takes them. */
    public byte[] digestCredentials() {
        return (user + ":" + password).getBytes(StandardCharsets.UTF_8);
    }

    /** Every permission for this identity, read for anyone. */
    public List<ACL> acl() {
        try {
            Id self = new Id("digest", DigestAuthenticationProvider.generateDigest(user + ":" + password));
            // A mutable list: ZooKeeper checks it with contains(null), which List.of refuses.
            return new ArrayList<>(List.of(new ACL(ZooDefs.Perms.ALL, self), new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is not available for ZooKeeper's digest scheme", e);
        }
    }

    @Override
    public String toString() {
        return "ZooKeeperAuth[user=" + user + "]";
    }
}
