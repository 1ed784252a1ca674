"""menagerie.arena: bots of different levels against each other, and how often each wins."""
