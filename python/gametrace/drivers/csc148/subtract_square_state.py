"""SubtractSquareState (gametrace's copy of the starter).

A state is (current_total, next_player); a move subtracts a positive square no larger than
the total; whoever brings the total to 0 wins.
"""
from game_state import GameState
from subtract_square_move import SubtractSquareMove

# The course's starter lists the largest square first. A spec with `square_order:
# smallest_first` (staff whose copy differs) has the driver set this.
SMALLEST_FIRST = False


def _is_square(n):
    r = int(n ** 0.5)
    while r * r > n:
        r -= 1
    while (r + 1) * (r + 1) <= n:
        r += 1
    return r * r == n


class SubtractSquareState(GameState):
    """Subtract Square: the total left and whose move it is."""

    def __init__(self, p, interactive=False, current_total=0):
        GameState.__init__(self, p)
        self.current_total = current_total
        self.over = current_total == 0

    def __repr__(self):
        return 'SubtractSquareState({!r}, current_total={})'.format(
            self.next_player, self.current_total)

    def __str__(self):
        return 'Current total: {}; next player: {}'.format(
            self.current_total, self.next_player)

    def abbreviated(self):
        return '{}:{}'.format(self.next_player, self.current_total)

    def winner(self, player):
        # The player who brought the total to 0 is not the one left to move.
        return self.over and player == self.opponent()

    def possible_next_moves(self):
        # The starter's order, largest square first: range(current_total, 0, -1).
        roots = range(int(self.current_total ** 0.5) + 1, 0, -1)
        if SMALLEST_FIRST:
            roots = reversed(roots)
        return [SubtractSquareMove(i * i) for i in roots if i * i <= self.current_total]

    def apply_move(self, move):
        if move not in self.possible_next_moves():
            return None
        return SubtractSquareState(self.opponent(),
                                   current_total=self.current_total - move.amount)

    def rough_outcome(self):
        if self.current_total > 0 and _is_square(self.current_total):
            return self.WIN
        if all(_is_square(self.current_total - m.amount)
               for m in self.possible_next_moves()):
            return self.LOSE
        return self.DRAW
