package dev.pinfeed.deployment;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/** A kustomization directory as kubectl would read it: its resources parsed into the Kubernetes model, and its generators. */
final class Manifests {

    /** A Deployment or a StatefulSet: what runs an app's pods. */
    record Workload(String kind, String name, Map<String, String> selector, PodTemplateSpec template, List<PersistentVolumeClaim> claimTemplates) {}

    private final Path dir;
    private final Map<String, Object> kustomization;
    private final Map<String, List<HasMetadata>> resourcesByFile = new LinkedHashMap<>();

    private Manifests(Path dir, Map<String, Object> kustomization) {
        this.dir = dir;
        this.kustomization = kustomization;
    }

    @SuppressWarnings("unchecked")
    static Manifests load(Path dir) {
        Manifests manifests = new Manifests(dir, Serialization.unmarshal(read(dir.resolve("kustomization.yaml")), Map.class));
        for (String file : manifests.strings("resources")) {
            try (InputStream in = Files.newInputStream(dir.resolve(file))) {
                Object parsed = Serialization.unmarshal(in);
                manifests.resourcesByFile.put(file, parsed instanceof List<?> list ? (List<HasMetadata>) list : List.of((HasMetadata) parsed));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return manifests;
    }

    Path dir() {
        return dir;
    }

    /** The YAML files of the directory besides the kustomization, listed there or not. */
    List<String> yamlFiles() {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml") && !n.equals("kustomization.yaml")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<String> resourceFiles() {
        return strings("resources");
    }

    List<HasMetadata> resources() {
        return resourcesByFile.values().stream().flatMap(List::stream).toList();
    }

    Optional<Workload> workload(String name) {
        return resources().stream().filter(r -> r.getMetadata().getName().equals(name)).flatMap(r -> {
            if (r instanceof Deployment d) {
                return Stream.of(new Workload("Deployment", name, d.getSpec().getSelector().getMatchLabels(), d.getSpec().getTemplate(), List.of()));
            }
            if (r instanceof StatefulSet s) {
                return Stream.of(new Workload("StatefulSet", name, s.getSpec().getSelector().getMatchLabels(), s.getSpec().getTemplate(),
                        s.getSpec().getVolumeClaimTemplates() == null ? List.of() : s.getSpec().getVolumeClaimTemplates()));
            }
            return Stream.empty();
        }).findFirst();
    }

    List<Service> services() {
        return resources().stream().filter(Service.class::isInstance).map(Service.class::cast).toList();
    }

    /** Image name → the tag kustomize sets ({@code images:}). */
    Map<String, String> imageTags() {
        Map<String, String> tags = new LinkedHashMap<>();
        for (Map<String, Object> image : maps("images")) tags.put(String.valueOf(image.get("name")), String.valueOf(image.get("newTag")));
        return tags;
    }

    /** ConfigMap name → its generated keys and the file each is read from ({@code configMapGenerator:}). */
    @SuppressWarnings("unchecked")
    Map<String, Map<String, Path>> generatedConfigMaps() {
        Map<String, Map<String, Path>> maps = new LinkedHashMap<>();
        for (Map<String, Object> generator : maps("configMapGenerator")) {
            Map<String, Path> files = new LinkedHashMap<>();
            for (Object entry : (List<Object>) generator.getOrDefault("files", List.of())) {
                String spec = String.valueOf(entry); // "file" or "key=file"
                int eq = spec.indexOf('=');
                String file = eq < 0 ? spec : spec.substring(eq + 1);
                files.put(eq < 0 ? Path.of(file).getFileName().toString() : spec.substring(0, eq), dir.resolve(file));
            }
            maps.put(String.valueOf(generator.get("name")), files);
        }
        return maps;
    }

    @SuppressWarnings("unchecked")
    private List<String> strings(String field) {
        return ((List<Object>) kustomization.getOrDefault(field, List.of())).stream().map(String::valueOf).toList();
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> maps(String field) {
        return new ArrayList<>((List<Map<String, Object>>) kustomization.getOrDefault(field, List.of()));
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
