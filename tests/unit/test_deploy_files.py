"""The deployment files agree with deploy/games.toml and with the code: no Docker, no cluster, only parsing.

docker-compose.yml, deploy/k8s/config.yaml and deploy/k8s/<game>.yaml are generated
from deploy/games.toml (`make deploy-files`): the first tests check that they are
fresh and that every game of the table is deployed with its id and port. The rest
checks what is still written by hand — the Dockerfile, .dockerignore, redis.conf, the
generator's templates for the platform's own processes and the manifests of the
lobby and the bot pool — against what the processes really are: the installed console
scripts (imported, so a stale `module:function` fails) and the pydantic settings
classes (every environment variable set must be one the process reads, every required
one must be set, and the values must validate).
"""

from __future__ import annotations

import difflib
import fnmatch
import functools
import importlib
import json
import os
import re
import shlex
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from unittest import mock
from urllib.parse import urlsplit

import pytest
import yaml
from pydantic import AliasChoices, SecretStr, ValidationError
from pydantic_settings import BaseSettings

from deploy import generate
from deploy.games import GameRow, GamesTableError, check_installed, load
from menagerie.rules.registry import game_ids
from menagerie.shared.games.service import GAME_ENV, chosen_game
from menagerie.shared.settings import parse_endpoints

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "deploy" / "docker" / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"
COMPOSE = ROOT / "docker-compose.yml"
REDIS_CONF = ROOT / "deploy" / "redis" / "redis.conf"
K8S = ROOT / "deploy" / "k8s"
ROWS = load()
GAMES = {row.id: row for row in ROWS}


@dataclass(frozen=True)
class Process:
    """One process of the platform, as the code defines it."""

    script: str  # console script (an entry point of an installed package)
    settings: str  # dotted path of the settings class it reads
    grpc_port: int | None  # None: not a gRPC server
    drain: str | None  # the setting that bounds its shutdown after SIGTERM
    reads: frozenset[str] = frozenset()  # variables the script reads itself, beside its settings class


GAME_SETTINGS = "menagerie.shared.settings.GameServiceSettings"
GAME_READS = frozenset({GAME_ENV})  # menagerie-game's own variable: which game to serve
PROCESSES: dict[str, Process] = {
    "lobby": Process("menagerie-lobby", "menagerie.shared.settings.LobbySettings", 50050, "grace_seconds"),
    # One process per row of deploy/games.toml, all the same console script; MENAGERIE_GAME says which game.
    **{
        row.id: Process("menagerie-game", GAME_SETTINGS, row.port, "grace_seconds", frozenset({GAME_ENV}))
        for row in ROWS
    },
    "dispatcher": Process("menagerie-dispatcher", "menagerie.shared.settings.BotSettings", None, None),
    # Celery's warm shutdown lets running tasks finish, each within its hard time limit.
    "bot-worker": Process(
        "menagerie-bot-worker", "menagerie.shared.settings.BotSettings", None, "task_time_limit_seconds"
    ),
}
GRPC = sorted(name for name, process in PROCESSES.items() if process.grpc_port is not None)
WORKERS = sorted(name for name, process in PROCESSES.items() if process.grpc_port is None)
SCALED = (*GAMES, "bot-worker")  # `docker compose up --scale`, HorizontalPodAutoscaler
REDIS = "redis"
REDIS_PORT = 6379
SECRET_PLACEHOLDER = "placeholder-for-a-secret-of-at-least-32-characters"
# Set while importing entry points, in case a module builds its app from settings.
IMPORT_ENV = {"REDIS_URL": "redis://127.0.0.1:1/0", "MENAGERIE_TOKEN_SECRET": SECRET_PLACEHOLDER}
SECRET_ENV = {"REDIS_URL"}  # besides every SecretStr field: the URL may carry a password


# --- typed access to parsed YAML ------------------------------------------------------


def mapping(value: object, where: str) -> dict[str, object]:
    assert isinstance(value, dict), f"{where}: expected a mapping, found {value!r}"
    return {str(key): item for key, item in value.items()}


def sequence(value: object, where: str) -> list[object]:
    assert isinstance(value, list), f"{where}: expected a list, found {value!r}"
    return list(value)


def text(value: object, where: str) -> str:
    assert isinstance(value, str), f"{where}: expected a string, found {value!r}"
    return value


def integer(value: object, where: str) -> int:
    assert isinstance(value, int) and not isinstance(value, bool), f"{where}: expected an integer, found {value!r}"
    return value


# --- settings classes -------------------------------------------------------------------


@functools.cache
def settings_class(dotted: str) -> type[BaseSettings]:
    module, _, attr = dotted.rpartition(".")
    cls = getattr(importlib.import_module(module), attr)
    assert isinstance(cls, type) and issubclass(cls, BaseSettings), f"{dotted} is not a pydantic-settings class"
    return cls


def case_sensitive(cls: type[BaseSettings]) -> bool:
    return bool(cls.model_config.get("case_sensitive", False))


def env_key(cls: type[BaseSettings], name: str) -> str:
    return name if case_sensitive(cls) else name.upper()


def field_env_names(cls: type[BaseSettings]) -> dict[str, tuple[str, ...]]:
    """Field -> the environment variables pydantic-settings reads it from."""
    prefix = str(cls.model_config.get("env_prefix", ""))
    names: dict[str, tuple[str, ...]] = {}
    for name, info in cls.model_fields.items():
        alias = info.validation_alias
        if isinstance(alias, AliasChoices):
            choices = tuple(choice for choice in alias.choices if isinstance(choice, str))
        elif isinstance(alias, str):
            choices = (alias,)
        elif info.alias:
            choices = (info.alias,)
        else:
            choices = (prefix + name,)
        names[name] = tuple(env_key(cls, choice) for choice in choices)
    return names


def secret_env_names(cls: type[BaseSettings]) -> set[str]:
    """Variables that must come from a secret store, never a literal in a file."""
    names = field_env_names(cls)
    secret_fields = [name for name, info in cls.model_fields.items() if info.annotation is SecretStr]
    return {n for f in secret_fields for n in names[f]} | {env_key(cls, n) for n in SECRET_ENV}


def check_env_names_are_read(name: str, env: Mapping[str, object], where: str) -> None:
    """Every variable set is one the process reads (a typo such as MENAGERIE_PROT fails)."""
    cls = settings_class(PROCESSES[name].settings)
    known = {n for names in field_env_names(cls).values() for n in names} | PROCESSES[name].reads
    unknown = []
    for key in sorted(env):
        if env_key(cls, key) not in known:
            close = difflib.get_close_matches(env_key(cls, key), sorted(known), n=1)
            unknown.append(f"{key} (did you mean {close[0]}?)" if close else key)
    assert not unknown, f"{where}: {name} reads none of {unknown}; it reads {sorted(known)}"


def check_required_settings_are_set(cls: type[BaseSettings], env: Mapping[str, object], where: str) -> None:
    """Every field without a default is given by one of its variables."""
    present = {env_key(cls, name) for name in env}
    missing = [
        " or ".join(names)
        for name, names in field_env_names(cls).items()
        if cls.model_fields[name].is_required() and not present & set(names)
    ]
    assert not missing, f"{where}: required settings of {cls.__name__} not set: {missing}"


def load_settings(cls: type[BaseSettings], env: Mapping[str, str], where: str) -> dict[str, object]:
    """The settings `cls` builds from exactly `env` (the process environment is hidden)."""
    with mock.patch.dict(os.environ, env, clear=True):
        try:
            settings = cls()
        except ValidationError as exc:
            pytest.fail(f"{where}: {cls.__name__} rejects this environment:\n{exc}")
    return settings.model_dump()


def drain_seconds(name: str, settings: Mapping[str, object]) -> float:
    """How long the process may need between SIGTERM and its exit."""
    setting = PROCESSES[name].drain
    if setting is None:
        return 0.0
    wait = settings[setting]
    assert isinstance(wait, int | float), f"{PROCESSES[name].settings}.{setting} is {wait!r}, not a number"
    return float(wait)


# --- console scripts and packages -------------------------------------------------------


def installed_console_script(script: str) -> EntryPoint:
    found = list(entry_points(group="console_scripts").select(name=script))
    assert found, f"{script!r} is no installed console script (declare it in [project.scripts] and pip install -e)"
    return found[0]


def check_console_script(script: str) -> None:
    """The console script is installed and its `module:function` imports and is callable."""
    entry = installed_console_script(script)
    with mock.patch.dict(os.environ, IMPORT_ENV):
        try:
            target = entry.load()
        except (Exception, SystemExit) as exc:
            pytest.fail(f"console script {script} -> {entry.value}: importing it fails: {exc!r}")
    assert callable(target), f"console script {script} -> {entry.value} is not callable"


def normalize(project: str) -> str:
    return re.sub(r"[-_.]+", "-", project).lower()


@dataclass(frozen=True)
class Project:
    """A package folder of the repository, as its pyproject.toml declares it."""

    folder: str
    dependencies: frozenset[str]
    scripts: frozenset[str]


@functools.cache
def local_projects() -> dict[str, Project]:
    """Project name -> its folder, the names of its dependencies and its console scripts."""
    projects: dict[str, Project] = {}
    for pattern in ("protos/python", "shared/*", "services/*", "clients/*"):
        for folder in sorted(ROOT.glob(pattern)):
            if (folder / "pyproject.toml").is_file():
                project = tomllib.loads((folder / "pyproject.toml").read_text())["project"]
                deps = frozenset(
                    normalize(m.group(0)) for d in project.get("dependencies", []) if (m := re.match(r"[\w.-]+", d))
                )
                scripts = frozenset(project.get("scripts", {}))
                projects[normalize(project["name"])] = Project(folder.relative_to(ROOT).as_posix(), deps, scripts)
    return projects


# --- Dockerfile -------------------------------------------------------------------------


@dataclass
class Stage:
    name: str
    parent: str  # an image or an earlier stage
    instructions: list[tuple[str, str]] = field(default_factory=list)


def dockerfile_instructions(source: str) -> Iterator[tuple[str, str]]:
    """(KEYWORD, arguments), continuation lines joined, comments and blank lines dropped."""
    logical = ""
    for raw in source.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("\\"):
            logical += line[:-1] + " "
            continue
        keyword, _, arguments = (logical + line).partition(" ")
        logical = ""
        yield keyword.upper(), arguments.strip()
    assert not logical, f"{DOCKERFILE}: ends inside a continued line"


@functools.cache
def dockerfile() -> dict[str, Stage]:
    stages: dict[str, Stage] = {}
    current: Stage | None = None
    for keyword, arguments in dockerfile_instructions(DOCKERFILE.read_text()):
        if keyword == "FROM":
            words = [word for word in arguments.split() if not word.startswith("--")]
            assert len(words) == 3 and words[1].upper() == "AS", f"{DOCKERFILE}: `FROM {arguments}` has no `AS <name>`"
            current = Stage(words[2].lower(), words[0].lower())
            assert current.name not in stages, f"{DOCKERFILE}: two stages are named {current.name!r}"
            stages[current.name] = current
        elif current is not None:
            current.instructions.append((keyword, arguments))
    return stages


def stage_chain(target: str) -> list[Stage]:
    """The stages `target` is built from, the first one FROM an image."""
    stages = dockerfile()
    assert target in stages, f"{DOCKERFILE}: no stage `FROM ... AS {target}`; stages: {sorted(stages)}"
    chain: list[Stage] = []
    name = target
    while name in stages and len(chain) <= len(stages):
        chain.insert(0, stages[name])
        name = stages[name].parent
    return chain


def target_instructions(target: str, keyword: str) -> list[tuple[Stage, str]]:
    """The arguments of every `keyword` instruction `target` inherits, in build order."""
    return [(stage, args) for stage in stage_chain(target) for key, args in stage.instructions if key == keyword]


def exec_form(arguments: str, where: str) -> list[str]:
    assert arguments.startswith("["), (
        f"{where}: `{arguments}` is the shell form; use the exec form [...] so the process is PID 1 and gets SIGTERM"
    )
    argv = json.loads(arguments)
    assert isinstance(argv, list) and all(isinstance(arg, str) for arg in argv), f"{where}: {arguments} is no argv"
    return [str(arg) for arg in argv]


def image_command(target: str) -> list[str]:
    """The CMD the target runs (an ENTRYPOINT would change what CMD means: the Dockerfile has none)."""
    assert not target_instructions(target, "ENTRYPOINT"), f"{DOCKERFILE} {target}: ENTRYPOINT; the targets use CMD"
    commands = target_instructions(target, "CMD")
    assert commands, f"{DOCKERFILE} {target}: no CMD"
    stage, arguments = commands[-1]
    return exec_form(arguments, f"{DOCKERFILE} stage {stage.name} CMD")


def image_settings_env(target: str) -> dict[str, str]:
    """The variables the image sets that are meant for a settings class (or the game's console script)."""
    env: dict[str, str] = {}
    for _, arguments in target_instructions(target, "ENV"):
        words = shlex.split(arguments)
        if "=" in words[0]:
            for word in words:
                key, _, value = word.partition("=")
                env[key] = value
        else:
            env[words[0]] = arguments.split(None, 1)[1]
    return {k: v for k, v in env.items() if k.startswith("MENAGERIE_") or k == "REDIS_URL"}


def image_exposed(target: str) -> set[int]:
    return {int(word.split("/")[0]) for _, args in target_instructions(target, "EXPOSE") for word in args.split()}


def image_healthcheck(target: str) -> str | None:
    checks = [args for _, args in target_instructions(target, "HEALTHCHECK")]
    return None if not checks or checks[-1].upper() == "NONE" else checks[-1]


def image_user(target: str) -> str | None:
    users = [args for _, args in target_instructions(target, "USER")]
    return users[-1] if users else None


def image_name_target(image: str) -> str:
    """`registry/menagerie/game:0.1.0` -> `game`: images are named after their target."""
    return image.split("@")[0].rsplit("/", 1)[-1].split(":")[0]


def pip_install_arguments() -> list[str]:
    """The arguments of the `pip install` in the base stage."""
    for keyword, arguments in dockerfile()["base"].instructions:
        if keyword == "RUN" and "pip install" in arguments:
            words = shlex.split(arguments)
            start = words.index("install") + 1
            end = words.index("&&", start) if "&&" in words[start:] else len(words)
            return words[start:end]
    pytest.fail(f"{DOCKERFILE}: the base stage has no `RUN pip install`")


def pip_installed_folders() -> set[str]:
    """The package folders the base stage's pip install names, its shell globs expanded against the repository."""
    folders: set[str] = set()
    for argument in pip_install_arguments():
        if argument.startswith("./"):
            pattern = argument.removeprefix("./").strip("/")
            matches = [p.relative_to(ROOT).as_posix() for p in sorted(ROOT.glob(pattern)) if p.is_dir()]
            assert matches, f"{DOCKERFILE}: pip install {argument} matches no folder"
            folders.update(matches)
    return folders


def dockerignore_patterns() -> list[str]:
    lines = (line.strip() for line in DOCKERIGNORE.read_text().splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def dockerignored(path: str) -> bool:
    """Roughly Docker's rule: left out when the path or a parent folder matches; the last match wins."""
    parts = Path(path).parts
    candidates = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    ignored = False
    for pattern in dockerignore_patterns():
        glob = pattern.removeprefix("!").strip("/")
        globs = {glob, glob.removeprefix("**/")}
        if any(fnmatch.fnmatchcase(candidate, g) for candidate in candidates for g in globs):
            ignored = not pattern.startswith("!")
    return ignored


# --- docker-compose.yml -----------------------------------------------------------------


@functools.cache
def compose() -> dict[str, object]:
    loaded: object = yaml.safe_load(COMPOSE.read_text())
    return mapping(loaded, str(COMPOSE))


def compose_services() -> dict[str, dict[str, object]]:
    services = mapping(compose().get("services"), f"{COMPOSE} services")
    return {name: mapping(service, f"{COMPOSE} service {name}") for name, service in services.items()}


def compose_service(name: str) -> dict[str, object]:
    services = compose_services()
    assert name in services, f"{COMPOSE}: no service {name!r}; services: {sorted(services)}"
    return services[name]


def compose_target(name: str) -> str:
    build = mapping(compose_service(name).get("build"), f"{COMPOSE} {name}.build")
    context = ROOT / text(build.get("context", "."), f"{COMPOSE} {name}.build.context")
    dockerfile_path = (context / text(build.get("dockerfile", "Dockerfile"), f"{name}.build.dockerfile")).resolve()
    assert dockerfile_path == DOCKERFILE, f"{COMPOSE} {name}: builds {dockerfile_path}, not {DOCKERFILE}"
    return text(build.get("target"), f"{COMPOSE} {name}.build.target")


def compose_environment(name: str) -> dict[str, str]:
    """The service's environment (anchors merged), values as written (not interpolated)."""
    service = compose_service(name)
    where = f"{COMPOSE} {name}"
    assert "env_file" not in service, f"{where}: env_file hides variables from this test; use environment"
    env: dict[str, str] = {}
    for key, value in mapping(service.get("environment", {}), f"{where}.environment (use the mapping form)").items():
        assert value is not None, f"{where}: {key} has no value (copied from the host); interpolate ${{{key}:?...}}"
        assert not isinstance(value, bool), f"{where}: {key}: {value} is a YAML boolean; compose wants a string"
        assert isinstance(value, str | int | float), f"{where}: {key}: {value!r} is not a scalar"
        env[key] = str(value)
    return env


# The one interpolation the files use: a value the host must give (`${NAME:?error}`).
REQUIRED_FROM_HOST = re.compile(r"\$\{(?P<name>\w+):\?[^}]+\}")


def interpolate(value: str, where: str) -> str:
    """Compose's interpolation of `value`, with a placeholder for what the host must give."""
    rest = REQUIRED_FROM_HOST.sub("", value)
    assert "$" not in rest, f"{where}: {value!r}: write ${{NAME:?error}}; any other $ form may become empty when unset"
    return REQUIRED_FROM_HOST.sub(SECRET_PLACEHOLDER, value)


def compose_settings(name: str) -> dict[str, object]:
    """The settings the service's process would build in its container."""
    env = {**image_settings_env(compose_target(name)), **compose_environment(name)}
    where = f"{COMPOSE} {name}"
    resolved = {key: interpolate(value, f"{where} {key}") for key, value in env.items()}
    return load_settings(settings_class(PROCESSES[name].settings), resolved, where)


@dataclass(frozen=True)
class PortMapping:
    container: tuple[int, ...]
    host: tuple[int, ...]  # empty: not published on the host


def port_range(spec: str, where: str) -> tuple[int, ...]:
    low, _, high = spec.partition("-")
    assert low.isdigit() and (not high or high.isdigit()), f"{where}: {spec!r} is not a port or a port range"
    return tuple(range(int(low), int(high or low) + 1))


def compose_ports(name: str) -> list[PortMapping]:
    """`ports` (published; the short form the files use) and `expose` (compose network only) of a service."""
    service = compose_service(name)
    where = f"{COMPOSE} {name}"
    found: list[PortMapping] = []
    for entry in sequence(service.get("ports", []), f"{where}.ports"):
        spec = text(entry, f"{where}.ports (quote it: YAML 1.1 reads 22:22 as a base-60 number)").split("/")[0]
        parts = spec.split(":")
        host = port_range(parts[-2], where) if len(parts) >= 2 and parts[-2] else ()
        found.append(PortMapping(port_range(parts[-1], where), host))
    for entry in sequence(service.get("expose", []), f"{where}.expose"):
        found.append(PortMapping(port_range(str(entry).split("/")[0], where), ()))
    return found


@dataclass(frozen=True)
class Mount:
    source: str
    target: str
    read_only: bool


def compose_mounts(name: str) -> list[Mount]:
    mounts: list[Mount] = []
    for entry in sequence(compose_service(name).get("volumes", []), f"{COMPOSE} {name}.volumes"):
        parts = text(entry, f"{COMPOSE} {name}.volumes (the short form)").split(":")
        assert len(parts) in (2, 3), f"{COMPOSE} {name}: volume {entry!r} is not source:target[:mode]"
        mounts.append(Mount(parts[0], parts[1], len(parts) == 3 and "ro" in parts[2].split(",")))
    return mounts


def duration_seconds(value: str, where: str) -> int:
    assert re.fullmatch(r"\d+s", value), f"{where}: {value!r} is not a duration in seconds like 30s"
    return int(value[:-1])


def has_healthcheck(name: str) -> bool:
    service = compose_service(name)
    if "healthcheck" in service:
        check = mapping(service["healthcheck"], f"{COMPOSE} {name}.healthcheck")
        return not check.get("disable", False) and check.get("test") not in (["NONE"], "NONE")
    return name in PROCESSES and image_healthcheck(compose_target(name)) is not None


# --- Kubernetes -------------------------------------------------------------------------


@functools.cache
def k8s_documents() -> tuple[tuple[str, dict[str, object]], ...]:
    files = sorted([*K8S.glob("*.yaml"), *K8S.glob("*.yml")])
    assert files, f"no manifests in {K8S}"
    documents: list[tuple[str, dict[str, object]]] = []
    for path in files:
        for loaded in yaml.safe_load_all(path.read_text()):
            if loaded is not None:
                document = mapping(loaded, path.name)
                assert "kind" in document and "metadata" in document, f"{path.name}: a document has no kind/metadata"
                documents.append((path.name, document))
    return tuple(documents)


def k8s_objects(kind: str) -> dict[str, dict[str, object]]:
    objects: dict[str, dict[str, object]] = {}
    for file, document in k8s_documents():
        if document["kind"] == kind:
            name = text(mapping(document["metadata"], file).get("name"), f"{file} {kind} metadata.name")
            assert name not in objects, f"{K8S}: two {kind} objects named {name!r}"
            objects[name] = document
    return objects


def k8s_pod_template(name: str) -> dict[str, object]:
    deployments = k8s_objects("Deployment")
    assert name in deployments, f"{K8S}: no Deployment {name!r}; found {sorted(deployments)}"
    spec = mapping(deployments[name].get("spec"), f"Deployment {name} spec")
    return mapping(spec.get("template"), f"Deployment {name} spec.template")


def k8s_pod_labels(name: str) -> dict[str, object]:
    metadata = mapping(k8s_pod_template(name).get("metadata"), f"Deployment {name} template metadata")
    return mapping(metadata.get("labels"), f"Deployment {name} template labels")


def k8s_pod_spec(name: str) -> dict[str, object]:
    return mapping(k8s_pod_template(name).get("spec"), f"Deployment {name} template spec")


def k8s_container(name: str) -> dict[str, object]:
    containers = [
        mapping(c, f"Deployment {name} container")
        for c in sequence(k8s_pod_spec(name).get("containers"), f"Deployment {name} containers")
    ]
    named = [container for container in containers if container.get("name") == name]
    assert len(named) == 1, f"Deployment {name}: expected one container named {name!r}, found {containers}"
    return named[0]


def k8s_container_ports(name: str) -> dict[str, int]:
    """Port name (or the number as text) -> containerPort."""
    ports: dict[str, int] = {}
    for entry in sequence(k8s_container(name).get("ports", []), f"Deployment {name} ports"):
        port = mapping(entry, f"Deployment {name} ports")
        number = integer(port.get("containerPort"), f"Deployment {name} containerPort")
        ports[str(port.get("name", number))] = number
        ports[str(number)] = number
    return ports


@dataclass(frozen=True)
class K8sEnvironment:
    values: dict[str, str]  # literal values, from the manifest or a ConfigMap
    secret: set[str]  # from a Secret: value unknown here


def k8s_environment(name: str) -> K8sEnvironment:
    """A container's environment: envFrom ConfigMaps (resolved), then env (literals and secretKeyRefs)."""
    container = k8s_container(name)
    where = f"Deployment {name}"
    config_maps = k8s_objects("ConfigMap")
    values: dict[str, str] = {}
    secret: set[str] = set()
    for entry in sequence(container.get("envFrom", []), f"{where} envFrom"):
        source = mapping(entry, f"{where} envFrom")
        assert "secretRef" not in source, f"{where}: envFrom secretRef hides the names; list them under env"
        ref = text(mapping(source.get("configMapRef"), f"{where} envFrom").get("name"), f"{where} configMapRef")
        assert ref in config_maps, f"{where}: envFrom ConfigMap {ref!r} is not in {K8S}"
        data = mapping(config_maps[ref].get("data", {}), f"ConfigMap {ref} data")
        prefix = str(source.get("prefix", ""))
        for key, value in data.items():
            values[prefix + key] = text(value, f"ConfigMap {ref} {key} (ConfigMap values must be strings)")
    for entry in sequence(container.get("env", []), f"{where} env"):
        variable = mapping(entry, f"{where} env")
        key = text(variable.get("name"), f"{where} env name")
        values.pop(key, None)
        secret.discard(key)
        if "valueFrom" in variable:
            source = mapping(variable["valueFrom"], f"{where} env {key} valueFrom")
            assert "secretKeyRef" in source, f"{where}: env {key} valueFrom: only secretKeyRef is used here"
            secret.add(key)
        else:
            values[key] = text(variable.get("value", ""), f"{where} env {key} (env values must be strings)")
    return K8sEnvironment(values, secret)


def k8s_settings(name: str) -> dict[str, object]:
    env = k8s_environment(name)
    image = text(k8s_container(name).get("image"), f"Deployment {name} image")
    merged = {**image_settings_env(image_name_target(image)), **env.values}
    merged.update(dict.fromkeys(env.secret, SECRET_PLACEHOLDER))
    return load_settings(settings_class(PROCESSES[name].settings), merged, f"{K8S} Deployment {name}")


def k8s_services_selecting(name: str) -> dict[str, dict[str, object]]:
    labels = k8s_pod_labels(name)
    selecting = {}
    for service_name, service in k8s_objects("Service").items():
        selector = mapping(mapping(service.get("spec"), service_name).get("selector", {}), f"Service {service_name}")
        if selector and all(labels.get(key) == value for key, value in selector.items()):
            selecting[service_name] = service
    return selecting


def k8s_service_ports(service_name: str, deployment: str) -> dict[int, int]:
    """Service port -> the containerPort of `deployment` it forwards to."""
    service = k8s_objects("Service")[service_name]
    container_ports = k8s_container_ports(deployment)
    forwards: dict[int, int] = {}
    for entry in sequence(mapping(service.get("spec"), service_name).get("ports"), f"Service {service_name} ports"):
        port = mapping(entry, f"Service {service_name} ports")
        number = integer(port.get("port"), f"Service {service_name} port")
        target = str(port.get("targetPort", number))
        assert target in container_ports, (
            f"Service {service_name}: targetPort {target} is no port of Deployment {deployment}: {container_ports}"
        )
        forwards[number] = container_ports[target]
    return forwards


def endpoint_readers() -> list[str]:
    """The processes that read MENAGERIE_GAME_ENDPOINTS (the lobby and the bot pool)."""
    return sorted(n for n, p in PROCESSES.items() if "game_endpoints" in settings_class(p.settings).model_fields)


# ========================================================================================
# Tests: deploy/games.toml and the generated files
# ========================================================================================


def test_generated_deploy_files_are_up_to_date(tmp_path: Path) -> None:
    written = generate.generate(tmp_path)
    stale = [
        str(path.relative_to(tmp_path))
        for path in written
        if not (ROOT / path.relative_to(tmp_path)).is_file()
        or (ROOT / path.relative_to(tmp_path)).read_text() != path.read_text()
    ]
    leftovers = [str(p.relative_to(ROOT)) for p in generate.stale_files(ROOT, generate.render(ROWS))]
    assert not stale and not leftovers, (
        f"deploy files are stale, run `make deploy-files`: differ {sorted(stale)}, no longer generated {leftovers}"
    )


def test_the_games_table_is_every_installed_game() -> None:
    check_installed(ROWS, game_ids())  # a row whose game is not installed fails here, naming the installed ones
    undeployed = sorted(set(game_ids()) - set(GAMES))
    assert not undeployed, f"installed games without a row in deploy/games.toml: {undeployed}"


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
    path = tmp_path / "games.toml"
    path.write_text(table)
    with pytest.raises(GamesTableError, match=problem):
        load(path)


def test_a_game_that_is_not_installed_is_refused() -> None:
    with pytest.raises(GamesTableError, match=rf"names chess, not installed here; installed games: {ROWS[0].id} "):
        check_installed([*ROWS[:1], GameRow("chess", 50099)], [ROWS[0].id])


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_game_is_deployed_with_its_id_and_port(game: str) -> None:
    port = GAMES[game].port
    compose_env = compose_environment(game)
    assert compose_target(game) == "game", f"{COMPOSE} {game}: builds target {compose_target(game)}, not game"
    assert compose_env.get(GAME_ENV) == game, f"{COMPOSE} {game}: {GAME_ENV} is {compose_env.get(GAME_ENV)!r}"
    # The game image has no port of its own: its HEALTHCHECK reads the one compose sets.
    assert compose_env.get("MENAGERIE_PORT") == str(port), f"{COMPOSE} {game}: MENAGERIE_PORT is not {port}"
    assert compose_settings(game)["port"] == port
    k8s_env = k8s_environment(game).values
    assert k8s_env.get(GAME_ENV) == game, f"{K8S} Deployment {game}: {GAME_ENV} is {k8s_env.get(GAME_ENV)!r}"
    assert k8s_settings(game)["port"] == port
    assert image_name_target(text(k8s_container(game).get("image"), game)) == "game"
    # What the image's menagerie-game does with that environment: serve this very game.
    with mock.patch.dict(os.environ, {GAME_ENV: game}):
        assert chosen_game([]).info.game == game


def test_the_game_image_is_told_its_game_and_port() -> None:
    env = image_settings_env("game")
    assert GAME_ENV not in env and "MENAGERIE_PORT" not in env, (
        f"{DOCKERFILE} game: sets {sorted(env)}; one image serves every game, compose and k8s say which and where"
    )


@pytest.mark.parametrize("name", endpoint_readers())
def test_the_lobby_and_the_bots_reach_every_game(name: str) -> None:
    expected = {row.id: f"{row.id}:{row.port}" for row in ROWS}
    for where, settings in ((f"{COMPOSE} {name}", compose_settings(name)), (f"{K8S} {name}", k8s_settings(name))):
        endpoints = parse_endpoints(str(settings["game_endpoints"]))
        assert endpoints == expected, f"{where}: MENAGERIE_GAME_ENDPOINTS {endpoints}, expected {expected}"
    for game, address in expected.items():
        service, _, port = address.rpartition(":")
        assert compose_settings(service)["port"] == int(port), f"{COMPOSE}: {service} does not listen on {port}"
        forwards = k8s_service_ports(service, game)
        assert forwards.get(int(port)) == k8s_settings(game)["port"], f"{K8S} Service {service}: no port {port}"
    public = parse_endpoints(str(compose_settings("lobby")["public_game_endpoints"]))
    assert set(public) == set(expected), f"{COMPOSE} lobby: MENAGERIE_PUBLIC_GAME_ENDPOINTS {public}"


# ========================================================================================
# Tests: the Dockerfile
# ========================================================================================


def test_every_process_has_a_compose_service_and_a_deployment_built_from_the_dockerfile() -> None:
    assert set(compose_services()) == {*PROCESSES, REDIS}, (
        f"{COMPOSE}: services {sorted(compose_services())}, expected {sorted({*PROCESSES, REDIS})}"
    )
    assert set(k8s_objects("Deployment")) == set(PROCESSES), (
        f"{K8S}: Deployments {sorted(k8s_objects('Deployment'))}, expected {sorted(PROCESSES)}"
    )
    stages = dockerfile()
    leaves = {name for name in stages if name not in {stage.parent for stage in stages.values()}}
    targets = {compose_target(name) for name in PROCESSES}
    assert leaves == targets, f"{DOCKERFILE}: final stages {sorted(leaves)}, compose builds {sorted(targets)}"


def test_dockerfile_base_installs_every_package_pinned_and_not_editable() -> None:
    base = stage_chain("base")
    assert base[0].parent.startswith("python:3.11"), f"{DOCKERFILE}: base is FROM {base[0].parent}, not python:3.11"
    arguments = pip_install_arguments()
    assert not {"-e", "--editable"} & set(arguments), f"{DOCKERFILE}: pip install {arguments} is editable"
    constraint = [arguments[i + 1] for i, a in enumerate(arguments[:-1]) if a in ("-c", "--constraint")]
    assert constraint == ["constraints.txt"], f"{DOCKERFILE}: pip install {arguments} is not `-c constraints.txt`"
    copied = {
        shlex.split(args)[0].strip("/")
        for keyword, args in dockerfile()["base"].instructions
        if keyword == "COPY" and not args.startswith("--from")
    }
    assert "constraints.txt" in copied, f"{DOCKERFILE}: base does not COPY constraints.txt"
    folders = pip_installed_folders()
    uncopied = sorted(f for f in folders if not any(f == c or f.startswith(f"{c}/") for c in copied))
    assert not uncopied, f"{DOCKERFILE}: pip installs {uncopied} without copying them"
    projects = local_projects()
    by_folder = {project.folder: name for name, project in projects.items()}
    assert folders <= set(by_folder), f"{DOCKERFILE}: {sorted(folders - set(by_folder))} hold no pyproject.toml"
    # Every service and library folder is in the image, so a new game's folder needs no edit here.
    wanted = {p.folder for p in projects.values() if p.folder.startswith(("shared/", "services/"))}
    assert wanted <= folders, f"{DOCKERFILE}: base does not install {sorted(wanted - folders)}"
    named = [a for a in [*arguments, *copied] for game in GAMES if a.strip("./").startswith(f"services/{game}")]
    assert not named, f"{DOCKERFILE}: names game folders {named}; install services/* instead"
    installed = {by_folder[folder] for folder in folders}
    needed = {dep for name in installed for dep in projects[name].dependencies if dep in projects}
    assert needed <= installed, f"{DOCKERFILE}: installed packages need {sorted(needed - installed)} too"
    # What each target runs is a console script that a package of the image declares.
    scripts = {script for name in installed for script in projects[name].scripts}
    for stage in dockerfile().values():
        if any(keyword == "CMD" for keyword, _ in stage.instructions):
            script = image_command(stage.name)[0]
            assert script in scripts, f"{DOCKERFILE} {stage.name}: runs {script}, which no installed pyproject declares"


@pytest.mark.parametrize("script", sorted({p.script for p in PROCESSES.values()}))
def test_console_script_is_installed_and_imports(script: str) -> None:
    check_console_script(script)


def test_dockerignore_keeps_the_sources_and_drops_local_state() -> None:
    for path in (".venv", ".git", "tests", "bench", ".mypy_cache", "shared/platform/menagerie_shared.egg-info"):
        assert dockerignored(path), f"{DOCKERIGNORE}: {path} is sent to the Docker build"
    for stage in dockerfile().values():
        for keyword, arguments in stage.instructions:
            if keyword in ("COPY", "ADD") and not arguments.startswith("--from"):
                for source in shlex.split(arguments)[:-1]:
                    assert (ROOT / source).exists(), f"{DOCKERFILE}: COPY {source}: no such path"
                    assert not dockerignored(source), f"{DOCKERIGNORE} leaves out {source}, which the image copies"


# ========================================================================================
# Tests: docker-compose.yml, one process at a time
# ========================================================================================


@pytest.mark.parametrize("name", sorted(PROCESSES))
def test_compose_service_runs_its_process_configured_to_scale_and_drain(name: str) -> None:
    service, where, target = compose_service(name), f"{COMPOSE} {name}", compose_target(name)
    # The image runs the console script itself (PID 1, SIGTERM), as a non-root user.
    assert "command" not in service and "entrypoint" not in service, (
        f"{where}: overrides the image's command; the Dockerfile target should run it"
    )
    argv = image_command(target)
    assert argv[:1] == [PROCESSES[name].script], f"{DOCKERFILE} target {target} runs {argv}, not the process"
    user = image_user(target)
    assert user is not None and user.split(":")[0] not in ("root", "0"), f"{DOCKERFILE} {target}: runs as {user}"
    # Every variable is one the process reads, every required one is set, the values validate.
    check_env_names_are_read(name, compose_environment(name), where)
    check_env_names_are_read(name, image_settings_env(target), f"{DOCKERFILE} {target}")
    cls = settings_class(PROCESSES[name].settings)
    check_required_settings_are_set(cls, {**image_settings_env(target), **compose_environment(name)}, where)
    settings = compose_settings(name)
    # Secrets come from the host (REDIS_URL may be written out: the compose Redis has no password).
    secrets = secret_env_names(cls) - SECRET_ENV
    assert secrets, f"{PROCESSES[name].settings} has no SecretStr field; the token secret should be one"
    env = compose_environment(name)
    for key in sorted(secrets & set(env)):
        assert REQUIRED_FROM_HOST.fullmatch(env[key]), f"{where}: {key} must be ${{{key}:?message}}: {env[key]!r}"
    url = urlsplit(str(settings["redis_url"]))
    assert url.scheme == "redis" and url.hostname == REDIS and url.port in (None, REDIS_PORT), (
        f"{where}: REDIS_URL {url.geturl()} is not the compose service {REDIS}:{REDIS_PORT}"
    )
    # Scalable, restarted, given time to drain, started after what it needs is healthy.
    assert "container_name" not in service, f"{where}: container_name prevents --scale"
    assert service.get("restart") == "unless-stopped", f"{where}: restart is {service.get('restart')!r}"
    grace = duration_seconds(text(service.get("stop_grace_period", "10s"), where), f"{where}.stop_grace_period")
    drain = drain_seconds(name, settings)
    assert grace > drain, f"{where}: stop_grace_period {grace}s leaves no time for a {drain:g}s drain"
    depends = mapping(service.get("depends_on"), f"{where}.depends_on (use the long form)")
    assert REDIS in depends, f"{where}: does not depend on {REDIS}"
    for dependency, condition in depends.items():
        assert dependency in compose_services(), f"{where}: depends on unknown service {dependency!r}"
        got = mapping(condition, f"{where}.depends_on.{dependency}").get("condition")
        assert got == "service_healthy", f"{where}: depends on {dependency} with condition {got!r}"
        assert has_healthcheck(dependency), f"{where}: waits for {dependency} to be healthy, which has no healthcheck"


@pytest.mark.parametrize("name", GRPC)
def test_compose_grpc_port_matches_settings_ports_and_image(name: str) -> None:
    settings = compose_settings(name)
    port, metrics = integer(settings["port"], "port"), integer(settings["metrics_port"], "metrics_port")
    target = compose_target(name)
    where = f"{COMPOSE} {name}"
    assert port == PROCESSES[name].grpc_port, f"{where}: MENAGERIE_PORT is {port}, not {PROCESSES[name].grpc_port}"
    assert settings["host"] == "0.0.0.0", f"{where}: listens on {settings['host']}, unreachable from other containers"
    container_ports = {p for mapping_ in compose_ports(name) for p in mapping_.container}
    allowed = {port, metrics} - {0}
    assert port in container_ports, f"{where}: MENAGERIE_PORT {port} is not in expose/ports {sorted(container_ports)}"
    assert container_ports <= allowed, f"{where}: expose/ports {sorted(container_ports - allowed)} serve nothing"
    exposed = image_exposed(target)
    if "MENAGERIE_PORT" in image_settings_env(target):  # an image of one process says its port (the game image can't)
        assert port in exposed, f"{DOCKERFILE} {target}: EXPOSE {sorted(exposed)} lacks MENAGERIE_PORT {port}"
    assert exposed <= allowed, f"{DOCKERFILE} {target}: EXPOSE {sorted(exposed - allowed)} serves nothing"
    check = image_healthcheck(target) or ""
    assert "grpc_health" in check and "MENAGERIE_PORT" in check, (
        f"{DOCKERFILE} {target}: HEALTHCHECK {check!r} does not ask gRPC health at MENAGERIE_PORT"
    )


@pytest.mark.parametrize("name", WORKERS)
def test_workers_listen_on_nothing(name: str) -> None:
    target = compose_target(name)
    assert not compose_ports(name), f"{COMPOSE} {name}: exposes {compose_ports(name)} but serves no port"
    assert not image_exposed(target), f"{DOCKERFILE} {target}: EXPOSE {image_exposed(target)} serves nothing"
    assert image_healthcheck(target) is None, f"{DOCKERFILE} {target}: a HEALTHCHECK for a process with no port"
    container = k8s_container(name)
    assert not container.get("ports"), f"{K8S} Deployment {name}: ports {container.get('ports')} serve nothing"
    assert not k8s_services_selecting(name), f"{K8S}: a Service selects {name}, which serves no port"


def test_compose_publishes_only_the_lobby_and_the_advertised_game_ports() -> None:
    lobby = compose_settings("lobby")
    internal = parse_endpoints(str(lobby["game_endpoints"]))
    public = parse_endpoints(str(lobby["public_game_endpoints"])) or internal
    advertised: dict[str, set[int]] = {}
    for game, address in public.items():
        service = internal[game].rpartition(":")[0]
        host, _, port = address.rpartition(":")
        where = f"{COMPOSE} lobby: MENAGERIE_PUBLIC_GAME_ENDPOINTS {game}={address}"
        assert host in ("127.0.0.1", "localhost"), f"{where}: compose publishes on the host, not {host}"
        advertised.setdefault(service, set()).add(int(port))
    taken: dict[int, str] = {}
    for name in compose_services():
        published = [m for m in compose_ports(name) if m.host]
        where = f"{COMPOSE} {name}"
        for host_port in (p for m in published for p in m.host):
            assert host_port not in taken, f"{where}: host port {host_port} is also published by {taken[host_port]}"
            taken[host_port] = name
        if name == "lobby":
            lobby_port = integer(lobby["port"], "port")
            assert published and all(m.container == (lobby_port,) for m in published), (
                f"{where}: must publish MENAGERIE_PORT {lobby_port} and nothing else: {published}"
            )
        elif name in advertised:
            grpc_port = integer(compose_settings(name)["port"], "port")
            hosts = {port for m in published for port in m.host}
            assert all(m.container == (grpc_port,) for m in published), f"{where}: publishes {published}"
            assert advertised[name] <= hosts, f"{where}: the lobby advertises {advertised[name]}, not published"
        else:
            assert not published, f"{where}: publishes {published}; nothing outside compose needs it"
        if name in SCALED:
            fixed = [m for m in published if len(m.host) == 1]
            assert not fixed, f"{where}: a fixed host port {fixed} breaks `docker compose up --scale {name}=N`"


# ========================================================================================
# Tests: Redis
# ========================================================================================


def redis_directives() -> dict[str, str]:
    directives: dict[str, str] = {}
    for line in REDIS_CONF.read_text().splitlines():
        words = line.split(None, 1)
        if words and not words[0].startswith("#"):
            directives[words[0].lower()] = words[1].strip().strip('"') if len(words) > 1 else ""
    return directives


def test_redis_conf_turns_the_append_only_file_on() -> None:
    assert redis_directives().get("appendonly") == "yes", f"{REDIS_CONF}: appendonly is not yes"


def test_compose_redis_uses_the_conf_and_keeps_its_data() -> None:
    service = compose_service(REDIS)
    where = f"{COMPOSE} {REDIS}"
    assert text(service.get("image"), f"{where}.image").startswith("redis:"), f"{where}: not a redis image"
    conf_mounts = [m for m in compose_mounts(REDIS) if (ROOT / m.source).resolve() == REDIS_CONF]
    assert conf_mounts, f"{where}: does not mount {REDIS_CONF.relative_to(ROOT)}"
    assert all(m.read_only for m in conf_mounts), f"{where}: mounts redis.conf writable"
    command = service.get("command")
    words = text(command, where).split() if isinstance(command, str) else [str(w) for w in sequence(command, where)]
    assert words[:1] == ["redis-server"] and any(m.target in words for m in conf_mounts), (
        f"{where}: command {command!r} does not start redis-server with the mounted conf"
    )
    volumes = mapping(compose().get("volumes", {}), f"{COMPOSE} volumes")
    data = [m for m in compose_mounts(REDIS) if m.target == "/data"]
    assert data and data[0].source in volumes, f"{where}: /data is not a named volume, the AOF would be lost"
    test = mapping(service.get("healthcheck"), f"{where}.healthcheck").get("test")
    test_command = " ".join(str(word) for word in test) if isinstance(test, list) else str(test)
    assert "redis-cli" in test_command and "ping" in test_command, f"{where}: healthcheck {test_command!r}"


# ========================================================================================
# Tests: Kubernetes
# ========================================================================================


@pytest.mark.parametrize("name", sorted(PROCESSES))
def test_k8s_deployment_runs_its_process_configured_and_drained(name: str) -> None:
    container, where = k8s_container(name), f"{K8S} Deployment {name}"
    script = PROCESSES[name].script
    command = [str(w) for w in sequence(container.get("command", []), f"{where} command")]
    assert command[:1] == [script], f"{where}: command {command}, expected [{script!r}]"
    image = text(container.get("image"), f"{where} image")
    argv = image_command(image_name_target(image))
    assert argv[:1] == [script], f"{where}: image {image} (target {image_name_target(image)}) runs {argv}"
    cls = settings_class(PROCESSES[name].settings)
    env = k8s_environment(name)
    names = {**env.values, **dict.fromkeys(env.secret, "")}
    check_env_names_are_read(name, names, where)
    check_required_settings_are_set(cls, names, where)
    for key in sorted(secret_env_names(cls) & set(names)):
        assert key in env.secret, f"{where}: {key} must come from a Secret (secretKeyRef), not a literal"
    settings = k8s_settings(name)  # the values validate
    spec = mapping(k8s_objects("Deployment")[name].get("spec"), name)
    selector = mapping(mapping(spec.get("selector"), f"{name} selector").get("matchLabels"), f"{name} matchLabels")
    labels = k8s_pod_labels(name)
    assert selector and all(labels.get(k) == v for k, v in selector.items()), (
        f"{where}: selector {selector} does not match the pod labels {labels}"
    )
    grace = integer(k8s_pod_spec(name).get("terminationGracePeriodSeconds", 30), f"{name} grace")
    drain = drain_seconds(name, settings)
    assert grace > drain, f"{where}: terminationGracePeriodSeconds {grace} <= drain {drain:g}s"


@pytest.mark.parametrize("name", GRPC)
def test_k8s_grpc_ports_probes_and_service(name: str) -> None:
    settings = k8s_settings(name)
    port, metrics = integer(settings["port"], "port"), integer(settings["metrics_port"], "metrics_port")
    where = f"{K8S} Deployment {name}"
    assert port == PROCESSES[name].grpc_port, f"{where}: MENAGERIE_PORT is {port}, not {PROCESSES[name].grpc_port}"
    assert settings["host"] == "0.0.0.0", f"{where}: listens on {settings['host']}, unreachable from the Service"
    container_ports = set(k8s_container_ports(name).values())
    assert port in container_ports, f"{where}: containerPorts {sorted(container_ports)} lack MENAGERIE_PORT {port}"
    assert container_ports <= {port, metrics} - {0}, f"{where}: containerPorts {sorted(container_ports)}"
    for probe in ("readinessProbe", "livenessProbe"):
        grpc = mapping(mapping(k8s_container(name).get(probe), f"{where} {probe}").get("grpc"), f"{where} {probe}")
        assert grpc.get("port") == port, f"{where}: {probe} asks gRPC health on {grpc.get('port')}, not {port}"
    services = k8s_services_selecting(name)
    assert services, f"{where}: no Service selects its pods"
    for service in services:
        assert port in k8s_service_ports(service, name).values(), f"{K8S} Service {service}: does not reach {port}"


@pytest.mark.parametrize("name", SCALED)
def test_k8s_autoscaler_owns_the_replica_count(name: str) -> None:
    autoscalers = [
        mapping(hpa.get("spec"), hpa_name)
        for hpa_name, hpa in k8s_objects("HorizontalPodAutoscaler").items()
        if mapping(mapping(hpa.get("spec"), hpa_name).get("scaleTargetRef"), hpa_name).get("name") == name
    ]
    assert len(autoscalers) == 1, f"{K8S}: {len(autoscalers)} HorizontalPodAutoscalers scale Deployment {name}"
    spec = autoscalers[0]
    low, high = integer(spec.get("minReplicas", 1), "minReplicas"), integer(spec.get("maxReplicas"), "maxReplicas")
    assert 1 <= low <= high, f"{K8S} HorizontalPodAutoscaler for {name}: min {low}, max {high}"
    deployment = mapping(k8s_objects("Deployment")[name].get("spec"), name)
    assert "replicas" not in deployment, f"{K8S} Deployment {name}: `replicas` fights its HorizontalPodAutoscaler"
    resources = mapping(k8s_container(name).get("resources", {}), f"{name} resources")
    requests = mapping(resources.get("requests", {}), f"{name} requests")
    assert "cpu" in requests, f"{K8S} Deployment {name}: a CPU autoscaler needs resources.requests.cpu"
