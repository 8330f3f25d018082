package dev.pinfeed.followergraph;

/**
 * How a user relates to another: {@code following} when he follows him explicitly or at least one
 * of his boards; {@code explicit} when he follows the user himself (and so all his boards).
 */
public record UserRelation(boolean following, boolean explicit) {

    public static final UserRelation NONE = new UserRelation(false, false);
    public static final UserRelation EXPLICIT = new UserRelation(true, true);
    public static final UserRelation IMPLICIT = new UserRelation(true, false);
}
