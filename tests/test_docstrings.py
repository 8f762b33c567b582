"""The usage shown in docstrings runs as written."""

import doctest
import importlib

import pytest

MODULES = ["rules", "rules.base", "rules.tessella", "rules.tulaga", "rules.telec", "rules.teblo",
           "rules.geometry",
           "rules.tesulda", "rules.tesulda_setup", "rules.errors",
           "boards.tracker", "boards.sensing", "hardware.buttons",
           "sensorboard.numbering", "sensorboard.journal", "sensorboard.gamelog"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
