/** Stream processors: canonical objects into MySQL shards and the follower graph into Redis. Not built yet: see the open issues. */
package dev.pinfeed.fanoutstreams;
