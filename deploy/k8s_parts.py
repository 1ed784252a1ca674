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
