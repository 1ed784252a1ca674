"""Entry point of the Beasts service (console script `menagerie-beasts`)."""

from menagerie.beasts.service import BINDING
from menagerie.shared.games.service import run_game_service


def main() -> None:
    """Runs the Beasts service until SIGTERM."""
    run_game_service(BINDING)
