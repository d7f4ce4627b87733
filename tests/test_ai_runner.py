"""The server's AI pool pondering: level 5 thinks on the person's time, answers the person's
reply from the tree it grew, and gives way to any other request at once."""

from __future__ import annotations

import asyncio

from patchwork.engine import Advance, new_game, parse_move
from patchwork.server.ai_runner import AIRunner


def _positions() -> tuple[str, str]:
    """A position with the person (player 0) to move, and the one after their reply with the
    AI (player 1) to move."""
    state = new_game(seed=3)
    after = state.apply(Advance())
    assert state.current_player == 0 and after.current_player == 1
    return state.to_text(), after.to_text()


def test_level5_answers_from_the_tree_it_grew_on_the_persons_time() -> None:
    person, after = _positions()

    async def main() -> None:
        runner = AIRunner(1)
        try:
            await runner.choose(person, 2, 1)  # starts the pool
            pondering = runner.ponder(person, 5, "g")
            assert pondering is not None and runner.ponder_count == 1
            await asyncio.sleep(1.0)
            move = await runner.choose(after, 5, 7, "g")
            assert new_game(seed=3).apply(Advance()).is_legal(parse_move(move))
            assert runner.ponder_hits == 1
            answered, iterations = pondering.result()
            assert answered == move and iterations > 0
        finally:
            runner.close()

    asyncio.run(main())


def test_any_other_request_stops_pondering_first() -> None:
    person, after = _positions()

    async def main() -> None:
        runner = AIRunner(1)
        try:
            await runner.choose(person, 2, 1)
            pondering = runner.ponder(person, 5, "g")
            assert pondering is not None
            await asyncio.sleep(0.5)
            # Another game's move: the one worker stops pondering and serves it.
            move = await runner.choose(after, 2, 1, "h")
            assert new_game(seed=3).apply(Advance()).is_legal(parse_move(move))
            answered, iterations = await asyncio.wait_for(pondering, 10)
            assert answered is None and iterations > 0
            # The game that was pondered is answered the ordinary way.
            assert parse_move(await runner.choose(after, 3, 7, "g")) is not None
            assert runner.ponder_hits == 0
            # Nothing ponders while a request runs, nor when pondering is off.
            runner.ponders = False
            assert runner.ponder(person, 5, "g") is None
        finally:
            runner.close()

    asyncio.run(main())


def test_a_level_that_thinks_in_iterations_does_not_ponder_and_close_stops_a_ponder() -> None:
    person, _ = _positions()

    async def main() -> None:
        runner = AIRunner(1)
        await runner.choose(person, 2, 1)
        assert all(runner.ponder(person, n, "g") is None for n in (1, 2, 3, 4))
        assert runner.ponder_count == 0
        pondering = runner.ponder(person, 5, "g")
        assert pondering is not None
        await asyncio.sleep(0.5)
        await asyncio.to_thread(runner.close)  # returns once the worker has stopped
        assert pondering.done()

    asyncio.run(main())
