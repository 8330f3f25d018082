package dev.pinfeed.httpkit;

import java.util.Objects;

/** Thrown by handlers (and the pipeline) to answer with a {@link Problem}. Carries no stack trace: it is control flow. */
public final class ProblemException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient Problem problem;

    public ProblemException(Problem problem) {
        this(problem, null);
    }

    public ProblemException(Problem problem, Throwable cause) {
        super(message(problem), cause, false, false);
        this.problem = problem;
    }

    public Problem problem() {
        return problem;
    }

    private static String message(Problem problem) {
        Objects.requireNonNull(problem, "problem");
        return problem.status() + " " + problem.title() + (problem.detail() == null ? "" : ": " + problem.detail());
    }
}
