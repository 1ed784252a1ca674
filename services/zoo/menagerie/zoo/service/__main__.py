"""python -m menagerie.zoo.service: runs the Fantasy Zoo game service."""

from menagerie.zoo.service.main import main

main()
