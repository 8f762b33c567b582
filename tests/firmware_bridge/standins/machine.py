# MicroPython stand-in for the Pico's machine module: a switch matrix with one diode per
# switch (a column reads HIGH only through a closed switch on the row driven HIGH), and
# pins outside the matrix that read their pull or a level forced by the test.

MAGNETS = set()  # (row pin, column pin) of every closed switch
FORCED = {}  # pin -> level, for buttons
_mode = {}
_pull = {}
_level = {}


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, ident, mode=-1, pull=-1, *, value=None):
        self.ident = ident
        if mode != -1:
            self.init(mode, pull, value=value)

    def init(self, mode=-1, pull=-1, *, value=None):
        if mode != -1:
            _mode[self.ident] = mode
        if pull != -1:
            _pull[self.ident] = pull
        if mode == Pin.OUT:
            _level[self.ident] = 1 if value else 0

    def value(self, v=None):
        if v is not None:
            _level[self.ident] = 1 if v else 0
            return None
        if _mode.get(self.ident) == Pin.OUT:
            return _level.get(self.ident, 0)
        for row, col in MAGNETS:
            if col == self.ident and _mode.get(row) == Pin.OUT and _level.get(row):
                return 1
        if self.ident in FORCED:
            return FORCED[self.ident]
        return 1 if _pull.get(self.ident) == Pin.PULL_UP else 0


def unique_id():
    return b"\xe6\x61\x4c\x31\x1b\x6b\x8f\x2a"
