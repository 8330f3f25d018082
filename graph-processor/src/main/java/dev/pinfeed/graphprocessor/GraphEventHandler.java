package dev.pinfeed.graphprocessor;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.followergraph.CommandOutcome;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.InvalidCommandException;
import dev.pinfeed.processorruntime.BatchHandler;
import dev.pinfeed.processorruntime.InputRecord;
import dev.pinfeed.processorruntime.Outcomes;
import dev.pinfeed.processorruntime.RejectedRecordException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The records of the follows and boards topics applied to the graph. A poll's records become commands
 * applied as one batch ({@link GraphStore#applyAll}: pipelined per Redis instance, in record order). The
 * graph's writes are idempotent and order-free (newest version per edge wins), so the runtime's
 * redelivery and parking are safe. A record that is not a graph event, or breaks a rule, is refused
 * (dead letter); a record whose writes meet a Redis outage ({@link StoreUnavailableException}) is
 * marked unavailable, and the runtime parks it until that instance is back while the records for
 * healthy instances go on — per record, exactly as if each were applied alone.
 */
public final class GraphEventHandler implements BatchHandler, BatchHandler.RecordHandler {

    private final GraphStore graph;

    public GraphEventHandler(GraphStore graph) {
        this.graph = graph;
    }

    @Override
    public void apply(List<InputRecord> records, Outcomes outcomes) {
        List<InputRecord> applying = new ArrayList<>(records.size());
        List<GraphCommand> commands = new ArrayList<>(records.size());
        for (InputRecord r : records) {
            try {
                command(r).ifPresent(c -> {
                    applying.add(r);
                    commands.add(c);
                });
            } catch (RejectedRecordException e) {
                outcomes.reject(r, e.reason(), e.getMessage());
            }
        }
        if (commands.isEmpty()) return;
        List<CommandOutcome> done = graph.applyAll(commands);
        for (int i = 0; i < done.size(); i++) {
            CommandOutcome o = done.get(i);
            if (o.failure() instanceof InvalidCommandException e) outcomes.reject(applying.get(i), DeadLetters.INVALID, e.getMessage());
            else if (o.failure() instanceof StoreUnavailableException e) outcomes.unavailable(applying.get(i), e);
        }
    }

    /** One record alone (a replay's): throws {@link RejectedRecordException} for what the batch dead-letters. */
    @Override
    public void apply(InputRecord record) {
        Optional<GraphCommand> command = command(record);
        if (command.isEmpty()) return;
        try {
            graph.apply(command.get());
        } catch (InvalidCommandException e) {
            throw new RejectedRecordException(DeadLetters.INVALID, e.getMessage());
        }
    }

    /** The record's command; empty for an event that shares a graph topic without changing the graph. */
    private static Optional<GraphCommand> command(InputRecord record) {
        try {
            return GraphEvents.toCommand(record.event());
        } catch (GraphEvents.UnexpectedEventException e) {
            throw new RejectedRecordException(DeadLetters.UNEXPECTED_EVENT, e.getMessage());
        } catch (InvalidCommandException e) {
            throw new RejectedRecordException(DeadLetters.INVALID, e.getMessage());
        }
    }
}
