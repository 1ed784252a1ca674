"""A new game with no client code (issue 31, item 4): Race to Ten, installed at test time, played to the end.

The toy game (tests/e2e/toy/toy_race: an engine on the rules contract and a greedy bot,
no proto, no board) is installed the way pip installs a package, into a temporary folder
only the processes started here see: the package, and a `*.dist-info` naming its entry
points. Real processes on a real Redis: the game service (`menagerie-game race`), the
dispatcher and a Celery bot worker get the folder on PYTHONPATH; the lobby, the gateway
and the CLI do not, so they learn the game from its service and draw it on the generic
boards. One match is played through the gateway's HTTP/Connect JSON, one with the CLI.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pexpect
import pytest
import redis

from menagerie.shared.lifetime import die_with_parent
from tests.e2e.web.fixtures import gateway_process
from tests.support.keys import KEYS
from tests.support.redis_server import database_of_its_own
from tests.support.services import bot_worker_process, dispatcher_process, game_process, service_process

pytestmark = pytest.mark.e2e

GAME = "race"
PACKAGE = Path(__file__).with_name("toy_race")
ENTRY_POINTS = """\
[menagerie.games]
race = toy_race.engine:RaceEngine

[menagerie.bots]
race = toy_race.bots:POLICIES
"""
# A database of the server no other test uses: the session's dispatchers and workers never see these matches.
OWN_DATABASE = 12
MENAGERIE = str(Path(sys.executable).parent / "menagerie")
CHOOSE = r"Choose \[[^\]]*\](?: \(\d+ s left\))?: "
LOBBY = "menagerie.lobby.v1.Lobby"
GENERIC = f"games/{GAME}/menagerie.generic.v1.Game"


def install(folder: Path) -> str:
    """Installs the toy game into `folder` as pip would (the package, its dist-info); the PYTHONPATH finding it."""
    shutil.copytree(PACKAGE, folder / PACKAGE.name, ignore=shutil.ignore_patterns("__pycache__"))
    info = folder / "menagerie_race-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: menagerie-race\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    return os.pathsep.join(part for part in (str(folder), os.environ.get("PYTHONPATH", "")) if part)


@dataclass
class ToyPlatform:
    """Where the toy platform's lobby and gateway listen, and the environment that finds the game's package."""

    lobby: str
    gateway: str
    installed: dict[str, str]


@pytest.fixture(scope="module")
def toy_platform(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ToyPlatform]:
    """The toy game's service, the bot pool, the lobby and the gateway, each a process tied to this one."""
    url = database_of_its_own(redis_url, OWN_DATABASE)
    redis.Redis.from_url(url).flushdb()
    installed = {"PYTHONPATH": install(tmp_path_factory.mktemp("site-packages"))}
    static = tmp_path_factory.mktemp("static")
    (static / "index.html").write_text('<div id="root"></div>')
    with ExitStack() as stack:
        game = stack.enter_context(game_process(GAME, url, KEYS, **installed))
        endpoints = f"{GAME}={game.address}"
        stack.enter_context(dispatcher_process(url, KEYS, MENAGERIE_GAME_ENDPOINTS=endpoints, **installed))
        stack.enter_context(
            bot_worker_process(
                url, KEYS, MENAGERIE_GAME_ENDPOINTS=endpoints, MENAGERIE_WORKER_CONCURRENCY="1", **installed
            )
        )
        # Neither the lobby nor the gateway has the game's package: they know it from its service.
        lobby = stack.enter_context(service_process("menagerie.lobby", url, KEYS, MENAGERIE_GAME_ENDPOINTS=endpoints))
        gateway = stack.enter_context(gateway_process(lobby.address, {GAME: game.address}, static))
        yield ToyPlatform(lobby.address, gateway.url, installed)


# ------------------------------------------------------------------ through the gateway


def call(base: str, method: str, body: dict[str, Any], token: str = "") -> dict[str, Any]:
    """One unary Connect call in JSON, as a browser makes it."""
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    request = urllib.request.Request(f"{base}/{method}", json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=30) as reply:
        answer: dict[str, Any] = json.loads(reply.read())
    return answer


def stream(base: str, method: str, body: dict[str, Any], token: str) -> Iterator[dict[str, Any]]:
    """The messages of a server-streaming Connect call in JSON (enveloped: a flags byte, a length, the message)."""
    payload = json.dumps(body).encode()
    headers = {"Content-Type": "application/connect+json", "Authorization": f"Bearer {token}"}
    request = urllib.request.Request(
        f"{base}/{method}", struct.pack(">BI", 0, len(payload)) + payload, headers, method="POST"
    )
    with urllib.request.urlopen(request, timeout=60) as reply:
        while head := reply.read(5):
            flags, size = struct.unpack(">BI", head)
            message = json.loads(reply.read(size))
            if flags & 0x02:  # the end of the stream: an error, or none
                assert "error" not in message, message
                return
            yield message


def seated(base: str, token: str) -> dict[str, Any]:
    """Queues for a two-seat match with a greedy bot; the seating once the lobby has made the match."""
    ticket = call(
        base,
        f"{LOBBY}/CreateTicket",
        {"game": GAME, "mode": "classic", "minSeats": 2, "maxSeats": 2, "allowBots": True, "maxWaitSeconds": 1},
        token,
    )["ticket"]
    for update in stream(base, f"{LOBBY}/WatchTicket", {"ticketId": ticket["ticketId"]}, token):
        if update["ticket"]["status"] == "TICKET_STATUS_SEATED":
            seating: dict[str, Any] = update["ticket"]["seating"]
            return seating
    raise AssertionError("the ticket was never seated")


def play_through_gateway(base: str, match_id: str, seat: int, token: str) -> tuple[dict[str, Any], list[str]]:
    """Plays the seat's first legal action at each of its turns until the match ends; the last view and the labels."""
    labels: list[str] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        view = call(base, f"{GENERIC}/GetView", {"matchId": match_id}, token)["view"]
        if view.get("outcome", {}).get("seats"):
            return view, labels
        if seat not in view["prompt"].get("must", []):
            time.sleep(0.2)  # the bot's turn
            continue
        legal = call(base, f"{GENERIC}/ListLegalActions", {"matchId": match_id}, token)
        labels.append(legal["labels"][0]["text"])
        move = {
            "matchId": match_id,
            "expectedVersion": legal["viewVersion"],
            "idempotencyKey": uuid.uuid4().hex,
            "action": legal["actions"][0],
        }
        call(base, f"{GENERIC}/SubmitAction", move, token)
    raise AssertionError("the match did not end in time")


def test_a_toy_game_is_played_to_the_end_through_the_gateway(toy_platform: ToyPlatform) -> None:
    base = toy_platform.gateway
    listed = call(base, f"{LOBBY}/ListGames", {})["games"]
    assert [entry["game"] for entry in listed] == [GAME] and listed[0]["title"] == "Race to Ten"
    described = call(base, f"games/{GAME}/menagerie.common.v1.Matches/DescribeGame", {})
    assert described["game"] == GAME and described["modes"][0]["mode"] == "classic"
    player = call(base, f"{LOBBY}/RegisterPlayer", {"displayName": "Ann"})
    seating = seated(base, player["token"])
    seat = int(seating.get("seat", 0))
    view, labels = play_through_gateway(base, seating["matchId"], seat, seating["seatToken"])
    assert labels and all(re.fullmatch(r"Play your [123] \(total \d+\)", label) for label in labels), labels
    fields = json.loads(view["fieldsJson"])
    assert fields["total"] >= fields["target"] == 10
    assert fields["players"][seat]["hand"] is not None, "the seat sees its own hand"
    assert fields["players"][1 - seat]["hand"] is None, "and not the other's"
    assert view["prompt"]["title"] == "The race is over"
    results = {int(entry.get("seat", 0)): entry["result"] for entry in view["outcome"]["seats"]}
    assert sorted(results.values()) == ["RESULT_LOSS", "RESULT_WIN"]
    assert re.fullmatch(r"(Ann|Bot 2 \(greedy\)|Bot 1 \(greedy\)) reached 1[0-2]", view["prompt"]["text"])


# -------------------------------------------------------------------------- with the CLI


def test_a_toy_game_is_played_to_the_end_with_the_cli_on_its_generic_board(toy_platform: ToyPlatform) -> None:
    env = {**os.environ, "COLUMNS": "80", "TERM": "dumb", "MENAGERIE_HOME": tempfile.mkdtemp()}
    assert "toy_race" not in env.get("PYTHONPATH", ""), "the CLI has no code of the game"
    play = ["play", GAME, "--mode", "classic", "--players", "2", "--max-wait", "1", "--name", "Cid"]
    command, *argv = die_with_parent([MENAGERIE, "--lobby", toy_platform.lobby, *play])
    child = pexpect.spawn(command, argv, encoding="utf-8", timeout=60, dimensions=(24, 80), env=env)
    seen = io.StringIO()
    child.logfile_read = seen
    child.expect(r"Seated at Seat \d of 2 \(1 bots?\) in match (\w+)\.")
    answered = 0
    while child.expect([CHOOSE, r"Game over: "], timeout=120) == 0:
        child.sendline("1")
        answered += 1
        assert answered < 12, "the race never ended"
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    transcript = seen.getvalue()
    assert answered >= 1
    assert "Play a card · to decide: Cid (you)" in transcript, "the decision's title and whose turn it is"
    assert re.search(r"You play a [123]: the total is \d+\.", transcript), "the engine's event text"
    assert re.search(r"Play your [123] \(total \d+\)", transcript), "the engine's labels"
    assert re.search(r"Cid \(you\): score \d+", transcript), "the scores by seat"
    assert re.search(r"Game over: (Cid|Bot \d \(greedy\)) reached 1[0-2]", transcript), transcript[-2000:]
    assert re.search(r"1\. .+ won \(score \d+\)", transcript) and re.search(r"2\. .+ lost", transcript)


# ------------------------------------------------------------------------ in the arena


def test_the_arena_plays_a_toy_game_through_the_stack(toy_platform: ToyPlatform) -> None:
    # The arena plays one seat itself, in its own process (which has the package), through the generic service.
    arena = [str(Path(sys.executable).parent / "menagerie-arena"), "--game", GAME, "--bots", "greedy,random"]
    argv = die_with_parent([*arena, "--games", "2", "--through-stack", "--lobby", toy_platform.lobby])
    done = subprocess.run(
        argv, env={**os.environ, **toy_platform.installed}, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"greedy vs random │ [0-2]/2 ", done.stdout), done.stdout
