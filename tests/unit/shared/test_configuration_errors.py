"""A bad configuration stops a process at start with a sentence naming what to fix."""

from __future__ import annotations

import pytest

from menagerie.shared.rpc.bootstrap import load_settings
from menagerie.shared.settings import ServiceSettings


def test_a_rule_across_settings_is_stated_without_a_made_up_variable(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")
    monkeypatch.setenv("MENAGERIE_VERIFY_KEYS_FILE", "/keys/verify-keys.json")
    monkeypatch.setenv("MENAGERIE_TLS_CERT_FILE", "/etc/menagerie/cert.pem")
    with pytest.raises(SystemExit) as stopped:
        load_settings(ServiceSettings)
    assert stopped.value.code == 2
    said = capsys.readouterr().err
    assert said == (
        "configuration error: MENAGERIE_TLS_CERT_FILE and MENAGERIE_TLS_KEY_FILE go together: set both or neither\n"
    )


def test_a_bad_value_is_led_by_its_variable(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")
    monkeypatch.setenv("MENAGERIE_VERIFY_KEYS_FILE", "/keys/verify-keys.json")
    monkeypatch.setenv("MENAGERIE_RATE_LIMIT_BURST", "0")
    with pytest.raises(SystemExit):
        load_settings(ServiceSettings)
    assert "MENAGERIE_RATE_LIMIT_BURST: Input should be greater than or equal to 1" in capsys.readouterr().err


def test_a_process_without_its_trusted_keys_is_told_which_variable_to_set(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")
    monkeypatch.delenv("MENAGERIE_VERIFY_KEYS_FILE", raising=False)
    with pytest.raises(SystemExit):
        load_settings(ServiceSettings)
    assert capsys.readouterr().err == "configuration error: MENAGERIE_VERIFY_KEYS_FILE: Field required\n"
