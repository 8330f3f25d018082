package dev.pinfeed.followergraph.audit;

/**
 * A pair whose sequence bookkeeping breaks the write protocol's invariant: at rest, the register sequence
 * ({@code pv} field O of the follower), the sequence applied on the follower's side ({@code pv} field
 * {@code O:m}) and on the followee's side ({@code rv} field F of the owner) are one number, present exactly
 * when the pair has registers. A followee side ahead of the register sequence (the follower's instance lost
 * its keys) would make the guard skip every later change of the pair there. Values as stored (null =
 * absent); {@code registered}: the events give the pair registers.
 */
public record SequenceDifference(long follower, long owner, boolean registered, String registerSeq, String followerApplied,
                                 String followeeApplied, String followerInstance, String followeeInstance) {}
