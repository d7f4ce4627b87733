"""How fast a game page that watches catches up with a burst of moves made elsewhere.

    python benchmarks/page_catch_up.py                       # CPU slowed 1x and 4x
    python benchmarks/page_catch_up.py --slowdown 1 4 10 --out benchmarks/results/page_catch_up.json

A server of its own (SQLite, benchmarks/server_load.py's), a game at one screen, and Debian's
Chromium (headless, as the browser tests run it) on the game's page as a spectator. The game
is then played to its end over the HTTP API as fast as the server answers (advancing where
it may, else placing the special patch), and the benchmark reports how long after the last move
the page showed the final version, and how many times the page drew the game meanwhile (each
drawing sets ``data-version`` on ``<main>``). ``--slowdown`` slows the page's CPU by that
factor (Chromium's own throttling, as its developer tools do), which stands in for a slow
phone or a busy machine. Each setting is run ``--runs`` times; the median is reported.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import sync_playwright
from server_load import OwnServer

from patchwork import square_name

CHROMIUM = "/usr/bin/chromium"

COUNT_DRAWINGS = """() => {
  const main = document.querySelector("main");
  window.drawings = 0;
  new MutationObserver(() => { window.drawings += 1; })
    .observe(main, { attributes: true, attributeFilter: ["data-version"] });
}"""


def next_move(view: dict[str, Any]) -> str:
    """Advance where the view allows it; else (a special patch to place, the one time it does
    not) the special patch on its first free square."""
    legal = view["legal"]
    if legal["advance"]:
        return "A"
    bits = int(legal["special"] or "0", 16)
    if not bits:
        raise SystemExit(f"no move to make in game {view['id']} at version {view['version']}")
    i = (bits & -bits).bit_length() - 1  # squares: bit 9 * row + column
    return f"S@{square_name(*divmod(i, 9))}"


def one_run(
    http: httpx.Client, browser: Any, url: str, slowdown: float, seed: int
) -> dict[str, Any]:
    created = http.post("/api/games", json={"mode": "local", "seed": seed}).json()
    gid, token = created["game_id"], created["token"]
    auth = {"authorization": f"Bearer {token}"}
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        cdp = page.context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
        page.goto(f"{url}/play/{gid}")
        page.wait_for_selector("main[data-version]", state="attached")
        page.evaluate(COUNT_DRAWINGS)
        g = http.get(f"/api/games/{gid}").json()
        start = time.monotonic()
        moves = 0
        while g["status"] != "finished":
            r = http.post(
                f"/api/games/{gid}/moves",
                json={"move": next_move(g), "version": g["version"]},
                headers=auth,
            )
            r.raise_for_status()
            g = http.get(f"/api/games/{gid}").json()
            moves += 1
        played = time.monotonic()
        page.wait_for_selector(
            f"main[data-version='{g['version']}']", state="attached", timeout=600_000
        )
        shown = time.monotonic()
        return {
            "moves": moves,
            "play_s": round(played - start, 2),
            "behind_s": round(shown - played, 2),
            "drawings": page.evaluate("window.drawings"),
        }
    finally:
        page.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--slowdown", type=float, nargs="+", default=[1.0, 4.0])
    ap.add_argument("--runs", type=int, default=3, help="runs of each setting (default 3)")
    ap.add_argument("--seed", type=int, default=7, help="the first game's seed")
    ap.add_argument("--out", type=Path, help="write the figures here as JSON")
    args = ap.parse_args()
    if args.runs < 1 or any(s < 1 for s in args.slowdown):
        ap.error("--runs and --slowdown must be at least 1")
    server = OwnServer(None, workers=1, compression=True)
    rows = []
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM)
            for slowdown in args.slowdown:
                runs = [
                    one_run(http, browser, server.url, slowdown, args.seed + i)
                    for i in range(args.runs)
                ]
                row = {
                    "slowdown": slowdown,
                    "moves": statistics.median(r["moves"] for r in runs),
                    "play_s": statistics.median(r["play_s"] for r in runs),
                    "behind_s": statistics.median(r["behind_s"] for r in runs),
                    "drawings": statistics.median(r["drawings"] for r in runs),
                    "runs": runs,
                }
                rows.append(row)
                print(
                    f"CPU slowed {slowdown:g}x: {row['moves']:g} moves played over HTTP in "
                    f"{row['play_s']:.1f} s; the page showed the end {row['behind_s']:.1f} s "
                    f"after the last, drawing {row['drawings']:g} times (median of {args.runs})",
                    flush=True,
                )
            browser.close()
    finally:
        server.stop()
    if args.out:
        args.out.write_text(json.dumps({"seed": args.seed, "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
