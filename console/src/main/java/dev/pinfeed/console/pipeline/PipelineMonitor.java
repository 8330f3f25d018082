package dev.pinfeed.console.pipeline;

/**
 * The pipeline's live state as the console's pipeline page shows it ({@code GET /api/pipeline}): sampled in
 * the background, so the lag history exists before anyone looks.
 */
public interface PipelineMonitor extends AutoCloseable {

    /** The latest sample, a JSON-serializable tree (the shape of {@code GET /api/pipeline}). */
    Object snapshot();

    @Override
    void close();
}
