package dev.pinfeed.followergraph.sharded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.redisshards.VirtualShards;
import java.util.List;
import org.junit.jupiter.api.Test;

class GraphKeysTest {

    private final GraphKeys keys = new GraphKeys("p:");

    @Test
    void aUsersKeysAndHisBoardsKeysShareOneHashTag() {
        long user = 241294492511762325L;
        String tag = "{v" + VirtualShards.of(user) + "}";
        List<String> all = List.of(keys.followingExplicit(user), keys.followingImplicit(user), keys.followersExplicit(user),
                keys.followersImplicit(user), keys.boardsFollowed(user), keys.boardsUnfollowed(user), keys.boardsOwned(user),
                keys.userRegisters(user), keys.boardRegisters(user, 9), keys.pairVersions(user), keys.followeeVersions(user),
                keys.boardFollowers(user, 77), keys.boardUnfollowers(user, 77));
        assertThat(all).allSatisfy(k -> assertThat(k).startsWith("p:" + tag + ":"));
        assertThat(all).doesNotHaveDuplicates();
        assertThat(VirtualShards.tag(user)).isEqualTo(tag);
    }

    @Test
    void theSchemeIsExactlyAsDocumented() {
        int s = VirtualShards.of(12);
        assertThat(keys.followingExplicit(12)).isEqualTo("p:{v" + s + "}:u:12:fe");
        assertThat(keys.followersImplicit(12)).isEqualTo("p:{v" + s + "}:u:12:ri");
        assertThat(keys.boardRegisters(12, 34)).isEqualTo("p:{v" + s + "}:u:12:rb:34");
        assertThat(keys.boardFollowers(12, 56)).isEqualTo("p:{v" + s + "}:b:56:f");
        assertThat(keys.boardUnfollowers(12, 56)).isEqualTo("p:{v" + s + "}:b:56:u");
        assertThat(keys.boardOwners(56)).isEqualTo("p:{v" + VirtualShards.of(56) + "}:owners");
    }

    @Test
    void aPrefixCannotCarryAHashTag() {
        assertThatThrownBy(() -> new GraphKeys("x{1}:")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void thePatternOfEverythingEscapesGlobCharacters() {
        assertThat(new GraphKeys("it:a*b:").everything()).isEqualTo("it:a\\*b:*");
        assertThat(new GraphKeys("").everything()).isEqualTo("*");
    }
}
