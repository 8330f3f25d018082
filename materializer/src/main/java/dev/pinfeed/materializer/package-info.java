/**
 * The materializer: keeps the canonical store (objects and mappings in the logical MySQL shards, seeds
 * 000/002) in step with the users, boards, pins and likes topics, invalidates the caches the writes
 * make stale, and verifies the shards against the topics ({@code verify}).
 */
package dev.pinfeed.materializer;
