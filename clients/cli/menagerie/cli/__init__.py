"""The `menagerie` command-line client."""
