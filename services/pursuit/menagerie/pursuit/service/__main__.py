"""python -m menagerie.pursuit.service: runs the Pursuit game service."""

from menagerie.pursuit.service.main import main

main()
