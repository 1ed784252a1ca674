"""python -m menagerie.shared.games GAME: the same as the console script `menagerie-game GAME`."""

from menagerie.shared.games.service import main

main()
