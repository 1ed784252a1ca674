"""A game binds to the platform by convention, and a game whose generated code lacks a part fails at start."""

from __future__ import annotations

import sys
from types import ModuleType, SimpleNamespace

import pytest

from menagerie.rules import bots as bots_module
from menagerie.rules.bots import REQUIRED_LEVELS, missing_levels
from menagerie.rules.contract import GameInfo
from menagerie.rules.registry import game_ids
from menagerie.shared.games import binding as binding_module
from menagerie.shared.games.binding import MESSAGES, METHODS, GameBinding, GameBindingError, binding, bindings
from menagerie.shared.games.service import GAME_ENV, USAGE_ERROR, chosen_game
from tests.unit.rules.toy import Toy


class Fake(Toy):
    """The toy game of the contract's tests, under a game id whose generated code is faked here."""

    info = GameInfo("fake", "Fake", Toy.info.modes)


class Missing(Toy):
    """A game with no generated code at all."""

    info = GameInfo("nosuchgame", "Missing", Toy.info.modes)


FAKE_ENGINE = Fake()


def method(name: str, streams: bool) -> SimpleNamespace:
    return SimpleNamespace(
        input_type=SimpleNamespace(name=f"{name}Request"),
        output_type=SimpleNamespace(name=f"{name}Response"),
        server_streaming=streams,
    )


def fake_modules(
    missing_messages: tuple[str, ...] = (),
    methods: dict[str, SimpleNamespace] | None = None,
    services: tuple[str, ...] = ("Fake",),
) -> tuple[ModuleType, ModuleType]:
    """A pb2 and a pb2_grpc module shaped like generated code, less what the test leaves out."""
    pb2 = ModuleType("menagerie.fake.v1.fake_pb2")
    for name in MESSAGES:
        if name not in missing_messages:
            setattr(pb2, name, type(name, (), {}))
    declared = {name: method(name, streams) for name, streams in METHODS.items()} if methods is None else methods
    pb2.DESCRIPTOR = SimpleNamespace(  # type: ignore[attr-defined]
        services_by_name={
            service: SimpleNamespace(full_name=f"menagerie.fake.v1.{service}", methods_by_name=declared)
            for service in services
        }
    )
    pb2_grpc = ModuleType("menagerie.fake.v1.fake_pb2_grpc")
    for service in services:
        setattr(pb2_grpc, f"add_{service}Servicer_to_server", lambda servicer, server: None)
        setattr(pb2_grpc, f"{service}Stub", lambda channel: channel)
    return pb2, pb2_grpc


def test_every_installed_game_binds_by_convention() -> None:
    assert game_ids(), "no game is installed"
    assert list(bindings()) == game_ids()
    for game in game_ids():
        bound = binding(game)
        assert bound.info.game == game
        assert bound.pb2.__name__ == f"menagerie.{game}.v1.{game}_pb2"
        assert bound.service_name == f"menagerie.{game}.v1.{bound.service}"
        assert binding(game) is bound  # made once per process


def test_a_complete_fake_binds() -> None:
    pb2, pb2_grpc = fake_modules()
    assert GameBinding(FAKE_ENGINE, pb2, pb2_grpc, "Fake").service_name == "menagerie.fake.v1.Fake"


def test_a_missing_message_stops_the_binding_naming_it() -> None:
    pb2, pb2_grpc = fake_modules(missing_messages=("Event", "WatchResponse"))
    with pytest.raises(
        GameBindingError, match=r"menagerie\.fake\.v1\.fake_pb2 lacks the messages Event, WatchResponse"
    ):
        GameBinding(FAKE_ENGINE, pb2, pb2_grpc, "Fake")


def test_a_missing_method_stops_the_binding_naming_it() -> None:
    methods = {name: method(name, streams) for name, streams in METHODS.items() if name != "Watch"}
    pb2, pb2_grpc = fake_modules(methods=methods)
    with pytest.raises(GameBindingError, match=r"service menagerie\.fake\.v1\.Fake lacks the methods Watch"):
        GameBinding(FAKE_ENGINE, pb2, pb2_grpc, "Fake")


def test_a_method_of_another_shape_stops_the_binding() -> None:
    methods = {name: method(name, False) for name in METHODS}  # Watch must stream its responses
    pb2, pb2_grpc = fake_modules(methods=methods)
    with pytest.raises(
        GameBindingError, match=r"Fake\.Watch must be \(WatchRequest\) returns \(stream WatchResponse\)"
    ):
        GameBinding(FAKE_ENGINE, pb2, pb2_grpc, "Fake")


def test_every_problem_is_named_at_once() -> None:
    pb2, pb2_grpc = fake_modules(missing_messages=("View",), methods={})
    with pytest.raises(GameBindingError) as raised:
        GameBinding(FAKE_ENGINE, pb2, pb2_grpc, "Other")
    message = str(raised.value)
    assert "lacks the messages View" in message
    assert "declares no service 'Other'" in message
    assert "add_OtherServicer_to_server, OtherStub" in message


def test_the_service_is_the_one_the_proto_declares(monkeypatch: pytest.MonkeyPatch) -> None:
    pb2, pb2_grpc = fake_modules()
    monkeypatch.setitem(sys.modules, pb2.__name__, pb2)
    monkeypatch.setitem(sys.modules, pb2_grpc.__name__, pb2_grpc)
    assert GameBinding.for_engine(FAKE_ENGINE).service == "Fake"
    two, two_grpc = fake_modules(services=("Fake", "Spare"))
    monkeypatch.setitem(sys.modules, two.__name__, two)
    monkeypatch.setitem(sys.modules, two_grpc.__name__, two_grpc)
    with pytest.raises(GameBindingError, match=r"must declare exactly one service, not 2 \(Fake, Spare\)"):
        GameBinding.for_engine(FAKE_ENGINE)


def test_a_game_without_generated_code_is_served_through_the_generic_service() -> None:
    bound = GameBinding.for_engine(Missing())
    assert not bound.typed
    assert bound.service_name == "menagerie.generic.v1.Game"


def test_a_game_whose_generated_code_is_half_there_stops_the_binding(monkeypatch: pytest.MonkeyPatch) -> None:
    pb2, _ = fake_modules()
    monkeypatch.setitem(sys.modules, pb2.__name__, pb2)  # its _pb2_grpc is missing: a broken build, not no proto
    with pytest.raises(GameBindingError, match=r"cannot import its generated module menagerie\.fake\.v1"):
        GameBinding.for_engine(FAKE_ENGINE)


def test_menagerie_game_serves_the_game_named_by_argument_or_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    game = game_ids()[0]
    assert chosen_game([game]).info.game == game
    monkeypatch.setenv(GAME_ENV, game)
    assert chosen_game([]).info.game == game


@pytest.mark.parametrize("argv", [["chess"], []])
def test_menagerie_game_exits_2_naming_the_installed_games(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(GAME_ENV, raising=False)
    with pytest.raises(SystemExit) as exited:
        chosen_game(argv)
    assert exited.value.code == USAGE_ERROR
    assert f"installed: {', '.join(game_ids())}" in capsys.readouterr().err


def test_menagerie_game_exits_2_when_the_game_does_not_fit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = game_ids()[0]

    def broken(_: str) -> GameBinding:
        raise GameBindingError("menagerie.x.v1.x_pb2 lacks the messages View")

    monkeypatch.setattr("menagerie.shared.games.service.binding", broken)
    with pytest.raises(SystemExit) as exited:
        chosen_game([game])
    assert exited.value.code == USAGE_ERROR
    assert f"menagerie-game: {game}: menagerie.x.v1.x_pb2 lacks the messages View" in capsys.readouterr().err
    assert binding_module.binding(game).info.game == game  # the real one is untouched


def test_every_installed_game_ships_the_required_bot_levels() -> None:
    assert REQUIRED_LEVELS == ("random", "greedy")
    for game in game_ids():
        assert missing_levels(game) == [], game


def test_menagerie_game_refuses_a_game_without_a_greedy_bot(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = game_ids()[0]

    # The game's own levels as if its package named none in `menagerie.bots`: only the contract's remain.
    def none_named(_group: str, name: str) -> object:
        raise KeyError(name)

    monkeypatch.setattr(bots_module, "plugins", lambda group: {})
    monkeypatch.setattr(bots_module, "plugin", none_named)
    assert missing_levels(game) == ["greedy"]
    with pytest.raises(SystemExit) as exited:
        chosen_game([game])
    assert exited.value.code == USAGE_ERROR
    assert f"game {game!r} ships no bot level greedy; every game ships random, greedy" in capsys.readouterr().err
