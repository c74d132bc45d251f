"""TippyGameState (gametrace's copy).

p1 (X) and p2 (O) take turns claiming an empty cell of an n x n board; the first whose cells
hold a tippy (a Z or S tetromino, in any of its four orientations) wins; a full board without
one is a tie. board[y][x] is 'X', 'O' or '.', with row y = 0 at the top.
"""
from game_state import GameState
from tippy_move import TippyMove

BASE = 1  # what the driver's --base sets: the number of the first row and column


def _tippies(n):
    """Every tippy on an n x n board, as four (x, y) cells (0-based)."""
    out = []
    for y in range(n):
        for x in range(n):
            if x + 2 < n and y + 1 < n:
                out.append(((x, y), (x + 1, y), (x + 1, y + 1), (x + 2, y + 1)))
                out.append(((x + 1, y), (x + 2, y), (x, y + 1), (x + 1, y + 1)))
            if x + 1 < n and y + 2 < n:
                out.append(((x, y), (x, y + 1), (x + 1, y + 1), (x + 1, y + 2)))
                out.append(((x + 1, y), (x + 1, y + 1), (x, y + 1), (x, y + 2)))
    return out


class TippyGameState(GameState):
    """A Tippy board and whose move it is."""

    def __init__(self, p, interactive=False, board_size=4, board=None):
        GameState.__init__(self, p)
        self.board_size = board_size
        self.board = [row[:] for row in board] if board else \
            [['.'] * board_size for _ in range(board_size)]
        self.over = (self.winner('p1') or self.winner('p2')
                     or all(c != '.' for row in self.board for c in row))

    def __repr__(self):
        return 'TippyGameState({!r}, board={!r})'.format(self.next_player, self.board)

    def __str__(self):
        return '\n'.join(''.join(row) for row in self.board)

    def abbreviated(self):
        return '/'.join(''.join(row) for row in self.board)

    def _piece(self, player):
        return 'X' if player == 'p1' else 'O'

    def winner(self, player):
        piece = self._piece(player)
        return any(all(self.board[y][x] == piece for (x, y) in t)
                   for t in _tippies(self.board_size))

    def possible_next_moves(self):
        if self.over:
            return []
        return [TippyMove(x + BASE, y + BASE)
                for y in range(self.board_size) for x in range(self.board_size)
                if self.board[y][x] == '.']

    def apply_move(self, move):
        if move not in self.possible_next_moves():
            return None
        board = [row[:] for row in self.board]
        board[move.y - BASE][move.x - BASE] = self._piece(self.next_player)
        return TippyGameState(self.opponent(), board_size=self.board_size, board=board)

    def _threats(self, piece):
        cells = set()
        for t in _tippies(self.board_size):
            missing = [(x, y) for (x, y) in t if self.board[y][x] != piece]
            if len(missing) == 1 and self.board[missing[0][1]][missing[0][0]] == '.':
                cells.add(missing[0])
        return cells

    def rough_outcome(self):
        if self._threats(self._piece(self.next_player)):
            return self.WIN
        if len(self._threats(self._piece(self.opponent()))) >= 2:
            return self.LOSE
        return self.DRAW
