package dev.pinfeed.followergraph;

/**
 * One receiver of a pin and why (seed 004): {@code viaOwner} when he follows the board's
 * owner (all his boards, and has not unfollowed this one), otherwise he follows the board itself;
 * {@code viaInterest} when he receives it as a follower of an interest the pin carries (then {@code viaOwner} is false).
 * Fan-out tags his pool entry with it ({@code followed_user} / {@code followed_board} / {@code interests}).
 */
public record Receiver(long userId, boolean viaOwner, boolean viaInterest) {

    /** A receiver of a board's pins. */
    public Receiver(long userId, boolean viaOwner) {
        this(userId, viaOwner, false);
    }

    public Receiver {
        if (viaOwner && viaInterest) throw new IllegalArgumentException("receiver " + userId + " cannot be both via the owner and via an interest");
    }

    /** A follower of an interest the pin carries. */
    public static Receiver ofInterest(long userId) {
        return new Receiver(userId, false, true);
    }
}
