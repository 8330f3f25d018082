/**
 * Seed 002's smart feed worker: scores each (receiver, pin) of the fan-out for that receiver and
 * keeps it in his pools (feed-store), follows backfills, unfollows and deletes purges. The core
 * ({@link dev.pinfeed.feedworker.FeedWorker}, {@link dev.pinfeed.feedstore.scoring.Scorer}, in feed-store so feed-service
 * scores regenerated pools the same way) imports no client
 * library; its stores are ports ({@link dev.pinfeed.feedstore.PoolStore},
 * {@link dev.pinfeed.feedstore.MaterializedFeedStore}, {@link dev.pinfeed.followergraph.GraphStore},
 * {@link dev.pinfeed.feedworker.CanonicalPins}, {@link dev.pinfeed.feedworker.AffinityStore}) with
 * adapters in {@code .redis}, {@code .canonical} and the process in {@code .process}.
 */
package dev.pinfeed.feedworker;
