package dev.pinfeed.graphprocessor;

import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.InvalidCommandException;
import dev.pinfeed.processorruntime.BatchHandler;
import dev.pinfeed.processorruntime.InputRecord;
import dev.pinfeed.processorruntime.RejectedRecordException;
import java.util.Optional;

/**
 * One record of the follows or boards topic applied to the graph. The graph's writes are idempotent
 * and order-free (newest version per edge wins), so the runtime's redelivery and parking are safe.
 * A record that is not a graph event, or breaks a rule, is refused (dead letter); a Redis outage
 * ({@link dev.pinfeed.config.StoreUnavailableException}) passes through, and the runtime parks the
 * record until that instance is back while records for healthy instances go on.
 */
public final class GraphEventHandler implements BatchHandler.RecordHandler {

    private final GraphStore graph;

    public GraphEventHandler(GraphStore graph) {
        this.graph = graph;
    }

    @Override
    public void apply(InputRecord record) {
        Optional<GraphCommand> command;
        try {
            command = GraphEvents.toCommand(record.event());
        } catch (GraphEvents.UnexpectedEventException e) {
            throw new RejectedRecordException(DeadLetters.UNEXPECTED_EVENT, e.getMessage());
        } catch (InvalidCommandException e) {
            throw new RejectedRecordException(DeadLetters.INVALID, e.getMessage());
        }
        if (command.isEmpty()) return; // shares a graph topic without changing the graph
        try {
            graph.apply(command.get());
        } catch (InvalidCommandException e) {
            throw new RejectedRecordException(DeadLetters.INVALID, e.getMessage());
        }
    }
}
