"""The search in a process of its own, so the board's scans and LEDs never wait for it.

The service asks, goes on with its loop, and polls; asking again or cancelling drops the
question before (its search stops at its next playout).

>>> import rules
>>> with EngineWorker() as worker:
...     state = rules.new_game("tessella")
...     ticket = worker.ask(state, playouts=30, seed=2)
...     result = worker.wait(timeout=60)
>>> state.is_legal(result.move)
True
"""

from __future__ import annotations

import multiprocessing
import time

import rules

from .search import Result, budget, search


def _serve(requests, answers, current) -> None:
    """The worker process: answer each request still current, until told to stop."""
    while (request := requests.get()) is not None:
        ticket, state, limits = request
        if current.value != ticket:
            continue
        try:
            answer = search(state, stop=lambda t=ticket: current.value != t, **limits)
        except Exception as error:  # sent back whole: the service shows it, never dies of it
            answer = f"{type(error).__name__}: {error}"
        if current.value == ticket:
            answers.put((ticket, answer))


class EngineWorker:
    """A search process: :meth:`ask` a position, :meth:`poll` for the answer."""

    def __init__(self, *, start_method: str = "spawn") -> None:
        context = multiprocessing.get_context(start_method)
        self._current = context.Value("q", 0, lock=False)  # the ticket being worked on
        self._requests = context.SimpleQueue()
        self._answers = context.SimpleQueue()
        self._ticket = 0
        self._answer: Result | None = None
        self._process = context.Process(
            target=_serve, args=(self._requests, self._answers, self._current),
            name="sensorboard-engine", daemon=True)
        self._process.start()

    def ask(self, state: rules.GameState, *, seconds: float | None = None,
            playouts: int | None = None, level: int | None = None, seed: int = 0) -> int:
        """Start searching ``state`` (a copy is sent), dropping any question before;
        returns the question's ticket. Raises ``ValueError`` for a bad budget or a
        position with no decision to take."""
        budget(seconds, playouts, level)
        if state.outcome() is not None or state.to_move == rules.CHANCE:
            raise ValueError(f"{state.NAME}: no decision to search (game over or chance node)")
        self._ticket += 1
        self._answer = None
        self._current.value = self._ticket
        limits = {"seconds": seconds, "playouts": playouts, "level": level, "seed": seed}
        self._requests.put((self._ticket, state.clone(), limits))
        return self._ticket

    def poll(self) -> Result | None:
        """The answer to the current question once found, else ``None`` (at once)."""
        while not self._answers.empty():
            ticket, answer = self._answers.get()
            if ticket == self._ticket and self._current.value == ticket:
                if isinstance(answer, str):
                    raise RuntimeError(f"engine worker: {answer}")
                self._answer = answer
        return self._answer

    def wait(self, timeout: float) -> Result | None:
        """Poll until the answer comes or ``timeout`` seconds pass (tests and benches;
        the service polls from its loop instead)."""
        end = time.monotonic() + timeout
        while (answer := self.poll()) is None and time.monotonic() < end:
            if not self.alive:
                raise RuntimeError("engine worker: the search process has died")
            time.sleep(0.01)
        return answer

    def cancel(self) -> None:
        """Drop the current question: its search stops, its answer is never returned."""
        self._current.value = 0
        self._answer = None

    @property
    def thinking(self) -> bool:
        """A question is open and not yet answered."""
        return self._current.value != 0 and self.poll() is None

    @property
    def alive(self) -> bool:
        """The search process is running."""
        return self._process.is_alive()

    def close(self) -> None:
        """Stop the process (within a second; it is killed if it does not stop)."""
        self.cancel()
        if self._process.is_alive():
            self._requests.put(None)
            self._process.join(timeout=1.0)
            if self._process.is_alive():
                self._process.kill()
                self._process.join()

    def __enter__(self) -> EngineWorker:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
