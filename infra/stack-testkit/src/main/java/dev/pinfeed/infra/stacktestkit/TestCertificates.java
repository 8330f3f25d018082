package dev.pinfeed.infra.stacktestkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * A throw-away CA and one server certificate it signed, for a TLS test's own server: PEM files for the
 * server (made with the {@code openssl} command) and the CA in a PKCS12 trust store for the client.
 *
 * @param ca                 the CA certificate (PEM)
 * @param serverCertificate  the server's certificate (PEM), valid for the subject alternative names given
 * @param serverKey          its unencrypted private key (PEM)
 * @param truststore         a PKCS12 store holding only the CA
 * @param truststorePassword that store's password
 */
public record TestCertificates(Path ca, Path serverCertificate, Path serverKey, Path truststore, String truststorePassword) {

    /** Makes them in {@code dir}; {@code subjectAltNames} as openssl writes them, e.g. {@code IP:127.0.0.1}. */
    public static TestCertificates create(Path dir, String subjectAltNames) throws IOException, InterruptedException {
        Path ca = dir.resolve("ca.crt");
        Path caKey = dir.resolve("ca.key");
        Path cert = dir.resolve("server.crt");
        Path key = dir.resolve("server.key");
        Path csr = dir.resolve("server.csr");
        Path extensions = Files.writeString(dir.resolve("server.ext"), "subjectAltName=" + subjectAltNames + "\n");
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", caKey.toString(), "-out", ca.toString(),
                "-days", "2", "-subj", "/CN=pinfeed-test-ca");
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", key.toString(), "-out", csr.toString(), "-subj", "/CN=pinfeed-test-server");
        openssl("x509", "-req", "-in", csr.toString(), "-CA", ca.toString(), "-CAkey", caKey.toString(), "-CAcreateserial",
                "-out", cert.toString(), "-days", "2", "-extfile", extensions.toString());
        Path truststore = dir.resolve("ca.p12");
        String password = "test-store-pw";
        try (InputStream in = Files.newInputStream(ca); OutputStream out = Files.newOutputStream(truststore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setCertificateEntry("pinfeed-test-ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
            store.store(out, password.toCharArray());
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot write the trust store: " + e.getMessage(), e);
        }
        return new TestCertificates(ca, cert, key, truststore, password);
    }

    private static void openssl(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) throw new IOException("openssl " + args[0] + " failed: " + out.strip());
    }
}
