"""Each proto ends with the service and envelopes protos/envelopes.py writes (`make protos` when this fails)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from menagerie.shared.games.binding import bindings

ROOT = Path(__file__).resolve().parents[2]


def load_envelopes() -> Any:
    """protos/envelopes.py, a script rather than a package's module."""
    spec = importlib.util.spec_from_file_location("envelopes", ROOT / "protos" / "envelopes.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_proto_with_a_service_has_the_envelopes_as_written() -> None:
    envelopes = load_envelopes()
    found = envelopes.protos()
    stale = [
        str(path)
        for path, service in found.items()
        if envelopes.with_envelopes((ROOT / path).read_text(), service) != (ROOT / path).read_text()
    ]
    assert not stale, f"the service or envelopes differ from protos/envelopes.py's, run `make protos`: {stale}"


def test_every_game_with_a_proto_and_the_generic_service_are_written() -> None:
    envelopes = load_envelopes()
    services = {service for service in envelopes.protos().values()}
    assert services == {bound.service for bound in bindings().values()} | {"Game"}


def test_a_new_proto_gets_the_part_at_its_end_and_a_written_one_is_rewritten_in_place() -> None:
    envelopes = load_envelopes()
    head = 'syntax = "proto3";\n\npackage menagerie.fantasy_zoo.v1;\n\nmessage View {}\n'
    written = envelopes.with_envelopes(head, envelopes.service_name("fantasy_zoo"))
    assert written.startswith(head + "\n" + envelopes.BEGIN + "\n")
    assert "service FantasyZoo {" in written and written.endswith("TimeoutDecision timeout = 6;\n}\n")
    assert envelopes.with_envelopes(written, "FantasyZoo") == written
    changed = written.replace("string match_id = 1;", "string match = 1;", 1)
    assert envelopes.with_envelopes(changed, "FantasyZoo") == written
