"""SubtractSquareMove: how much to subtract (gametrace's copy of the starter)."""
from move import Move


class SubtractSquareMove(Move):
    """Subtract amount, a positive square, from the current total."""

    def __init__(self, amount):
        self.amount = amount

    def __repr__(self):
        return 'SubtractSquareMove({})'.format(self.amount)

    def __str__(self):
        return 'subtract {}'.format(self.amount)
