package dev.pinfeed.feedstore.scoring;

import dev.pinfeed.feedstore.Source;

/**
 * One (receiver, pin) to score, with the signals the worker gathered for it: why the pin reaches him
 * ({@code source}), his affinity to the pin's author and the pin's like count.
 */
public record Candidate(long receiverId, Source source, PinFacts pin, long affinity, long pinLikes) {}
