package dev.pinfeed.feedservice.homefeed;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.contentgenerator.PoolRegenerator;
import dev.pinfeed.contentgenerator.RegenerationSettings;
import java.time.Duration;

/**
 * How the home feed read path behaves.
 *
 * @param chunkSize          pins a chunk holds after a successful generation ({@code feed.chunk-size}, 25)
 * @param chunkMax           cap of the chunk size, which doubles after each failed or late generation ({@code feed.chunk-max}, 200)
 * @param generatorDeadline  how long a first page waits for the content generator ({@code feed.generator-deadline-ms}, 50)
 * @param journalDeadline    how long a first page waits for its chunk's journal write ({@code feed.journal-deadline-ms}, 1000):
 *                           past it the page is answered without the chunk, as when the write fails, instead of waiting
 *                           out the HBase client's timeouts on a cluster that has just died; a write that lands later
 *                           leaves a pending chunk, which the next read completes and shows
 * @param materializedMax    items a materialized feed keeps ({@code feed.materialized-max}, 1000)
 * @param activeDays         a user who has not read his feed for this many days was skipped by the fan-out and gets his
 *                           pools regenerated on return ({@code feed.active-days}; default {@code fanout.active-days}, 30; 0 = never)
 * @param regenFollowees     followed users, and followed boards, read when regenerating ({@code feed.regenerate.followees}, 200 each)
 * @param regenPinsEach      newest pins read per followed user or board ({@code feed.regenerate.pins-each}, 10)
 * @param poolMax            the worker's pool bound, kept by regeneration too ({@code feed.pool-max}, 500)
 * @param poolTrimTo         what a pool past {@code poolMax} is cut back to ({@code feed.pool-trim-to}, 90 % of the max)
 * @param lastReadResolution how far a first page that changes nothing else must be from the recorded last read to record
 *                           it again ({@code feed.last-read-resolution-ms}, 60 000): the readers of the last read count in days
 *                           (active receivers, returning users) or pull with a 10-minute overlap (celebrities), so a reader
 *                           paging his feed all day costs one state write a minute, not one per page
 */
public record HomeFeedSettings(int chunkSize, int chunkMax, Duration generatorDeadline, Duration journalDeadline, int materializedMax,
                               int activeDays, int regenFollowees, int regenPinsEach, int poolMax, int poolTrimTo,
                               Duration lastReadResolution) {

    public HomeFeedSettings {
        if (chunkSize < 1 || chunkMax < chunkSize) throw new IllegalArgumentException("need 1 <= feed.chunk-size <= feed.chunk-max: " + chunkSize + ", " + chunkMax);
        if (generatorDeadline.isNegative() || generatorDeadline.isZero()) throw new IllegalArgumentException("feed.generator-deadline-ms must be > 0");
        if (journalDeadline.isNegative() || journalDeadline.isZero()) throw new IllegalArgumentException("feed.journal-deadline-ms must be > 0");
        if (materializedMax < 1) throw new IllegalArgumentException("feed.materialized-max must be >= 1: " + materializedMax);
        if (activeDays < 0) throw new IllegalArgumentException("feed.active-days must be >= 0: " + activeDays);
        if (lastReadResolution.isNegative()) throw new IllegalArgumentException("feed.last-read-resolution-ms must be >= 0");
        new RegenerationSettings(regenFollowees, regenPinsEach, poolMax, poolTrimTo); // its checks
    }

    public static HomeFeedSettings defaults() {
        return new HomeFeedSettings(25, 200, Duration.ofMillis(50), Duration.ofMillis(1000), 1000, 30, 200, 10, 500, 450, Duration.ofMinutes(1));
    }

    public static HomeFeedSettings from(PinfeedConfig config) {
        HomeFeedSettings d = defaults();
        RegenerationSettings r = RegenerationSettings.from(config);
        return new HomeFeedSettings(config.getInt("feed.chunk-size", d.chunkSize()), config.getInt("feed.chunk-max", d.chunkMax()),
                Duration.ofMillis(config.getInt("feed.generator-deadline-ms", (int) d.generatorDeadline().toMillis())),
                Duration.ofMillis(config.getInt("feed.journal-deadline-ms", (int) d.journalDeadline().toMillis())),
                config.getInt("feed.materialized-max", d.materializedMax()),
                config.getInt("feed.active-days", config.getInt("fanout.active-days", d.activeDays())),
                r.followees(), r.pinsEach(), r.poolMax(), r.poolTrimTo(),
                Duration.ofMillis(config.getInt("feed.last-read-resolution-ms", (int) d.lastReadResolution().toMillis())));
    }

    /** What the {@link PoolRegenerator} of a returning user works with. */
    public RegenerationSettings regeneration() {
        return new RegenerationSettings(regenFollowees, regenPinsEach, poolMax, poolTrimTo);
    }

    /** The chunk size after a failed or late generation: seed 002's "as large as, or larger than, the last". */
    int grown(int size) {
        return Math.min(chunkMax, Math.max(chunkSize, size) * 2);
    }

    public HomeFeedSettings withGeneratorDeadline(Duration deadline) {
        return new HomeFeedSettings(chunkSize, chunkMax, deadline, journalDeadline, materializedMax, activeDays, regenFollowees, regenPinsEach,
                poolMax, poolTrimTo, lastReadResolution);
    }

    public HomeFeedSettings withJournalDeadline(Duration deadline) {
        return new HomeFeedSettings(chunkSize, chunkMax, generatorDeadline, deadline, materializedMax, activeDays, regenFollowees, regenPinsEach,
                poolMax, poolTrimTo, lastReadResolution);
    }

    public HomeFeedSettings withLastReadResolution(Duration resolution) {
        return new HomeFeedSettings(chunkSize, chunkMax, generatorDeadline, journalDeadline, materializedMax, activeDays, regenFollowees,
                regenPinsEach, poolMax, poolTrimTo, resolution);
    }
}
