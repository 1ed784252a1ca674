"""What the platform knows of bots, shared by the game services, the lobby and the pool."""

BOT_LEVELS = ("random", "greedy")
# Wherever a level is left out: the strongest one, so a first game is worth playing.
DEFAULT_BOT_LEVEL = "greedy"
