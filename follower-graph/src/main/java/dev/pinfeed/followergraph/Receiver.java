package dev.pinfeed.followergraph;

/**
 * One receiver of a board's pins and why (seed 004): {@code viaOwner} when he follows the board's
 * owner (all his boards, and has not unfollowed this one), otherwise he follows the board itself.
 * Fan-out tags his pool entry with it ({@code followed_user} / {@code followed_board}).
 */
public record Receiver(long userId, boolean viaOwner) {}
