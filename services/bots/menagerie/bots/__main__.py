"""python -m menagerie.bots: runs the dispatcher (the workers run as `menagerie-bot-worker`)."""

from menagerie.bots.dispatcher import main

main()
