"""gametrace's stand-in for the CS188 multiagent project's ``util`` module.

A student's ``multiAgents.py`` imports ``util`` (``manhattanDistance``, ``lookup``,
``raiseNotDefined``, the data structures). The game-tree tests need no maze, so this module
has the project's names with their signatures and the behaviour the tests rely on, written
for gametrace; the course's own file is used instead when the TA passes ``--project DIR``.
"""

import heapq
import inspect
import random
import signal
import sys


class Stack:
    """A last-in, first-out container."""

    def __init__(self):
        self.list = []

    def push(self, item):
        self.list.append(item)

    def pop(self):
        return self.list.pop()

    def isEmpty(self):
        return len(self.list) == 0


class Queue:
    """A first-in, first-out container."""

    def __init__(self):
        self.list = []

    def push(self, item):
        self.list.insert(0, item)

    def pop(self):
        return self.list.pop()

    def isEmpty(self):
        return len(self.list) == 0


class PriorityQueue:
    """Items popped lowest priority first."""

    def __init__(self):
        self.heap = []
        self.count = 0

    def push(self, item, priority):
        heapq.heappush(self.heap, (priority, self.count, item))
        self.count += 1

    def pop(self):
        return heapq.heappop(self.heap)[2]

    def isEmpty(self):
        return len(self.heap) == 0

    def update(self, item, priority):
        for i, (p, c, it) in enumerate(self.heap):
            if it == item:
                if p <= priority:
                    return
                self.heap[i] = (priority, c, item)
                heapq.heapify(self.heap)
                return
        self.push(item, priority)


class PriorityQueueWithFunction(PriorityQueue):
    """A priority queue whose priorities a function of the item gives."""

    def __init__(self, priorityFunction):
        self.priorityFunction = priorityFunction
        PriorityQueue.__init__(self)

    def push(self, item):
        PriorityQueue.push(self, item, self.priorityFunction(item))


def manhattanDistance(xy1, xy2):
    return abs(xy1[0] - xy2[0]) + abs(xy1[1] - xy2[1])


class Counter(dict):
    """A dict whose missing keys count 0."""

    def __getitem__(self, idx):
        self.setdefault(idx, 0)
        return dict.__getitem__(self, idx)

    def incrementAll(self, keys, count):
        for key in keys:
            self[key] += count

    def argMax(self):
        if len(self) == 0:
            return None
        return max(self.items(), key=lambda kv: kv[1])[0]

    def sortedKeys(self):
        return [k for k, _ in sorted(self.items(), key=lambda kv: -kv[1])]

    def totalCount(self):
        return sum(self.values())

    def normalize(self):
        total = float(self.totalCount())
        if total == 0:
            return
        for key in list(self.keys()):
            self[key] = self[key] / total

    def divideAll(self, divisor):
        divisor = float(divisor)
        for key in self:
            self[key] /= divisor

    def copy(self):
        return Counter(dict.copy(self))

    def __mul__(self, y):
        return sum(v * y[k] for k, v in self.items() if k in y)

    def __radd__(self, y):
        for key, value in y.items():
            self[key] += value

    def __add__(self, y):
        out = Counter()
        for key in set(self) | set(y):
            out[key] = self[key] + y[key]
        return out

    def __sub__(self, y):
        out = Counter()
        for key in set(self) | set(y):
            out[key] = self[key] - y[key]
        return out


def raiseNotDefined():
    """Says which method is not written yet, and stops the program (as the course's does)."""
    caller = inspect.stack()[1]
    print("*** Method not implemented: %s at line %s of %s" % (caller[3], caller[2], caller[1]))
    sys.exit(1)


def normalize(vectorOrCounter):
    if isinstance(vectorOrCounter, Counter):
        out = Counter()
        total = float(vectorOrCounter.totalCount())
        if total == 0:
            return vectorOrCounter
        for key, value in vectorOrCounter.items():
            out[key] = value / total
        return out
    total = float(sum(vectorOrCounter))
    if total == 0:
        return vectorOrCounter
    return [v / total for v in vectorOrCounter]


def nSample(distribution, values, n):
    return [sample(distribution, values) for _ in range(n)]


def sample(distribution, values=None):
    if isinstance(distribution, Counter):
        items = sorted(distribution.items())
        distribution = [v for _, v in items]
        values = [k for k, _ in items]
    if sum(distribution) != 1:
        distribution = normalize(distribution)
    choice = random.random()
    total = 0.0
    for p, v in zip(distribution, values):
        total += p
        if choice < total:
            return v
    return values[-1]


def sampleFromCounter(ctr):
    items = sorted(ctr.items())
    return sample([v for _, v in items], [k for k, _ in items])


def getProbability(value, distribution, values):
    return sum(p for p, v in zip(distribution, values) if v == value)


def flipCoin(p):
    return random.random() < p


def chooseFromDistribution(distribution):
    if isinstance(distribution, (dict, Counter)):
        return sample(distribution)
    r = random.random()
    base = 0.0
    for prob, element in distribution:
        base += prob
        if r <= base:
            return element
    return distribution[-1][1]


def nearestPoint(pos):
    return (int(pos[0] + 0.5), int(pos[1] + 0.5))


def sign(x):
    return 1 if x >= 0 else -1


def arrayInvert(array):
    return [list(column) for column in zip(*array)]


def matrixAsList(matrix, value=True):
    return [(x, y) for x in range(len(matrix)) for y in range(len(matrix[0]))
            if matrix[x][y] == value]


def lookup(name, namespace):
    """The function or class `name`: an attribute of a dotted module path, or a name in
    `namespace` (how ``MultiAgentSearchAgent`` finds ``scoreEvaluationFunction``)."""
    if "." in name:
        module_name, obj_name = name.rsplit(".", 1)
        return getattr(__import__(module_name), obj_name)
    options = [obj for key, obj in namespace.items() if key == name]
    if len(options) == 1:
        return options[0]
    if len(options) > 1:
        raise Exception("Name conflict for %s" % name)
    raise Exception("%s not found as a method or class" % name)


def pause():
    input("<Press enter/return to continue>")


class TimeoutFunctionException(Exception):
    """Raised when a TimeoutFunction's call runs out of time."""


class TimeoutFunction:
    def __init__(self, function, timeout):
        self.timeout = timeout
        self.function = function

    def handle_timeout(self, signum, frame):
        raise TimeoutFunctionException()

    def __call__(self, *args, **keyArgs):
        if hasattr(signal, "SIGALRM"):
            old = signal.signal(signal.SIGALRM, self.handle_timeout)
            signal.alarm(self.timeout)
            try:
                return self.function(*args, **keyArgs)
            finally:
                signal.alarm(0)
                signal.signal(signal.SIGALRM, old)
        return self.function(*args, **keyArgs)


class WritableNull:
    def write(self, string):
        pass


_ORIGINAL_STDOUT = None


def mutePrint():
    global _ORIGINAL_STDOUT
    if _ORIGINAL_STDOUT is None:
        _ORIGINAL_STDOUT = sys.stdout
        sys.stdout = WritableNull()


def unmutePrint():
    global _ORIGINAL_STDOUT
    if _ORIGINAL_STDOUT is not None:
        sys.stdout = _ORIGINAL_STDOUT
        _ORIGINAL_STDOUT = None
