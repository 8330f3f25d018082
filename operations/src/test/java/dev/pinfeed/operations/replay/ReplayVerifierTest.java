package dev.pinfeed.operations.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReplayVerifierTest {
    private final ReplayView graph = new ReplayView("graph", "graph-processor",
            List.of(new ReplayView.Group("pinfeed-follower-graph", List.of("pinfeed.follows.v1"))), Optional.empty(), Optional.empty(),
            List.of("graph"));
    private final List<String> said = new ArrayList<>();
    private final List<List<String>> ran = new ArrayList<>();

    @Test
    void differences_after_a_replay_name_the_repair() {
        Replay.Verifier differs = args -> { ran.add(args); return 1; };
        assertThat(differs.afterReplay(graph, said::add)).isEqualTo(1);
        assertThat(ran).containsExactly(List.of("graph"));
        assertThat(said).containsExactly("verifying: ./pinfeed verify graph",
                "the replay left the differences above; ./pinfeed verify graph --repair writes their fix");
    }

    @Test
    void a_clean_verify_or_a_failed_one_names_no_repair() {
        Replay.Verifier clean = args -> 0;
        Replay.Verifier broken = args -> 2;
        assertThat(clean.afterReplay(graph, said::add)).isZero();
        assertThat(broken.afterReplay(graph, said::add)).isEqualTo(2);
        assertThat(said).containsOnly("verifying: ./pinfeed verify graph");
    }
}
