"""Shared by the rules tests."""


def perft(state, depth):
    """How many move sequences of ``depth`` plies the position has (its own moves only)."""
    if depth == 0:
        return 1
    total = 0
    for move in state.legal_moves():
        state.push(move)
        total += perft(state, depth - 1)
        state.pop()
    return total
