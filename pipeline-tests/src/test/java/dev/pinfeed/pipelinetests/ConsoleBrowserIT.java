package dev.pinfeed.pipelinetests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.console.ConsoleServer;
import dev.pinfeed.console.ConsoleSettings;
import dev.pinfeed.console.pipeline.PipelineMonitor;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.followergraph.UserRelation;
import dev.pinfeed.graphprocessor.GraphProcessorMain;
import dev.pinfeed.httpkit.JwtKeys;
import dev.pinfeed.httpkit.Meters;
import dev.pinfeed.httpkit.ReaderClaims;
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.infra.stacktestkit.ChildJvm;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.ingestapi.core.IngestCommand;
import dev.pinfeed.pipelinetests.browser.Browser;
import dev.pinfeed.pipelinetests.browser.BrowserExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * The console in a real browser (headless Chromium) over the whole pipeline in this JVM ({@link Pipeline}: ingest-api
 * over HTTP, the processors, feed-service), its pipeline page over the shared stack's servers, and one processor
 * (graph-processor) as a real process that the test kills. Screenshots of each page are saved with the reports.
 */
@ExtendWith({StackExtension.class, BrowserExtension.class})
class ConsoleBrowserIT {

    /** A new pin's way through Kafka, the fan-out and the worker into a pool, on a loaded 2-core box. */
    private static final Duration FANOUT = Duration.ofSeconds(90);
    private static final int AUTHOR_PINS = 60;
    private static final ConsoleSettings.SignIn DEV = ConsoleSettings.SignIn.DEV;

    @TempDir
    static Path dir;

    private static Pipeline p;
    private static RunningHttpApp console;
    private static PipelineMonitor monitor;
    private static CuratorFramework zk;
    private static ChildJvm graphProcessor;
    private static Map<String, String> graphProcessorProps;
    private static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start(TestStack stack) throws Exception {
        p = new Pipeline(stack, Files.createDirectories(dir.resolve("fanout")));
        int graphAdmin = ChildJvm.freePort();
        graphProcessorProps = Map.of("graph.processor.group", stack.uniqueName("console_graph"),
                "graph.processor.topics", p.topic(EventTopics.FOLLOWS) + "," + p.topic(EventTopics.BOARDS),
                "graph.redis.key-prefix", stack.keyPrefix("console-graph"),
                "graph-processor.admin.http", "127.0.0.1:" + graphAdmin);
        graphProcessor = ChildJvm.start(GraphProcessorMain.class.getName(), graphProcessorProps);

        Map<String, String> overrides = new LinkedHashMap<>();
        overrides.put("console.processes", "ingest-api,feed-service,graph-processor");
        overrides.put("ingest-api.admin.http", "127.0.0.1:" + p.ingestHttp.port());
        overrides.put("feed-service.admin.http", "127.0.0.1:" + p.feedService.port());
        overrides.put("graph-processor.admin.http", "127.0.0.1:" + graphAdmin);
        PinfeedConfig config = stack.config().withOverrides(overrides);
        zk = CuratorClients.connected(config, 20);
        monitor = ConsoleServer.pipelineMonitor(config, zk, Clock.systemUTC());

        Path privateKeys = Files.writeString(dir.resolve("reader-keys.private.json"), p.readers.privateKeys());
        Path jwks = Files.writeString(dir.resolve("reader-keys.json"), JwtKeys.publicSet(p.readers.privateKeys()));
        ConsoleSettings settings = new ConsoleSettings(new HostPort("127.0.0.1", 1), p.feedService.baseUri(), p.ingestHttp.baseUri(),
                Optional.of(p.producerToken), DEV, Optional.of(privateKeys), List.of(), Duration.ofHours(1), jwks, p.readers.issuerName(),
                ReaderClaims.AUDIENCE, Duration.ofSeconds(1), Map.of("ingest-api", p.ingestHttp.baseUri() + "/docs"), false);
        console = ConsoleServer.app(settings, monitor, Meters.newRegistry(), Clock.systemUTC()).start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        if (console != null) console.close();
        if (monitor != null) monitor.close();
        if (zk != null) zk.close();
        if (graphProcessor != null) graphProcessor.close();
        if (p != null) p.close();
    }

    @Test
    void signedInTheFeedShowsPinCardsAndScrollingLoadsEveryPageWithoutADuplicate(Browser browser) throws Exception {
        long author = p.user("painter");
        long board = p.board(author, "Watercolours");
        String readerName = "reader_" + Long.toString(System.nanoTime() % 1_000_000_000L, 36);
        long reader = p.send(new IngestCommand.CreateUser(readerName, "Reader"));
        long first = p.pin(board, author, "wash_0");
        await().atMost(FANOUT).until(() -> p.reads.pin(first).isPresent());
        p.send(new IngestCommand.FollowUser(reader, author));
        await().atMost(FANOUT).until(() -> p.graph.store().relation(reader, author) == UserRelation.EXPLICIT);
        Set<String> pins = new HashSet<>();
        pins.add(Long.toString(first));
        for (int i = 1; i < AUTHOR_PINS; i++) pins.add(Long.toString(p.pin(board, author, "wash_" + i)));
        await().atMost(FANOUT).until(() -> p.pools.all(reader).size() >= AUTHOR_PINS);
        // Read through the API until every pin left the pools for the materialized feed (a first page takes one chunk):
        // the page then pages through all of them by cursor.
        await().atMost(FANOUT).until(() -> {
            p.feed(reader);
            return p.feeds.all(reader).size() >= AUTHOR_PINS;
        });

        signIn(browser, readerName);
        browser.waitUntil(d -> cards(browser).size() >= 25);
        int firstPage = cards(browser).size();
        assertThat(firstPage).as("the first page: limit 25").isEqualTo(25);
        browser.screenshot("feed-first-page");
        WebElement card = cards(browser).get(0);
        assertThat(card.getAttribute("data-source")).isNotBlank();
        assertThat(card.getAttribute("data-score")).isNotBlank();

        // Scrolling to the end loads the next pages by their cursors until the feed says it is caught up.
        browser.waitUntil(d -> {
            browser.scrollToBottom();
            return !d.findElements(By.cssSelector("#feed-end")).isEmpty() && d.findElement(By.id("feed-end")).isDisplayed();
        }, FANOUT);
        List<String> shown = cards(browser).stream().map(c -> c.getAttribute("data-pin-id")).toList();
        assertThat(shown).as("no pin twice").doesNotHaveDuplicates();
        assertThat(new HashSet<>(shown)).as("every pin of the followed author, over several pages").containsAll(pins);
        assertThat(shown.size()).isGreaterThan(firstPage);
        browser.screenshot("feed-scrolled-to-the-end");

        // A phone-sized window: one column of cards, nothing wider than the screen.
        browser.phone();
        try {
            browser.driver().navigate().refresh();
            browser.waitUntil(d -> !cards(browser).isEmpty());
            JavascriptExecutor js = (JavascriptExecutor) browser.driver();
            Number overflow = (Number) js.executeScript("return document.documentElement.scrollWidth - window.innerWidth");
            assertThat(overflow.intValue()).as("no horizontal scrolling on a phone").isLessThanOrEqualTo(0);
            List<WebElement> phoneCards = cards(browser);
            assertThat(phoneCards.get(0).getRect().getWidth()).as("one card across").isGreaterThan(browser.viewport().getWidth() / 2);
            browser.screenshot("feed-phone");
        } finally {
            browser.desktop();
        }
    }

    @Test
    void aReaderFollowsAnAuthorInThePageTheAuthorsNewPinAppearsInHisFeedAndHeLikesItAndPinsHisOwn(Browser browser) throws Exception {
        String authorName = "potter_" + Long.toString(System.nanoTime() % 1_000_000_000L, 36);
        long author = p.send(new IngestCommand.CreateUser(authorName, "Potter"));
        long board = p.board(author, "Bowls");
        long earlier = p.pin(board, author, "earlier_bowl");
        String readerName = "fan_" + Long.toString(System.nanoTime() % 1_000_000_000L, 36);
        long reader = p.send(new IngestCommand.CreateUser(readerName, "Fan"));
        long readerBoard = p.board(reader, "Inspiration");
        await().atMost(FANOUT).until(() -> p.reads.pin(earlier).isPresent() && p.reads.user(reader).isPresent()
                && p.reads.board(readerBoard).isPresent());

        signIn(browser, readerName);
        browser.open(URI.create(console.baseUri() + "/#/u/" + authorName));
        browser.waitFor(By.id("follow-user"));
        browser.waitUntil(d -> "false".equals(attribute(browser, By.id("follow-user"), "aria-pressed")));
        browser.driver().findElement(By.id("follow-user")).click();
        browser.waitUntil(d -> "true".equals(attribute(browser, By.id("follow-user"), "aria-pressed")));
        browser.screenshot("profile-followed");
        await().atMost(FANOUT).until(() -> p.graph.store().relation(reader, author) == UserRelation.EXPLICIT);

        // The author publishes through ingest-api's HTTP API, as any producer would.
        HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(p.ingestHttp.baseUri() + "/v1/pins"))
                .header("Authorization", "Bearer " + p.producerToken).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"boardId\":\"" + board + "\",\"authorId\":\"" + author
                        + "\",\"details\":\"fresh_from_the_kiln\",\"imageUrl\":\"https://images.example.com/kiln.jpg\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(202);
        String pin = created.body().replaceAll(".*\"id\"\\s*:\\s*\"([0-9]+)\".*", "$1");

        browser.open(URI.create(console.baseUri() + "/#/feed"));
        By card = By.cssSelector("article.pin-card[data-pin-id='" + pin + "']");
        browser.waitUntil(d -> {
            if (!d.findElements(card).isEmpty()) return true;
            d.navigate().refresh(); // a reader pulling to refresh: the first page asks for new pins
            return false;
        }, FANOUT);
        assertThat(browser.driver().findElement(card).getText()).contains("fresh_from_the_kiln");
        browser.screenshot("feed-with-the-new-pin");

        // The reader likes it on its card, and publishes a pin of his own on his board: both through ingest-api.
        browser.driver().findElement(card).findElement(By.cssSelector("button.like")).click();
        browser.waitUntil(d -> "true".equals(attribute(browser, By.cssSelector("article.pin-card[data-pin-id='" + pin + "'] button.like"), "aria-pressed")));
        await().atMost(FANOUT).until(() -> p.reads.userLikes(reader, null, 10).items().stream().anyMatch(l -> l.id() == Long.parseLong(pin)));

        browser.driver().findElement(By.id("create-pin")).click();
        browser.waitFor(By.id("pin-details")).sendKeys("made_in_the_console");
        browser.waitUntil(d -> d.findElement(By.id("pin-board")).isEnabled());
        new Select(browser.driver().findElement(By.id("pin-board"))).selectByValue(Long.toString(readerBoard));
        browser.screenshot("create-pin");
        browser.driver().findElement(By.id("publish-pin")).click();
        await().atMost(FANOUT).until(() -> p.reads.userPins(reader, null, 10).items().stream()
                .anyMatch(made -> made.details().equals("made_in_the_console") && made.boardId() == readerBoard));
    }

    @Test
    void thePipelinePageShowsEveryProcessUpAKilledOneDownAndUpAgainAfterItsRestart(Browser browser) throws Exception {
        browser.open(URI.create(console.baseUri() + "/#/pipeline"));
        for (String process : List.of("ingest-api", "feed-service", "graph-processor")) {
            awaitState(browser, process, "up");
        }
        for (String server : List.of("kafka", "schema-registry", "hbase-primary", "hbase-standby")) {
            browser.waitUntil(d -> state(browser, "servers", server).equals("up"), FANOUT);
        }
        browser.waitUntil(d -> attribute(browser, By.id("pipeline-status"), "class").contains("all-up"), FANOUT);
        browser.screenshot("pipeline-all-up");

        graphProcessor.kill9();
        long killed = System.nanoTime();
        browser.waitUntil(d -> state(browser, "processes", "graph-processor").equals("down"), Duration.ofSeconds(30));
        System.out.printf("the pipeline page showed graph-processor down %d ms after kill -9%n", (System.nanoTime() - killed) / 1_000_000);
        browser.waitUntil(d -> attribute(browser, By.id("pipeline-status"), "class").contains("some-down"));
        browser.screenshot("pipeline-graph-processor-down");

        graphProcessor = ChildJvm.start(GraphProcessorMain.class.getName(), graphProcessorProps);
        awaitState(browser, "graph-processor", "up");
        browser.screenshot("pipeline-graph-processor-up-again");
    }

    @Test
    void eachServicesApiDocsRenderFromTheServiceItself(Browser browser) {
        for (RunningHttpApp service : List.of(p.ingestHttp, p.feedService)) {
            browser.open(URI.create(service.baseUri() + "/docs"));
            browser.waitUntil(d -> d.findElements(By.cssSelector(".opblock")).size() > 5, Duration.ofSeconds(60));
            browser.screenshot("docs-" + service.baseUri().getPort());
        }
    }

    /** Signs in by the keyboard alone: the name typed into the focused field, then Enter. */
    private static void signIn(Browser browser, String username) {
        browser.open(URI.create(console.baseUri() + "/"));
        ((JavascriptExecutor) browser.driver()).executeScript("sessionStorage.clear()");
        browser.driver().navigate().refresh(); // the page forgets the earlier reader it holds in memory
        browser.open(URI.create(console.baseUri() + "/#/signin"));
        WebElement name = browser.waitFor(By.id("username"));
        assertThat(browser.driver().findElements(By.cssSelector("label[for='username']"))).as("a labelled field").isNotEmpty();
        browser.waitUntil(d -> name.equals(d.switchTo().activeElement()));
        name.sendKeys(Keys.chord(Keys.CONTROL, "a"), username);
        browser.screenshot("sign-in");
        name.sendKeys(Keys.ENTER);
        browser.waitFor(By.id("sign-out")); // signed in: the header names the reader
    }

    /** Until the pipeline page shows {@code process} in {@code state}; a graph-processor that does not come up says why. */
    private static void awaitState(Browser browser, String process, String state) {
        try {
            browser.waitUntil(d -> state(browser, "processes", process).equals(state), FANOUT);
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError(process + " never showed " + state + "; graph-processor's output:\n" + graphProcessor.output(), e);
        }
    }

    private static List<WebElement> cards(Browser browser) {
        return browser.driver().findElements(By.cssSelector("#feed article.pin-card[data-pin-id]"));
    }

    /** The element's attribute, or "" while there is none (or the page is redrawing it). */
    private static String attribute(Browser browser, By by, String name) {
        try {
            List<WebElement> found = browser.driver().findElements(by);
            return found.isEmpty() ? "" : String.valueOf(found.get(0).getAttribute(name));
        } catch (StaleElementReferenceException redrawn) {
            return "";
        }
    }

    /** The state a section's row for {@code name} shows, or "" while there is none. */
    private static String state(Browser browser, String section, String name) {
        try {
            List<WebElement> rows = browser.driver().findElements(By.cssSelector("#" + section + " [data-name='" + name + "']"));
            return rows.isEmpty() ? "" : String.valueOf(rows.get(0).getAttribute("data-state"));
        } catch (StaleElementReferenceException redrawn) { // the page redraws the table at each refresh: look again
            return "";
        }
    }
}
