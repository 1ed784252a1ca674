"""A bot player's kept seat tokens: one per seat, signed again once half its life is gone."""

from __future__ import annotations

import time

import grpc
import pytest

from menagerie.bots.turns import BOT_TOKEN_SECONDS, TurnPlayer
from tests.support.keys import KEYS


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
