package dev.pinfeed.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.httpkit.JwtAuthenticator;
import dev.pinfeed.httpkit.JwtIssuer;
import dev.pinfeed.httpkit.JwtKeys;
import dev.pinfeed.httpkit.ReaderClaims;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dev reader keys: RS256 from the first start, and a stack created with an ES256 key moves to RS256 without refusing its tokens. */
class DevReaderKeysTest {

    @Test
    void aNewStackSignsRs256(@TempDir Path tmp) throws Exception {
        StackLayout layout = new StackLayout(tmp, tmp.resolve(".pinfeed"));
        DevReaderKeys.ensure(layout);
        String keys = Files.readString(DevReaderKeys.privateFile(layout));
        assertThat(JwtKeys.newestKind(keys)).isEqualTo(JwtKeys.Kind.RS256);
        assertThat(verifier(layout).authenticate(DevReaderKeys.userToken(layout, 42)).name()).isEqualTo("42");
    }

    @Test
    void anEs256SetGetsAnRs256KeyAndItsEarlierTokensStayValid(@TempDir Path tmp) throws Exception {
        StackLayout layout = new StackLayout(tmp, tmp.resolve(".pinfeed"));
        String ecKeys = JwtKeys.newPrivateSet("dev-1", JwtKeys.Kind.ES256);
        Files.createDirectories(DevReaderKeys.privateFile(layout).getParent());
        Files.writeString(DevReaderKeys.privateFile(layout), ecKeys);
        String before = ReaderClaims.userToken(new JwtIssuer(ecKeys, DevReaderKeys.ISSUER, ReaderClaims.AUDIENCE, Clock.systemUTC()), 7,
                Duration.ofMinutes(5));

        DevReaderKeys.ensure(layout);
        DevReaderKeys.ensure(layout); // once only
        String keys = Files.readString(DevReaderKeys.privateFile(layout));
        assertThat(JwtKeys.newestKind(keys)).isEqualTo(JwtKeys.Kind.RS256);
        assertThat(keys).contains("\"dev-1\"").contains("\"dev-rsa-1\"");
        JwtAuthenticator verifier = verifier(layout);
        assertThat(verifier.authenticate(before).name()).isEqualTo("7");
        assertThat(verifier.authenticate(DevReaderKeys.userToken(layout, 8)).name()).isEqualTo("8");
    }

    @Test
    void anEs256KeyAddedAfterTheRs256OneIsFollowedByAnotherRs256Key(@TempDir Path tmp) throws Exception {
        StackLayout layout = new StackLayout(tmp, tmp.resolve(".pinfeed"));
        DevReaderKeys.ensure(layout);
        String withEc = JwtKeys.withNewKey(Files.readString(DevReaderKeys.privateFile(layout)), "dev-2", JwtKeys.Kind.ES256);
        Files.writeString(DevReaderKeys.privateFile(layout), withEc);

        DevReaderKeys.ensure(layout);
        String keys = Files.readString(DevReaderKeys.privateFile(layout));
        assertThat(JwtKeys.keyIds(keys)).containsExactly("dev-rsa-1", "dev-2", "dev-rsa-2");
        assertThat(JwtKeys.newestKind(keys)).isEqualTo(JwtKeys.Kind.RS256);
    }

    private static JwtAuthenticator verifier(StackLayout layout) {
        return JwtAuthenticator.fromFile(DevReaderKeys.publicFile(layout), DevReaderKeys.ISSUER, ReaderClaims.AUDIENCE, Clock.systemUTC());
    }
}
