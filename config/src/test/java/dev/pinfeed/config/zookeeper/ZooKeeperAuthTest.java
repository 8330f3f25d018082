package dev.pinfeed.config.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.PinfeedConfig;
import java.util.Properties;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.Test;

class ZooKeeperAuthTest {

    @Test
    void noKeysNoAuthentication() {
        assertThat(ZooKeeperAuth.from(PinfeedConfig.of(new Properties()))).isEmpty();
    }

    @Test
    void userAndPasswordGoTogether() {
        Properties p = new Properties();
        p.setProperty(ZooKeeperAuth.USER, "pinfeed");
        assertThatThrownBy(() -> ZooKeeperAuth.from(PinfeedConfig.of(p))).hasMessageContaining("go together");
    }

    @Test
    void pinfeedMayDoEverythingOthersOnlyRead() {
        Properties p = new Properties();
        p.setProperty(ZooKeeperAuth.USER, "pinfeed");
        p.setProperty(ZooKeeperAuth.PASSWORD, "s3cret");
        ZooKeeperAuth auth = ZooKeeperAuth.from(PinfeedConfig.of(p)).orElseThrow();
        assertThat(auth.acl()).hasSize(2);
        assertThat(auth.acl().get(0).getId().getScheme()).isEqualTo("digest");
        assertThat(auth.acl().get(0).getId().getId()).startsWith("pinfeed:").doesNotContain("s3cret");
        assertThat(auth.acl().get(0).getPerms()).isEqualTo(ZooDefs.Perms.ALL);
        assertThat(auth.acl().get(1).getId()).isEqualTo(ZooDefs.Ids.ANYONE_ID_UNSAFE);
        assertThat(auth.acl().get(1).getPerms()).isEqualTo(ZooDefs.Perms.READ);
        assertThat(auth.toString()).doesNotContain("s3cret");
    }
}
