package dev.pinfeed.redismasters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig.ReplicatedHost;
import java.util.List;
import org.junit.jupiter.api.Test;

class RedisMasterMapTest {

    private static final HostPort M1 = HostPort.parse("127.0.0.1:16379");
    private static final HostPort R1 = HostPort.parse("127.0.0.1:16380");
    private static final HostPort M2 = HostPort.parse("127.0.0.1:16389");
    private static final HostPort R2 = HostPort.parse("127.0.0.1:16390");
    private static final List<ReplicatedHost> CONFIGURED = List.of(new ReplicatedHost("redis001", M1, R1), new ReplicatedHost("redis002", M2, R2));

    @Test
    void theSeedIsTheConfiguredMastersAndTheTextRoundTrips() {
        RedisMasterMap seed = RedisMasterMap.configured(CONFIGURED);
        assertThat(seed.format()).isEqualTo("redis001=127.0.0.1:16379,redis002=127.0.0.1:16389");
        assertThat(RedisMasterMap.parse(" redis002=127.0.0.1:16389 , redis001=127.0.0.1:16379")).isEqualTo(seed);
        assertThat(seed.masterOf("redis002")).isEqualTo(M2);
    }

    @Test
    void aFailoverSwapsOneInstanceToTheOtherServerOfItsPair() {
        RedisMasterMap seed = RedisMasterMap.configured(CONFIGURED);
        HostPort standby = RedisMasterMap.standbyOf(CONFIGURED.get(0), seed.masterOf("redis001"));
        assertThat(standby).isEqualTo(R1);
        RedisMasterMap after = seed.withMaster("redis001", standby).checkedAgainst(CONFIGURED);
        assertThat(after.format()).isEqualTo("redis001=127.0.0.1:16380,redis002=127.0.0.1:16389");
        assertThat(RedisMasterMap.standbyOf(CONFIGURED.get(0), after.masterOf("redis001"))).as("and back").isEqualTo(M1);
    }

    @Test
    void mapsThatDoNotFitTheConfigurationAreRefused() {
        assertThatThrownBy(() -> RedisMasterMap.parse("redis001=127.0.0.1:16379").checkedAgainst(CONFIGURED))
                .hasMessageContaining("lacks instance redis002");
        assertThatThrownBy(() -> RedisMasterMap.parse("redis001=127.0.0.1:16379,redis002=127.0.0.1:16389,redis003=127.0.0.1:1")
                .checkedAgainst(CONFIGURED)).hasMessageContaining("the configuration lacks");
        assertThatThrownBy(() -> RedisMasterMap.parse("redis001=127.0.0.1:16381,redis002=127.0.0.1:16389").checkedAgainst(CONFIGURED))
                .hasMessageContaining("neither its configured master");
        assertThatThrownBy(() -> RedisMasterMap.parse("redis001=127.0.0.1:16379,redis001=127.0.0.1:16380")).hasMessageContaining("twice");
        assertThatThrownBy(() -> RedisMasterMap.parse("redis001")).hasMessageContaining("expected instance=host:port");
        assertThatThrownBy(() -> RedisMasterMap.standbyOf(new ReplicatedHost("solo", M1, null), M1)).hasMessageContaining("no replica");
    }
}
