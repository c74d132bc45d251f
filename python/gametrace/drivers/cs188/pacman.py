"""gametrace's stand-in for the CS188 multiagent project's ``pacman`` module.

``multiAgents.py`` imports ``GameState`` from here, for its type hints. The game-tree tests
hand an agent a tree state instead (see ``gametrace_cs188.py``), so this class only names the
game state's methods; none is called in a tree test (``--project DIR`` runs the course's own
file instead).
"""


class GameState:
    """The Pacman game state's interface, by name."""

    def _not_here(self, *args, **kwargs):
        raise NotImplementedError(
            "gametrace's stand-in pacman.GameState has no game: the tree tests use tree states")

    getLegalActions = _not_here
    generateSuccessor = _not_here
    getNextState = _not_here
    getLegalPacmanActions = _not_here
    generatePacmanSuccessor = _not_here
    getPacmanState = _not_here
    getPacmanPosition = _not_here
    getGhostStates = _not_here
    getGhostState = _not_here
    getGhostPosition = _not_here
    getGhostPositions = _not_here
    getNumAgents = _not_here
    getScore = _not_here
    getCapsules = _not_here
    getNumFood = _not_here
    getFood = _not_here
    getWalls = _not_here
    hasFood = _not_here
    hasWall = _not_here
    isLose = _not_here
    isWin = _not_here
