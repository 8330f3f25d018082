package dev.pinfeed.feedstore.scoring;

/**
 * Seed 002: the worker assigns each pin "some score proportional to their quality or value to the
 * receiving user"; the pools keep them best first. Implementations must return a finite score
 * {@code >= 0} (higher is better) and be cheap: it runs once per (receiver, pin).
 */
@FunctionalInterface
public interface Scorer {

    double score(Candidate candidate);
}
