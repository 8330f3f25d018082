package dev.pinfeed.deployment;

import dev.pinfeed.deployment.Manifests.Workload;
import io.fabric8.kubernetes.api.model.ConfigMapVolumeSource;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The manifests held to the apps' configuration: each check names what is wrong, so one run lists every problem.
 * The expectations come from the configuration file, so a key added there is checked without editing this class.
 */
final class ManifestChecks {

    static final String CONFIG_FILE_NAME = "pinfeed.properties";
    static final String ENTRYPOINT_DIR = "/opt/pinfeed/bin/";
    /** Kubernetes 1.28+ labels a StatefulSet's pods with their ordinal. */
    private static final String POD_INDEX = "metadata.labels['apps.kubernetes.io/pod-index']";
    /** Heap at most this share of the container's memory limit: metaspace, threads, direct buffers and RocksDB need the rest. */
    private static final BigDecimal MAX_HEAP_SHARE = new BigDecimal("0.75");
    private static final Pattern XMX = Pattern.compile("-Xmx(\\d+)([kKmMgG]?)");

    private final Manifests manifests;
    private final ExampleConfiguration config;
    private final String version;
    private final List<String> problems = new ArrayList<>();

    private ManifestChecks(Manifests manifests, ExampleConfiguration config, String version) {
        this.manifests = manifests;
        this.config = config;
        this.version = version;
    }

    /** Every problem found, one line each; empty when the manifests run every app as its configuration says. */
    static List<String> problems(Manifests manifests, ExampleConfiguration config, String version) {
        ManifestChecks checks = new ManifestChecks(manifests, config, version);
        checks.checkListing();
        checks.checkFieldsAreKnown();
        checks.checkAddressesBelongToApps();
        for (String app : config.apps()) checks.checkApp(app);
        checks.checkConsoleUrls();
        return List.copyOf(checks.problems);
    }

    private void problem(String format, Object... args) {
        problems.add(String.format(format, args));
    }

    /** A manifest kustomization.yaml does not list is never applied. */
    private void checkListing() {
        if (!new TreeSet<>(manifests.resourceFiles()).equals(new TreeSet<>(manifests.yamlFiles()))) {
            problem("kustomization.yaml lists %s, the directory holds %s", new TreeSet<>(manifests.resourceFiles()), manifests.yamlFiles());
        }
    }

    private void checkFieldsAreKnown() {
        for (HasMetadata resource : manifests.resources()) {
            for (String field : UnknownFields.in(resource)) problem("%s %s: unknown field %s", resource.getKind(), resource.getMetadata().getName(), field);
        }
    }

    /** A new public address must be mapped to its app, or no check would ask for its port and Service. */
    private void checkAddressesBelongToApps() {
        config.unknownPublicAddresses().forEach(key -> problem("%s: a public address of no app known here (ExampleConfiguration.PUBLIC_ADDRESS_KEYS)", key));
    }

    private void checkApp(String app) {
        Optional<Workload> found = manifests.workload(app);
        if (found.isEmpty()) {
            problem("%s: no Deployment or StatefulSet", app);
            return;
        }
        Workload workload = found.get();
        Optional<Container> container = container(workload, app);
        if (container.isEmpty()) {
            problem("%s: no container named %s", app, app);
            return;
        }
        Container c = container.get();
        checkImage(app, c);
        int admin = config.adminPort(app);
        OptionalInt publicPort = config.publicPort(app);
        checkPorts(app, c, admin, publicPort);
        checkProbe(app, "liveness", c.getLivenessProbe(), "/health/live", c, admin);
        checkProbe(app, "readiness", c.getReadinessProbe(), "/health/ready", c, admin);
        if (c.getStartupProbe() != null) checkProbe(app, "startup", c.getStartupProbe(), "/health/live", c, admin);
        checkScrapeAnnotations(app, workload, admin);
        checkServices(app, workload, c, admin, publicPort);
        checkConfiguration(app, workload, c);
        // A collector reads one JSON object per line (LogFormat in processor-runtime).
        if (!env(c, "PINFEED_LOG_FORMAT").map(EnvVar::getValue).orElse("").equals("json")) problem("%s: PINFEED_LOG_FORMAT is not json", app);
        config.pathsReadBy(app).forEach((key, path) -> checkMounted(app, workload, c, key, path));
        checkResources(app, c);
        checkInstanceIdentity(app, workload, c);
    }

    private static Optional<Container> container(Workload workload, String app) {
        return workload.template().getSpec().getContainers().stream().filter(c -> c.getName().equals(app)).findFirst();
    }

    /**
     * The console reaches each app where its URL keys say: a Service of these manifests selecting the app's pods, whose
     * port reaches the app's admin port ({@code console.process.<app>.url}) or public port ({@code console.<app>.url}).
     */
    private void checkConsoleUrls() {
        for (ExampleConfiguration.ConsoleUrl u : config.consoleUrls()) {
            URI uri;
            try {
                uri = new URI(u.url());
            } catch (URISyntaxException e) {
                uri = null;
            }
            if (uri == null || uri.getHost() == null || !List.of("http", "https").contains(uri.getScheme())) {
                problem("%s=%s: not an http(s) URL", u.key(), u.url());
                continue;
            }
            String host = uri.getHost();
            int port = uri.getPort() >= 0 ? uri.getPort() : uri.getScheme().equals("https") ? 443 : 80;
            Optional<Service> service = manifests.services().stream().filter(s -> s.getMetadata().getName().equals(host)).findFirst();
            if (service.isEmpty()) {
                problem("%s=%s: no Service %s", u.key(), u.url(), host);
                continue;
            }
            Optional<ServicePort> servicePort = service.get().getSpec().getPorts().stream().filter(p -> Objects.equals(p.getPort(), port)).findFirst();
            if (servicePort.isEmpty()) {
                problem("%s=%s: Service %s has no port %d", u.key(), u.url(), host, port);
                continue;
            }
            Optional<Workload> workload = manifests.workload(u.app());
            Optional<Container> c = workload.flatMap(w -> container(w, u.app()));
            if (c.isEmpty()) continue; // named by the app's own checks
            Map<String, String> selector = service.get().getSpec().getSelector();
            Map<String, String> podLabels = Optional.ofNullable(workload.get().template().getMetadata().getLabels()).orElse(Map.of());
            if (selector == null || selector.isEmpty() || !podLabels.entrySet().containsAll(selector.entrySet())) {
                problem("%s=%s: Service %s does not select %s's pods", u.key(), u.url(), host, u.app());
                continue;
            }
            IntOrString targetPort = servicePort.get().getTargetPort();
            Integer target = containerPort(c.get(), targetPort == null ? new IntOrString(port) : targetPort);
            int expected = u.admin() ? config.adminPort(u.app()) : config.publicPort(u.app()).orElseThrow();
            if (!Objects.equals(target, expected)) {
                problem("%s=%s: Service %s port %d reaches %s's port %s, expected its %s port %d", u.key(), u.url(), host, port, u.app(), target,
                        u.admin() ? "admin" : "public", expected);
            }
        }
    }

    private void checkImage(String app, Container c) {
        if (!Objects.equals(c.getImage(), "pinfeed/" + app)) problem("%s: image %s, expected pinfeed/%s (its tag set by kustomize)", app, c.getImage(), app);
        String tag = manifests.imageTags().get("pinfeed/" + app);
        if (!Objects.equals(tag, version)) problem("%s: kustomization images tag pinfeed/%s as %s, expected the project version %s", app, app, tag, version);
        if (!Objects.equals(c.getCommand(), List.of(ENTRYPOINT_DIR + app))) problem("%s: command %s, expected [%s%s]", app, c.getCommand(), ENTRYPOINT_DIR, app);
    }

    private void checkPorts(String app, Container c, int admin, OptionalInt publicPort) {
        Set<Integer> expected = new TreeSet<>();
        expected.add(admin);
        publicPort.ifPresent(expected::add);
        Set<Integer> declared = new TreeSet<>();
        for (ContainerPort port : c.getPorts()) declared.add(port.getContainerPort());
        if (!declared.equals(expected)) problem("%s: container ports %s, the configuration says %s", app, declared, expected);
    }

    private void checkProbe(String app, String kind, Probe probe, String path, Container c, int admin) {
        if (probe == null || probe.getHttpGet() == null) {
            problem("%s: no %s probe (GET %s on the admin port %d)", app, kind, path, admin);
            return;
        }
        if (!path.equals(probe.getHttpGet().getPath())) problem("%s: %s probe GET %s, expected %s", app, kind, probe.getHttpGet().getPath(), path);
        Integer port = containerPort(c, probe.getHttpGet().getPort());
        if (!Objects.equals(port, admin)) problem("%s: %s probe on port %s, expected the admin port %d", app, kind, port, admin);
    }

    /** A port given by number or by the name of one of the container's ports. */
    private static Integer containerPort(Container c, IntOrString port) {
        if (port == null) return null;
        if (port.getIntVal() != null) return port.getIntVal();
        return c.getPorts().stream().filter(p -> port.getStrVal().equals(p.getName())).map(ContainerPort::getContainerPort).findFirst().orElse(null);
    }

    private void checkScrapeAnnotations(String app, Workload workload, int admin) {
        Map<String, String> annotations = Optional.ofNullable(workload.template().getMetadata().getAnnotations()).orElse(Map.of());
        Map<String, String> expected = Map.of("prometheus.io/scrape", "true", "prometheus.io/port", String.valueOf(admin), "prometheus.io/path", "/metrics");
        expected.forEach((key, value) -> {
            if (!value.equals(annotations.get(key))) problem("%s: pod annotation %s is %s, expected %s", app, key, annotations.get(key), value);
        });
    }

    private void checkServices(String app, Workload workload, Container c, int admin, OptionalInt publicPort) {
        Map<String, String> podLabels = workload.template().getMetadata().getLabels();
        if (!podLabels.entrySet().containsAll(workload.selector().entrySet())) problem("%s: its selector %s does not match its pods' labels", app, workload.selector());
        List<Integer> served = new ArrayList<>();
        for (Service service : manifests.services()) {
            Map<String, String> selector = service.getSpec().getSelector();
            if (selector == null || selector.isEmpty() || !podLabels.entrySet().containsAll(selector.entrySet())) continue;
            for (ServicePort port : service.getSpec().getPorts()) {
                Integer target = containerPort(c, port.getTargetPort() == null ? new IntOrString(port.getPort()) : port.getTargetPort());
                if (target == null) problem("%s: Service %s port %s targets no port of the container", app, service.getMetadata().getName(), port.getPort());
                else served.add(target);
            }
        }
        if (!served.contains(admin)) problem("%s: no Service exposes its admin port %d", app, admin);
        publicPort.ifPresent(p -> {
            if (!served.contains(p)) problem("%s: no Service exposes its public port %d", app, p);
        });
    }

    /** PINFEED_CONFIG names the mounted pinfeed.properties of the generated ConfigMap, identical to the configuration file. */
    private void checkConfiguration(String app, Workload workload, Container c) {
        String path = env(c, "PINFEED_CONFIG").map(EnvVar::getValue).orElse(null);
        if (path == null) {
            problem("%s: no PINFEED_CONFIG", app);
            return;
        }
        Optional<Mounted> mounted = mountOf(workload, c, path);
        if (mounted.isEmpty() || mounted.get().volume() == null || mounted.get().volume().getConfigMap() == null || mounted.get().file().isEmpty()) {
            problem("%s: PINFEED_CONFIG=%s is no file of a mounted ConfigMap", app, path);
            return;
        }
        ConfigMapVolumeSource configMap = mounted.get().volume().getConfigMap();
        String file = mounted.get().file().get();
        // With an item list the file is an item's path; without, the key itself.
        String key = Optional.ofNullable(configMap.getItems()).orElse(List.of()).stream().filter(i -> i.getPath().equals(file))
                .map(KeyToPath::getKey).findFirst().orElse(file);
        Path source = manifests.generatedConfigMaps().getOrDefault(configMap.getName(), Map.of()).get(key);
        if (source == null) {
            problem("%s: PINFEED_CONFIG=%s: ConfigMap %s generates no key %s", app, path, configMap.getName(), key);
        } else if (!Arrays.equals(read(source), config.bytes())) {
            problem("%s: PINFEED_CONFIG=%s: %s differs from the configuration file", app, path, manifests.dir().relativize(source));
        }
    }

    private void checkMounted(String app, Workload workload, Container c, String key, String path) {
        Optional<Mounted> mounted = mountOf(workload, c, path);
        if (mounted.isEmpty()) {
            problem("%s: %s=%s lies under no volume mounted in its container", app, key, path);
        } else if (key.endsWith("state-dir") && mounted.get().claim() == null) {
            problem("%s: %s=%s is not on a persistent volume (a StatefulSet's volume claim template)", app, key, path);
        }
    }

    /** A path's mount: its volume (or claim template) and the file within it (a subPath mount names one file). */
    private record Mounted(VolumeMount mount, Volume volume, PersistentVolumeClaim claim, Optional<String> file) {}

    private static Optional<Mounted> mountOf(Workload workload, Container c, String path) {
        for (VolumeMount mount : Optional.ofNullable(c.getVolumeMounts()).orElse(List.of())) {
            String root = mount.getMountPath().replaceAll("/+$", "");
            if (!path.equals(root) && !path.startsWith(root + "/")) continue;
            Volume volume = Optional.ofNullable(workload.template().getSpec().getVolumes()).orElse(List.of()).stream()
                    .filter(v -> v.getName().equals(mount.getName())).findFirst().orElse(null);
            PersistentVolumeClaim claim = workload.claimTemplates().stream().filter(t -> t.getMetadata().getName().equals(mount.getName())).findFirst().orElse(null);
            if (volume == null && claim == null) continue;
            String within = path.equals(root) ? "" : path.substring(root.length() + 1);
            boolean subPath = mount.getSubPath() != null && !mount.getSubPath().isEmpty();
            Optional<String> file = subPath ? Optional.of(mount.getSubPath() + (within.isEmpty() ? "" : "/" + within))
                    : within.isEmpty() ? Optional.empty() : Optional.of(within);
            return Optional.of(new Mounted(mount, volume, claim, file));
        }
        return Optional.empty();
    }

    private void checkResources(String app, Container c) {
        Map<String, Quantity> limits = c.getResources() == null ? null : c.getResources().getLimits();
        Map<String, Quantity> requests = c.getResources() == null ? null : c.getResources().getRequests();
        if (requests == null || !requests.containsKey("cpu")) problem("%s: no CPU request", app);
        if (limits == null || !limits.containsKey("memory")) {
            problem("%s: no memory limit", app);
            return;
        }
        String javaOpts = env(c, "JAVA_OPTS").map(EnvVar::getValue).orElse("");
        Matcher xmx = XMX.matcher(javaOpts);
        if (!xmx.find()) {
            problem("%s: JAVA_OPTS sets no heap (-Xmx): %s", app, javaOpts);
            return;
        }
        BigDecimal heap = new BigDecimal(xmx.group(1)).multiply(BigDecimal.valueOf(switch (xmx.group(2).toLowerCase()) {
            case "k" -> 1L << 10;
            case "m" -> 1L << 20;
            case "g" -> 1L << 30;
            default -> 1L;
        }));
        BigDecimal limit = Quantity.getAmountInBytes(limits.get("memory"));
        if (heap.compareTo(limit.multiply(MAX_HEAP_SHARE)) > 0) problem("%s: heap %s is over %s of the memory limit %s", app, xmx.group(), MAX_HEAP_SHARE, limits.get("memory"));
    }

    /**
     * Replicas must not share an identity: the processors' static group membership ({@code processor.instance}), and
     * ingest-api's logical shard of its event ids ({@code ingest.instance-shard}, a number: a StatefulSet's ordinal).
     */
    private void checkInstanceIdentity(String app, Workload workload, Container c) {
        if (config.publicPort(app).isEmpty()) {
            String field = env(c, "PINFEED_PROCESSOR_INSTANCE").map(e -> e.getValueFrom() == null || e.getValueFrom().getFieldRef() == null ? null
                    : e.getValueFrom().getFieldRef().getFieldPath()).orElse(null);
            if (!"metadata.name".equals(field) && !POD_INDEX.equals(field)) problem("%s: PINFEED_PROCESSOR_INSTANCE is not the pod's name or ordinal", app);
        }
        if (app.equals("ingest-api")) {
            String field = env(c, "PINFEED_INGEST_INSTANCE_SHARD").map(e -> e.getValueFrom() == null || e.getValueFrom().getFieldRef() == null ? null
                    : e.getValueFrom().getFieldRef().getFieldPath()).orElse(null);
            if (!workload.kind().equals("StatefulSet") || !POD_INDEX.equals(field)) {
                problem("%s: PINFEED_INGEST_INSTANCE_SHARD is not the StatefulSet pod's ordinal (%s)", app, POD_INDEX);
            }
        }
    }

    private static Optional<EnvVar> env(Container c, String name) {
        return Optional.ofNullable(c.getEnv()).orElse(List.of()).stream().filter(e -> e.getName().equals(name)).findFirst();
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
