"""The error types of the rules package, one per kind of fault."""


class RulesError(ValueError):
    """Base class of every error raised by the rules package."""


class UnknownGameError(RulesError):
    """The game name is not one of :data:`rules.GAMES`."""


class MoveSyntaxError(RulesError):
    """A move text cannot be read at all (it names no move of this game)."""


class IllegalMoveError(RulesError):
    """A well-formed move that the position does not allow."""


class PositionError(RulesError):
    """A position text that is malformed or describes an impossible position."""


class SetupError(PositionError):
    """A start setup (figures entered per side) that breaks the setup rules: ``errors``
    is every fault found, one line each; the message is the first.

    >>> SetupError("setup line 1: one", "setup line 2: two").errors[1]
    'setup line 2: two'
    """

    def __init__(self, *errors: str) -> None:
        super().__init__(*errors[:1])
        self.errors = list(errors)
