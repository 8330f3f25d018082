package dev.pinfeed.loadharness;

import java.util.ArrayList;
import java.util.List;

/** Command-line options of {@link IngestLoadHarness}. Durations are per phase, in seconds. */
record Options(int durationS, int batch, int clients, int warmupS, int openThreads, int singleDurationS, int createPercent,
               boolean keepTopics, String url, String token) {

    static final String USAGE = """
            usage: IngestLoadHarness [options]
              --duration-s N         measured seconds per phase (default 20)
              --batch N              events per POST /v1/events request, 1-1000 (default 100)
              --clients N            concurrent connections of the closed-loop phases (default 8)
              --warmup-s N           unmeasured warm-up before each phase (default 5)
              --open-threads N       client threads of the open-loop half-peak phase (default 64)
              --single-duration-s N  measured seconds of the single-event phase (default max(5, duration/2))
              --create-percent N     share of PinCreated in the mix, 0-100 (default 20; the rest PinLiked/PinUnliked)
              --keep-topics          do not delete the run's fresh topics at the end
              --url URL --token T    drive an ingest-api already running in its own JVM (e.g. ./pinfeed dev's,
                                     http://127.0.0.1:8080 with $(./pinfeed token)) instead of one in-process;
                                     it publishes to the standard topics
            """;

    static Options parse(String... args) {
        int duration = 20;
        int batch = 100;
        int clients = 8;
        int warmup = 5;
        int openThreads = 64;
        Integer single = null;
        int createPercent = 20;
        boolean keep = false;
        String url = null;
        String token = null;
        List<String> rest = new ArrayList<>(List.of(args));
        while (!rest.isEmpty()) {
            String a = rest.remove(0);
            switch (a) {
                case "--duration-s" -> duration = positive(a, rest);
                case "--batch" -> batch = positive(a, rest);
                case "--clients" -> clients = positive(a, rest);
                case "--warmup-s" -> warmup = nonNegative(a, rest);
                case "--open-threads" -> openThreads = positive(a, rest);
                case "--single-duration-s" -> single = positive(a, rest);
                case "--create-percent" -> createPercent = nonNegative(a, rest);
                case "--keep-topics" -> keep = true;
                case "--url" -> url = text(a, rest);
                case "--token" -> token = text(a, rest);
                case "-h", "--help" -> throw new IllegalArgumentException("");
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (batch > 1000) throw new IllegalArgumentException("--batch must be at most 1000 (the contract's limit per request)");
        if (createPercent > 100) throw new IllegalArgumentException("--create-percent must be 0-100");
        if ((url == null) != (token == null)) throw new IllegalArgumentException("--url and --token go together");
        return new Options(duration, batch, clients, warmup, openThreads, single != null ? single : Math.max(5, duration / 2),
                createPercent, keep, url, token);
    }

    private static String text(String option, List<String> rest) {
        if (rest.isEmpty()) throw new IllegalArgumentException(option + " needs a value");
        return rest.remove(0);
    }

    private static int positive(String option, List<String> rest) {
        int v = nonNegative(option, rest);
        if (v < 1) throw new IllegalArgumentException(option + " must be >= 1");
        return v;
    }

    private static int nonNegative(String option, List<String> rest) {
        if (rest.isEmpty()) throw new IllegalArgumentException(option + " needs a value");
        String v = rest.remove(0);
        try {
            int n = Integer.parseInt(v);
            if (n < 0) throw new IllegalArgumentException(option + " must be >= 0, is " + v);
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " needs a number, got '" + v + "'");
        }
    }
}
