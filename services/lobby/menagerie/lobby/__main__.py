"""python -m menagerie.lobby: runs the lobby."""

from menagerie.lobby.main import main

main()
