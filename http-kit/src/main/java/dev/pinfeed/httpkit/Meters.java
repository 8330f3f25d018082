package dev.pinfeed.httpkit;

import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmCompilationMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmInfoMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * Where every pinfeed process gets its meter registry, so all of them export the same JVM and process meters
 * ({@code jvm_memory_used_bytes}, {@code jvm_gc_pause_seconds}, {@code process_cpu_usage}, ...) next to their own.
 */
public final class Meters {

    /** The Content-Type of {@link PrometheusMeterRegistry#scrape()}: the Prometheus text format 0.0.4. */
    public static final String PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private Meters() {
    }

    /**
     * A new Prometheus registry with the JVM and process binders bound. Create one per process (the GC binder keeps
     * a listener on the JVM's collectors for the registry's lifetime) and pass it to every {@link HttpApp} and
     * processor of that process.
     */
    public static PrometheusMeterRegistry newRegistry() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        // The JIT's compile time: a JVM that still compiles is still warming up (latency measured then is not steady).
        new JvmCompilationMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        new JvmInfoMetrics().bindTo(registry);
        return registry;
    }
}
