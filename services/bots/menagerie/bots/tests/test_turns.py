"""A bot player's kept seat tokens (one per seat, signed again once half its life is gone) and what its policy reads."""

from __future__ import annotations

import time
from pathlib import Path

import grpc
import jwt
import pytest

from menagerie.bots.games import BINDINGS
from menagerie.bots.turns import BOT_TOKEN_SECONDS, TurnPlayer, seat_view
from menagerie.rules.contract import MatchSetup
from menagerie.shared import keys
from menagerie.shared.tokens import TokenSigner
from tests.support.keys import KEYS, KeyDir


def no_channel(address: str) -> grpc.Channel:
    raise AssertionError(f"no call expected ({address})")


def test_a_seat_keeps_its_token_for_half_its_life(monkeypatch: pytest.MonkeyPatch) -> None:
    signer = KEYS.signer()
    player = TurnPlayer(signer, {}, no_channel, call_timeout=1, decision_timeout=2)
    # A clock in the past, so that every token signed here is valid by PyJWT's real one.
    now = time.time() - BOT_TOKEN_SECONDS * 2 / 3
    monkeypatch.setattr(time, "time", lambda: now)
    first = player._token("m-1", 0, "greedy")
    principal = signer.verify(first)
    assert (principal.match_id, principal.seat, principal.bot) == ("m-1", 0, True)
    assert player._token("m-1", 0, "greedy") == first
    assert player._token("m-1", 1, "greedy") != first, "each seat has its own"
    assert player._token("m-1", 0, "random") != first, "and each level"
    monkeypatch.setattr(time, "time", lambda: now + BOT_TOKEN_SECONDS / 2 - 1)
    assert player._token("m-1", 0, "greedy") == first
    monkeypatch.setattr(time, "time", lambda: now + BOT_TOKEN_SECONDS / 2 + 1)
    renewed = player._token("m-1", 0, "greedy")
    assert renewed != first and signer.verify(renewed).seat == 0


def test_a_kept_token_is_signed_again_when_the_workers_key_rotates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(keys, "RELOAD_CHECK_SECONDS", 0.0)  # the key file is looked at on every call
    folder = KeyDir.generate(tmp_path)
    player = TurnPlayer(folder.signer("bots"), {}, no_channel, call_timeout=1, decision_timeout=2)
    verifier = TokenSigner.from_files(folder.verify_file)
    first = player._token("m-1", 0, "greedy")
    assert player._token("m-1", 0, "greedy") == first
    new_kid = keys.rotate(tmp_path, "bots")
    renewed = player._token("m-1", 0, "greedy")
    assert renewed != first, "a token of the old key is kept after the rotation"
    assert jwt.get_unverified_header(renewed)["kid"] == new_kid
    assert verifier.verify(renewed).bot and player._token("m-1", 0, "greedy") == renewed


@pytest.mark.parametrize("game", sorted(BINDINGS))
def test_a_policy_is_handed_the_seats_view_never_a_state(game: str) -> None:
    """No cheating (issue 33): what a bot reads is the seat's GetView answer, as the engine's view type."""
    binding = BINDINGS[game]
    engine = binding.engine
    mode = engine.info.modes[0]
    state, _ = engine.setup(MatchSetup(mode.mode, max(2, mode.min_seats)), 3)
    view = engine.view(state, 1)
    reply = binding.pb2.GetViewResponse(view_version=1, view=binding.messages.view(view))
    handed = seat_view(binding, reply)
    assert type(handed) is engine.view_type and not isinstance(handed, engine.state_type)
    assert handed.prompt.kind == view.prompt.kind and handed.viewer == 1
