"""Every engine installs and runs without the service stack: no gRPC, Redis, protobuf, Celery or platform code.

A fresh interpreter refuses to import any of them, finds the games through their
entry points and plays a seeded random match of every mode to the end.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    import random, sys

    EXTERNAL = {"grpc", "redis", "celery", "kombu", "google", "rich", "pydantic"}
    PLATFORM = ("menagerie.shared", "menagerie.cli")

    class RefuseServiceStack:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in EXTERNAL or name.startswith(PLATFORM):
                raise ImportError(f"an engine imported {name}, which belongs to the service stack")
            return None

    sys.meta_path.insert(0, RefuseServiceStack())

    from menagerie.rules import registry
    from menagerie.rules.contract import MatchSetup

    played = []
    for game in registry.game_ids():
        engine = registry.engine(game)
        for mode in engine.info.modes:
            state, _ = engine.setup(MatchSetup(mode.mode, mode.min_seats), 3)
            rng = random.Random(3)
            while engine.outcome(state) is None:
                seat = rng.choice(engine.to_act(state).seats())
                engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
            played.append(f"{game}/{mode.mode}")
    print(" ".join(played))
    """
)


def test_engines_play_whole_matches_without_the_service_stack() -> None:
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    played = result.stdout.split()
    assert {"beasts/capture", "beasts/training", "zoo/advanced", "pursuit/coop"} <= set(played), played
