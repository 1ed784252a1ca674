"""Movement on the board graph: streets plus Apparating between blue circles."""

from __future__ import annotations

from collections import deque

from menagerie.beasts.engine.data import Board


class Routes:
    """Shortest step counts between spaces, where an Apparate is one step.

    A move is a simple path of at most `steps` steps (no space twice), and every route
    to the same space has the same effect, so the legal destinations of a move are
    exactly the spaces other than the origin within `steps` of it.
    """

    def __init__(self, board: Board) -> None:
        blue = [s.id for s in board.spaces if s.blue_circle]
        self.adjacency: list[tuple[int, ...]] = []
        for space in board.spaces:
            links = set(space.neighbours)
            if space.blue_circle:
                links.update(b for b in blue if b != space.id)
            self.adjacency.append(tuple(sorted(links)))
        self.distance = [self._bfs(origin) for origin in range(len(board.spaces))]
        self._destinations: dict[tuple[int, int], list[int]] = {}

    def _bfs(self, origin: int) -> list[int]:
        distance = [-1] * len(self.adjacency)
        distance[origin] = 0
        queue = deque([origin])
        while queue:
            here = queue.popleft()
            for there in self.adjacency[here]:
                if distance[there] < 0:
                    distance[there] = distance[here] + 1
                    queue.append(there)
        return distance

    def destinations(self, origin: int, steps: int) -> list[int]:
        """Spaces where a move of at most `steps` steps from `origin` may stop."""
        key = (origin, steps)
        found = self._destinations.get(key)
        if found is None:
            found = self._destinations[key] = [s for s, d in enumerate(self.distance[origin]) if 0 < d <= steps]
        return found
