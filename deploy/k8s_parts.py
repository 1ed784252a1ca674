"""The pieces every Kubernetes workload of deploy/k8s shares, as YAML text: strict pods, policies, budgets.

deploy/generate.py writes the games' manifests with them; the hand-written manifests
(lobby, dispatcher, the bot workers, the gateway) carry the same text, and
tests/unit/test_k8s_hardening.py checks every one of them (Pod Security "restricted",
a read-only root filesystem, a NetworkPolicy, a PodDisruptionBudget, an autoscaler).
"""

from __future__ import annotations

# The images' numeric USER (deploy/docker/Dockerfile, deploy/docker/gateway.Dockerfile):
# Kubernetes can verify runAsNonRoot only against a number.
IMAGE_UID = 10001
# The namespace whose pods (Prometheus) may scrape /metrics; its automatic label
# kubernetes.io/metadata.name names it.
MONITORING_NAMESPACE = "monitoring"
# Pods that connect to Redis carry this label; the Redis policy admits only them.
REDIS_CLIENT_LABEL = ("menagerie.io/redis", "client")
# Token keys (menagerie.shared.keys): the public set in a ConfigMap every verifier mounts, each
# issuer's private key in a Secret of its own, both projected read-only at KEYS_MOUNT. Not through
# subPath, so that an updated ConfigMap or Secret reaches the files (a rotation, no restart).
KEYS_MOUNT = "/keys"
VERIFY_KEYS_CONFIGMAP = "menagerie-verify-keys"
VERIFY_KEYS_FILE = "verify-keys.json"
KEY_SECRET_PREFIX = "menagerie-key-"


def pod_security(indent: int = 6) -> str:
    """The pod's securityContext: a numeric non-root user, the runtime's seccomp profile, no API token."""
    pad = " " * indent
    return (
        f"{pad}automountServiceAccountToken: false # nothing here talks to the Kubernetes API\n"
        f"{pad}securityContext:\n"
        f"{pad}  runAsNonRoot: true\n"
        f"{pad}  runAsUser: {IMAGE_UID} # the images' USER\n"
        f"{pad}  runAsGroup: {IMAGE_UID}\n"
        f"{pad}  fsGroup: {IMAGE_UID}\n"
        f"{pad}  seccompProfile:\n"
        f"{pad}    type: RuntimeDefault\n"
    )


def container_security(indent: int = 10) -> str:
    """The container's securityContext: no privilege escalation, no capability, a read-only root."""
    pad = " " * indent
    return (
        f"{pad}securityContext:\n"
        f"{pad}  allowPrivilegeEscalation: false\n"
        f"{pad}  readOnlyRootFilesystem: true\n"
        f"{pad}  capabilities:\n"
        f'{pad}    drop: ["ALL"]\n'
    )


def tmp_mount(indent: int = 10) -> str:
    """The container's one writable folder, /tmp (Python's tempfile; the bot worker's metrics files)."""
    pad = " " * indent
    return f"{pad}volumeMounts:\n{pad}  - name: tmp\n{pad}    mountPath: /tmp\n"


def tmp_volume(indent: int = 6) -> str:
    """The pod's emptyDir behind tmp_mount."""
    pad = " " * indent
    return f"{pad}volumes:\n{pad}  - name: tmp\n{pad}    emptyDir:\n{pad}      sizeLimit: 64Mi\n"


def keys_env(role: str | None, verify: bool = True, indent: int = 12) -> str:
    """The env entries naming the key files: the public set (if `verify`) and `role`'s private key (if any)."""
    pad = " " * indent
    files = [
        *([("MENAGERIE_VERIFY_KEYS_FILE", VERIFY_KEYS_FILE)] if verify else []),
        *([("MENAGERIE_SIGNING_KEY_FILE", f"{role}.jwk")] if role else []),
    ]
    return "".join(f"{pad}- name: {name}\n{pad}  value: {KEYS_MOUNT}/{file}\n" for name, file in files)


def keys_mount(indent: int = 10) -> str:
    """The container's read-only mount of keys_volume (an item of the volumeMounts tmp_mount opens)."""
    pad = " " * indent
    return f"{pad}  - name: keys\n{pad}    mountPath: {KEYS_MOUNT}\n{pad}    readOnly: true\n"


def keys_volume(role: str | None, verify: bool = True, indent: int = 6) -> str:
    """The pod's projected volume of the public set (if `verify`) and `role`'s Secret (an item after tmp_volume)."""
    pad = " " * indent
    sources = [
        *([f"configMap:\n{pad}            name: {VERIFY_KEYS_CONFIGMAP}"] if verify else []),
        *([f"secret:\n{pad}            name: {KEY_SECRET_PREFIX}{role}"] if role else []),
    ]
    listed = "".join(f"{pad}        - {source}\n" for source in sources)
    return (
        f"{pad}  - name: keys\n{pad}    projected:\n"
        f"{pad}      defaultMode: 288 # 0440: the pod's group (fsGroup) reads, nobody writes\n"
        f"{pad}      sources:\n{listed}"
    )


def network_policy(name: str, internal_ports: list[int], metrics_port: int) -> str:
    """A NetworkPolicy: `internal_ports` from the platform's pods only, the metrics port from monitoring."""
    internal = "".join(
        f"""
    - from:
        - podSelector:
            matchLabels:
              app.kubernetes.io/part-of: menagerie
      ports:
        - port: {port}"""
        for port in internal_ports
    )
    return f"""apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {name}
  labels:
    app.kubernetes.io/part-of: menagerie
spec:
  podSelector:
    matchLabels:
      app.kubernetes.io/name: {name}
  policyTypes: ["Ingress"]
  ingress:{internal}
    - from:
        - namespaceSelector:
            matchLabels:
              kubernetes.io/metadata.name: {MONITORING_NAMESPACE}
      ports:
        - port: {metrics_port}
"""


def disruption_budget(name: str) -> str:
    """A PodDisruptionBudget: a drain or an upgrade takes at most one of the component's pods at a time."""
    return f"""apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {name}
  labels:
    app.kubernetes.io/part-of: menagerie
spec:
  maxUnavailable: 1
  selector:
    matchLabels:
      app.kubernetes.io/name: {name}
"""


def autoscaler(name: str, least: int, most: int) -> str:
    """A HorizontalPodAutoscaler on CPU (needs metrics-server and the containers' CPU requests)."""
    return f"""apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {name}
  labels:
    app.kubernetes.io/part-of: menagerie
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {name}
  minReplicas: {least}
  maxReplicas: {most}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: 70
"""
