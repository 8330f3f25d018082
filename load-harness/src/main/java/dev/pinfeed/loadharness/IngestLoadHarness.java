package dev.pinfeed.loadharness;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.httpkit.Principal;
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.ingestapi.IngestApiServer;
import dev.pinfeed.ingestapi.IngestComponents;
import dev.pinfeed.ingestapi.http.TokenAuthenticator;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * Benchmark of ingest-api's batch write path against the bare Kafka producer, in one run on one box.
 * Starts ingest-api in-process on an ephemeral port against fresh topics of the local stack, creates
 * users, boards and pins through its API, then measures:
 * <ol>
 *   <li>raw: a bare producer with ingest's settings sending pre-serialized Avro events (records/s acked);</li>
 *   <li>peak: {@code --clients} closed-loop connections POSTing /v1/events batches of {@code --batch};</li>
 *   <li>half peak: an open loop at 50 % of the measured peak, latency from each request's due time;</li>
 *   <li>single: {@code --clients} closed-loop connections of PUT/DELETE /v1/users/{u}/likes/{p}.</li>
 * </ol>
 * Prints a markdown table and a one-line JSON summary on stdout, progress on stderr. Exits 1 when
 * any request was not answered 202 or any event was rejected.
 */
public final class IngestLoadHarness {

    static final int USERS = 50;
    static final int BOARDS = 100;
    static final int PINS = 200;
    static final int BODY_POOL = 256;
    static final double HALF_PEAK_GOAL_P99_MS = 20;
    static final double RATIO_GOAL = 0.25;

    private IngestLoadHarness() {}

    public static void main(String[] args) {
        System.exit(Options.execute(System.out, System.err, IngestLoadHarness::run, args));
    }

    static int run(Options o) throws Exception {
        PinfeedConfig config = StackConfig.load();
        String runId = "lh" + Long.toString(System.currentTimeMillis(), 36);
        Instant startedAt = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        log("run " + runId + " (pid " + ProcessHandle.current().pid() + "), config " + config.source() + ", " + o);

        Map<String, String> overrides = new LinkedHashMap<>();
        for (String standard : List.of(EventTopics.USERS, EventTopics.BOARDS, EventTopics.PINS, EventTopics.FOLLOWS, EventTopics.LIKES)) {
            overrides.put(standard, runId + "-" + standard.replace("pinfeed.", "").replace(".v1", ""));
        }
        String rawLikes = runId + "-raw-likes";
        String rawPins = runId + "-raw-pins";
        List<String> topics = new ArrayList<>(overrides.values());
        topics.add(rawLikes);
        topics.add(rawPins);

        Report report = new Report();
        List<String> failureNotes = new ArrayList<>();
        Map<String, Object> extra = new LinkedHashMap<>();
        try (Admin admin = Admin.create(dev.pinfeed.processorruntime.KafkaClients.admin(config))) {
            admin.createTopics(topics.stream().map(t -> new NewTopic(t, 3, (short) 1)).toList()).all().get(30, TimeUnit.SECONDS);
            log("created " + topics.size() + " fresh topics (3 partitions, RF 1): " + runId + "-*");
            try {
                measure(o, config, runId, overrides, rawLikes, rawPins, report, failureNotes, extra);
            } finally {
                if (!o.keepTopics()) {
                    try {
                        admin.deleteTopics(topics).all().get(30, TimeUnit.SECONDS);
                        log("deleted the run's topics");
                    } catch (Exception e) {
                        log("could not delete the run's topics " + runId + "-*: " + e);
                    }
                }
            }
        }

        Report.Phase raw = report.phase("raw");
        Report.Phase peak = report.phase("peak");
        Report.Phase half = report.phase("halfPeak");
        double ratio = raw == null || peak == null ? Double.NaN : Report.ratio(peak.rate(), raw.rate());
        long failures = report.phases().stream().mapToLong(Report.Phase::failures).sum();

        System.out.println();
        System.out.println("## ingest-api load harness — " + startedAt + " — batch " + o.batch() + ", clients " + o.clients()
                + ", " + o.durationS() + " s per phase after " + o.warmupS() + " s warm-up, " + o.createPercent() + " % PinCreated");
        System.out.println();
        System.out.println("Machine: " + Runtime.getRuntime().availableProcessors() + " CPUs, Java " + System.getProperty("java.version")
                + " (" + System.getProperty("java.vm.name") + "), max heap " + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB, "
                + "sun.net.httpserver.nodelay=" + System.getProperty("sun.net.httpserver.nodelay", "false (JDK default)")
                + "; CPU split over " + CpuMeter.stackProcesses() + " stack processes");
        System.out.println();
        System.out.print(report.markdownTable("raw"));
        System.out.println();
        System.out.println("HTTP peak / raw = " + Report.fmt2(ratio) + " (goal >= " + RATIO_GOAL + ": " + verdict(ratio >= RATIO_GOAL) + ");"
                + " half-peak p99 = " + (half == null ? "—" : Report.ms(half.latency().p99Ms()) + " ms") + " (goal <= "
                + (int) HALF_PEAK_GOAL_P99_MS + " ms: " + verdict(half != null && half.latency().p99Ms() <= HALF_PEAK_GOAL_P99_MS) + ")");
        if (failures > 0) {
            System.out.println();
            System.out.println("FAILURES: " + failures + " events or requests not accepted. First ones:");
            failureNotes.forEach(n -> System.out.println("  " + n));
        }
        Map<String, Object> header = new LinkedHashMap<>();
        header.put("date", startedAt.toString());
        header.put("run", runId);
        header.put("batch", o.batch());
        header.put("clients", o.clients());
        header.put("createPercent", o.createPercent());
        header.put("durationS", o.durationS());
        header.put("warmupS", o.warmupS());
        header.put("openThreads", o.openThreads());
        header.put("cpus", Runtime.getRuntime().availableProcessors());
        header.put("java", System.getProperty("java.version"));
        header.put("serverNoDelay", Boolean.parseBoolean(System.getProperty("sun.net.httpserver.nodelay", "false")));
        header.put("peakToRaw", Report.round(ratio, 3));
        header.put("goalRatioMet", ratio >= RATIO_GOAL);
        header.put("goalHalfPeakP99Met", half != null && half.latency().p99Ms() <= HALF_PEAK_GOAL_P99_MS);
        header.put("failures", failures);
        header.putAll(extra);
        System.out.println();
        System.out.println(new ObjectMapper().writeValueAsString(report.summary(header, "raw")));
        return failures == 0 ? 0 : 1;
    }

    private static void measure(Options o, PinfeedConfig config, String runId, Map<String, String> overrides, String rawLikes,
                                String rawPins, Report report, List<String> failureNotes, Map<String, Object> extra) throws Exception {
        long warmup = TimeUnit.SECONDS.toNanos(o.warmupS());
        long measure = TimeUnit.SECONDS.toNanos(o.durationS());
        String token = "load-" + UUID.randomUUID();
        TokenAuthenticator tokens = new TokenAuthenticator(Map.of(TokenAuthenticator.sha256Hex(token), new Principal("bench", Set.of("*"))));
        IngestComponents components = null;
        RunningHttpApp running = null;
        try {
            IngestHttp http;
            if (o.url() == null) {
                components = new IngestComponents(config, overrides, "pinfeed-load:" + runId + ":", new Properties());
                running = IngestApiServer.app(config, components, tokens).start("127.0.0.1", 0);
                log("ingest-api in-process at " + running.baseUri());
                http = new IngestHttp(running.baseUri(), token);
            } else {
                log("ingest-api in its own JVM at " + o.url() + " (publishing to the standard topics)");
                http = new IngestHttp(java.net.URI.create(o.url()), o.token());
            }

            // 1. Setup: the objects every event refers to.
            long t0 = System.nanoTime();
            Workload w = setup(http, runId).withCreatePercent(o.createPercent());
            log(String.format("setup: %d users, %d boards, %d pins in %.1f s", USERS, BOARDS, PINS, (System.nanoTime() - t0) / 1e9));

            // 2. Raw producer baseline.
            settle();
            log("raw: bare KafkaProducer, " + o.warmupS() + " s warm-up + " + o.durationS() + " s");
            RawBaseline.Outcome raw = RawBaseline.run(config, w, overrides.get(EventTopics.LIKES), overrides.get(EventTopics.PINS),
                    rawLikes, rawPins, warmup, measure);
            if (raw.firstError() != null) failureNotes.add("raw producer: " + raw.firstError());
            report.add(new Report.Phase("raw", "raw KafkaProducer, pre-serialized Avro", "records",
                    Report.perSecond(raw.acked(), raw.measuredNanos()), Report.Latency.NONE, 0, raw.errors(),
                    CpuMeter.between(raw.cpuFrom(), raw.cpuTo()),
                    "≤ " + RawBaseline.MAX_OUTSTANDING / 1000 + "k outstanding, " + raw.likeBytes() + "/" + raw.createBytes() + " B like/create"));
            extra.put("avroBytesLike", raw.likeBytes());
            extra.put("avroBytesCreate", raw.createBytes());
            log(String.format("raw: %.0f records/s", report.phase("raw").rate()));

            // 3. Peak over HTTP, closed loop.
            SplittableRandom bodies = new SplittableRandom(42);
            List<byte[]> pool = new ArrayList<>(BODY_POOL);
            for (int i = 0; i < BODY_POOL; i++) pool.add(w.eventsBody(bodies, o.batch()));
            extra.put("avgBatchBodyBytes", pool.stream().mapToInt(b -> b.length).sum() / pool.size());
            settle();
            log("peak: " + o.clients() + " clients x " + o.batch() + " events, " + o.warmupS() + " s warm-up + " + o.durationS() + " s");
            LoadLoops.Outcome peak = LoadLoops.closedLoop(o.clients(), warmup, measure, 1,
                    r -> http.postEvents(pool.get(r.nextInt(pool.size())), o.batch()));
            double peakRate = Report.perSecond(peak.acceptedEvents(), peak.measuredNanos());
            report.add(phase("peak", "HTTP peak, closed loop", "events", peakRate, peak,
                    o.clients() + " conns × " + o.batch() + " events; 1-s min–max " + Report.thousands(peak.minPerSecond()) + "–"
                            + Report.thousands(peak.maxPerSecond())));
            collect(http, "peak", failureNotes);
            log(String.format("peak: %.0f events/s accepted", peakRate));

            // 4. Half peak, open loop.
            double targetEvents = peakRate / 2;
            double requestsPerSecond = targetEvents / o.batch();
            if (requestsPerSecond > 0) {
                settle();
                log(String.format("half peak: open loop at %.1f requests/s (%.0f events/s), %d threads", requestsPerSecond, targetEvents,
                        o.openThreads()));
                LoadLoops.Outcome half = LoadLoops.openLoop(o.openThreads(), requestsPerSecond, warmup, measure, 2,
                        r -> http.postEvents(pool.get(r.nextInt(pool.size())), o.batch()));
                double halfRate = Report.perSecond(half.acceptedEvents(), half.measuredNanos());
                report.add(phase("halfPeak", "HTTP half peak, open loop", "events", halfRate, half,
                        "target " + Report.thousands(targetEvents) + " ev/s = " + Report.fmt2(requestsPerSecond) + " req/s; "
                                + half.lateStarts() + " sent > 1 ms late"));
                extra.put("halfPeakTargetEventsPerSec", Report.round(targetEvents, 1));
                collect(http, "half peak", failureNotes);
                log(String.format("half peak: %.0f events/s, p99 %.1f ms", halfRate, report.phase("halfPeak").latency().p99Ms()));
            }

            // 5. Single-event requests, closed loop.
            settle();
            long singleMeasure = TimeUnit.SECONDS.toNanos(o.singleDurationS());
            log("single: " + o.clients() + " clients PUT/DELETE likes, " + o.warmupS() + " s warm-up + " + o.singleDurationS() + " s");
            LoadLoops.Outcome single = LoadLoops.closedLoop(o.clients(), warmup, singleMeasure, 3,
                    r -> http.change(r.nextBoolean() ? "PUT" : "DELETE", "/v1/users/" + w.randomUser(r) + "/likes/" + w.randomPin(r)));
            report.add(phase("single", "single-event PUT/DELETE likes, closed loop", "requests",
                    Report.perSecond(single.requests(), single.measuredNanos()), single, o.clients() + " conns"));
            collect(http, "single", failureNotes);
            log(String.format("single: %.0f requests/s", report.phase("single").rate()));
        } finally {
            if (running != null) running.close();
            if (components != null) components.close();
        }
    }

    private static Report.Phase phase(String key, String name, String unit, double rate, LoadLoops.Outcome out, String note) {
        return new Report.Phase(key, name, unit, rate, Report.Latency.ofMicros(out.latencyMicros()), out.requests(), out.failures(),
                CpuMeter.between(out.cpuFrom(), out.cpuTo()), note);
    }

    private static void collect(IngestHttp http, String phase, List<String> notes) {
        for (String s : http.drainFailureSamples()) notes.add(phase + ": " + s);
    }

    /** Users, then boards owned round-robin, then pins on the boards by their owners, all through the API. */
    static Workload setup(IngestHttp http, String runId) {
        List<Long> users = new ArrayList<>();
        for (int i = 0; i < USERS; i++) {
            users.add(http.create("/v1/users", "{\"username\":\"" + runId + "_" + i + "\",\"displayName\":\"Load user " + i + "\"}"));
        }
        List<Workload.Board> boards = new ArrayList<>();
        for (int i = 0; i < BOARDS; i++) {
            long owner = users.get(i % users.size());
            long id = http.create("/v1/boards", "{\"ownerId\":\"" + owner + "\",\"name\":\"Board " + i + "\",\"description\":\"load harness\"}");
            boards.add(new Workload.Board(id, owner));
        }
        List<Long> pins = new ArrayList<>();
        for (int i = 0; i < PINS; i++) {
            Workload.Board b = boards.get(i % boards.size());
            pins.add(http.create("/v1/pins", "{\"boardId\":\"" + b.id() + "\",\"authorId\":\"" + b.ownerId() + "\",\"details\":\""
                    + Workload.DETAILS + "\",\"link\":\"" + Workload.LINK + "\",\"imageUrl\":\"" + Workload.IMAGE_URL + "\"}"));
        }
        return new Workload(users, boards, pins);
    }

    /**
     * Lets the box settle between phases: writes back dirty pages (the raw phase leaves hundreds of
     * MB of Kafka log in the page cache, and its writeback ~30 s later stalls MariaDB's commit fsyncs
     * in the middle of an HTTP phase), then pauses a second.
     */
    static void settle() {
        long dirtyKb = dirtyKb();
        long t0 = System.nanoTime();
        try {
            Process sync = new ProcessBuilder("sync").redirectErrorStream(true).start();
            if (!sync.waitFor(120, TimeUnit.SECONDS)) {
                sync.destroy();
                log("settle: sync did not finish in 120 s");
            }
            Thread.sleep(1000);
        } catch (java.io.IOException e) {
            log("settle: cannot run sync (" + e.getMessage() + "); continuing unsettled");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        log(String.format("settle: %d MB dirty written back in %.1f s", dirtyKb / 1024, (System.nanoTime() - t0) / 1e9 - 1));
    }

    /** Dirty + Writeback of /proc/meminfo, in kB; 0 where unknown. */
    private static long dirtyKb() {
        try {
            long kb = 0;
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/meminfo"))) {
                if (line.startsWith("Dirty:") || line.startsWith("Writeback:")) kb += Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
            return kb;
        } catch (java.io.IOException | RuntimeException e) {
            return 0;
        }
    }

    private static String verdict(boolean met) {
        return met ? "met" : "NOT met";
    }

    static void log(String message) {
        System.err.println("[load " + Instant.now().truncatedTo(ChronoUnit.MILLIS) + "] " + message);
    }
}
