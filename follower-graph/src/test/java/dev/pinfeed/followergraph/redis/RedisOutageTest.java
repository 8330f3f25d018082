package dev.pinfeed.followergraph.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.redisshards.RedisShardMap;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An instance nobody listens on (a port just freed, so the connection is refused at once): every kind
 * of call — script write, pipelined read, scan — fails as "redis001 unavailable", which services answer
 * with 503 and processors retry, never as a bug.
 */
class RedisOutageTest {

    private RedisGraphStore store;

    @BeforeEach
    void connectToNothing() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        store = RedisGraphStore.connect(dev.pinfeed.redismasters.RedisMasterConfig.fixed(List.of(new PinfeedConfig.ReplicatedHost("redis001", new HostPort("127.0.0.1", port), null)),
                        dev.pinfeed.redismasters.RedisClientSettings.none()),
                () -> RedisShardMap.evenlyOver(List.of("redis001")), "");
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void everyKindOfCallReportsTheInstanceUnavailable() {
        Consumer<ThrowingCallable> unavailable = call -> assertThatThrownBy(call).isInstanceOf(StoreUnavailableException.class)
                .satisfies(e -> assertThat(((StoreUnavailableException) e).store()).isEqualTo("redis001"))
                .hasMessageStartingWith("redis001 unavailable");

        unavailable.accept(() -> store.apply(new GraphCommand.FollowUser(1, 10, 7, 8)));
        unavailable.accept(() -> store.relation(7, 8));
        unavailable.accept(() -> store.followers(8, null, 10));
        unavailable.accept(() -> store.boardReceivers(70, null, 10));
        unavailable.accept(() -> store.isEmpty());
    }
}
