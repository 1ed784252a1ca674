"""The deployment files agree with deploy/games.toml and with the code: no Docker, no cluster, only parsing.

The generated files (docker-compose.yml, deploy/k8s/base/config.yaml, deploy/k8s/base/<game>.yaml) must be fresh,
and the generator deploys any row by its id and port (made-up games). Each process — the lobby, one game
(all are one template), the dispatcher, the bot worker — is checked against the Dockerfile, its console
script and its settings class: every variable set is one it reads, and the values validate.
"""

from __future__ import annotations

import copy
import fnmatch
import functools
import json
import os
import re
import shlex
import tomllib
from collections.abc import Iterable, Mapping
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, NamedTuple
from unittest import mock
from urllib.parse import urlsplit

import pytest
import yaml
from pydantic import AliasChoices, SecretStr, ValidationError
from pydantic_settings import BaseSettings

from deploy import compose_files, generate
from deploy.games import LOBBY_PORT, GameRow, GamesTableError, check_installed, endpoints, load
from deploy.k8s_parts import KEY_SECRET_PREFIX, KEYS_MOUNT, VERIFY_KEYS_CONFIGMAP
from menagerie.rules.registry import game_ids
from menagerie.shared.games.service import GAME_ENV, chosen_game
from menagerie.shared.keys import ROLE_GRANTS, VERIFY_FILE
from menagerie.shared.settings import BotSettings, GameServiceSettings, LobbySettings, parse_endpoints
from tests.support.keys import KEYS

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "deploy" / "docker" / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"
REDIS_CONF = ROOT / "deploy" / "redis" / "redis.conf"
K8S = ROOT / "deploy" / "k8s" / "base"  # the kustomize base; overlays beside it (test_k8s_kustomize.py)
ROWS = load()
GAMES = {row.id: row for row in ROWS}
GAME = ROWS[0].id  # the generator renders every game from one template: the process checks look at the first
REDIS = "redis"
PLACEHOLDER = "placeholder-for-a-secret-of-at-least-32-characters"
REQUIRED_FROM_HOST = re.compile(r"\$\{(?P<name>\w+):\?[^}]+\}")  # compose's `${NAME:?error}`, the one form used
Objects = dict[tuple[str, str], dict[str, Any]]  # Kubernetes objects by (kind, name)


class Process(NamedTuple):  # one process of the platform, as the code defines it
    script: str  # its console script
    settings: type[BaseSettings]
    grpc_port: int | None  # where it serves gRPC (the health check included); None: no gRPC server
    drain: str  # the setting that bounds its shutdown after SIGTERM
    called: bool = False  # other processes call it: a k8s Service selects it
    reads: frozenset[str] = frozenset()  # variables the script reads itself, beside its settings class


# Which issuer's private key (menagerie.shared.keys.ROLE_GRANTS) each process holds: the dispatcher none.
KEY_ROLES = {"lobby": "lobby", GAME: "games", "dispatcher": None, "bot-worker": "bots", "search-worker": "bots"}

PROCESSES = {
    "lobby": Process("menagerie-lobby", LobbySettings, LOBBY_PORT, "grace_seconds", called=True),
    GAME: Process("menagerie-game", GameServiceSettings, ROWS[0].port, "grace_seconds", True, frozenset({GAME_ENV})),
    # Serves only the gRPC health check, on a fixed port so that probes know where to ask.
    "dispatcher": Process("menagerie-dispatcher", BotSettings, compose_files.DISPATCHER_PORT, "grace_seconds"),
    # A forking Celery pool hosts no gRPC server: GET /healthz on the metrics port. Its warm
    # shutdown lets running tasks finish, each within its hard time limit.
    "bot-worker": Process("menagerie-bot-worker", BotSettings, None, "task_time_limit_seconds"),
    # The same worker on the search queues only (mcts), so searches never hold the others' slots.
    "search-worker": Process("menagerie-bot-worker", BotSettings, None, "task_time_limit_seconds"),
}


def env_names(cls: type[BaseSettings], secret: bool = False) -> set[str]:
    """The (upper-case) variables pydantic-settings reads; `secret`: only those of SecretStr fields."""
    names: set[str] = set()
    for name, info in cls.model_fields.items():
        alias = info.validation_alias
        choices = alias.choices if isinstance(alias, AliasChoices) else [alias or cls.model_config["env_prefix"] + name]
        if info.annotation is SecretStr or not secret:
            names |= {choice.upper() for choice in choices if isinstance(choice, str)}
    return names


def settings_from(name: str, env: Mapping[str, str], where: str) -> dict[str, Any]:
    """The settings the process builds from exactly `env` (values as strings); fails on a variable it does not read."""
    process = PROCESSES[name]
    known = env_names(process.settings) | process.reads
    unknown = sorted(key for key in env if key.upper() not in known)
    assert not unknown, f"{where}: {name} reads none of {unknown}; it reads {sorted(known)}"
    assert all(isinstance(value, str) for value in env.values()), f"{where}: quote every value: {env}"
    with mock.patch.dict(os.environ, env, clear=True):
        try:
            return process.settings().model_dump()
        except ValidationError as exc:
            pytest.fail(f"{where}: {process.settings.__name__} rejects this environment:\n{exc}")


# --- the Dockerfile ---------------------------------------------------------------------
class Stage(NamedTuple):
    parent: str  # an image or an earlier stage
    instructions: list[tuple[str, str]]  # (KEYWORD, arguments)


@functools.cache
def dockerfile() -> dict[str, Stage]:
    """The stages by name; continued lines joined, comments dropped."""
    stages: dict[str, Stage] = {}
    logical = ""
    for raw in DOCKERFILE.read_text().splitlines():
        if (line := raw.strip()).endswith("\\"):
            logical += line[:-1] + " "
        elif line and not line.startswith("#"):
            keyword, _, arguments = (logical + line).partition(" ")
            logical = ""
            if keyword.upper() == "FROM":
                words = [word for word in arguments.split() if not word.startswith("--")]
                assert len(words) == 3 and words[1].upper() == "AS", f"{DOCKERFILE}: `FROM {arguments}` has no AS"
                stages[words[2]] = Stage(words[0], [])
            elif stages:
                stages[next(reversed(stages))].instructions.append((keyword.upper(), arguments.strip()))
    return stages


def image(target: str, keyword: str) -> list[str]:
    """The arguments of every `keyword` instruction the target inherits, in build order."""
    stages, chain = dockerfile(), list[Stage]()
    assert target in stages, f"{DOCKERFILE}: no stage {target!r}; stages: {sorted(stages)}"
    while target in stages and len(chain) <= len(stages):
        chain.insert(0, stages[target])
        target = stages[target].parent
    return [arguments for stage in chain for key, arguments in stage.instructions if key == keyword]


def image_command(target: str) -> list[str]:
    """The target's CMD, in the exec form (the process is PID 1 and gets SIGTERM), with no ENTRYPOINT."""
    commands = image(target, "CMD")
    assert not image(target, "ENTRYPOINT") and commands and commands[-1].startswith("["), f"{target}: {commands}"
    argv: list[str] = json.loads(commands[-1])
    return argv


def image_env(target: str) -> dict[str, str]:
    """The variables the image sets for a settings class (`ENV KEY=value ...`)."""
    pairs = [word.partition("=") for arguments in image(target, "ENV") for word in shlex.split(arguments)]
    assert all(sep for _, sep, _ in pairs), f"{DOCKERFILE} {target}: write `ENV KEY=value`"
    return {key: value for key, _, value in pairs if key.startswith("MENAGERIE_") or key == "REDIS_URL"}


def dockerignored(path: str) -> bool:
    """Roughly Docker's rule: left out when the path or a parent folder matches; the last match wins."""
    parts = Path(path).parts
    candidates = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    ignored = False
    for pattern in (line.strip() for line in DOCKERIGNORE.read_text().splitlines()):
        glob = pattern.removeprefix("!").strip("/")
        if pattern[:1] not in ("", "#") and any(
            fnmatch.fnmatchcase(c, glob.removeprefix(s)) for c in candidates for s in ("", "**/")
        ):
            ignored = not pattern.startswith("!")
    return ignored


# --- docker-compose.yml -----------------------------------------------------------------
@functools.cache
def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / generate.COMPOSE).read_text())
    return loaded


def target(name: str) -> str:
    build = compose()["services"][name]["build"]
    assert (ROOT / build["context"] / build["dockerfile"]).resolve() == DOCKERFILE, f"{name}: builds {build}"
    return str(build["target"])


def compose_settings(name: str) -> dict[str, Any]:
    """The settings the service's process builds in its container, secrets from the host as placeholders."""
    svc = compose()["services"][name]
    assert "env_file" not in svc, f"docker-compose.yml {name}: env_file hides variables from this test"
    env = {**image_env(target(name)), **svc["environment"]}  # anchors merged; values as written
    for key, value in env.items():
        assert isinstance(value, str), f"docker-compose.yml {name}: {key}: quote the value (compose wants a string)"
        assert "$" not in REQUIRED_FROM_HOST.sub("", value), f"{name}: {key}: only ${{NAME:?error}} is safe unset"
    return settings_from(name, {k: REQUIRED_FROM_HOST.sub(PLACEHOLDER, v) for k, v in env.items()}, name)


def compose_secret_files(svc: dict[str, Any]) -> dict[str, str]:
    """Path in the container -> the top-level secret mounted there (short or long syntax)."""
    entries = [{"source": e} if isinstance(e, str) else e for e in svc.get("secrets", [])]
    return {f"/run/secrets/{e.get('target', e['source'])}": e["source"] for e in entries}


def check_compose_keys(name: str, svc: dict[str, Any], settings: Mapping[str, Any], where: str) -> None:
    """Secrets are file secrets, never values: the public key set and the process's own issuer key, no other."""
    secret_values = env_names(PROCESSES[name].settings, secret=True) & set(svc["environment"])
    assert not secret_values, f"{where}: {sorted(secret_values)} in the environment; mount a file secret"
    mounted, role = compose_secret_files(svc), KEY_ROLES[name]
    assert settings["verify_keys_file"] == f"/run/secrets/{VERIFY_FILE}", f"{where}: MENAGERIE_VERIFY_KEYS_FILE"
    assert settings["signing_key_file"] == (f"/run/secrets/{role}.jwk" if role else ""), f"{where}: its key"
    assert role is None or role in ROLE_GRANTS, f"{where}: {role} is no issuer of menagerie.shared.keys"
    assert set(mounted) == {settings["verify_keys_file"], settings["signing_key_file"]} - {""}, f"{where}: {mounted}"
    declared = compose().get("secrets", {})
    for source in mounted.values():
        assert declared[source]["file"].endswith(f"/{source}"), f"docker-compose.yml secret {source}: {declared}"


def published(svc: dict[str, Any]) -> list[tuple[range, range]]:
    """(host ports, container ports) of each `ports` entry ("[IP:]HOST[-HOST]:CONTAINER[-CONTAINER]")."""
    specs = [[[int(p) for p in part.split("-")] for part in str(e).split(":")[-2:]] for e in svc.get("ports", [])]
    return [(range(h[0], h[-1] + 1), range(c[0], c[-1] + 1)) for h, c in specs]


# --- Kubernetes -------------------------------------------------------------------------
def k8s_objects_of(texts: Iterable[str]) -> Objects:
    objects: Objects = {}
    for document in (d for text in texts for d in yaml.safe_load_all(text) if d):
        key = (document["kind"], document["metadata"]["name"])
        assert key not in objects, f"two {key[0]} objects named {key[1]!r}"
        objects[key] = document
    return objects


@functools.cache
def k8s() -> Objects:
    manifests = [p for p in sorted([*K8S.glob("*.yaml"), *K8S.glob("*.yml")]) if p.name != "kustomization.yaml"]
    return k8s_objects_of(path.read_text() for path in manifests)


def container(name: str, objects: Objects | None = None) -> dict[str, Any]:
    objects = objects or k8s()
    assert ("Deployment", name) in objects, f"{K8S}: no Deployment {name!r}"
    named = [c for c in objects["Deployment", name]["spec"]["template"]["spec"]["containers"] if c["name"] == name]
    assert len(named) == 1, f"Deployment {name}: expected one container named {name!r}"
    return dict(named[0])


def k8s_env(name: str, objects: Objects | None = None) -> tuple[dict[str, str], set[str]]:
    """A container's literal variables (envFrom ConfigMaps resolved, then env) and those from a Secret."""
    objects = objects or k8s()
    values: dict[str, str] = {}
    for source in container(name, objects).get("envFrom", []):
        assert "configMapRef" in source, f"Deployment {name}: envFrom {source} hides the names; list them under env"
        values.update(objects["ConfigMap", source["configMapRef"]["name"]]["data"])
    secret = set()
    for variable in container(name, objects).get("env", []):
        if "valueFrom" in variable:
            assert "secretKeyRef" in variable["valueFrom"], f"Deployment {name}: only secretKeyRef is used"
            secret.add(variable["name"])
        else:
            values[variable["name"]] = variable.get("value", "")
    return values, secret


def check_k8s_keys(name: str, objects: Objects, settings: Mapping[str, Any], where: str) -> None:
    """The token keys are files of one read-only projected volume: the public set's ConfigMap, its issuer's Secret."""
    role, box = KEY_ROLES[name], container(name, objects)
    assert settings["verify_keys_file"] == f"{KEYS_MOUNT}/{VERIFY_FILE}", f"{where}: MENAGERIE_VERIFY_KEYS_FILE"
    assert settings["signing_key_file"] == (f"{KEYS_MOUNT}/{role}.jwk" if role else ""), f"{where}: its key"
    (mount,) = [m for m in box["volumeMounts"] if m["mountPath"] == KEYS_MOUNT]
    assert mount.get("readOnly") is True and "subPath" not in mount, f"{where}: {mount} (subPath never updates)"
    volumes = {v["name"]: v for v in objects["Deployment", name]["spec"]["template"]["spec"]["volumes"]}
    sources = volumes[mount["name"]]["projected"]["sources"]
    wanted = [
        {"configMap": {"name": VERIFY_KEYS_CONFIGMAP}},
        *([{"secret": {"name": f"{KEY_SECRET_PREFIX}{role}"}}] if role else []),
    ]
    assert sources == wanted, f"{where}: the keys volume projects {sources}"


def k8s_target(name: str) -> str:  # `registry/menagerie/game:0.1.0` -> `game`, its Dockerfile target
    return str(container(name)["image"]).split("@")[0].rsplit("/", 1)[-1].split(":")[0]


def k8s_settings(name: str) -> dict[str, Any]:
    values, secret = k8s_env(name)
    env = {**image_env(k8s_target(name)), **values, **dict.fromkeys(secret, PLACEHOLDER)}
    return settings_from(name, env, f"{K8S} Deployment {name}")


def k8s_service_targets(name: str, objects: Objects | None = None) -> dict[int, int]:
    """Port of a Service selecting Deployment `name`'s pods -> the containerPort it forwards to."""
    objects = objects or k8s()
    labels = objects["Deployment", name]["spec"]["template"]["metadata"]["labels"]
    named = {str(p.get("name")): p["containerPort"] for p in container(name, objects).get("ports", [])}
    selectors = [
        (o["spec"].get("selector"), o["spec"]["ports"]) for (kind, _), o in objects.items() if kind == "Service"
    ]
    ports = [p for selector, ports in selectors if selector and selector.items() <= labels.items() for p in ports]
    return {p["port"]: named.get(str(p.get("targetPort")), p.get("targetPort", p["port"])) for p in ports}


# --- deploy/games.toml and the generator ------------------------------------------------
def test_generated_deploy_files_are_up_to_date() -> None:
    files = generate.render(ROWS)
    stale = [p.as_posix() for p, text in files.items() if not (ROOT / p).is_file() or (ROOT / p).read_text() != text]
    leftovers = [p.relative_to(ROOT).as_posix() for p in generate.stale_files(ROOT, files)]
    assert not stale and not leftovers, f"run `make deploy-files`: differ {stale}, no longer generated {leftovers}"


def test_the_games_table_is_every_installed_game() -> None:
    check_installed(ROWS, game_ids())  # a row whose game is not installed fails here, naming the installed ones
    assert not set(game_ids()) - set(GAMES), f"installed games without a row in deploy/games.toml: {game_ids()}"
    for row in ROWS:  # what the image's menagerie-game does with MENAGERIE_GAME: serve this very game
        with mock.patch.dict(os.environ, {GAME_ENV: row.id}):
            assert chosen_game([]).info.game == row.id
    with pytest.raises(GamesTableError, match=rf"names chess, not installed here; installed games: {GAME} "):
        check_installed([*ROWS[:1], GameRow("chess", 50099)], [GAME])


@pytest.mark.parametrize(
    ("table", "problem"),
    [
        ('games = [{ id = "beasts", port = 50051 }, { id = "zoo", port = 50051 }]', "repeats"),
        ('games = [{ id = "beasts", port = 50051 }, { id = "beasts", port = 50052 }]', "repeats"),
        ('games = [{ id = "Beasts", port = 50051 }]', "lowercase"),
        ('games = [{ id = "lobby", port = 50051 }]', "lowercase"),
        ('games = [{ id = "beasts", port = 50050 }]', "50051"),
        ('games = [{ id = "beasts", port = "50051" }]', "50051"),
        ('games = [{ id = "beasts" }]', "a row is"),
        ("games = []", "expected one key"),
    ],
)
def test_a_malformed_games_table_is_refused(tmp_path: Path, table: str, problem: str) -> None:
    (tmp_path / "games.toml").write_text(table)
    with pytest.raises(GamesTableError, match=problem):
        load(tmp_path / "games.toml")


def test_the_generator_deploys_every_row_with_its_id_and_port(tmp_path: Path) -> None:
    rows = [GameRow("alpha", 50060), GameRow("omega", 50099)]  # made up: no installed game needed
    files = generate.render(rows)
    services = yaml.safe_load(files[generate.COMPOSE])["services"]
    not_manifests = (
        generate.COMPOSE,
        generate.SECURE_COMPOSE,
        generate.WEB_COMPOSE,
        generate.SECURE_K8S,
        generate.K8S_BASE,
    )
    objects = k8s_objects_of(text for path, text in files.items() if path not in not_manifests)
    internal = {row.id: f"{row.id}:{row.port}" for row in rows}
    config = objects["ConfigMap", "menagerie-game-endpoints"]["data"]
    for env in (config, *(services[reader]["environment"] for reader in ("lobby", "dispatcher", "bot-worker"))):
        assert parse_endpoints(env["MENAGERIE_GAME_ENDPOINTS"]) == internal
    hosts = [port for svc in services.values() for ports, _ in published(svc) for port in ports]
    assert len(hosts) == len(set(hosts)), f"two services publish one host port: {sorted(hosts)}"
    for row in rows:
        env = services[row.id]["environment"]
        assert services[row.id]["build"]["target"] == "game"
        assert (env[GAME_ENV], env["MENAGERIE_PORT"]) == (row.id, str(row.port))
        # Replicas share a host port range (a fixed port breaks --scale); the lobby advertises its first port.
        assert published(services[row.id]) == [(compose_files.host_ports(row), range(row.port, row.port + 1))]
        assert len(compose_files.host_ports(row)) > 1 and str(row.port) in services[row.id]["expose"]
        public = parse_endpoints(services["lobby"]["environment"]["MENAGERIE_PUBLIC_GAME_ENDPOINTS"])
        assert public[row.id] == f"127.0.0.1:{compose_files.host_ports(row).start}"
        for waiting in ("lobby", "bot-worker"):
            assert services[waiting]["depends_on"][row.id] == {"condition": "service_healthy"}
        values, _ = k8s_env(row.id, objects)
        assert (values[GAME_ENV], values["MENAGERIE_PORT"]) == (row.id, str(row.port))
        for probe in ("readinessProbe", "livenessProbe"):
            assert container(row.id, objects)[probe]["grpc"]["port"] == row.port
        assert k8s_service_targets(row.id, objects) == {row.port: row.port}
        assert objects["HorizontalPodAutoscaler", row.id]["spec"]["scaleTargetRef"]["name"] == row.id
    # A row removed: its manifest goes, a hand-written one stays.
    (tmp_path / generate.K8S).mkdir(parents=True)
    (tmp_path / generate.K8S / "lobby.yaml").write_text("kind: Deployment\n")
    for table in ('{ id = "alpha", port = 50060 }, { id = "omega", port = 50099 }', '{ id = "alpha", port = 50060 }'):
        (tmp_path / "games.toml").write_text(f"games = [{table}]")
        generate.generate(tmp_path, tmp_path / "games.toml")
    assert sorted(p.name for p in (tmp_path / generate.K8S).glob("*.yaml")) == [
        "alpha.yaml",
        "config.yaml",
        "kustomization.yaml",
        "lobby.yaml",
    ]
    base = yaml.safe_load((tmp_path / generate.K8S_BASE).read_text())
    assert "alpha.yaml" in base["resources"] and "omega.yaml" not in base["resources"]


def test_the_secure_compose_gives_every_process_tls_and_its_own_redis_user() -> None:
    """deploy/compose.secure.yml overrides every service of docker-compose.yml (Redis's ACL users included)."""
    rows = [GameRow("alpha", 50060), GameRow("omega", 50099)]
    files = generate.render(rows)
    base = yaml.safe_load(files[generate.COMPOSE])["services"]
    secure = yaml.safe_load(files[generate.SECURE_COMPOSE])["services"]
    acl_users = set(re.findall(r"^user (\S+) on", (ROOT / "deploy/redis/users.acl").read_text(), re.M))
    assert set(secure) == {*base, "certs"}
    declared = yaml.safe_load(files[generate.SECURE_COMPOSE])["secrets"]
    assert set(declared) == {f"redis-{user}.password" for user in acl_users}
    assert "environment" not in secure[REDIS], "Redis reads its users' passwords from files, not variables"
    for name, service in secure.items():
        if name in ("certs", REDIS):
            continue
        env = service["environment"]
        assert {env["MENAGERIE_TLS_CERT_FILE"], env["MENAGERIE_TLS_KEY_FILE"], env["MENAGERIE_TLS_CA_FILE"]} <= {
            f"/tls/{file}" for file in ("service.pem", "service.key", "ca.pem")
        }
        user = re.fullmatch(r"redis://([a-z-]+)@redis:6379/0", env["REDIS_URL"])  # the password is a file
        assert user is not None and user[1] in acl_users, env["REDIS_URL"]
        assert user[1] == ("game" if name in {"alpha", "omega"} else name)
        password = compose_secret_files(service)[env["MENAGERIE_REDIS_PASSWORD_FILE"]]
        assert password == f"redis-{user[1]}.password", f"{name} reads {password}"
        assert password in secure[REDIS]["secrets"] and password in declared, f"Redis does not get {password}"
        assert service["depends_on"]["certs"] == {"condition": "service_completed_successfully"}
    names = secure["certs"]["command"][-1].split()
    assert set(names) == set(base) - {REDIS}  # the certificate names every service


def json_patch(document: Any, operations: list[dict[str, Any]]) -> None:
    """Applies RFC 6902 `add` and `replace` operations in place, as kustomize does (replace needs the path)."""
    for operation in operations:
        *parents, last = [part for part in operation["path"].split("/")[1:]]
        target = document
        for part in parents:
            target = target[int(part)] if isinstance(target, list) else target[part]
        if operation["op"] == "add" and isinstance(target, list) and last == "-":
            target.append(operation["value"])
        elif operation["op"] == "add" and isinstance(target, list):
            target.insert(int(last), operation["value"])
        elif operation["op"] == "replace":
            index = int(last) if isinstance(target, list) else last
            assert (index < len(target)) if isinstance(index, int) else (index in target), operation["path"]
            target[index] = operation["value"]
        else:
            assert operation["op"] == "add", operation
            target[last] = operation["value"]


def test_the_k8s_overlays_build_on_the_base_which_holds_every_manifest() -> None:
    """deploy/k8s/base lists its every manifest; web adds the gateway to it; secure builds on web."""
    base = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    assert set(base["resources"]) == {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml"}
    assert yaml.safe_load((K8S.parent / "web" / "kustomization.yaml").read_text())["resources"] == [
        "../base",
        "gateway.yaml",
    ]
    assert yaml.safe_load((ROOT / generate.SECURE_K8S).read_text())["resources"] == ["../web"]


def test_the_secure_k8s_overlay_patches_every_deployment_into_tls_and_its_redis_user() -> None:
    """deploy/k8s/secure: each Deployment's patch applies (every path it replaces exists) and gives it TLS."""
    overlay = yaml.safe_load((ROOT / generate.SECURE_K8S).read_text())
    gateway = k8s_objects_of([(K8S.parent / "web" / "gateway.yaml").read_text()])
    patched = {patch["target"]["name"] for patch in overlay["patches"]}
    assert patched == {name for kind, name in [*k8s(), *gateway] if kind == "Deployment"}
    acl_users = set(re.findall(r"^user (\S+) on", (ROOT / "deploy/redis/users.acl").read_text(), re.M))
    for patch in overlay["patches"]:
        name = patch["target"]["name"]
        deployment = copy.deepcopy({**k8s(), **gateway}["Deployment", name])
        json_patch(deployment, yaml.safe_load(patch["patch"]))
        spec = deployment["spec"]["template"]["spec"]
        (box,) = spec["containers"]
        env = {e["name"]: e.get("value") for e in box["env"]}
        # Appended to the base's volumes (its writable /tmp stays), not in their place.
        assert [v["name"] for v in spec["volumes"]] == ["tmp", "keys", "tls"], name
        assert [m["mountPath"] for m in box["volumeMounts"]] == ["/tmp", KEYS_MOUNT, "/tls"], name
        assert spec["volumes"][2]["secret"]["secretName"] == "menagerie-tls"
        if name == "gateway":  # verifies the backends, serves plain HTTP to the ingress: the CA and nothing else
            assert [k for k in env if k.startswith("MENAGERIE_TLS_")] == ["MENAGERIE_TLS_CA_FILE"]
            assert spec["volumes"][2]["secret"]["items"] == [{"key": "ca.crt", "path": "ca.crt"}]
            continue
        redis_url = box["env"][0]
        assert redis_url["name"] == "REDIS_URL"
        assert redis_url["valueFrom"]["secretKeyRef"]["key"].removeprefix("redis-url-") in acl_users
        assert env["MENAGERIE_TLS_CERT_FILE"] and env["MENAGERIE_TLS_KEY_FILE"] and env["MENAGERIE_TLS_CA_FILE"]
        for probe in ("readinessProbe", "livenessProbe"):
            assert box[probe]["httpGet"]["path"] == "/healthz", (name, probe)


# --- the Dockerfile, .dockerignore, the console scripts ---------------------------------
def test_every_process_has_a_compose_service_and_a_deployment_built_from_the_dockerfile() -> None:
    assert set(compose()["services"]) == {*PROCESSES, *GAMES, REDIS}
    assert {name for kind, name in k8s() if kind == "Deployment"} == {*PROCESSES, *GAMES}
    stages = dockerfile()
    leaves = {name for name in stages if name not in {stage.parent for stage in stages.values()}}
    assert leaves == {target(name) for name in [*PROCESSES, *GAMES]}, f"{DOCKERFILE}: final stages {sorted(leaves)}"
    env = image_env("game")  # one image serves every game: compose and k8s say which and where
    assert GAME_ENV not in env and "MENAGERIE_PORT" not in env, f"{DOCKERFILE} game: sets {sorted(env)}"


def test_dockerfile_installs_every_package_pinned_and_not_editable() -> None:
    base = dockerfile()["base"]
    assert base.parent.startswith("python:3.11"), f"{DOCKERFILE}: base is not FROM python:3.11"
    words = shlex.split(next(a for k, a in base.instructions if k == "RUN" and "pip install" in a))
    arguments = words[words.index("install") + 1 :]
    arguments = arguments[: arguments.index("&&")] if "&&" in arguments else arguments
    assert not {"-e", "--editable"} & set(arguments), f"{DOCKERFILE}: pip install {arguments} is editable"
    constraints = [arguments[i + 1] for i, a in enumerate(arguments[:-1]) if a in ("-c", "--constraint")]
    assert constraints == ["constraints.txt"], f"{DOCKERFILE}: pip install {arguments} is not -c constraints.txt"
    copied = {shlex.split(a)[0].strip("/") for k, a in base.instructions if k == "COPY"}
    folders: set[str] = set()
    for argument in (a.removeprefix("./").strip("/") for a in arguments if a.startswith("./")):
        matches = {p.relative_to(ROOT).as_posix() for p in ROOT.glob(argument) if p.is_dir()}
        assert matches, f"{DOCKERFILE}: pip install ./{argument} matches no folder"
        folders |= matches
    uncopied = [f for f in folders if not any(f == c or f.startswith(f"{c}/") for c in copied)]
    assert "constraints.txt" in copied and not uncopied, f"{DOCKERFILE}: pip installs {uncopied} without copying"
    projects = {  # folder -> its [project] table
        p.parent.relative_to(ROOT).as_posix(): tomllib.loads(p.read_text())["project"]
        for pattern in ("protos/python", "shared/*", "services/*", "clients/*")
        for p in ROOT.glob(f"{pattern}/pyproject.toml")
    }
    assert folders <= set(projects), f"{DOCKERFILE}: {sorted(folders - set(projects))} hold no pyproject.toml"
    # Every service and library folder is in the image, by glob: a new game's folder needs no edit here.
    assert {f for f in projects if f.startswith(("shared/", "services/"))} <= folders
    assert not [a for a in arguments for game in GAMES if f"services/{game}" in a], f"{DOCKERFILE}: names a game"
    names = {f: re.sub(r"[-_.]+", "-", project["name"]).lower() for f, project in projects.items()}
    wanted = {
        re.sub(r"[-_.]+", "-", re.split(r"[^\w.-]", d)[0]).lower()
        for f in folders
        for d in projects[f].get("dependencies", [])
    }
    missing = (wanted & set(names.values())) - {names[f] for f in folders}
    assert not missing, f"{DOCKERFILE}: the installed packages need {sorted(missing)} too"
    scripts = {script for f in folders for script in projects[f].get("scripts", {})}
    for built in {target(name) for name in PROCESSES}:
        assert image_command(built)[0] in scripts, f"{DOCKERFILE} {built}: runs no installed console script"


@pytest.mark.parametrize("script", sorted({p.script for p in PROCESSES.values()}))
def test_console_script_is_installed_and_imports(script: str) -> None:
    found = list(entry_points(group="console_scripts").select(name=script))
    assert found, f"{script!r} is no installed console script (declare it in [project.scripts], pip install -e)"
    # Set while importing, in case a module builds its app from settings.
    with mock.patch.dict(os.environ, {"REDIS_URL": "redis://127.0.0.1:1/0", **KEYS.env()}):
        try:
            loaded = found[0].load()
        except (Exception, SystemExit) as exc:
            pytest.fail(f"console script {script} -> {found[0].value}: importing it fails: {exc!r}")
    assert callable(loaded), f"console script {script} -> {found[0].value} is not callable"


def test_dockerignore_keeps_the_sources_and_drops_local_state() -> None:
    for path in (".venv", ".git", "tests", "bench", ".mypy_cache", "shared/platform/menagerie_shared.egg-info"):
        assert dockerignored(path), f"{DOCKERIGNORE}: {path} is sent to the Docker build"
    for keyword, arguments in (i for stage in dockerfile().values() for i in stage.instructions):
        if keyword in ("COPY", "ADD") and not arguments.startswith("--from"):
            for source in shlex.split(arguments)[:-1]:
                assert (ROOT / source).exists(), f"{DOCKERFILE}: COPY {source}: no such path"
                assert not dockerignored(source), f"{DOCKERIGNORE} leaves out {source}, which the image copies"


# --- each process, in docker-compose.yml and in deploy/k8s/ -----------------------------
def check_ports(name: str, settings: Mapping[str, Any], ports: set[int], where: str) -> None:
    """Listens on every interface; offers its gRPC port (health) or else its HTTP one (/healthz), and nothing else."""
    grpc = PROCESSES[name].grpc_port
    assert settings["host"] == "0.0.0.0", f"{where}: listens on {settings['host']}, unreachable from outside"
    assert grpc is None or settings["port"] == grpc, f"{where}: MENAGERIE_PORT is not {grpc}"
    assert (grpc or settings["metrics_port"]) in ports, f"{where}: the probed port is not in {ports}"
    served = {settings["metrics_port"], *([settings["port"]] if grpc else [])} - {0}  # gRPC; /metrics and /healthz
    assert ports <= served, f"{where}: ports {sorted(ports - served)} serve nothing"


@pytest.mark.parametrize("name", PROCESSES)
def test_compose_service_runs_its_process_configured_to_scale_and_drain(name: str) -> None:
    svc, where, built = compose()["services"][name], f"docker-compose.yml {name}", target(name)
    # The image runs the console script itself (PID 1, SIGTERM), as a non-root user.
    assert "command" not in svc and "entrypoint" not in svc, f"{where}: overrides the image's command"
    assert image_command(built)[:1] == [PROCESSES[name].script], f"{DOCKERFILE} {built}: runs another process"
    user = (image(built, "USER") or ["root"])[-1]
    assert user.split(":")[0] not in ("root", "0"), f"{DOCKERFILE} {built}: runs as {user}"
    settings = compose_settings(name)  # every variable is read, the values validate
    check_compose_keys(name, svc, settings, where)
    url = urlsplit(settings["redis_url"])
    assert (url.hostname, url.port or 6379) == (REDIS, 6379), f"{where}: REDIS_URL is not the {REDIS} service"
    # Scalable, restarted, given time to drain, started after what it needs is healthy.
    assert "container_name" not in svc, f"{where}: container_name prevents --scale"
    assert svc.get("restart") == "unless-stopped", f"{where}: restart is {svc.get('restart')!r}"
    grace = re.fullmatch(r"(\d+)s", svc.get("stop_grace_period", "10s"))
    assert grace and int(grace[1]) > settings[PROCESSES[name].drain], f"{where}: stop_grace_period <= its drain"
    assert REDIS in svc["depends_on"], f"{where}: does not depend on {REDIS}"
    for dependency, condition in svc["depends_on"].items():
        checked = dependency == REDIS or image(target(dependency), "HEALTHCHECK")  # redis's: its own test
        assert condition == {"condition": "service_healthy"} and checked, f"{where}: waits for {dependency}"
    # Reachable where it is probed and scraped, and asked by the image's HEALTHCHECK.
    image_ports = {int(port.split("/")[0]) for arguments in image(built, "EXPOSE") for port in arguments.split()}
    exposed = {int(str(p)) for p in svc.get("expose", [])} | {p for _, inside in published(svc) for p in inside}
    check_ports(name, settings, exposed | image_ports, f"{where} (and its image's EXPOSE)")
    if "MENAGERIE_PORT" in image_env(built):  # an image of one process says its port (the game image can't)
        assert settings["port"] in image_ports, f"{DOCKERFILE} {built}: does not EXPOSE its MENAGERIE_PORT"
    check = (image(built, "HEALTHCHECK") or [""])[-1]
    wanted = ("grpc_health", "MENAGERIE_PORT") if PROCESSES[name].grpc_port else ("/healthz", "MENAGERIE_METRICS_PORT")
    assert all(word in check for word in wanted), f"{DOCKERFILE} {built}: HEALTHCHECK {check!r} lacks {wanted}"
    # Published on the host: the lobby's port, and each game's port range (the generator's test); nothing else.
    lobby = range(LOBBY_PORT, LOBBY_PORT + 1)
    assert name in GAMES or published(svc) == ([(lobby, lobby)] if name == "lobby" else []), f"{where}: publishes"


def test_compose_redis_uses_the_conf_and_keeps_its_data() -> None:
    assert ["appendonly", "yes"] in [line.split() for line in REDIS_CONF.read_text().splitlines()], REDIS_CONF
    svc, where = compose()["services"][REDIS], f"docker-compose.yml {REDIS}"
    assert svc["image"].startswith("redis:") and svc.get("restart") == "unless-stopped" and not svc.get("ports")
    mounts = [str(volume).split(":") for volume in svc["volumes"]]
    conf = [m for m in mounts if (ROOT / m[0]).resolve() == REDIS_CONF]
    assert conf and all(m[2:] == ["ro"] for m in conf), f"{where}: does not mount redis.conf read-only"
    assert svc["command"].split()[:2] == ["redis-server", conf[0][1]], f"{where}: command {svc['command']!r}"
    data = [m for m in mounts if m[1] == "/data"]
    assert data and data[0][0] in compose()["volumes"], f"{where}: /data is not a named volume, the AOF would be lost"
    assert "redis-cli ping" in " ".join(svc["healthcheck"]["test"]), f"{where}: healthcheck"


@pytest.mark.parametrize("name", PROCESSES)
def test_k8s_deployment_runs_its_process_configured_probed_and_drained(name: str) -> None:
    process, where, box = PROCESSES[name], f"{K8S} Deployment {name}", container(name)
    assert box["command"][:1] == [process.script], f"{where}: command {box['command']}"
    settings = k8s_settings(name)  # every variable is read, the values validate, the image runs the process:
    assert image_command(k8s_target(name))[:1] == [process.script], f"{where}: image {box['image']}"
    values, _ = k8s_env(name)
    secrets = env_names(process.settings, secret=True) | {"REDIS_URL"}  # the URL may carry a password
    assert not secrets & set(values), f"{where}: a secret written out"
    check_k8s_keys(name, k8s(), settings, where)
    template = k8s()["Deployment", name]["spec"]["template"]
    selector = k8s()["Deployment", name]["spec"]["selector"]["matchLabels"]
    assert selector.items() <= template["metadata"]["labels"].items(), f"{where}: selector misses the pod labels"
    grace = template["spec"].get("terminationGracePeriodSeconds", 30)
    assert grace > settings[process.drain], f"{where}: terminationGracePeriodSeconds {grace} <= its drain"
    # Probed where it listens: the gRPC health check, else GET /healthz on the metrics port; scraped there.
    named = {str(p.get("name")): p["containerPort"] for p in box.get("ports", [])}
    check_ports(name, settings, set(named.values()), where)
    for probe in (box["readinessProbe"], box["livenessProbe"]):
        if process.grpc_port is not None:
            assert probe["grpc"]["port"] == settings["port"], f"{where}: a probe asks elsewhere: {probe}"
        else:
            port = named.get(str(probe["httpGet"]["port"]), probe["httpGet"]["port"])
            assert probe["httpGet"]["path"] == "/healthz" and port == settings["metrics_port"], f"{where}: {probe}"
    assert template["metadata"]["annotations"]["prometheus.io/port"] == str(settings["metrics_port"]), where
    if "game_endpoints" in settings:  # the lobby and the bots reach every game (envFrom the generated config.yaml)
        assert settings["game_endpoints"] == endpoints(ROWS, lambda row: f"{row.id}:{row.port}"), where
    # A Service for what others call, reaching its gRPC port; none for the bot pool.
    forwards = k8s_service_targets(name)
    assert (settings["port"] in forwards.values()) if process.called else not forwards, f"{where}: Services {forwards}"


@pytest.mark.parametrize("name", [GAME, "bot-worker"])  # what `docker compose up --scale` and an autoscaler scale
def test_k8s_autoscaler_owns_the_replica_count(name: str) -> None:
    autoscalers = [o["spec"] for (kind, _), o in k8s().items() if kind == "HorizontalPodAutoscaler"]
    hpas = [spec for spec in autoscalers if spec["scaleTargetRef"]["name"] == name]
    assert len(hpas) == 1, f"{K8S}: {len(hpas)} HorizontalPodAutoscalers scale Deployment {name}"
    assert 1 <= hpas[0].get("minReplicas", 1) <= hpas[0]["maxReplicas"]
    assert "replicas" not in k8s()["Deployment", name]["spec"], f"{K8S} {name}: `replicas` fights its autoscaler"
    assert "cpu" in container(name)["resources"]["requests"], f"{K8S} {name}: a CPU autoscaler needs requests.cpu"
