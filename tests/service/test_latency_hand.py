"""The latency bench's hand plays a game as a person does, so every turn is committed."""

import pytest

from boards.layout import load_layout, shipped_layouts
from sensorboard.latency import change_to_frame


@pytest.mark.parametrize("layout", ["telec-nodrop", "telec"])
def test_the_hand_presses_after_a_turn_the_sensors_cannot_see(layout):
    """Seed 19's last turn (blue's roll 4 4) puts the pyramid onto blue's own on a1: the
    sensor shows no change, so the mover presses the clock. The hand pressed only after a turn with
    no lift or place at all, and the game ended with that turn never committed (16 of
    17)."""
    played = []
    change_to_frame(load_layout(shipped_layouts()[layout]), games=1, first_seed=19,
                    played=played)
    assert played == [(17, 17)]
