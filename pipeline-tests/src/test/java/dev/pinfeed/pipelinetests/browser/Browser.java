package dev.pinfeed.pipelinetests.browser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * One headless Chromium (Debian's {@code chromium}, driven by Debian's {@code chromedriver}) for one test class;
 * {@link BrowserExtension} injects it and quits it after the class. The process starts on first use, not when
 * injected. Selenium Manager never runs: the driver's path is given to {@link ChromeDriverService} and the
 * browser's to {@link ChromeOptions#setBinary}, so Selenium neither looks anything up nor downloads anything.
 *
 * <p>Waits poll with {@link WebDriverWait}; {@link #PATIENCE} (30 s) is a hang guard sized for a loaded 2-core CI
 * box, not an expectation. Screenshots, the page source and console of a failed test, and chromedriver's log go to
 * {@code target/failsafe-reports/screenshots/<TestClass>/}, beside failsafe's reports.
 */
public final class Browser implements AutoCloseable {

    /** A desktop viewport, the one every browser starts with (CSS pixels, as {@link #windowSize} takes them). */
    public static final Dimension DESKTOP = new Dimension(1280, 900);
    /** A phone's viewport (an iPhone 12 to 14's, in CSS pixels). */
    public static final Dimension PHONE = new Dimension(390, 844);
    /** Default bound of every wait, of a page load and of chromedriver's start. */
    public static final Duration PATIENCE = Duration.ofSeconds(30);

    static final String INSTALL_HINT = "./pinfeed installs chromium and chromium-driver";

    /*
     * ChromeDriver looks for a CDP implementation of the browser's major version when it connects and warns when
     * there is none ("Unable to find CDP implementation matching 156"). Nothing here uses CDP (no selenium-devtools
     * dependency, which would have to follow Debian's Chromium version by version): the warning is noise. A static
     * reference keeps the configured logger from being collected.
     */
    private static final Logger CDP_VERSION_FINDER = quiet("org.openqa.selenium.devtools.CdpVersionFinder");

    private final String testClass;
    private final Path chromium;
    private final Path chromedriver;
    private final Path screenshots;
    private final Path profile;

    private ChromeDriver driver;
    private ChromeDriverService service;
    private Thread shutdownHook;
    private IllegalStateException startFailure;
    private Duration startTime;
    private boolean closed;

    Browser(String testClass, Path chromium, Path chromedriver, Path screenshots, Path profile) {
        this.testClass = testClass;
        this.chromium = chromium;
        this.chromedriver = chromedriver;
        this.screenshots = screenshots;
        this.profile = profile;
    }

    /** The running driver, started on first call; for what the helpers here do not cover. */
    public synchronized WebDriver driver() {
        return started();
    }

    /** Loads {@code uri} and waits for its load event (at most {@link #PATIENCE}). */
    public Browser open(URI uri) {
        started().get(uri.toString());
        return this;
    }

    /** Waits until an element matching {@code by} is displayed and returns it. */
    public WebElement waitFor(By by) {
        return waitUntil(ExpectedConditions.visibilityOfElementLocated(by), PATIENCE);
    }

    /** Polls {@code condition} (an {@code ExpectedCondition} or a lambda) until it returns non-null and not false. */
    public <T> T waitUntil(Function<? super WebDriver, T> condition) {
        return waitUntil(condition, PATIENCE);
    }

    /**
     * Polls {@code condition} (an {@code ExpectedCondition} or a lambda over the driver) every 100 ms until it
     * returns something other than null or false, and returns that.
     *
     * @throws org.openqa.selenium.TimeoutException when {@code timeout} passes first
     */
    public <T> T waitUntil(Function<? super WebDriver, T> condition, Duration timeout) {
        return new WebDriverWait(started(), timeout, Duration.ofMillis(100)).until(condition);
    }

    /** The visible text of every element matching {@code by}, in document order (no wait). */
    public List<String> texts(By by) {
        return started().findElements(by).stream().map(WebElement::getText).toList();
    }

    /** Scrolls the document to its bottom (what makes an infinite list load its next page). */
    public Browser scrollToBottom() {
        started().executeScript("window.scrollTo(0, document.scrollingElement.scrollHeight);");
        return this;
    }

    /**
     * Sizes the window so that the page's viewport is {@code viewport} CSS pixels (what media queries and
     * screenshots see): headless Chromium still counts a browser UI into the window's height, so the window is
     * resized once more by what that takes.
     *
     * @throws IllegalStateException when Chromium does not allow that viewport
     */
    public Browser windowSize(Dimension viewport) {
        WebDriver.Window window = started().manage().window();
        window.setSize(viewport);
        Dimension inner = viewport();
        if (!inner.equals(viewport)) {
            Dimension outer = window.getSize();
            window.setSize(new Dimension(outer.width + viewport.width - inner.width, outer.height + viewport.height - inner.height));
            inner = viewport();
            if (!inner.equals(viewport)) {
                throw new IllegalStateException("asked for a viewport of " + viewport + ", Chromium gives " + inner
                        + " in a window of " + window.getSize());
            }
        }
        return this;
    }

    public Browser desktop() {
        return windowSize(DESKTOP);
    }

    public Browser phone() {
        return windowSize(PHONE);
    }

    /** The page's viewport in CSS pixels ({@code window.innerWidth} x {@code innerHeight}). */
    public Dimension viewport() {
        List<?> wh = (List<?>) started().executeScript("return [window.innerWidth, window.innerHeight];");
        return new Dimension(((Number) wh.get(0)).intValue(), ((Number) wh.get(1)).intValue());
    }

    /**
     * Saves what the viewport shows as {@code target/failsafe-reports/screenshots/<TestClass>/<name>.png}
     * (an existing file of that name is replaced) and returns its path.
     */
    public Path screenshot(String name) {
        Path file = screenshots.resolve(fileName(name) + ".png");
        write(file, started().getScreenshotAs(OutputType.BYTES));
        return file;
    }

    /** What the page logged to its console since the last call (Chromium hands each entry out once). */
    public List<String> consoleLog() {
        List<String> lines = new ArrayList<>();
        for (LogEntry e : started().manage().logs().get(LogType.BROWSER)) {
            lines.add(e.getTimestamp() + " " + e.getLevel() + " " + e.getMessage());
        }
        return lines;
    }

    /** How long Chromium and chromedriver took to start (null before the first use). */
    public synchronized Duration startTime() {
        return startTime;
    }

    /** Whether Chromium has been started (and not quit). */
    public synchronized boolean isRunning() {
        return driver != null;
    }

    /** Where this class's screenshots go. */
    public Path screenshotDirectory() {
        return screenshots;
    }

    /**
     * Saves {@code <name>-FAILED.png}, {@code .html} (the page source) and {@code .console.log} when the browser is
     * running (a second failure of the same name gets {@code -2}, ...), and returns the files written. Never throws:
     * what could not be saved is left out, and the reason is in the returned list instead of a file.
     */
    synchronized List<String> captureFailure(String name) {
        List<String> saved = new ArrayList<>();
        if (driver == null) {
            return saved;
        }
        String base = fileName(name) + "-FAILED";
        for (int n = 2; Files.exists(screenshots.resolve(base + ".png")) || Files.exists(screenshots.resolve(base + ".html")); n++) {
            base = fileName(name) + "-FAILED-" + n;
        }
        try {
            Path png = screenshots.resolve(base + ".png");
            write(png, driver.getScreenshotAs(OutputType.BYTES));
            saved.add(png.toString());
        } catch (RuntimeException e) {
            saved.add("no screenshot: " + oneLine(e));
        }
        try {
            Path html = screenshots.resolve(base + ".html");
            write(html, driver.getPageSource().getBytes(StandardCharsets.UTF_8));
            saved.add(html.toString());
        } catch (RuntimeException e) {
            saved.add("no page source: " + oneLine(e));
        }
        try {
            Path log = screenshots.resolve(base + ".console.log");
            String lines = consoleLog().stream().map(l -> l + "\n").collect(Collectors.joining());
            write(log, lines.getBytes(StandardCharsets.UTF_8));
            saved.add(log.toString());
        } catch (RuntimeException e) {
            saved.add("no console log: " + oneLine(e));
        }
        return saved;
    }

    /** Quits Chromium and chromedriver and deletes the profile. Idempotent. */
    @Override
    public synchronized void close() {
        closed = true;
        if (shutdownHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or about to: it quits the same driver
            }
            shutdownHook = null;
        }
        quit();
    }

    private synchronized void quit() {
        try {
            if (driver != null) {
                driver.quit();
                System.err.println("[browser] " + testClass + ": Chromium quit");
            }
        } catch (RuntimeException e) {
            System.err.println("[browser] quitting Chromium of " + testClass + " failed: " + oneLine(e));
        } finally {
            driver = null;
            if (service != null) service.stop();
            service = null;
            deleteTree(profile);
        }
    }

    private synchronized ChromeDriver started() {
        if (driver != null) return driver;
        if (closed) throw new IllegalStateException("the browser of " + testClass + " is closed (its test class has ended)");
        if (startFailure != null) {
            // One attempt per class: the rest of its tests fail at once, with the same reason.
            throw new IllegalStateException(startFailure.getMessage(), startFailure);
        }
        try {
            return start();
        } catch (RuntimeException e) {
            startFailure = e instanceof IllegalStateException ise && ise.getMessage().contains(INSTALL_HINT) ? ise
                    : new IllegalStateException("headless Chromium did not start (" + chromium + ", " + chromedriver
                            + "; chromedriver's log: " + screenshots.resolve("chromedriver.log") + "): " + oneLine(e), e);
            throw startFailure;
        }
    }

    private ChromeDriver start() {
        requireExecutable(chromium, "Chromium", "pinfeed.browser.chromium");
        requireExecutable(chromedriver, "chromedriver", "pinfeed.browser.chromedriver");
        long t0 = System.nanoTime();
        deleteTree(profile);
        deleteTree(screenshots); // a previous run's files would pass for this run's
        try {
            Files.createDirectories(profile);
            Files.createDirectories(screenshots);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }

        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium.toFile());
        options.addArguments(
                "--headless=new",
                "--no-sandbox", // root in CI containers
                "--disable-dev-shm-usage", // small /dev/shm in containers
                "--disable-gpu",
                "--window-size=" + DESKTOP.width + "," + DESKTOP.height,
                "--user-data-dir=" + profile.toAbsolutePath(),
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-background-networking", // nothing of Google's is fetched in a test
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--lang=en-US");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability(ChromeOptions.LOGGING_PREFS, logs);

        service = new ChromeDriverService.Builder()
                .usingDriverExecutable(chromedriver.toFile()) // Selenium Manager is skipped when the driver is given
                .usingAnyFreePort()
                .withTimeout(PATIENCE)
                .withLogFile(screenshots.resolve("chromedriver.log").toFile())
                .build();
        try {
            driver = new ChromeDriver(service, options);
            driver.manage().timeouts().pageLoadTimeout(PATIENCE).scriptTimeout(PATIENCE).implicitlyWait(Duration.ZERO);
            windowSize(DESKTOP);
        } catch (RuntimeException e) {
            quit();
            throw e;
        }
        startTime = Duration.ofNanos(System.nanoTime() - t0);
        shutdownHook = new Thread(this::quit, "browser-quit-" + testClass);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        System.err.printf("[browser] %s: %s %s started in %d ms (%s)%n", testClass,
                driver.getCapabilities().getBrowserName(), driver.getCapabilities().getBrowserVersion(),
                startTime.toMillis(), chromium);
        return driver;
    }

    private static Logger quiet(String name) {
        Logger logger = Logger.getLogger(name);
        logger.setLevel(Level.SEVERE);
        return logger;
    }

    private static void requireExecutable(Path file, String what, String property) {
        if (!Files.isRegularFile(file) || !Files.isExecutable(file)) {
            throw new IllegalStateException(what + " not found at " + file + " (system property " + property + "): "
                    + INSTALL_HINT + " (Debian packages; apt-get install chromium chromium-driver)");
        }
    }

    /** {@code name} made safe as a file name: letters, digits, {@code . _ -}; anything else becomes {@code _}. */
    static String fileName(String name) {
        String safe = name.replaceAll("[^A-Za-z0-9._-]", "_");
        return safe.isEmpty() || safe.startsWith(".") ? "_" + safe : safe;
    }

    private static void write(Path file, byte[] bytes) {
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) return;
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // Chromium may still be writing into its profile while it exits; target/ is cleaned anyway
                }
            });
        } catch (IOException | UncheckedIOException ignored) {
            // as above
        }
    }

    private static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    @Override
    public String toString() {
        return "Browser[" + testClass + (driver != null ? ", running" : "") + "]";
    }
}
