"""The opponent contract on the simulated board, for every game: the opponent's turn lit
in its own roles and committed once carried out, another turn an error naming the cells,
a takeback giving the opponent its turn again."""

import random

import pytest

import rules
from boards.choreography import turn_ops
from boards.decisions import Turn
from boards.layout import layout_for_game
from hardware.clock import VirtualClock
from sensorboard import guidance
from sensorboard import opponent as opponents
from sensorboard.opponent import PageOpponent, TurnError
from sensorboard.replay import VirtualRun
from sensorboard.service import BoardService

GAMES = sorted(rules.GAMES)


def whole_turns(state, rng, count):
    """``count`` different visible whole turns of the player to move (decisions, chance
    faces drawn at random), each as a Turn."""
    found = {}
    for _ in range(200):
        work, line = state.clone(), []
        while work.outcome() is None and work.to_move in (state.to_move, rules.CHANCE):
            faces = [f for f, _ in work.chance_outcomes()]
            line.append(rng.choice(faces or work.legal_moves()))
            work.push(line[-1])
        if work.physical() != state.physical():
            found.setdefault(tuple(line), Turn(line))
        if len(found) == count:
            break
    return list(found.values())


def text(state, turn):
    work, out = state.clone(), []
    for decision in turn:
        out.append(work.move_str(decision))
        work.push(decision)
    return " ".join(out)


class Board:
    """A simulated board with the page's opponent playing the side to move."""

    def __init__(self, game):
        self.clock = VirtualClock()
        state = rules.new_game(game)
        self.opponent = PageOpponent(state.to_move)
        self.service = BoardService(state, layout_for_game(game), clock=self.clock,
                                    bounce=0.0, engine_hints=False, opponent=self.opponent)
        self.out = []
        self.run = VirtualRun(self.service, self.clock, self.out.append)
        self.t = 0.5

    def act(self, ops, step=0.3):
        script = []
        for op, cell in ops:
            script.append({"t": round(self.t, 3), "op": op, "cell": cell})
            self.t += step
        self.run.play(script)
        self.t = self.clock.now() + 0.5

    def press(self, button, player=None):
        self.run.scan_until(self.t)
        self.out += self.service.press(button, player)
        self.t += 0.5
        self.run.settle()
        self.t = self.clock.now() + 0.5

    def kinds(self, kind):
        return [x for x in self.out if x["type"] == kind]

    def close(self):
        self.service.close()


@pytest.fixture(params=GAMES)
def board(request):
    b = Board(request.param)
    yield b
    b.close()


def propose(board, turn):
    state = board.service.tracker.state
    board.opponent.submit(state, text(state, turn))
    board.run.scan_until(board.t)
    board.out += board.service.step()  # the page's turn is taken at the next scan
    board.t += 0.1


def carry_out(board, state, turn, rng):
    """The turn done by hand on the board (a turn that may still go on is ended with the
    mover's clock); returns its lifts and places."""
    ops = turn_ops(state, turn, rng)
    moves = len(board.kinds("move"))
    board.act(ops)
    if len(board.kinds("move")) == moves:
        board.press("clock", state.to_move)
    return ops


def test_the_opponents_turn_is_lit_and_committed_once_carried_out(board):
    state = board.service.tracker.state.clone()
    turn = whole_turns(state, random.Random(1), 1)[0]
    propose(board, turn)
    [shown] = board.kinds("opponent")
    assert shown["move"] == text(state, turn) and shown["by"] == "page"
    assert set(board.service.frame.values()) <= {"opponent-from", "opponent-to"}
    assert board.service.frame  # a visible turn lights its first step
    assert guidance.advice(board.service)["text"].endswith("Carry it out on the board.")
    carry_out(board, state, turn, random.Random(2))
    assert [m["move"] for m in board.kinds("move")] == [text(state, turn)]
    assert not board.kinds("error")
    left = board.service.seat.left  # steps no sensor sees (a Tesulda swap) stay lit
    by_hand = {c for step in (left.steps if left else ()) for c in step.lifted + step.placed}
    assert {c for c, role in board.service.frame.items() if role == "opponent-from"} <= by_hand


def test_another_turn_is_an_error_naming_its_cells(board):
    state = board.service.tracker.state.clone()
    rng = random.Random(3)
    expected, other = whole_turns(state, rng, 2)
    propose(board, expected)
    ops = turn_ops(state, other, rng)
    board.act(ops)
    board.run.scan_until(board.t + 2.0)
    assert not board.kinds("move")
    [error] = board.kinds("error")
    touched = {cell for _, cell in ops}
    assert set(error["cells"]) and set(error["cells"]) <= touched


def test_nothing_is_expected_before_the_opponent_has_given_its_turn(board):
    state = board.service.tracker.state.clone()
    turn = whole_turns(state, random.Random(4), 1)[0]
    board.act(turn_ops(state, turn, random.Random(4)))
    board.run.scan_until(board.t + 2.0)
    assert not board.kinds("move") and board.kinds("error")
    said = guidance.advice(board.service)["text"]
    assert said.startswith(f"page plays {state.to_move}: wait for its turn. ")


def test_a_takeback_gives_the_opponent_its_turn_again(board):
    state = board.service.tracker.state.clone()
    rng = random.Random(5)
    first, second = whole_turns(state, rng, 2)
    propose(board, first)
    ops = carry_out(board, state, first, rng)
    board.press("takeback")
    [back] = board.kinds("takeback")
    assert back["move"] == text(state, first)
    undo = [("place" if op == "lift" else "lift", cell) for op, cell in reversed(ops)]
    board.act(undo)
    assert board.service.tracker.state.position_str() == state.position_str()
    propose(board, second)
    assert board.kinds("opponent")[-1]["move"] == text(state, second)
    carry_out(board, state, second, rng)
    assert [m["move"] for m in board.kinds("move")] == [text(state, first),
                                                        text(state, second)]


def test_the_page_hands_in_only_a_legal_turn_of_its_side():
    state = rules.new_game("tessella")
    page = PageOpponent("dark")
    with pytest.raises(TurnError, match="not dark's turn"):
        page.submit(state, "c1-c2")
    page = PageOpponent("clear")
    with pytest.raises(TurnError, match="c1-c5: not a legal decision of clear"):
        page.submit(state, "c1-c5")
    assert page.poll(state) is None


@pytest.mark.parametrize("game", GAMES)
def test_the_page_picks_a_turn_decision_by_decision(game):
    state = rules.new_game(game)
    page = PageOpponent(state.to_move)
    picks, proposal = [], None
    while proposal is None:
        options = page.options(state)
        assert options and all(o["words"] for o in options)
        picks.append(options[-1]["move"])
        proposal = page.pick(state, picks[-1])
        assert page.picked(state) == ([] if proposal else picks)
    assert proposal.text == " ".join(picks) == page.poll(state)
    assert page.options(state) == []  # handed in: nothing more to pick


def test_with_the_boards_die_the_page_hands_in_the_turn_at_the_roll():
    state = rules.new_game("telec")
    page = PageOpponent(state.to_move, board_rolls=True)
    assert [o["move"] for o in page.options(state)] == ["roll"]
    assert page.pick(state, "roll").text == "roll"


def test_two_takebacks_give_the_player_at_the_board_their_turn_again():
    board = Board("tessella")
    try:
        board.opponent = PageOpponent("dark")
        board.service.set_opponent(board.opponent)
        state = board.service.tracker.state.clone()
        rng = random.Random(6)
        mine = state.parse_move("b1-a1")
        first = carry_out(board, state, Turn((mine,)), rng)
        state.push(mine)
        theirs = Turn((state.parse_move("d5-e5"),))
        propose(board, theirs)
        second = carry_out(board, state, theirs, rng)
        board.press("takeback")
        board.press("takeback")
        assert [x["move"] for x in board.kinds("takeback")] == ["d5-e5", "b1-a1"]
        for ops in (second, first):
            board.act([("place" if op == "lift" else "lift", c) for op, c in reversed(ops)])
        assert board.service.tracker.state.position_str() == rules.new_game(
            "tessella").position_str()
        assert board.service.tracker.player == "clear" and not board.kinds("error")
        again = rules.new_game("tessella")
        carry_out(board, again, Turn((again.parse_move("b1-b2"),)), rng)
        assert [x["move"] for x in board.kinds("move")][-1] == "b1-b2"
    finally:
        board.close()


def test_the_board_rolls_for_the_opponent_once_and_only_on_a_board_as_it_should_be():
    clock = VirtualClock()
    state = rules.new_game("telec")
    page = PageOpponent(state.to_move, board_rolls=True)
    service = BoardService(state, layout_for_game("telec"), clock=clock, bounce=0.0,
                           engine_hints=False, dice="electronic", seed=1, opponent=page)
    out = []
    run = VirtualRun(service, clock, out.append)
    try:
        cell = next(c for c in state.GEOMETRY.names if c in service.layout.cell_sensor
                    and not state.physical().get(c))
        run.play([{"t": 0.5, "op": "place", "cell": cell}])  # a piece where none belongs
        page.submit(service.tracker.state, "roll")
        for _ in range(20):
            clock.advance(0.01)
            out += service.step()
        assert not [x for x in out if x["type"] in ("roll", "rejected")]
        run.play([{"t": clock.now() + 0.5, "op": "lift", "cell": cell}])  # put right
        for _ in range(20):
            clock.advance(0.01)
            out += service.step()
        assert [x["type"] for x in out if x["type"] in ("roll", "rejected")] == ["roll"]
    finally:
        service.close()


def test_a_turn_of_several_steps_lights_each_step_in_order():
    proposal = opponents.propose(rules.new_game("tesulda"), "c2-b3 swap:c:b3>b2")
    assert proposal.hint.words == ("Light triangle base with circle, square from c2 to b3; "
                                   "then swap circle from b3 to b2")
    assert [opponents.frame(proposal, t) for t in (0.2, 1.2, 2.2)] == [
        {"c2": "opponent-from", "b3": "opponent-to"},
        {"b3": "opponent-from", "b2": "opponent-to"},
        {"c2": "opponent-from", "b3": "opponent-to"}]


def test_the_piece_lifted_is_shown_only_the_opponents_target():
    board = Board("tessella")
    try:
        state = board.service.tracker.state
        propose(board, Turn((state.parse_move("c1-c2"),)))
        board.act([("lift", "c1")])
        assert board.service.frame == {"c1": "lifted", "c2": "move"}  # not b2, bc12, cd12
    finally:
        board.close()


SILENT_TEBLO = ("yellow:c1:0:c1,k1,b2,c2,d2,l2,b5,g5,i5,d6,j6,l6,a7,b7,c7,j8,k8,l8,g9,h9,e10,"
                "b11,h11,k11,k12 red:l10:0:g1,d3,i4,d5,k5,h6,k6,d7,g7,h7,i7,j7,k7,c8,e8,g8,i8,"
                "j9,d10,a11,d11,g11,j11,b12,f12 yellow")


def test_a_turn_the_sensors_cannot_see_is_said_to_end_with_the_clock():
    clock = VirtualClock()
    page = PageOpponent("yellow")
    service = BoardService(rules.from_position("teblo", SILENT_TEBLO), layout_for_game("teblo"),
                           clock=clock, bounce=0.0, engine_hints=False, opponent=page)
    out = []
    run = VirtualRun(service, clock, out.append)
    try:
        page.submit(service.tracker.state, "c1-c2")  # the pawn onto its own block: reed
        clock.advance(0.01)
        out += service.step()
        assert guidance.advice(service)["text"].endswith(guidance.SILENT)
        run.play([{"t": 0.5, "op": "lift", "cell": "c1"}, {"t": 0.9, "op": "place",
                                                            "cell": "c2"}])
        out += service.press("clock", "yellow")
        assert [x["move"] for x in out if x["type"] == "move"] == ["c1-c2"]
    finally:
        service.close()


@pytest.mark.parametrize("side", [None, "blue"], ids=["shared", "opponents-side"])
@pytest.mark.parametrize("turn", ["roll 4 none", "roll 4 1"], ids=["forfeit", "stacked"])
def test_the_clock_ends_an_opponents_unseen_turn_without_a_question(turn, side):
    """Telec with physical dice: the opponent's forfeit, or a pyramid it stacks from its
    stash onto its own, shows nothing on the board; carried out as lit, the one clock
    button (nobody else at this board could have pressed it), or the opponent's side of
    a clock per player, says it is done."""
    clock = VirtualClock()
    state = rules.new_game("telec")
    for word in "roll 4 6 roll null 2".split():
        state.push_str(word)
    page = PageOpponent("blue")
    service = BoardService(state, layout_for_game("telec"), clock=clock, bounce=0.0,
                           engine_hints=False, opponent=page)
    out = []
    run = VirtualRun(service, clock, out.append)
    try:
        page.submit(service.tracker.state, turn)
        clock.advance(0.01)
        out += service.step()
        assert guidance.advice(service)["text"].endswith(guidance.SILENT)
        if turn.endswith(" 1"):
            run.play([{"t": 0.5, "op": "place", "cell": "a1"}])
        out += service.press("clock", side)
        assert [x["move"] for x in out if x["type"] == "move"] == [turn]
        assert not [x for x in out if x["type"] == "prompt"]
    finally:
        service.close()
