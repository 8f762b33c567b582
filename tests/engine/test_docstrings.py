"""The engine's usage shown in its docstrings runs as written."""

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["engine", "engine.search", "engine.tree", "engine.profiles",
                                  "engine.worker", "engine.hint", "engine.guard"])
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0
