"""menagerie.search: bot levels that are no one game's, on the bots' side of the fence.

- `mcts`: the `mcts` level, information-set MCTS from the seat's view, for every installed game.

Engines and the rules contract never import it (pyproject.toml's import contracts); the
bot pool, the arena, the bench and the games' bot modules may. It knows games only through
the registry (menagerie.rules.registry): its entry point offers the level to every game.
"""
