"""What the platform knows of bots, shared by the game services, the lobby and the pool."""

BOT_LEVELS = ("random", "greedy")
