"""The LED palettes: the colour-blind one keeps the roles that light together apart for
protan, deutan and tritan vision (simulated), the standard one does not; a board's
config picks a palette and may recolour single roles."""

import itertools

import pytest

from boards import hints

# Machado, Oliveira & Fernandes (2009), severity 1.0, on linear RGB.
DICHROMACY = {
    "protan": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
               (-0.003882, -0.048116, 1.051998)),
    "deutan": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
               (-0.011820, 0.042940, 0.968881)),
    "tritan": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
               (0.004733, 0.691367, 0.303900)),
}
TOGETHER = [("lifted", "move", "capture", "lift", "dodge"),  # see hints.plan
            ("wrong", "missing", "attacker"), ("hint-from", "hint-to"),
            ("opponent-from", "opponent-to"),
            ("held", "move", "capture", "lift", "dodge")]  # held: lifted is held


def lab(rgb, vision=None):
    """CIELAB (D65) of an sRGB colour as seen with ``vision`` (None: trichromat)."""
    lin = [(v / 255) / 12.92 if v / 255 <= 0.04045 else ((v / 255 + 0.055) / 1.055) ** 2.4
           for v in rgb]
    if vision:
        lin = [min(1.0, max(0.0, sum(a * b for a, b in zip(row, lin, strict=True))))
               for row in DICHROMACY[vision]]
    r, g, b = lin
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a, b, vision=None):
    return sum((p - q) ** 2 for p, q in zip(lab(a, vision), lab(b, vision), strict=True)) ** 0.5


def closest_pair(palette):
    """The smallest difference between two roles that light together, for any vision."""
    return min((delta_e(palette[a], palette[b], vision), a, b, vision)
               for group in TOGETHER for a, b in itertools.combinations(group, 2)
               for vision in (None, *DICHROMACY))


def test_the_simulation_confuses_red_and_green_for_a_deuteranope():
    red, green = (255, 0, 0), (0, 255, 0)
    assert delta_e(red, green) > 150
    assert delta_e(red, green, "deutan") < delta_e(red, green) / 4


def test_the_colour_blind_palette_keeps_roles_that_light_together_apart():
    difference, a, b, vision = closest_pair(hints.COLOUR_BLIND)
    assert difference > 40, (a, b, vision)


def test_the_standard_palette_is_the_one_that_needs_the_option():
    difference, a, b, vision = closest_pair(hints.PALETTE)
    assert difference < 10 and vision is not None  # e.g. capture and lift for a protan


def test_every_role_has_a_colour_in_every_palette():
    for palette in hints.PALETTES.values():
        assert palette.keys() == hints.PALETTE.keys()
        assert all(rgb != hints.OFF for rgb in palette.values())


def test_a_config_recolours_a_role_and_names_an_unknown_one():
    assert hints.palette("colour-blind", [("last", (1, 2, 3))])["last"] == (1, 2, 3)
    with pytest.raises(ValueError, match="colours.glow: not an LED role; roles: lifted"):
        hints.palette("standard", [("glow", (1, 2, 3))])
    with pytest.raises(ValueError, match="palette: must be one of standard, colour-blind"):
        hints.palette("pastel")
