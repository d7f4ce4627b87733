"""The server's AI pool pondering: the top level thinks on the person's time, answers the person's
reply from the tree it grew, and gives way to any other request at once."""

from __future__ import annotations

import asyncio

from patchwork.ai.levels import LEVELS
from patchwork.engine import Advance, new_game, parse_move
from patchwork.server.aipool.runner import AIRunner
from patchwork.server.aipool.slots import BATCH, PEOPLE, PrioritySlots

# The person (player 0) to move, and the position after their reply, with the AI to move.
PERSON = new_game(seed=3)
AFTER = PERSON.apply(Advance())
TOP = max(LEVELS)  # the level that thinks in seconds, and so ponders


async def _pondering(runner: AIRunner, seconds: float) -> asyncio.Future[tuple[str | None, int]]:
    """Start the runner's pool, then let the top level ponder the person's turn for ``seconds``."""
    await runner.choose(PERSON.to_text(), 2, 1)
    pondering = runner.ponder(PERSON.to_text(), TOP, "g")
    assert pondering is not None and runner.ponder_count == 1
    await asyncio.sleep(seconds)
    return pondering


def _legal_after(move: str) -> bool:
    return AFTER.is_legal(parse_move(move))


def test_the_positions_are_the_persons_turn_and_then_the_ais() -> None:
    assert PERSON.current_player == 0 and AFTER.current_player == 1


def test_the_top_level_answers_from_the_tree_it_grew_on_the_persons_time() -> None:
    async def main() -> None:
        runner = AIRunner(1)
        try:
            pondering = await _pondering(runner, 1.0)
            move = await runner.choose(AFTER.to_text(), TOP, 7, "g")
            assert _legal_after(move) and runner.ponder_hits == 1
            answered, iterations = pondering.result()
            assert answered == move and iterations > 0
        finally:
            runner.close()

    asyncio.run(main())


def test_any_other_request_stops_pondering_first() -> None:
    async def main() -> None:
        runner = AIRunner(1)
        try:
            pondering = await _pondering(runner, 0.5)
            # Another game's move: the one worker stops pondering and serves it.
            assert _legal_after(await runner.choose(AFTER.to_text(), 2, 1, "h"))
            answered, iterations = await asyncio.wait_for(pondering, 10)
            assert answered is None and iterations > 0
            # The game that was pondered is then answered the ordinary way.
            assert _legal_after(await runner.choose(AFTER.to_text(), 3, 7, "g"))
            assert runner.ponder_hits == 0
            runner.ponders = False  # pondering turned off (--no-ponder)
            assert runner.ponder(PERSON.to_text(), TOP, "g") is None
        finally:
            runner.close()

    asyncio.run(main())


def test_a_level_that_thinks_in_iterations_does_not_ponder_and_close_stops_a_ponder() -> None:
    async def main() -> None:
        runner = AIRunner(1)
        await runner.choose(PERSON.to_text(), 2, 1)
        assert all(runner.ponder(PERSON.to_text(), n, "g") is None for n in LEVELS[:-1])
        assert runner.ponder_count == 0
        pondering = runner.ponder(PERSON.to_text(), TOP, "g")
        assert pondering is not None
        await asyncio.sleep(0.5)
        await asyncio.to_thread(runner.close)  # returns once the worker has stopped
        assert pondering.done()

    asyncio.run(main())


# -- people before reviews ---------------------------------------------------------------------


def test_a_freed_slot_goes_to_a_person_before_any_review() -> None:
    """However many review positions wait, a hint asked for later is served next (issue 35:
    a flood of reviews made a hint wait 82 s)."""
    order: list[str] = []

    async def run() -> None:
        slots = PrioritySlots(1)

        async def job(name: str, priority: int, hold: asyncio.Event | None = None) -> None:
            async with slots.hold(priority):
                order.append(name)
                if hold is not None:
                    await hold.wait()

        first = asyncio.Event()
        running = asyncio.create_task(job("review 1", BATCH, first))
        await asyncio.sleep(0)
        waiting = [asyncio.create_task(job(f"review {i}", BATCH)) for i in range(2, 6)]
        await asyncio.sleep(0)
        cancelled = asyncio.create_task(job("gave up", PEOPLE))
        await asyncio.sleep(0)
        cancelled.cancel()
        hint = asyncio.create_task(job("hint", PEOPLE))
        await asyncio.sleep(0)
        assert slots.waiting() == 5
        first.set()
        await asyncio.gather(running, hint, *waiting)
        assert slots.free == 1 and slots.waiting() == 0

    asyncio.run(run())
    assert order == ["review 1", "hint", "review 2", "review 3", "review 4", "review 5"]
