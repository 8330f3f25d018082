package dev.pinfeed.httpkit;

/**
 * Handles one matched request. Throw {@link ProblemException} for an expected failure (it becomes that problem
 * document); any other exception becomes a 500 problem and is logged once at WARN with the route.
 */
@FunctionalInterface
public interface Handler {
    Response handle(Request request) throws Exception;
}
