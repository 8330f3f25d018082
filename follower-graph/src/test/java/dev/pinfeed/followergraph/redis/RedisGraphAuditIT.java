package dev.pinfeed.followergraph.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.followergraph.GraphScenarios;
import dev.pinfeed.followergraph.GraphScenarios.Scenario;
import dev.pinfeed.followergraph.audit.GraphAudit;
import dev.pinfeed.followergraph.audit.GraphDamage;
import dev.pinfeed.followergraph.audit.GraphOracle;
import dev.pinfeed.followergraph.audit.KeyDifference;
import dev.pinfeed.followergraph.sharded.GraphBackend.KeyFix;
import dev.pinfeed.followergraph.sharded.GraphBackend.MemberFix;
import dev.pinfeed.followergraph.sharded.GraphBackend.Stored;
import dev.pinfeed.followergraph.sharded.GraphKeyspace;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The audit's port on real Redis: SCAN with the prefix's pattern, pipelined whole-key reads (TYPE and the
 * read of the expected type), the pair-repair and key-fix scripts. The same damage property as the
 * in-memory {@code GraphAuditTest}, fewer tries, each on a fresh key prefix over both instances.
 */
@ExtendWith(StackExtension.class)
class RedisGraphAuditIT {

    private final TestStack stack;
    private final RedisShardMap shards;

    RedisGraphAuditIT(TestStack stack) {
        this.stack = stack;
        this.shards = RedisShards.defaultShardMap(stack.config());
    }

    private RedisGraphStore fresh() {
        return RedisGraphStore.connect(stack.config(), () -> shards, stack.keyPrefix("graph-audit"));
    }

    @Test
    void anyDamageIsFoundAndRepairedToTheModel() {
        Random seeds = new Random();
        for (int i = 0; i < 8; i++) {
            Scenario scenario = GraphScenarios.scenarios(30, 60).sample();
            try (RedisGraphStore store = fresh()) {
                GraphDamage.findAndRepair(store, scenario, seeds.nextLong());
            }
        }
    }

    @Test
    void readsWholeKeysAndTheirTypeAndFixesOnlyWhatStillHoldsWhatWasRead() {
        try (RedisGraphStore store = fresh()) {
            GraphKeyspace ks = store.keyspace();
            String zset = ks.keys().followingExplicit(42);
            String hash = ks.keys().userRegisters(42);
            String instance = ks.instanceOf(ks.keys().parse(zset).orElseThrow().shard());
            ks.fixKey(instance, new KeyFix(zset, "zset", null, List.of(new MemberFix("7", null, "1767225600001"), new MemberFix("8", null, "3"))));
            ks.fixKey(instance, new KeyFix(hash, "zset", null, List.of(new MemberFix("9", null, "5")))); // a hash key made a zset

            Map<String, Stored> read = ks.read(instance, List.of(zset, hash, ks.keys().followingImplicit(42)));
            assertThat(read.get(zset)).isEqualTo(Stored.of("zset", Map.of("7", "1767225600001", "8", "3")));
            assertThat(read.get(hash).type()).isEqualTo("zset");
            assertThat(read.get(hash).entries()).as("a key of another type than its kind's is read as such, without content").isEmpty();
            assertThat(read.get(ks.keys().followingImplicit(42))).isEqualTo(Stored.ABSENT);

            assertThat(ks.fixKey(instance, new KeyFix(zset, "zset", null, List.of(new MemberFix("7", "1767225600000", null)))))
                    .as("the score changed since the read").isZero();
            assertThat(ks.fixKey(instance, new KeyFix(zset, "zset", null, List.of(new MemberFix("7", "1767225600001", null))))).isOne();
            assertThat(ks.fixKey(instance, new KeyFix(hash, "hash", "set", List.of()))).as("not a set").isEqualTo(-1);
            assertThat(ks.fixKey(instance, new KeyFix(hash, "hash", "zset", List.of(new MemberFix("42", null, "x"))))).isOne();
            assertThat(ks.read(instance, List.of(hash)).get(hash)).isEqualTo(Stored.of("hash", Map.of("42", "x")));

            GraphAudit audit = new GraphAudit(new GraphOracle(ks.keys().prefix()), ks);
            assertThat(audit.scan(new GraphAudit.Listener() {}).keys()).extracting(KeyDifference::key, KeyDifference::shape)
                    .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(zset, KeyDifference.Shape.EXTRA),
                            org.assertj.core.groups.Tuple.tuple(hash, KeyDifference.Shape.EXTRA));
        }
    }
}
