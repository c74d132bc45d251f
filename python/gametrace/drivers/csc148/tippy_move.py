"""TippyMove: the cell to claim (gametrace's copy).

x is the column and y the row. gametrace counts both from 1 (the top-left cell is (1, 1));
the driver's --base 0 makes them count from 0, for a starter that does.
"""
from move import Move


class TippyMove(Move):
    """Claim the cell (x, y)."""

    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __repr__(self):
        return 'TippyMove({}, {})'.format(self.x, self.y)

    def __str__(self):
        return '({}, {})'.format(self.x, self.y)
