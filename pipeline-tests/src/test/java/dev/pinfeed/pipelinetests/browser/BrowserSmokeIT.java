package dev.pinfeed.pipelinetests.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.Response;
import dev.pinfeed.httpkit.RunningHttpApp;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The browser-test plumbing itself, on a page of its own served by http-kit on a free loopback port (no stack
 * needed): Debian's headless Chromium starts, runs the page's script, clicks, resizes to desktop and phone windows
 * and saves screenshots; a failing browser test gets its screenshot, page source and console saved; a missing
 * Chromium fails a test with the install hint instead of skipping it. The last two run {@link FailureCaptureSample}
 * through the JUnit Platform launcher.
 */
@ExtendWith(BrowserExtension.class)
class BrowserSmokeIT {

    static final String PAGE = """
            <!doctype html>
            <html lang="en">
            <head>
              <meta charset="utf-8">
              <meta name="viewport" content="width=device-width, initial-scale=1">
              <title>pinfeed browser smoke</title>
              <link rel="icon" href="data:,">
              <style>
                body { font: 16px sans-serif; margin: 0; padding: 16px; }
                button { font-size: 18px; padding: 12px 20px; }
                #status { font-size: 24px; margin: 16px 0; }
                li { height: 48px; border-bottom: 1px solid #ddd; }
              </style>
              <script src="/app.js" defer></script>
            </head>
            <body>
              <h1>pinfeed browser smoke</h1>
              <p id="status">loading</p>
              <button id="go" type="button">Click me</button>
              <ol id="items">%s</ol>
            </body>
            </html>
            """.formatted(IntStream.rangeClosed(1, 40).mapToObj(i -> "<li>item " + i + "</li>").collect(Collectors.joining()));

    /** External, not inline: the page works under a {@code script-src 'self'} policy like the console's. */
    static final String APP_JS = """
            "use strict";
            const status = document.getElementById("status");
            let clicks = 0;
            document.getElementById("go").addEventListener("click", () => {
              clicks++;
              status.textContent = "clicked " + clicks;
            });
            status.textContent = "ready";
            console.info("smoke page ready");
            """;

    private static RunningHttpApp site;

    @BeforeAll
    static void serve() {
        site = HttpApp.builder("smoke")
                .route("GET", "/", r -> Response.text(200, "text/html; charset=utf-8", PAGE))
                .route("GET", "/app.js", r -> Response.text(200, "text/javascript; charset=utf-8", APP_JS))
                .build()
                .start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() {
        if (site != null) site.close();
    }

    @Test
    void aClickRunsThePagesScriptInDesktopAndPhoneWindows(Browser browser) throws IOException {
        for (Map.Entry<String, Dimension> size : List.of(Map.entry("desktop", Browser.DESKTOP), Map.entry("phone", Browser.PHONE))) {
            browser.windowSize(size.getValue()).open(site.baseUri().resolve("/"));
            browser.waitUntil(ExpectedConditions.textToBe(By.id("status"), "ready")); // app.js ran
            browser.waitFor(By.id("go")).click();
            browser.waitUntil(ExpectedConditions.textToBe(By.id("status"), "clicked 1"));
            assertThat(browser.viewport()).as("viewport of the %s window", size.getKey()).isEqualTo(size.getValue());

            Path shot = browser.screenshot(size.getKey());
            assertThat(shot).isEqualTo(browser.screenshotDirectory().resolve(size.getKey() + ".png"));
            assertThat(pngSize(shot)).as("%s screenshot's pixels", size.getKey()).isEqualTo(size.getValue());
            System.out.printf("%s screenshot: %s%n", size.getKey(), shot);
        }
        assertThat(browser.consoleLog()).anyMatch(line -> line.contains("smoke page ready"));
        System.out.printf("Chromium started in %d ms%n", browser.startTime().toMillis());
    }

    @Test
    void textsListsEveryMatchInOrderAndScrollToBottomReachesTheEnd(Browser browser) {
        browser.phone().open(site.baseUri().resolve("/"));
        assertThat(browser.texts(By.cssSelector("#items li"))).hasSize(40).startsWith("item 1", "item 2").endsWith("item 40");
        assertThat((Number) ((JavascriptExecutor) browser.driver()).executeScript("return window.scrollY;"))
                .isEqualTo(0L);
        browser.scrollToBottom();
        browser.waitUntil(d -> (Boolean) ((JavascriptExecutor) d).executeScript(
                "return window.scrollY + window.innerHeight >= document.scrollingElement.scrollHeight - 1;"));
        browser.screenshot("phone-bottom");
    }

    @Test
    void aFailingBrowserTestIsReportedWithItsScreenshotPageSourceAndConsole(Browser browser) throws IOException {
        Path screenshots = browser.screenshotDirectory().getParent().resolve("BrowserSmokeIT.FailureCaptureSample");
        TestExecutionSummary summary = runSample(Map.of());

        assertThat(summary.getTestsSucceededCount()).isZero();
        assertThat(summary.getTestsFailedCount()).isEqualTo(1);
        Throwable failure = summary.getFailures().get(0).getException();
        assertThat(failure).isInstanceOf(AssertionError.class).hasMessageContaining("a text the page never shows");
        assertThat(failure.getSuppressed()).singleElement()
                .isInstanceOf(BrowserExtension.CapturedBrowserState.class)
                .satisfies(s -> assertThat(s.getMessage()).contains("theStatusReadsSomethingItNeverDoes-FAILED.png"));

        Path png = screenshots.resolve("theStatusReadsSomethingItNeverDoes-FAILED.png");
        assertThat(pngSize(png)).isEqualTo(Browser.DESKTOP);
        // The state at the failure, before any @AfterEach: after the click.
        assertThat(Files.readString(screenshots.resolve("theStatusReadsSomethingItNeverDoes-FAILED.html"))).contains("clicked 1");
        assertThat(Files.readString(screenshots.resolve("theStatusReadsSomethingItNeverDoes-FAILED.console.log")))
                .contains("smoke page ready");
        System.out.printf("failure captured: %s%n", Arrays.toString(Files.list(screenshots).sorted().toArray()));
    }

    @Test
    void aMissingChromiumFailsTheTestWithTheInstallHintRatherThanSkippingIt() {
        TestExecutionSummary summary = runSample(Map.of(BrowserExtension.CHROMIUM, "/nonexistent/chromium"));

        assertThat(summary.getTestsSkippedCount() + summary.getTestsAbortedCount()).isZero();
        assertThat(summary.getTestsFailedCount()).isEqualTo(1);
        Throwable failure = summary.getFailures().get(0).getException();
        assertThat(failure).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("/nonexistent/chromium")
                .hasMessageContaining("./pinfeed installs chromium and chromium-driver")
                .hasNoSuppressedExceptions(); // no browser ran: nothing to capture
        assertThat(failure.getMessage()).doesNotContain("\n");
    }

    /**
     * A browser test that fails on purpose, run by the two tests above through the launcher so they can inspect
     * what {@link BrowserExtension} left behind. Nested, so that it counts as part of this IT; failsafe does not run
     * nested classes, and run any other way (an IDE) it is disabled.
     */
    @ExtendWith(BrowserExtension.class)
    @EnabledIf(value = "launchedByBrowserSmokeIT", disabledReason = "a deliberate failure, run only by BrowserSmokeIT")
    static class FailureCaptureSample {

        /** The smoke page; set by {@link #runSample} for the duration of its launch. */
        static volatile URI page;

        static boolean launchedByBrowserSmokeIT() {
            return page != null;
        }

        @Test
        void theStatusReadsSomethingItNeverDoes(Browser browser) {
            browser.open(page);
            browser.waitFor(By.id("go")).click();
            browser.waitUntil(ExpectedConditions.textToBe(By.id("status"), "clicked 1"));
            assertThat(browser.texts(By.id("status"))).containsExactly("a text the page never shows");
        }
    }

    /** Runs {@link FailureCaptureSample} (one test, failing on purpose) on the smoke page in a nested launcher. */
    private static TestExecutionSummary runSample(Map<String, String> configuration) {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        FailureCaptureSample.page = site.baseUri().resolve("/");
        try {
            LauncherFactory.create().execute(request().selectors(selectClass(FailureCaptureSample.class))
                    .configurationParameters(configuration).build(), listener);
        } finally {
            FailureCaptureSample.page = null;
        }
        return listener.getSummary();
    }

    /** The width and height in a PNG's IHDR chunk. */
    private static Dimension pngSize(Path png) throws IOException {
        try (InputStream in = Files.newInputStream(png)) {
            byte[] head = in.readNBytes(24);
            assertThat(Arrays.copyOf(head, 8)).as("PNG signature of %s", png)
                    .isEqualTo(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'});
            ByteBuffer b = ByteBuffer.wrap(head);
            return new Dimension(b.getInt(16), b.getInt(20));
        }
    }
}
