package dev.pinfeed.console;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.console.pipeline.PipelineMonitor;
import org.apache.curator.framework.CuratorFramework;
import dev.pinfeed.httpkit.Authenticator;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.JwtAuthenticator;
import dev.pinfeed.httpkit.JwtIssuer;
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.processorruntime.ProcessMain;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * The console process: the web app at {@code console.http} over feed-service and ingest-api, and the pipeline page's
 * live state ({@link PipelineMonitor}). Keys: {@link ConsoleSettings}. Runs on {@link ProcessMain}: /metrics and
 * health at {@code console.admin.http}.
 */
public final class ConsoleServer {

    public static final String NAME = "console";

    private ConsoleServer() {}

    /** The console's app over {@code pipeline}; {@code clock} dates the tokens it signs. */
    public static HttpApp app(ConsoleSettings settings, PipelineMonitor pipeline, PrometheusMeterRegistry meters, Clock clock) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        ServiceProxy feed = new ServiceProxy("feed-service", settings.feedService(), http, Duration.ofSeconds(30));
        ServiceProxy ingest = new ServiceProxy("ingest-api", settings.ingestApi(), http, Duration.ofSeconds(10));
        Authenticator readers = JwtAuthenticator.fromFile(settings.jwksFile(), settings.issuer(), settings.audience(), clock);
        Optional<JwtIssuer> issuer = settings.signIn() == ConsoleSettings.SignIn.DEV
                ? Optional.of(new JwtIssuer(Files.readString(settings.signingKeys().orElseThrow()), settings.issuer(), settings.audience(), clock))
                : Optional.empty();
        SignIn signIn = new SignIn(settings, issuer, readers, feed, clock);
        HttpApp.Builder builder = HttpApp.builder(NAME).meterRegistry(meters).adminSeparately();
        return new ConsoleApp(settings, feed, ingest, signIn, pipeline, new WebFiles()).routes(builder, readers).build();
    }

    /** The pipeline page's monitor over the stores {@code config} names, sampling from now on. */
    public static PipelineMonitor pipelineMonitor(PinfeedConfig config, CuratorFramework zk, Clock clock) {
        return PipelineMonitors.start(config, zk, clock);
    }

    public static void main(String[] args) {
        ProcessMain.run(NAME, ctx -> {
            ConsoleSettings settings = ConsoleSettings.from(ctx.config());
            PipelineMonitor pipeline = ctx.closeOnExit(ctx.step("watching the pipeline", () -> PipelineMonitors.start(ctx)));
            ctx.step("serving the admin endpoint", ctx::serveAdmin);
            RunningHttpApp running = ctx.closeOnExit(ctx.step("serving HTTP on " + settings.http(),
                    () -> app(settings, pipeline, ctx.meters(), Clock.systemUTC()).start(settings.http().host(), settings.http().port())));
            ctx.describe("console " + running.baseUri());
        });
    }
}
