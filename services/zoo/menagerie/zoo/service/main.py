"""Entry point of the Fantasy Zoo service (console script `menagerie-zoo`)."""

from menagerie.shared.games.service import run_game_service
from menagerie.zoo.service import BINDING


def main() -> None:
    """Runs the Zoo service until SIGTERM."""
    run_game_service(BINDING)
