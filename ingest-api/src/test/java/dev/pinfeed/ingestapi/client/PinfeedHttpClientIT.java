package dev.pinfeed.ingestapi.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.events.BoardCreated;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.PinLiked;
import dev.pinfeed.events.UserCreated;
import dev.pinfeed.events.UserFollowed;
import dev.pinfeed.httpkit.Principal;
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.ingestapi.IngestApiServer;
import dev.pinfeed.ingestapi.IngestComponents;
import dev.pinfeed.ingestapi.http.TokenAuthenticator;
import dev.pinfeed.ingestapi.kafka.FreshTopics;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The thin HTTP client against the real ingest-api app over the stack: ids back, events in Kafka, a lost answer retried safely. */
@ExtendWith(StackExtension.class)
class PinfeedHttpClientIT {

    @Test
    void writesReturnIdsAndARetriedCallAfterALostAnswerPublishesOnce(TestStack stack) throws Exception {
        FreshTopics topics = new FreshTopics(stack);
        String token = "http-client-" + stack.freshId();
        AtomicBoolean loseNextAnswer = new AtomicBoolean();
        HttpClient http = HttpClient.newHttpClient();
        try (IngestComponents components = new IngestComponents(stack.config(), topics.overrides(), stack.keyPrefix("http-client"),
                new Properties());
             RunningHttpApp running = IngestApiServer.app(stack.config(), components, new TokenAuthenticator(Map.of(
                     TokenAuthenticator.sha256Hex(token), new Principal("http-client", Set.of("*"))))).start("127.0.0.1", 0)) {
            PinfeedHttpClient client = PinfeedHttpClient.builder(running.baseUri(), token).transport(request -> {
                HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
                if (loseNextAnswer.compareAndSet(true, false)) throw new IOException("connection reset after the request was sent");
                return answer;
            }).build();
            String suffix = Long.toString(stack.freshId(), 36);

            long ana = client.createUser("hc_a" + suffix, "Ana");
            long ben = client.createUser("hc_b" + suffix, null);
            long board = client.createBoard(ana, "Client", null);
            loseNextAnswer.set(true);
            long pin = client.createPin(board, ana, "lost answer " + suffix, null, null);
            long follow = client.followUser(ben, ana);
            long like = client.likePin(ben, pin);

            assertThat(ShardedId.decode(ana).type()).isEqualTo(ObjectType.USER);
            assertThat(ShardedId.decode(board).type()).isEqualTo(ObjectType.BOARD);
            assertThat(ShardedId.decode(pin).type()).isEqualTo(ObjectType.PIN);
            assertThat(ShardedId.decode(pin).shard()).isEqualTo(ShardedId.decode(board).shard());
            assertThat(loseNextAnswer).as("the answer was lost once").isFalse();
            List<SpecificRecord> events = topics.events(6, Duration.ofSeconds(30));
            assertThat(events).filteredOn(UserCreated.class::isInstance).hasSize(2);
            assertThat(events).filteredOn(BoardCreated.class::isInstance).hasSize(1);
            assertThat(events).filteredOn(PinCreated.class::isInstance).singleElement()
                    .satisfies(p -> assertThat(((PinCreated) p).getPinId()).isEqualTo(pin));
            assertThat(events).filteredOn(UserFollowed.class::isInstance).singleElement()
                    .satisfies(f -> assertThat(((UserFollowed) f).getEventId()).isEqualTo(follow));
            assertThat(events).filteredOn(PinLiked.class::isInstance).singleElement()
                    .satisfies(l -> assertThat(((PinLiked) l).getEventId()).isEqualTo(like));
        }
    }
}
