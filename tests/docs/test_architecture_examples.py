"""The worked examples of docs/architecture.md ("Readings, commits and questions, by
example") are true: each example's events, read from the page itself, are fed to a real
tracker on the named layout's sensors, and every row's claims are checked.

A row's third column claims, each as a bold word directly followed by code spans:
**commits** (the turns committed, in order), **asks** (a question's options),
**settles** (the answer later events gave), **rolls** (a die read from the board),
**holds** (the turns held, the phase ``HELD``), **fits** (the turns in progress or done
that fit the board, ``Tracker.alive()``), **offers** (the option the ``hint`` button put
on offer), **reads** (the answers the readings of an open question still follow), and
``LEDs:`` pairs of a cell and its role (seen at least once within three seconds of the
row, for roles that blink or pulse) or ``all dark``. A row that does not claim a commit,
a question, a settling, a roll or a hold is checked to have none: the page cannot leave
out what the tracker did.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

import rules
from boards import answers, hints
from boards.events import Committed, Prompt, Rejected, Rolled, Settled
from boards.layout import load_layout, shipped_layouts
from boards.phases import Phase
from tests.boards.truth import TrackerBoard

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "architecture.md"
SECTION = "## Readings, commits and questions, by example"
CLAIM = re.compile(r"\*\*(commits|asks|settles|rolls|holds|offers|reads|fits)\*\*"
                   r"((?:[\s,]*(?:and |then )?`[^`]+`)*)")
LEDS = re.compile(r"LEDs: ([^;.]*)")
SPAN = re.compile(r"`([^`]+)`")


@dataclass(frozen=True)
class Row:
    t: float
    event: str
    claims: dict[str, list[str]]
    leds: list[tuple[str, str]]
    dark: bool  # "LEDs: all dark"


@dataclass(frozen=True)
class Example:
    title: str
    layout: str
    position: str
    tables: list[list[Row]]


def section(text: str) -> str:
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    return text[start:end if end >= 0 else len(text)]


def parse_row(line: str) -> Row:
    t, event, does = (cell.strip() for cell in line.strip().strip("|").split("|"))
    claims = {word: SPAN.findall(spans) for word, spans in CLAIM.findall(does)}
    leds = [pair for text in LEDS.findall(does)
            for pair in re.findall(r"(\w+) `([\w-]+)`", text)]
    dark = any(text.startswith("all dark") for text in LEDS.findall(does))
    return Row(float(t), event, claims, leds, dark)


def parse_example(block: str) -> Example:
    title = block.splitlines()[0].strip()
    found = re.search(r"Layout `([^`]+)`.*?position\s+`([^`]+)`", block, re.S)
    assert found, f"{title}: no 'Layout `...`, position `...`'"
    tables: list[list[Row]] = []
    rows: list[Row] | None = None
    for line in block.splitlines():
        if not line.startswith("|"):
            rows = None
        elif line.startswith("| t "):
            rows = []
            tables.append(rows)
        elif rows is not None and not line.startswith("|--") and not line.startswith("|-"):
            rows.append(parse_row(line))
    return Example(title, found.group(1), " ".join(found.group(2).split()), tables)


def examples() -> list[Example]:
    blocks = section(PAGE.read_text()).split("\n### ")[1:]
    return [parse_example(block) for block in blocks]


class Board:
    """The tracker on a layout's sensors (as the truth streams set it up), with the
    board's buttons answering a question as the service hands them over."""

    def __init__(self, layout: str, position: str) -> None:
        game = load_layout(shipped_layouts()[layout]).game
        self.sim = TrackerBoard(rules.from_position(game, position), layout)
        self.tracker = self.sim.tracker
        self.offered = None  # the open question with the option ``hint`` put on offer

    def act(self, event: str, t: float) -> list:
        words = event.split()
        if words[-1] in ("up", "down"):
            return self.sim.change(words[0], ("piece",) if words[-1] == "down" else (), t)
        if words[0] == "still":
            return self.sim.advance(t)
        if words[0] == "answer":
            return self.sim.choose(SPAN.findall(event)[0], t)
        player = re.search(r"\((\w+)\)", event)
        return self.press(words[0], player.group(1) if player else None, t)

    def press(self, button: str, player: str | None, t: float) -> list:
        out = self.sim.advance(t)
        question = self.view().question
        step = None if question is None else answers.press(question, button, player)
        if step is None:
            return out + self.tracker.press(button, t, player)
        if step.chosen is not None:
            self.offered = None
            return out + self.tracker.choose(step.chosen, t)
        self.offered = question.offering(step.offered)
        return out

    def view(self):
        view = self.tracker.view(option_cells=True)
        if view.question is None or self.offered is None:
            return view
        if view.question.asked_at != self.offered.asked_at:
            self.offered = None
            return view
        return replace(view, question=self.offered)


def check(board: Board, row: Row, events: list, where: str) -> None:
    claims, tracker = row.claims, board.tracker
    assert not [e for e in events if isinstance(e, Rejected)], where
    assert [e.move for e in events if isinstance(e, Committed)] == claims.get("commits", []), where
    asked = [e.options for e in events if isinstance(e, Prompt)]
    assert asked == ([claims["asks"]] if "asks" in claims else []), where
    assert [e.answer for e in events if isinstance(e, Settled)] == claims.get("settles", []), where
    assert [e.value for e in events if isinstance(e, Rolled)] == claims.get("rolls", []), where
    assert [c.text for c in tracker.pending if tracker.phase is Phase.HELD] == \
        claims.get("holds", []), where
    view = board.view()
    if "offers" in claims:
        assert view.question.on_offer.value == claims["offers"][0], where
    if "fits" in claims:
        assert sorted(c.text for c in tracker.alive()) == sorted(claims["fits"]), where
    if "reads" in claims:
        assert {path[0] for path in tracker.readings} == set(claims["reads"]), where
    frames = [hints.plan(view, row.t + k / 16) for k in range(48)]
    if row.dark:
        assert frames[0] == {}, f"{where}: lit {frames[0]}"
    for cell, role in row.leds:
        assert any(frame.get(cell) == role for frame in frames), \
            f"{where}: {cell} is never {role}: {frames[0]}"


EXAMPLES = examples()


def test_one_example_per_game():
    games = [load_layout(shipped_layouts()[e.layout]).game for e in EXAMPLES]
    assert sorted(games) == sorted(rules.GAMES)


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.layout for e in EXAMPLES])
def test_the_example_is_what_the_tracker_does(example: Example):
    assert example.tables and all(example.tables), example.title
    for table in example.tables:
        board = Board(example.layout, example.position)
        last = float("-inf")
        for row in table:
            where = f"{example.title}, t={row.t} {row.event}"
            assert row.t > last, f"{where}: times must grow"
            last = row.t
            check(board, row, board.act(row.event, row.t), where)


def test_the_module_map_names_every_module_of_boards():
    text = PAGE.read_text()
    table = text[text.index("| `boards/` | holds |"):]
    table = table[:table.index("\n\n")]
    named = set(re.findall(r"`(\w+)\.py`", table))
    modules = {p.stem for p in (ROOT / "boards").glob("*.py") if p.stem != "__init__"}
    assert named == modules


def test_what_the_page_names_in_boards_exists():
    """Every ``Tracker.name``, ``boards.module.name`` and ``module.name`` of a module of
    boards/ the page names in code is there (an attribute a fresh tracker has counts)."""
    import importlib

    from boards.tracker import Tracker

    tracker = Tracker(rules.new_game("tessella"))
    modules = {p.stem for p in (ROOT / "boards").glob("*.py") if p.stem != "__init__"}
    missing = []
    for ref in set(re.findall(r"`([A-Za-z_]\w*(?:\.\w+)+)(?:\([^`]*\))?`", PAGE.read_text())):
        head, *rest = ref.removeprefix("boards.").split(".")
        if rest == ["py"]:  # a file name
            continue
        if head == "Tracker":
            obj = tracker
        elif head in modules and (rest or ref.startswith("boards.")):
            obj = importlib.import_module(f"boards.{head}")
        else:
            continue
        for name in rest:
            obj = getattr(obj, name, missing)
        if obj is missing:
            missing.append(ref)
    assert missing == []
