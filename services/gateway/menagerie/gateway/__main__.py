"""python -m menagerie.gateway: runs the gateway."""

from menagerie.gateway.main import main

main()
