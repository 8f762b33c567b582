"""The usage shown in docstrings runs as written, in every module the project ships."""

import doctest
import importlib
import pkgutil
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def shipped_packages() -> list[str]:
    """The top-level packages pyproject.toml ships (``include = ["rules*", ...]``)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    return [pattern.rstrip("*") for pattern in include]


def shipped_modules() -> list[str]:
    names = []
    for package in shipped_packages():
        module = importlib.import_module(package)
        names.append(package)
        names += [info.name for info in pkgutil.walk_packages(module.__path__, package + ".")
                  if not info.name.endswith("__main__")]
    return sorted(names)


MODULES = shipped_modules()


def test_every_package_is_walked():
    assert {"rules.tessella", "boards.tracker", "hardware.sim", "sensorboard.service",
            "firmware_bridge.protocol"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
