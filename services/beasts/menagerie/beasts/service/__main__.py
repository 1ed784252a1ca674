"""python -m menagerie.beasts.service: runs the Beasts game service."""

from menagerie.beasts.service.main import main

main()
