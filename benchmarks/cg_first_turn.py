"""How soon `patchwork cg-bot` answers its first turn, counted from its spawn.

    python benchmarks/cg_first_turn.py [RUNS] [-- BOT ARGS...]

The CodinGame referee spawns a bot and writes its first input at once; the first answer must
come within 1000 ms of that. Each run spawns the bot, writes the opening position's input
straight away (as `patchwork cg-host --startup-grace 0` does), and times the first answer
line from just before the spawn. Prints each run and the median and maximum; the bot's
`--debug` line says which agent answered.
"""

from __future__ import annotations

import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

from patchwork.engine import new_game
from patchwork.protocol.codingame import RULES, init_lines, turn_lines

BOT = [str(Path(sys.executable).with_name("patchwork")), "cg-bot", "--debug"]


def first_answer(args: list[str]) -> tuple[float, str, str]:
    """Seconds from spawn to the first answer line, the line, and the bot's stderr."""
    text = "\n".join(init_lines(RULES) + turn_lines(new_game(seed=0, rules=RULES), [])) + "\n"
    start = time.perf_counter()
    proc = subprocess.Popen(
        args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdin and proc.stdout
    proc.stdin.write(text)
    proc.stdin.flush()
    line = proc.stdout.readline()
    seconds = time.perf_counter() - start
    _out, err = proc.communicate("", timeout=30)  # close the input: the bot exits
    return seconds, line.strip(), err.strip()


def main(argv: list[str]) -> int:
    runs = int(argv[0]) if argv and argv[0] != "--" else 10
    extra = argv[argv.index("--") + 1 :] if "--" in argv else []
    times, imports, ready, searched = [], [], [], 0
    for i in range(runs):
        seconds, line, err = first_answer(BOT + extra)
        times.append(seconds)
        start = re.search(r"(\d+) ms to import, ready to answer (\d+) ms", err)
        if start:
            imports.append(float(start[1]))
            ready.append(float(start[2]))
        searched += "by the search" in err
        last = err.splitlines()[-1] if err else ""
        print(f"{i + 1:3}. {1000 * seconds:6.0f} ms  {line!r}  {last}")
    print(
        f"first answer after spawn: median {1000 * statistics.median(times):.0f} ms, "
        f"max {1000 * max(times):.0f} ms over {runs} runs; by the search {searched} times"
    )
    if ready:
        print(
            f"the bot's own report: importing took {statistics.median(imports):.0f} ms, "
            f"ready to answer {statistics.median(ready):.0f} ms after its start (medians)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
