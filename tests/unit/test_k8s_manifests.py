"""The Kubernetes manifests build, validate and hold a cluster's strict rules; the compose files follow the spec.

Sources: the files themselves (deploy/k8s/base and the gateway of deploy/k8s/web, always) and
`kubectl kustomize` of every overlay (base, web, secure; skipped only where kubectl is absent).
Each object validates against the Kubernetes schemas that kubernetes-validate bundles (strict:
an unknown field fails), and every Deployment passes Pod Security "restricted" with a read-only
root, has its NetworkPolicy, its PodDisruptionBudget and, but the dispatcher, its autoscaler.
Offline: the schemas come with the PyPI packages (kubernetes-validate, check-jsonschema).
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kubernetes_validate  # type: ignore[import-untyped]  # no stubs or py.typed
import pytest
import yaml

from deploy import generate
from deploy.k8s_parts import IMAGE_UID, MONITORING_NAMESPACE, REDIS_CLIENT_LABEL

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"
OVERLAYS = sorted(p.parent.name for p in K8S.glob("*/kustomization.yaml"))
SOURCES = ["files", *OVERLAYS]  # "files": the manifests as written, no kubectl needed
KUBECTL = shutil.which("kubectl")
# The oldest Kubernetes the manifests are checked against (gRPC probes are GA from 1.27).
KUBERNETES_VERSION = "1.27"
DOCKERFILES = [ROOT / "deploy" / "docker" / "Dockerfile", ROOT / "deploy" / "docker" / "gateway.Dockerfile"]
COMPOSE_FILES = [generate.COMPOSE, generate.SECURE_COMPOSE, generate.WEB_COMPOSE]
# Pod Security "restricted": the volume types it allows, the one capability a container may add.
RESTRICTED_VOLUMES = {"configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim", "projected"}
RESTRICTED_VOLUMES |= {"secret"}
SINGLETONS = {"dispatcher"}  # a fixed count of replicas (they share one consumer group), no autoscaler
PUBLIC = {"gateway"}  # the one component reachable from outside the namespace
Object = dict[str, Any]


def documents(text: str) -> list[Object]:
    return [d for d in yaml.safe_load_all(text) if d]


@functools.cache
def objects(source: str) -> list[Object]:
    """The objects of one source: the manifest files, or `kubectl kustomize` of one overlay."""
    if source == "files":
        paths = [p for p in sorted((K8S / "base").glob("*.yaml")) if p.name != "kustomization.yaml"]
        return [d for p in [*paths, K8S / "web" / "gateway.yaml"] for d in documents(p.read_text())]
    if KUBECTL is None:
        pytest.skip("kubectl is not installed: the overlays cannot be built (the files are still checked)")
    built = subprocess.run([KUBECTL, "kustomize", str(K8S / source)], capture_output=True, text=True, timeout=60)
    assert built.returncode == 0, f"kubectl kustomize deploy/k8s/{source} fails:\n{built.stderr}"
    return documents(built.stdout)


def of_kind(source: str, kind: str) -> dict[str, Object]:
    return {o["metadata"]["name"]: o for o in objects(source) if o["kind"] == kind}


def selects(selector: Object, labels: dict[str, str]) -> bool:
    """Whether a matchLabels selector (the only form used here) picks pods with `labels`."""
    assert set(selector) <= {"matchLabels"}, f"only matchLabels selectors are checked: {selector}"
    return bool(selector.get("matchLabels")) and selector["matchLabels"].items() <= labels.items()


def pod_labels(deployment: Object) -> dict[str, str]:
    labels: dict[str, str] = deployment["spec"]["template"]["metadata"]["labels"]
    return labels


def containers(deployment: Object) -> Iterator[Object]:
    spec = deployment["spec"]["template"]["spec"]
    yield from [*spec.get("initContainers", []), *spec["containers"]]


# --- building and validating --------------------------------------------------------------
def test_there_are_overlays_and_each_builds_on_the_base() -> None:
    assert OVERLAYS == ["base", "secure", "web"], OVERLAYS


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_overlay_builds_and_validates_against_the_kubernetes_schemas(overlay: str) -> None:
    built = objects(overlay)
    assert {o["kind"] for o in built} >= {"Deployment", "Service", "NetworkPolicy", "PodDisruptionBudget"}
    for item in built:
        try:
            kubernetes_validate.validate(item, KUBERNETES_VERSION, strict=True)
        except kubernetes_validate.ValidationError as exc:
            pytest.fail(f"deploy/k8s/{overlay}: {item['kind']} {item['metadata']['name']}: {exc}")
    deployments = set(of_kind(overlay, "Deployment"))
    assert ("gateway" in deployments) == (overlay != "base"), f"{overlay}: Deployments {sorted(deployments)}"


def test_the_validator_refuses_a_misspelled_field() -> None:
    """The check above is real: strict validation rejects what a cluster would silently drop."""
    deployment = next(o for o in objects("files") if o["kind"] == "Deployment")
    kubernetes_validate.validate(deployment, KUBERNETES_VERSION, strict=True)
    spec = deployment["spec"]["template"]["spec"]
    broken = {**deployment, "spec": {**deployment["spec"], "template": {"spec": {**spec, "securityContex": {}}}}}
    with pytest.raises(kubernetes_validate.ValidationError, match="securityContex"):
        kubernetes_validate.validate(broken, KUBERNETES_VERSION, strict=True)


def test_the_compose_files_follow_the_compose_spec() -> None:
    """docker-compose.yml and its two overrides, against the compose-spec schema check-jsonschema ships."""
    checker = Path(sys.executable).with_name("check-jsonschema")
    files = [str(ROOT / path) for path in COMPOSE_FILES]
    checked = subprocess.run(
        [str(checker), "--builtin-schema", "vendor.compose-spec", *files], capture_output=True, text=True, timeout=60
    )
    assert checked.returncode == 0, f"{checked.stdout}{checked.stderr}"
    with tempfile.TemporaryDirectory() as folder:  # and the check is real: a misspelled key fails it
        bad = Path(folder) / "compose.yml"
        bad.write_text("services:\n  lobby:\n    image: x\n    restrat: always\n")
        refused = subprocess.run(
            [str(checker), "--builtin-schema", "vendor.compose-spec", str(bad)], capture_output=True, timeout=60
        )
    assert refused.returncode == 1, refused


# --- Pod Security "restricted", and a read-only root --------------------------------------
def image_uids() -> set[str]:
    users = [line.split()[1] for f in DOCKERFILES for line in f.read_text().splitlines() if line.startswith("USER ")]
    return {user.split(":")[0] for user in users}


@pytest.mark.parametrize("source", SOURCES)
def test_every_pod_passes_pod_security_restricted_with_a_read_only_root(source: str) -> None:
    assert image_uids() == {str(IMAGE_UID)}, f"the images' USER {image_uids()} is not runAsUser {IMAGE_UID}"
    deployments = of_kind(source, "Deployment")
    assert deployments
    for name, deployment in deployments.items():
        where = f"{source}: Deployment {name}"
        pod = deployment["spec"]["template"]["spec"]
        context = pod.get("securityContext", {})
        assert not any(pod.get(key) for key in ("hostNetwork", "hostPID", "hostIPC")), where
        assert context.get("runAsNonRoot") is True and context.get("runAsUser") == IMAGE_UID, where
        assert context.get("seccompProfile") == {"type": "RuntimeDefault"}, where
        assert not context.get("sysctls") and pod.get("automountServiceAccountToken") is False, where
        volumes = {v["name"]: v for v in pod.get("volumes", [])}
        for volume in volumes.values():
            assert set(volume) - {"name"} <= RESTRICTED_VOLUMES, f"{where}: volume {volume}"
        for box in containers(deployment):
            own = box.get("securityContext", {})
            assert own.get("allowPrivilegeEscalation") is False and not own.get("privileged"), where
            assert own.get("capabilities") == {"drop": ["ALL"]}, f"{where}: capabilities {own.get('capabilities')}"
            assert own.get("readOnlyRootFilesystem") is True, where
            assert own.get("runAsUser", IMAGE_UID) == IMAGE_UID and own.get("runAsNonRoot", True), where
            assert not any(port.get("hostPort") for port in box.get("ports", [])), where
            assert "cpu" in box.get("resources", {}).get("requests", {}), f"{where}: no CPU request"
            # Python's tempfile (and so the bot worker's PROMETHEUS_MULTIPROC_DIR) writes under /tmp:
            # a pod-owned emptyDir, the one writable place besides read-only secrets.
            assert not {e["name"] for e in box.get("env", [])} & {"TMPDIR", "TEMP", "TMP"}, where
            mounts = {m["mountPath"]: m for m in box.get("volumeMounts", [])}
            assert "/tmp" in mounts and "emptyDir" in volumes[mounts["/tmp"]["name"]], f"{where}: /tmp is read-only"
            for path, mount in mounts.items():
                assert "emptyDir" in volumes[mount["name"]] or mount.get("readOnly"), f"{where}: {path} writable"


# --- NetworkPolicies ---------------------------------------------------------------------
def policies_of(source: str, labels: dict[str, str]) -> list[Object]:
    return [p for p in of_kind(source, "NetworkPolicy").values() if selects(p["spec"]["podSelector"], labels)]


def admitted(policy: Object) -> Iterator[tuple[int, str]]:
    """(port, who): who is "anyone", "platform" (pods of this namespace) or "monitoring"."""
    for rule in policy["spec"].get("ingress", []):
        peers = rule.get("from")
        if not peers:
            who = "anyone"
        elif peers == [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": MONITORING_NAMESPACE}}}]:
            who = "monitoring"
        else:
            assert all(set(peer) == {"podSelector"} for peer in peers), f"an unexpected peer: {peers}"
            who = "platform"
        assert rule.get("ports"), f"{policy['metadata']['name']}: a rule for every port is no rule"
        yield from ((port["port"], who) for port in rule["ports"])


@pytest.mark.parametrize("source", SOURCES)
def test_every_component_admits_its_callers_metrics_only_from_monitoring_and_only_the_gateway_from_outside(
    source: str,
) -> None:
    services = of_kind(source, "Service")
    assert all(s["spec"].get("type", "ClusterIP") == "ClusterIP" for s in services.values()), "a Service is exposed"
    for name, deployment in of_kind(source, "Deployment").items():
        where, labels = f"{source}: Deployment {name}", pod_labels(deployment)
        policies = policies_of(source, labels)
        assert len(policies) == 1 and policies[0]["spec"]["policyTypes"] == ["Ingress"], f"{where}: {policies}"
        rules = set(admitted(policies[0]))
        ports = {p["name"]: p["containerPort"] for box in containers(deployment) for p in box.get("ports", [])}
        called = {
            ports.get(str(port["targetPort"]), port["targetPort"])
            for service in services.values()
            if selects({"matchLabels": service["spec"]["selector"]}, labels)
            for port in service["spec"]["ports"]
        }
        if "metrics" in ports:
            assert rules >= {(ports["metrics"], "monitoring")}, f"{where}: /metrics is not scraped: {rules}"
        expected_callers = "anyone" if name in PUBLIC else "platform"
        assert rules >= {(port, expected_callers) for port in called}, f"{where}: callers shut out: {rules}"
        assert {port for port, who in rules if who == "monitoring"} <= {ports.get("metrics")}, where
        assert all(port in called for port, who in rules if who != "monitoring"), f"{where}: opens {rules}"
        assert (name in PUBLIC) == any(who == "anyone" for _, who in rules), f"{where}: reachable from outside"
    assert set(PUBLIC) <= set(of_kind(source, "Deployment")) or source == "base"


@pytest.mark.parametrize("source", SOURCES)
def test_redis_admits_exactly_the_pods_that_use_it(source: str) -> None:
    """Redis, when it runs in the namespace (labelled app.kubernetes.io/name: redis), takes only its clients."""
    policies = policies_of(source, {"app.kubernetes.io/name": "redis"})
    assert len(policies) == 1, policies
    (rule,) = policies[0]["spec"]["ingress"]
    label, value = REDIS_CLIENT_LABEL
    assert rule == {"from": [{"podSelector": {"matchLabels": {label: value}}}], "ports": [{"port": 6379}]}
    for name, deployment in of_kind(source, "Deployment").items():
        uses_redis = any(e["name"] == "REDIS_URL" for box in containers(deployment) for e in box.get("env", []))
        assert (pod_labels(deployment).get(label) == value) == uses_redis, f"{source}: Deployment {name}"


# --- disruption budgets and autoscalers ---------------------------------------------------
@pytest.mark.parametrize("source", SOURCES)
def test_every_component_has_a_disruption_budget_and_all_but_the_dispatcher_an_autoscaler(source: str) -> None:
    budgets = of_kind(source, "PodDisruptionBudget").values()
    autoscalers = of_kind(source, "HorizontalPodAutoscaler").values()
    for name, deployment in of_kind(source, "Deployment").items():
        where = f"{source}: Deployment {name}"
        mine = [b["spec"] for b in budgets if selects(b["spec"]["selector"], pod_labels(deployment))]
        assert len(mine) == 1 and mine[0].get("maxUnavailable") == 1, f"{where}: budgets {mine}"
        scaling = [h["spec"] for h in autoscalers if h["spec"]["scaleTargetRef"] == {
            "apiVersion": "apps/v1", "kind": "Deployment", "name": name
        }]  # fmt: skip
        if name in SINGLETONS:
            assert not scaling and deployment["spec"]["replicas"] >= 2, f"{where}: one pod, no availability"
            continue
        assert len(scaling) == 1, f"{where}: {len(scaling)} autoscalers"
        assert "replicas" not in deployment["spec"], f"{where}: `replicas` fights its autoscaler"
        assert 1 <= scaling[0]["minReplicas"] <= scaling[0]["maxReplicas"], where
        # A budget of one pod down needs two pods up for anything called to stay reachable.
        assert scaling[0]["minReplicas"] >= 2 or name.endswith("worker"), f"{where}: minReplicas"
    named = {h["spec"]["scaleTargetRef"]["name"] for h in autoscalers}
    assert {"lobby", "bot-worker", "search-worker"} <= named and ("gateway" in named) == (source != "base")
