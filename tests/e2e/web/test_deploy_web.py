"""The gateway's deploy files agree with its settings and the games table: no Docker, no cluster, only parsing."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path
from typing import Any
from unittest import mock

import yaml
from pydantic_settings import BaseSettings

from deploy import compose_files, generate
from deploy.games import endpoints, load
from menagerie.gateway.settings import GatewaySettings

ROOT = Path(__file__).resolve().parents[3]
DOCKERFILE = ROOT / "deploy" / "docker" / "gateway.Dockerfile"
MANIFEST = ROOT / "deploy" / "k8s" / "web" / "gateway.yaml"
ROWS = load()
INTERNAL = endpoints(ROWS, lambda row: f"{row.id}:{row.port}")


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's (KEYWORD, arguments), continued lines joined, comments dropped."""
    found, logical = [], ""
    for raw in DOCKERFILE.read_text().splitlines():
        if (line := raw.strip()).endswith("\\"):
            logical += line[:-1] + " "
        elif line and not line.startswith("#"):
            keyword, _, arguments = (logical + line).partition(" ")
            found.append((keyword.upper(), arguments.strip()))
            logical = ""
    return found


def image_env() -> dict[str, str]:
    pairs = [w.partition("=") for k, a in instructions() if k == "ENV" for w in shlex.split(a)]
    return {key: value for key, _, value in pairs if key.startswith("MENAGERIE_")}


def settings(env: dict[str, str]) -> GatewaySettings:
    """The gateway's settings from exactly `env`; every variable must be one it reads."""
    known = {f"MENAGERIE_{name.upper()}" for name in GatewaySettings.model_fields}
    assert not set(env) - known, f"the gateway reads none of {sorted(set(env) - known)}"
    kind: type[BaseSettings] = GatewaySettings  # read from the environment, as the process does
    with mock.patch.dict(os.environ, env, clear=True):
        built = kind()
    assert isinstance(built, GatewaySettings)
    return built


def test_the_gateway_image_builds_the_app_and_runs_the_gateway_as_a_user() -> None:
    steps = instructions()
    assert json.loads([a for k, a in steps if k == "CMD"][-1]) == ["menagerie-gateway"]
    assert [a for k, a in steps if k == "USER"][-1].split(":")[0] not in ("root", "0")
    assert any(k == "RUN" and "npm ci" in a for k, a in steps), "the app is built from the lockfile"
    assert any(k == "COPY" and a.startswith("--from=web") for k, a in steps)
    for keyword, arguments in steps:
        if keyword == "COPY" and not arguments.startswith("--from"):
            for source in shlex.split(arguments)[:-1]:
                assert (ROOT / source).exists(), f"COPY {source}: no such path"
    configured = settings(image_env())
    health = [a for k, a in steps if k == "HEALTHCHECK"][-1]
    assert "/healthz" in health and "MENAGERIE_PORT" in health
    assert str(configured.port) in " ".join(a for k, a in steps if k == "EXPOSE")
    assert configured.host == "0.0.0.0" and configured.static_dir == Path("/srv/web")


def test_the_web_compose_file_puts_the_gateway_before_every_game_and_the_lobby() -> None:
    text = compose_files.web_compose(ROWS)
    assert (ROOT / generate.WEB_COMPOSE).read_text() == text, "run `make deploy-files`"
    service: dict[str, Any] = yaml.safe_load(text)["services"]["gateway"]
    assert (ROOT / service["build"]["context"] / service["build"]["dockerfile"]).resolve() == DOCKERFILE
    configured = settings({**image_env(), **service["environment"]})
    assert configured.endpoints() == dict(item.split("=") for item in INTERNAL.split(","))
    assert configured.lobby_address.startswith("lobby:")
    assert service["ports"] == [f"127.0.0.1:{configured.port}:{configured.port}"]
    assert set(service["depends_on"]) == {"lobby", *(row.id for row in ROWS)}
    assert service["restart"] == "unless-stopped"
    assert "/readyz" in " ".join(service["healthcheck"]["test"]), "healthy only while the lobby answers"
    # The gateway signs its own credential with its own key, a file secret; it verifies no token.
    assert service["secrets"] == ["gateway.jwk"] and configured.signing_key_file == "/run/secrets/gateway.jwk"
    declared = yaml.safe_load(text)["secrets"]
    assert list(declared) == ["gateway.jwk"] and declared["gateway.jwk"]["file"].endswith("/gateway.jwk")
    assert not any("SECRET" in name or "PASSWORD" in name for name in service["environment"])


def test_the_gateway_manifest_probes_its_health_and_reads_only_its_settings() -> None:
    objects = {(d["kind"], d["metadata"]["name"]): d for d in yaml.safe_load_all(MANIFEST.read_text()) if d}
    (box,) = objects["Deployment", "gateway"]["spec"]["template"]["spec"]["containers"]
    assert box["command"] == ["menagerie-gateway"]
    sources = {s["configMapRef"]["name"] for s in box["envFrom"]}
    config = {
        d["metadata"]["name"]: d["data"] for d in yaml.safe_load_all((ROOT / "deploy/k8s/base/config.yaml").read_text())
    }
    assert sources <= set(config)
    literal = {e["name"]: e["value"] for e in box["env"] if "value" in e}
    assert not [e for e in box["env"] if "valueFrom" in e], "no secret in the environment"
    # Its own key signs the gateway's credential (budgets per client): its Secret, a read-only file.
    volumes = {v["name"]: v for v in objects["Deployment", "gateway"]["spec"]["template"]["spec"]["volumes"]}
    assert volumes["keys"]["projected"]["sources"] == [{"secret": {"name": "menagerie-key-gateway"}}]
    assert {"name": "keys", "mountPath": "/keys", "readOnly": True} in box["volumeMounts"]
    games = config["menagerie-game-endpoints"]
    configured = settings({**image_env(), **literal, **games})
    assert configured.signing_key_file == "/keys/gateway.jwk"
    assert configured.endpoints() == dict(item.split("=") for item in INTERNAL.split(","))
    ports = {p["name"]: p["containerPort"] for p in box["ports"]}
    assert ports["http"] == configured.port and ports["metrics"] == configured.metrics_port != 0
    assert box["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "http"}  # the lobby answers
    assert box["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}  # the process serves
    service = objects["Service", "gateway"]["spec"]
    labels = objects["Deployment", "gateway"]["spec"]["template"]["metadata"]["labels"]
    assert service["selector"].items() <= labels.items()
    assert service["ports"][0]["targetPort"] == "http"
