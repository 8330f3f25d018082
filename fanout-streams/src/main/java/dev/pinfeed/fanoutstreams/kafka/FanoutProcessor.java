package dev.pinfeed.fanoutstreams.kafka;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.events.FanoutAction;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.PinDeleted;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.fanoutstreams.FanoutJob;
import dev.pinfeed.fanoutstreams.FanoutSettings;
import dev.pinfeed.fanoutstreams.FanoutStatus;
import dev.pinfeed.fanoutstreams.FanoutStepper;
import dev.pinfeed.fanoutstreams.PageFetcher;
import dev.pinfeed.fanoutstreams.PoisonEventException;
import dev.pinfeed.processorruntime.DeadLetterWriter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fan-out on the Processor API, one instance per task (input partition).
 *
 * <p>{@link #process}: a PinCreated stores an ADD job for the pin; a PinDeleted stores a REMOVE job
 * (replacing an ADD still in progress: no ADD chunk follows the REMOVE ones, and the REMOVE walks
 * every current receiver, including those the ADD already reached). Anything else is poison for the
 * exception handler. Nothing is sent here.
 *
 * <p>{@link #turn}, every {@code fanout.punctuate-ms} of wall-clock time: up to
 * {@code fanout.steps-per-turn} steps (or {@code fanout.turn-max-ms}), at most one chunk per job in
 * turn, round-robin in pin-id order from where the last turn stopped, so a fan-out to millions never
 * holds back another author's pin by more than a turn. The graph and feed-store reads run ahead on the
 * fetch threads ({@link PageFetcher}); a step only takes the pages that are ready, so a turn never
 * blocks the stream thread on a store and new pins keep being read. Each step's chunk and the job's
 * new state (cursor, buffered receivers, next index) go into the same Kafka transaction: after a crash
 * the job resumes from the last committed step and no chunk is sent twice. A store outage ends the
 * turn and leaves the job as it was, for the next turn.
 */
final class FanoutProcessor implements Processor<String, SourceEvent, Object, Object> {

    static final String STORE = "fanout-jobs";
    static final String CHUNKS = "chunks";
    /** A pin's chunks after its first: {@link EventTopics#bulkLaneOf}. */
    static final String BULK_CHUNKS = "bulk-chunks";
    static final String DEAD_LETTERS = "dead-letters";

    private static final Logger LOG = LoggerFactory.getLogger(FanoutProcessor.class);

    /** What one step of a job came to. */
    private enum Visit { PROGRESS, WAITING, OUTAGE }

    private final FanoutStepper stepper;
    private final Executor fetchThreads;
    private final FanoutSettings settings;
    private final FanoutMetrics metrics;
    private final FanoutStatus status;
    private final Clock clock;
    private ProcessorContext<Object, Object> context;
    private KeyValueStore<Long, FanoutJob> jobs;
    private AtomicLong pending;
    private PageFetcher fetcher;
    /** The pin served last; the next turn starts after it. Not stored: after a restart the walk starts at the lowest id. */
    private Long position;
    private final IdleTurns idle = new IdleTurns(IdleTurns.CHECK_EVERY);

    FanoutProcessor(FanoutStepper stepper, Executor fetchThreads, FanoutSettings settings, FanoutMetrics metrics, FanoutStatus status,
                    Clock clock) {
        this.stepper = stepper;
        this.fetchThreads = fetchThreads;
        this.settings = settings;
        this.metrics = metrics;
        this.status = status;
        this.clock = clock;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        this.jobs = context.getStateStore(STORE);
        this.pending = metrics.track();
        this.fetcher = new PageFetcher(stepper, fetchThreads, settings.readAheadPages());
        long n = 0;
        try (KeyValueIterator<Long, FanoutJob> it = jobs.all()) { // the jobs restored for this task
            for (; it.hasNext(); it.next()) n++;
        }
        pending.set(n);
        context.schedule(settings.interval(), PunctuationType.WALL_CLOCK_TIME, now -> turn());
    }

    @Override
    public void process(Record<String, SourceEvent> record) {
        if (record.value() == null) throw new PoisonEventException(DeadLetters.UNDECODABLE, "empty value (tombstone) on the pins topic");
        SpecificRecord event = record.value().event();
        FanoutJob.Origin origin = origin(record);
        if (event instanceof PinCreated c) {
            FanoutJob existing = jobs.get(c.getPinId());
            if (existing != null) return; // a repeat of this ADD, or the pin is already being withdrawn
            long at = c.getOccurredAt().toEpochMilli();
            FanoutJob job = FanoutJob.start(FanoutAction.ADD, c.getEventId(), at, c.getPinId(), c.getBoardId(), c.getAuthorId(), at, origin);
            job = job.withInterests(c.getInterestIds());
            jobs.put(c.getPinId(), c.getParentPinId() == null ? job : job.ofRepin(c.getParentPinId()));
            pending.incrementAndGet();
        } else if (event instanceof PinDeleted d) {
            FanoutJob existing = jobs.get(d.getPinId());
            if (existing != null && existing.action() == FanoutAction.REMOVE) return; // a repeat
            fetcher.forget(d.getPinId());
            // The creation time is known only while its ADD is pending; 0 = unknown (REMOVE does not use it).
            long createdAt = existing != null ? existing.pinCreatedAt() : 0L;
            // Its interests' followers are told too: those the delete names, else those of the ADD it replaces.
            List<Long> interests = !d.getInterestIds().isEmpty() ? d.getInterestIds() : existing != null ? existing.interestIds() : List.of();
            jobs.put(d.getPinId(), FanoutJob.start(FanoutAction.REMOVE, d.getEventId(), d.getOccurredAt().toEpochMilli(), d.getPinId(),
                    d.getBoardId(), d.getAuthorId(), createdAt, origin).withInterests(interests));
            if (existing == null) pending.incrementAndGet();
        } else {
            throw new PoisonEventException(DeadLetters.UNEXPECTED_EVENT, event.getSchema().getFullName() + " is not a pin event");
        }
    }

    private FanoutJob.Origin origin(Record<String, SourceEvent> record) {
        RecordMetadata m = context.recordMetadata().orElse(null);
        byte[] key = record.key() == null ? null : record.key().getBytes(StandardCharsets.UTF_8);
        List<FanoutJob.Header> headers = new ArrayList<>();
        for (Header h : record.headers()) headers.add(new FanoutJob.Header(h.key(), h.value()));
        return m == null ? new FanoutJob.Origin("", -1, -1, key, record.value().raw(), headers)
                : new FanoutJob.Origin(m.topic(), m.partition(), m.offset(), key, record.value().raw(), headers);
    }

    /** One punctuation: round-robin steps over the pending jobs within the turn's budget. */
    void turn() {
        if (!idle.scan(pending.get())) return;
        long started = clock.millis();
        int budget = settings.stepsPerTurn();
        while (budget > 0) {
            List<Long> next = nextPins(budget);
            if (next.isEmpty()) return;
            boolean progress = false;
            for (Long pin : next) {
                if (budget == 0 || clock.millis() - started >= settings.turnMaxMillis()) return;
                position = pin;
                FanoutJob job = jobs.get(pin);
                if (job == null) continue;
                Visit v = step(job);
                if (v == Visit.OUTAGE) return;
                if (v == Visit.PROGRESS) {
                    budget--;
                    progress = true;
                }
            }
            if (!progress) return; // every job waits for its page: the next turn takes them
        }
    }

    /** Up to {@code n} pins with jobs, in id order from just after {@link #position}, wrapping around. */
    private List<Long> nextPins(int n) {
        List<Long> out = new ArrayList<>(n);
        if (position != null && position < Long.MAX_VALUE) {
            try (KeyValueIterator<Long, FanoutJob> it = jobs.range(position + 1, Long.MAX_VALUE)) {
                while (out.size() < n && it.hasNext()) out.add(it.next().key);
            }
        }
        try (KeyValueIterator<Long, FanoutJob> it = jobs.all()) {
            while (out.size() < n && it.hasNext()) {
                KeyValue<Long, FanoutJob> kv = it.next();
                if (position != null && kv.key > position) break;
                out.add(kv.key);
            }
        }
        return out;
    }

    /**
     * One step of {@code job}: the pages read for it so far (up to {@code fanout.reads-per-step}), then
     * one chunk if it holds one. WAITING when its page is still being read; OUTAGE when a store is
     * down (the turn ends; what was absorbed stays, the rest is read again).
     */
    private Visit step(FanoutJob job) {
        FanoutJob current = job;
        boolean absorbed = false;
        try {
            for (int pages = 0; stepper.needsPage(current) && pages < settings.readsPerStep(); pages++) {
                FanoutStepper.PageRead page = fetcher.poll(current);
                if (page == null) break;
                current = stepper.absorb(current, page);
                metrics.skipped(page.skippedInactive());
                metrics.lastReadsLookedUp(page.lastReadsLookedUp());
                absorbed = true;
            }
        } catch (StoreUnavailableException e) {
            status.outage(e.store(), e.getMessage());
            LOG.debug("fan-out of pin {} waits for {}: {}", job.pinId(), e.store(), e.getMessage());
            if (absorbed) jobs.put(job.pinId(), current);
            return Visit.OUTAGE;
        } catch (RuntimeException e) {
            failed(job, e);
            return Visit.PROGRESS;
        }
        if (stepper.needsPage(current)) {
            // No full chunk yet (its page is on its way, or inactive receivers thinned the pages out).
            if (absorbed) jobs.put(job.pinId(), current);
            fetcher.request(current);
            return absorbed ? Visit.PROGRESS : Visit.WAITING;
        }
        FanoutStepper.Step step = stepper.cut(current);
        if (step.chunk() != null) {
            context.forward(new Record<>(EventTopics.partitionKey(step.chunk()), step.chunk(), clock.millis()),
                    step.chunk().getChunkIndex() == 0 ? CHUNKS : BULK_CHUNKS);
            metrics.chunk(step.chunk());
        }
        if (step.next() == null) {
            done(job);
        } else {
            jobs.put(job.pinId(), step.next());
            if (stepper.needsPage(step.next())) fetcher.request(step.next()); // read ahead for the next turn
        }
        return Visit.PROGRESS;
    }

    /**
     * A step failed with an unexpected error (a bug, or data the graph cannot page through): retried on
     * the next turns, then the pin event goes to the dead-letter topic as it was read and the job is
     * dropped, so one bad pin cannot stall the others. Chunks already sent stay sent.
     */
    private void failed(FanoutJob job, RuntimeException e) {
        FanoutJob again = job.failedOnce();
        if (again.failures() < settings.bugAttempts()) {
            LOG.warn("fan-out of pin {} failed ({} of {} attempts): {}", job.pinId(), again.failures(), settings.bugAttempts(), e.toString());
            jobs.put(job.pinId(), again);
            return;
        }
        LOG.error("fan-out of pin {} failed {} times; dead-lettering its event after {} chunks", job.pinId(), again.failures(),
                job.nextChunkIndex(), e);
        FanoutJob.Origin o = job.origin();
        String error = job.action() + " fan-out stopped after chunk " + (job.nextChunkIndex() - 1) + ": " + e;
        context.forward(new Record<>(o.key(), o.value(), clock.millis(),
                DeadLetterWriter.headers(originalHeaders(o), DeadLetters.PROCESSING_ERROR, error, o.topic(), o.partition(), o.offset(),
                        settings.applicationId())), DEAD_LETTERS);
        metrics.deadLettered(DeadLetters.PROCESSING_ERROR);
        done(job);
    }

    private static RecordHeaders originalHeaders(FanoutJob.Origin origin) {
        RecordHeaders headers = new RecordHeaders();
        for (FanoutJob.Header h : origin.headers()) headers.add(h.name(), h.value());
        return headers;
    }

    private void done(FanoutJob job) {
        jobs.delete(job.pinId());
        fetcher.forget(job.pinId());
        pending.decrementAndGet();
    }

    @Override
    public void close() {
        if (fetcher != null) fetcher.close();
        if (pending != null) metrics.untrack(pending);
    }
}
