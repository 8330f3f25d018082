package dev.pinfeed.clikit;

import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Progress of a long command (replay, verify, rebuild, demo load, regeneration, failover waits), shown
 * the way its reader needs it:
 * <ul>
 *   <li>{@link Mode#TTY}: one line rewritten in place ({@code \r}), at most every 200 ms: done/total, rate, ETA;</li>
 *   <li>{@link Mode#PLAIN} (not a terminal: logs, CI): a plain line every {@code plainEvery} (5 s by default);</li>
 *   <li>{@link Mode#JSON} ({@code --json}): one JSON object per line, every second and at the end, for machines.</li>
 * </ul>
 * The work calls {@link #advance}/{@link #set} as it goes (cheap, thread-safe); {@link #tick} renders when
 * due and is called by the work or by {@link #startTicker}. {@link #note} prints a line between updates.
 * The clock is injected so tests drive time.
 */
public final class Progress implements AutoCloseable {

    /** How progress is written. */
    public enum Mode { TTY, PLAIN, JSON }

    /** Set by {@code ./pinfeed} when its stderr is a terminal (a JVM cannot tell for stderr itself). */
    public static final String TTY_ENV = "PINFEED_TTY";

    private final PrintWriter out;
    private final Mode mode;
    private final String task;
    private final String unit;
    private final Clock clock;
    private final long every;
    private final long startMillis;
    private final AtomicLong done = new AtomicLong();
    private volatile long total;
    private long lastRender = Long.MIN_VALUE;
    private int lastWidth;
    private boolean finished;
    private Thread ticker;

    private Progress(PrintWriter out, Mode mode, String task, long total, String unit, Clock clock, Duration plainEvery) {
        this.out = out;
        this.mode = mode;
        this.task = task;
        this.total = total;
        this.unit = unit;
        this.clock = clock;
        this.every = switch (mode) {
            case TTY -> 200;
            case JSON -> 1_000;
            case PLAIN -> plainEvery.toMillis();
        };
        this.startMillis = clock.millis();
    }

    /** The mode for a command: {@code --json} wins; else a terminal ({@value #TTY_ENV}=1) or plain lines. */
    public static Mode mode(boolean json) {
        if (json) return Mode.JSON;
        return "1".equals(System.getenv(TTY_ENV)) ? Mode.TTY : Mode.PLAIN;
    }

    /**
     * Progress of {@code task} towards {@code total} {@code unit}s ({@code total} &lt; 0: unknown). Human modes
     * should write to stderr (stdout stays the command's result); JSON to stdout.
     */
    public static Progress start(PrintWriter out, Mode mode, String task, long total, String unit, Clock clock) {
        return new Progress(out, mode, task, total, unit, clock, Duration.ofSeconds(5));
    }

    /** {@link #start} with another interval for plain lines. */
    public static Progress start(PrintWriter out, Mode mode, String task, long total, String unit, Clock clock, Duration plainEvery) {
        return new Progress(out, mode, task, total, unit, clock, plainEvery);
    }

    /** Renders from a daemon thread every 100 ms until {@link #done} or {@link #close}: for work that cannot call {@link #tick}. */
    public Progress startTicker() {
        Thread t = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                tick();
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "progress-" + task);
        t.setDaemon(true);
        ticker = t;
        t.start();
        return this;
    }

    public void advance(long n) {
        done.addAndGet(n);
    }

    public void set(long value) {
        done.set(value);
    }

    public void total(long value) {
        total = value;
    }

    public long done() {
        return done.get();
    }

    /** Renders if the mode's interval has passed since the last rendering. */
    public synchronized void tick() {
        if (finished) return;
        long now = clock.millis();
        if (lastRender != Long.MIN_VALUE && now - lastRender < every) return;
        lastRender = now;
        render(now, false, null);
    }

    /** A line of its own between updates (a TTY's progress line is cleared first and drawn again at the next tick). */
    public synchronized void note(String line) {
        if (mode == Mode.JSON) {
            out.println("{\"task\":" + quote(task) + ",\"note\":" + quote(line) + "}");
        } else {
            if (mode == Mode.TTY && lastWidth > 0) {
                out.print("\r" + " ".repeat(lastWidth) + "\r");
                lastWidth = 0;
            }
            out.println(line);
        }
        out.flush();
    }

    /** The end: a last rendering with {@code summary}; later ticks print nothing. */
    public synchronized void done(String summary) {
        if (finished) return;
        render(clock.millis(), true, summary);
        finished = true;
        stopTicker();
    }

    private void render(long now, boolean last, String summary) {
        long d = done.get();
        long t = total;
        double seconds = Math.max(0.001, (now - startMillis) / 1000.0);
        double rate = d / seconds;
        long eta = t > 0 && rate > 0 && d < t ? Math.round((t - d) / rate) : -1;
        switch (mode) {
            case JSON -> {
                StringBuilder sb = new StringBuilder("{\"task\":").append(quote(task)).append(",\"done\":").append(d);
                if (t >= 0) sb.append(",\"total\":").append(t);
                sb.append(",\"unit\":").append(quote(unit)).append(String.format(Locale.ROOT, ",\"rate\":%.1f", rate))
                        .append(",\"elapsedSeconds\":").append(Math.round(seconds));
                if (eta >= 0 && !last) sb.append(",\"etaSeconds\":").append(eta);
                if (last) sb.append(",\"finished\":true");
                if (summary != null) sb.append(",\"summary\":").append(quote(summary));
                out.println(sb.append('}'));
            }
            case PLAIN -> out.println(line(d, t, rate, eta, seconds, last, summary));
            case TTY -> {
                String text = line(d, t, rate, eta, seconds, last, summary);
                out.print("\r" + text + (text.length() < lastWidth ? " ".repeat(lastWidth - text.length()) : ""));
                lastWidth = text.length();
                if (last) {
                    out.println();
                    lastWidth = 0;
                }
            }
        }
        out.flush();
    }

    private String line(long d, long t, double rate, long eta, double seconds, boolean last, String summary) {
        StringBuilder sb = new StringBuilder(task).append(": ").append(number(d));
        if (t >= 0) sb.append(" / ").append(number(t));
        sb.append(' ').append(unit);
        if (t > 0) sb.append(String.format(Locale.ROOT, " (%.1f %%)", Math.min(100.0, 100.0 * d / t)));
        sb.append(String.format(Locale.ROOT, ", %s/s", number(Math.round(rate))));
        if (last) {
            sb.append(String.format(Locale.ROOT, ", done in %.1f s", seconds));
            if (summary != null && !summary.isEmpty()) sb.append(": ").append(summary);
        } else if (eta >= 0) {
            sb.append(", ETA ").append(duration(eta));
        }
        return sb.toString();
    }

    /** A count with thin grouping spaces: 12 345. */
    public static String number(long n) {
        return String.format(Locale.ROOT, "%,d", n).replace(',', ' ');
    }

    static String duration(long seconds) {
        if (seconds < 60) return seconds + " s";
        if (seconds < 3600) return seconds / 60 + " min " + seconds % 60 + " s";
        return seconds / 3600 + " h " + seconds % 3600 / 60 + " min";
    }

    /** A JSON string literal. */
    public static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    else sb.append(c);
                }
            }
        }
        return sb.append('"').toString();
    }

    private void stopTicker() {
        if (ticker != null) ticker.interrupt();
    }

    /** Stops the ticker; a progress never {@link #done} stays unfinished (an interrupted command says so itself). */
    @Override
    public synchronized void close() {
        stopTicker();
        if (mode == Mode.TTY && lastWidth > 0 && !finished) {
            out.println();
            out.flush();
        }
        finished = true;
    }
}
