"""python -m menagerie.cli: the `menagerie` command."""

from menagerie.cli.main import app

app()
