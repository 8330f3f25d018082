package dev.pinfeed.infra.stacktestkit;

import dev.pinfeed.infra.stack.LocalStack;
import java.util.List;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The one shared stack for every {@code *IT}: attaches to a stack that is already up (the fast
 * local loop, and {@code ./pinfeed test}, which starts it once per run), or starts one on first use
 * in this JVM (only the servers that were down) and stops those when the JVM's test run ends. Inject {@link TestStack} into a
 * constructor, lifecycle method or test.
 */
public final class StackExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(StackExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == TestStack.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot().getStore(NS).getOrComputeIfAbsent(Shared.class, k -> Shared.attachOrStart(), Shared.class).stack;
    }

    /** Lives in the root store: closed once, after the last test of this JVM. */
    static final class Shared implements ExtensionContext.Store.CloseableResource, AutoCloseable {
        final TestStack stack;
        private final LocalStack local;
        private final List<String> startedHere;

        private Shared(LocalStack local, List<String> startedHere) {
            this.local = local;
            this.startedHere = startedHere;
            this.stack = new TestStack(local);
        }

        static Shared attachOrStart() {
            LocalStack local = LocalStack.fromEnvironment(line -> System.err.println("[pinfeed-test] " + line));
            // Servers only: apps of a running ./pinfeed dev are not the tests' business.
            List<String> sick = local.unhealthyServers();
            if (sick.isEmpty()) return new Shared(local, List.of());
            try {
                return new Shared(local, local.start());
            } catch (Exception e) {
                throw new IllegalStateException("cannot start the shared test stack (not healthy: " + sick + "): " + e.getMessage(), e);
            }
        }

        @Override
        public void close() {
            // Only what this JVM started: servers another process runs stay up.
            if (!startedHere.isEmpty()) local.stop(startedHere);
        }
    }
}
