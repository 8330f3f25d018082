package dev.pinfeed.operations.feed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalSeed;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The canonical store's users in id order, as {@code feed rebuild --all [--after ID]} walks them, on the shared MySQL shards. */
@ExtendWith(StackExtension.class)
class CanonicalUserIdsIT {

    @Test
    void usersComeInAscendingIdOrderAndAPageResumesExactlyAfterItsLastUser(TestStack stack) throws Exception {
        try (ShardDataSources sources = ShardDataSources.from(stack.config(), "ops-user-ids-it", 2); ShardedDb db = new ShardedDb(sources)) {
            MysqlCanonicalSeed seed = new MysqlCanonicalSeed(db, (id, keys) -> {});
            List<Long> fresh = new ArrayList<>();
            int shard = 100 + (int) (stack.freshId() % 3000);
            for (int i = 0; i < 3; i++) {
                long local = stack.freshId() & 0xF_FFFF_FFFFL; // the newest local id of its shard
                long id = ShardedId.compose(shard + i, ObjectType.USER, local);
                seed.user(id, "uid" + Long.toString(local, 36), null, System.currentTimeMillis());
                fresh.add(id);
            }
            CanonicalUserIds users = new CanonicalUserIds(db);
            assertThat(users.after(fresh.get(0) - 1, 1)).as("the user right after a smaller id of his shard").containsExactly(fresh.get(0));

            List<Long> page = users.after(fresh.get(0), 50);
            assertThat(page).isSorted().allMatch(id -> id > fresh.get(0));
            List<Long> walked = new ArrayList<>();
            long cursor = fresh.get(0);
            while (walked.size() < page.size()) {
                List<Long> next = users.after(cursor, 7);
                if (next.isEmpty()) break;
                walked.addAll(next);
                cursor = next.get(next.size() - 1);
            }
            assertThat(walked.subList(0, page.size())).as("pages of 7 resumed after their last user walk the same users").isEqualTo(page);
            assertThat(users.after(fresh.get(1) - 1, 1)).containsExactly(fresh.get(1));
            assertThat(users.count()).isGreaterThanOrEqualTo(3);
        }
    }
}
