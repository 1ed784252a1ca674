"""The Kubernetes manifests deploy/generate.py writes: the games' part of the kustomize base and the secure overlay.

Templates over the rows of deploy/games.toml: deploy/k8s/base/config.yaml (the common settings
and where the game services are), deploy/k8s/base/<game>.yaml (each game's Deployment, Service,
autoscaler, NetworkPolicy and disruption budget), deploy/k8s/base/kustomization.yaml, and
deploy/k8s/secure/kustomization.yaml (TLS and Redis users over deploy/k8s/web). The pod
hardening every manifest shares is deploy/k8s_parts.py; the constants shared with the compose
templates come from deploy/compose_files.py. Only ever imported (by deploy/generate.py), never run.
"""

from __future__ import annotations

from deploy.compose_files import GAMES_ROLE, GENERATED, METRICS_PORT, PLATFORM_USERS
from deploy.games import GameRow, endpoints
from deploy.k8s_parts import (
    REDIS_CLIENT_LABEL,
    autoscaler,
    container_security,
    disruption_budget,
    keys_env,
    keys_mount,
    keys_volume,
    network_policy,
    pod_security,
    tmp_mount,
    tmp_volume,
)

# The one image every game runs (the Dockerfile's `game` target), told which game by MENAGERIE_GAME.
GAME_IMAGE = "menagerie/game:0.1.0"


def k8s_config(rows: list[GameRow]) -> str:
    """deploy/k8s/base/config.yaml: the common settings and where the game services are."""
    internal = endpoints(rows, lambda row: f"{row.id}:{row.port}")
    return f"""{GENERATED}
# Non-secret settings, read by the Deployments through envFrom. The Redis URL comes from
# the Secret `menagerie-secrets` (key redis-url); the token keys are files, mounted from
# the ConfigMap `menagerie-verify-keys` (the public set) and a Secret per issuer,
# `menagerie-key-<role>` (see README.md). Redis is not deployed here: use a managed or
# operated Redis (AOF on) and put its URL in that Secret.
apiVersion: v1
kind: ConfigMap
metadata:
  name: menagerie-common
  labels:
    app.kubernetes.io/part-of: menagerie
data:
  MENAGERIE_SHARDS: "16" # fixed for the life of a deployment
  MENAGERIE_LOG_FORMAT: json
---
# For the lobby and the bots: where the game services are, inside the cluster.
apiVersion: v1
kind: ConfigMap
metadata:
  name: menagerie-game-endpoints
  labels:
    app.kubernetes.io/part-of: menagerie
data:
  MENAGERIE_GAME_ENDPOINTS: {internal}
"""


def k8s_game(row: GameRow) -> str:
    """deploy/k8s/base/<game>.yaml: the game's Deployment, Service, autoscaler, NetworkPolicy and disruption budget."""
    label, value = REDIS_CLIENT_LABEL
    return f"""{GENERATED}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {row.id}
  labels:
    app.kubernetes.io/name: {row.id}
    app.kubernetes.io/part-of: menagerie
spec:
  # No replicas: the HorizontalPodAutoscaler below owns the count.
  selector:
    matchLabels:
      app.kubernetes.io/name: {row.id}
  template:
    metadata:
      labels:
        app.kubernetes.io/name: {row.id}
        app.kubernetes.io/part-of: menagerie
        {label}: {value}
      annotations:
        prometheus.io/scrape: "true"
        prometheus.io/port: "{METRICS_PORT}"
    spec:
      terminationGracePeriodSeconds: 30 # > MENAGERIE_GRACE_SECONDS
{pod_security()}      containers:
        - name: {row.id}
          image: {GAME_IMAGE} # docker build -f deploy/docker/Dockerfile --target game
          command: ["menagerie-game"]
          envFrom:
            - configMapRef:
                name: menagerie-common
          env:
            - name: REDIS_URL
              valueFrom:
                secretKeyRef:
                  name: menagerie-secrets
                  key: redis-url
{keys_env(GAMES_ROLE)}            - name: MENAGERIE_GAME
              value: {row.id}
            - name: MENAGERIE_HOST
              value: 0.0.0.0
            - name: MENAGERIE_PORT
              value: "{row.port}"
            - name: MENAGERIE_METRICS_PORT
              value: "{METRICS_PORT}"
            - name: MENAGERIE_GRACE_SECONDS
              value: "10"
          ports:
            - name: grpc
              containerPort: {row.port}
            - name: metrics
              containerPort: {METRICS_PORT}
          readinessProbe:
            grpc:
              port: {row.port}
            periodSeconds: 5
            failureThreshold: 2
          # The health status follows Redis, so liveness tolerates two minutes of
          # NOT_SERVING before a restart.
          livenessProbe:
            grpc:
              port: {row.port}
            initialDelaySeconds: 10
            periodSeconds: 20
            failureThreshold: 6
          resources:
            requests:
              cpu: 250m
              memory: 128Mi
            limits:
              memory: 512Mi
{container_security()}{tmp_mount()}{keys_mount()}{tmp_volume()}{keys_volume(GAMES_ROLE)}---
apiVersion: v1
kind: Service
metadata:
  name: {row.id}
  labels:
    app.kubernetes.io/name: {row.id}
    app.kubernetes.io/part-of: menagerie
spec:
  selector:
    app.kubernetes.io/name: {row.id}
  ports:
    - name: grpc
      port: {row.port}
      targetPort: grpc
---
{autoscaler(row.id, 2, 10)}---
# Its gRPC port from the platform's pods (the lobby, the gateway, the bots), /metrics from monitoring.
{network_policy(row.id, [row.port], METRICS_PORT)}---
{disruption_budget(row.id)}"""


def k8s_kustomization(rows: list[GameRow]) -> str:
    """deploy/k8s/base/kustomization.yaml: the base, every manifest in its folder (the overlays build on it)."""
    files = [
        "config.yaml",
        "redis-policy.yaml",
        *(f"{name}.yaml" for name in [*PLATFORM_USERS, *(row.id for row in rows)]),
    ]
    resources = "".join(f"\n  - {name}" for name in files)
    return f"""{GENERATED}
# The platform without its public door: `kubectl apply -k deploy/k8s/base` (deploy/k8s/README.md
# says what to create first). Overlays: deploy/k8s/web (this and the gateway), deploy/k8s/secure
# (web with TLS and Redis users).
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:{resources}
"""


TLS_MOUNT = "/tls"
TLS_CA = ("MENAGERIE_TLS_CA_FILE", "ca.crt")
CONTAINER = "/spec/template/spec/containers/0"


def _tls_env(*settings: tuple[str, str]) -> str:
    return "".join(
        f"""
      - op: add
        path: {CONTAINER}/env/-
        value: {{name: {key}, value: {TLS_MOUNT}/{file}}}"""
        for key, file in settings
    )


def _tls_volume(secret: str) -> str:
    # Appended after the base's /tmp volume and mount (an `add` of the whole list would drop them).
    return f"""
      - op: add
        path: /spec/template/spec/volumes/-
        value: {{name: tls, secret: {secret}}}
      - op: add
        path: {CONTAINER}/volumeMounts/-
        value: {{name: tls, mountPath: {TLS_MOUNT}, readOnly: true}}"""


def _secure_k8s_patch(name: str, user: str) -> str:
    env = _tls_env(("MENAGERIE_TLS_CERT_FILE", "tls.crt"), ("MENAGERIE_TLS_KEY_FILE", "tls.key"), TLS_CA)
    probes = "".join(
        f"""
      - op: replace
        path: {CONTAINER}/{probe}
        value: {{httpGet: {{path: /healthz, port: {METRICS_PORT}}}, periodSeconds: {period},
                 failureThreshold: {failures}}}"""
        for probe, period, failures in (("readinessProbe", 5, 2), ("livenessProbe", 20, 6))
    )
    return f"""
  - target: {{kind: Deployment, name: {name}}}
    patch: |-
      - op: replace
        path: {CONTAINER}/env/0/valueFrom/secretKeyRef/key
        value: redis-url-{user}{env}{_tls_volume("{secretName: menagerie-tls}")}{probes}"""


# The gateway serves plain HTTP behind the ingress and only verifies the backends: the CA alone.
GATEWAY_TLS_PATCH = f"""
  - target: {{kind: Deployment, name: gateway}}
    patch: |-{_tls_env(TLS_CA)}{_tls_volume("{secretName: menagerie-tls, items: [{key: ca.crt, path: ca.crt}]}")}"""


def secure_k8s(rows: list[GameRow]) -> str:
    """deploy/k8s/secure/kustomization.yaml: deploy/k8s/web with TLS on every gRPC hop and a Redis user per process."""
    deployments = [*PLATFORM_USERS.items(), *((row.id, "game") for row in rows)]
    patches = "".join(_secure_k8s_patch(name, user) for name, user in deployments) + GATEWAY_TLS_PATCH
    return f"""{GENERATED}
# deploy/k8s/web (the platform and the gateway) with transport security on: `kubectl apply -k deploy/k8s/secure`.
# Needs, besides deploy/k8s/README.md's Secret `menagerie-secrets` and the token keys:
# * the Secret `menagerie-tls` (tls.crt and tls.key naming every Service, ca.crt the CA that
#   signed them; cert-manager writes exactly these), mounted at {TLS_MOUNT} in every pod (the
#   gateway gets ca.crt only: it verifies the lobby and the games, and serves plain HTTP to the ingress);
# * in `menagerie-secrets`, one Redis URL per user of deploy/redis/users.acl:
#   redis-url-game, redis-url-lobby, redis-url-dispatcher, redis-url-bot-worker, redis-url-search-worker.
# Kubernetes' gRPC probes cannot speak TLS, so every gRPC pod is probed on GET /healthz beside
# /metrics (port {METRICS_PORT}) instead.
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - ../web
patches:{patches}
"""
