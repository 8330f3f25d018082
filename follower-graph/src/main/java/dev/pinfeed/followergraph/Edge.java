package dev.pinfeed.followergraph;

/**
 * One entry of a newest-first list: the other end's id, since when (epoch ms) and whether the
 * relation is explicit. Board lists are always explicit; for a user's own boards {@code since} is
 * the creation time.
 */
public record Edge(long id, long since, boolean explicit) {}
