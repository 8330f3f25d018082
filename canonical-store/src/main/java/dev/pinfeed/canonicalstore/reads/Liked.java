package dev.pinfeed.canonicalstore.reads;

import java.time.Instant;

/** One side of a like: the other party's id (a liker, or a liked pin) and when the like happened. */
public record Liked(long id, Instant at) {}
