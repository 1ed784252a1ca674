"""Entry point of the Pursuit service (console script `menagerie-pursuit`)."""

from menagerie.pursuit.service import BINDING
from menagerie.shared.games.service import run_game_service


def main() -> None:
    """Runs the Pursuit service until SIGTERM."""
    run_game_service(BINDING)
