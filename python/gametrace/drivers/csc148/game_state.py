"""GameState, as CSC148's A2/A3 starter defines it (gametrace's copy).

A state knows whose move it is (`next_player`, 'p1' or 'p2'), whether the game is
`over`, its possible next moves, the state a move leads to, and a rough outcome.
Scores are from the point of view of `next_player`: WIN 1.0, LOSE -1.0, DRAW 0.0.
"""


class GameState:
    """The state of a two-player game at some point."""

    WIN, LOSE, DRAW = 1.0, -1.0, 0.0

    def __init__(self, p):
        """(GameState, str) -> NoneType

        Create a state with 'p1' or 'p2' to move.
        """
        self.next_player = p
        self.over = False
        self.instructions = ''

    def opponent(self):
        """(GameState) -> str

        Return the player who is not next_player.
        """
        return 'p2' if self.next_player == 'p1' else 'p1'

    def winner(self, player):
        """(GameState, str) -> bool

        Return whether player has won the game.
        """
        raise NotImplementedError

    def outcome(self):
        """(GameState) -> float

        Return WIN, LOSE or DRAW for next_player in a finished game.
        """
        if self.winner(self.next_player):
            return self.WIN
        if self.winner(self.opponent()):
            return self.LOSE
        return self.DRAW

    def possible_next_moves(self):
        """(GameState) -> list of Move"""
        raise NotImplementedError

    def apply_move(self, move):
        """(GameState, Move) -> GameState

        Return the state after move, or None if move is not legal.
        """
        raise NotImplementedError

    def rough_outcome(self):
        """(GameState) -> float

        Return an estimate in [LOSE, WIN] of the best outcome next_player can guarantee.
        """
        raise NotImplementedError

    def abbreviated(self):
        """(GameState) -> str

        Return a short text for this state, as gametrace writes it.
        """
        raise NotImplementedError

    def __eq__(self, other):
        return type(self) == type(other) and repr(self) == repr(other)

    def __hash__(self):
        return hash(repr(self))
