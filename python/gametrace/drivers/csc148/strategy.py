"""Strategy, as CSC148's starter defines it (gametrace's copy)."""


class Strategy:
    """A way of choosing a move."""

    def __init__(self, interactive=False):
        self.interactive = interactive

    def suggest_move(self, state):
        """(Strategy, GameState) -> Move

        Return a move for state.next_player in state.
        """
        raise NotImplementedError
