"""gametrace's stand-in for the CS188 multiagent project's ``game`` module.

``multiAgents.py`` takes ``Agent`` (its agents' base class) and ``Directions`` from here, and
some students ``Actions``. These have the project's names, signatures and constants, written
for gametrace; the game-tree tests never build a maze, so the game's machinery is not here
(``--project DIR`` runs the course's own file instead).
"""

from util import *  # noqa: F401,F403  (the course's module re-exports util)
from util import raiseNotDefined


class Agent:
    """An agent must define a getAction method."""

    def __init__(self, index=0):
        self.index = index

    def getAction(self, state):
        raiseNotDefined()


class Directions:
    NORTH = "North"
    SOUTH = "South"
    EAST = "East"
    WEST = "West"
    STOP = "Stop"

    LEFT = {NORTH: WEST, SOUTH: EAST, EAST: NORTH, WEST: SOUTH, STOP: STOP}
    RIGHT = dict([(y, x) for x, y in LEFT.items()])
    REVERSE = {NORTH: SOUTH, SOUTH: NORTH, EAST: WEST, WEST: EAST, STOP: STOP}


class Configuration:
    """A position and the direction of travel."""

    def __init__(self, pos, direction):
        self.pos = pos
        self.direction = direction

    def getPosition(self):
        return self.pos

    def getDirection(self):
        return self.direction

    def generateSuccessor(self, vector):
        x, y = self.pos
        dx, dy = vector
        direction = Actions.vectorToDirection(vector)
        if direction == Directions.STOP:
            direction = self.direction
        return Configuration((x + dx, y + dy), direction)


class AgentState:
    """An agent's configuration, and whether it is Pacman."""

    def __init__(self, startConfiguration, isPacman):
        self.start = startConfiguration
        self.configuration = startConfiguration
        self.isPacman = isPacman
        self.scaredTimer = 0
        self.numCarrying = 0
        self.numReturned = 0

    def getPosition(self):
        if self.configuration is None:
            return None
        return self.configuration.getPosition()

    def getDirection(self):
        return self.configuration.getDirection()


class Actions:
    """Static methods on moves."""

    _directions = {
        Directions.NORTH: (0, 1),
        Directions.SOUTH: (0, -1),
        Directions.EAST: (1, 0),
        Directions.WEST: (-1, 0),
        Directions.STOP: (0, 0),
    }
    _directionsAsList = list(_directions.items())
    TOLERANCE = 0.001

    @staticmethod
    def reverseDirection(action):
        return Directions.REVERSE.get(action, action)

    @staticmethod
    def vectorToDirection(vector):
        dx, dy = vector
        if dy > 0:
            return Directions.NORTH
        if dy < 0:
            return Directions.SOUTH
        if dx < 0:
            return Directions.WEST
        if dx > 0:
            return Directions.EAST
        return Directions.STOP

    @staticmethod
    def directionToVector(direction, speed=1.0):
        dx, dy = Actions._directions[direction]
        return (dx * speed, dy * speed)

    @staticmethod
    def getSuccessor(position, action):
        dx, dy = Actions.directionToVector(action)
        x, y = position
        return (x + dx, y + dy)
