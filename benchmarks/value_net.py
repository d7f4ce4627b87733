"""The learned value (``patchwork.ai.value``; docs/strength.md, "A learned value"): its data
and its fit.

    python benchmarks/value_net.py selfplay --games 1600 --iterations 800 --seed 5000 \
        --out selfplay.npz
    python benchmarks/value_net.py fit selfplay.npz --blend 1 --augment --epochs 45 --threads 1 \
        --out src/patchwork/ai/value_weights.npz

``selfplay`` plays the searcher against itself (``--workers`` processes, every game its own
seed, a fixed number of iterations a move, so the data do not depend on the machine) and keeps
every position a player chose in: the network's inputs from the mover's view, the search's own
estimate there (its chance to win and margin at the root) and how the game ended for the
mover. ``fit`` trains the network (PyTorch, CPU; not a dependency of the package:
``pip install torch``) on a blend of the two targets (``--blend``: the share of the search's
estimate), holding out a fifth of the games to report on, and writes the weights that
``patchwork.ai.value.load`` reads. With ``--augment`` each side's quilt is turned and mirrored
at random (a quilt's worth does not change), eight times the quilts to learn from.

The solo value (``patchwork.ai.solo_value``) is made the same way from solo games against
Automa (levels 3-5, both decks in turn; ``--value-mix`` is then the searcher's
``solo_value_mix``), fitted to how the games ended (the search's own solo estimates are
far too gloomy: its playouts lose to Legend by 30 points a game):

    python benchmarks/value_net.py selfplay --solo --games 3000 --iterations 2000 \
        --seed 70000 --value-mix 0 --out solo.npz
    python benchmarks/value_net.py fit solo.npz --blend 0 --augment --epochs 30 \
        --out src/patchwork/ai/solo_value_weights.npz
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from patchwork.ai import mcts, solo, solo_value, value
from patchwork.ai.limit import Limit
from patchwork.ai.search import MCTSAgent
from patchwork.engine import kernels as K
from patchwork.engine.automa import Automa
from patchwork.engine.rules import Rules
from patchwork.engine.state import new_game

# Solo self-play's games, in turn: Automa's level and deck.
SOLO_SETUPS = [(level, deck) for level in (3, 4, 5) for deck in ("normal", "tactical")]


def game(job: tuple[int, int, float]) -> tuple[np.ndarray, np.ndarray]:
    """One self-play game: inputs (a row a position) and targets (search win, search margin,
    final win, final margin, game seed), all from the mover's view."""
    seed, iterations, value_mix = job
    params = mcts.Params(value_mix=value_mix)
    agent = MCTSAgent(limit=Limit(iterations=iterations), params=params, seed=seed)
    state = new_game(seed=seed)
    rows, movers, estimates = [], [], []
    while not state.is_terminal():
        result = agent.search(state, candidates=False)
        v = state.vector
        p = K.current_player(v)
        x = np.zeros(value.N_INPUTS)
        value.features(v, p, x)
        rows.append(x)
        movers.append(p)
        estimates.append((result.win_probability, result.margin))
        state = state.apply(result.best_move)
    v = state.vector
    margin0 = float(K.score(v, 0) - K.score(v, 1))
    won0 = 1.0 if K.winner(v) == 0 else 0.0
    targets = []
    for p, (w, m) in zip(movers, estimates, strict=True):
        sign = 1.0 if p == 0 else -1.0
        targets.append((w, m, won0 if p == 0 else 1.0 - won0, sign * margin0, seed))
    agent.close()
    return np.array(rows, dtype=np.float32), np.array(targets, dtype=np.float32)


def solo_game(job: tuple[int, int, float]) -> tuple[np.ndarray, np.ndarray]:
    """One solo game of the searcher against Automa (the level and deck ``SOLO_SETUPS`` gives
    the seed), as ``game``: the inputs are ``solo_value.features``, from the person's view, in
    a world sampled from what the person knows (what they are is the same in any such world)."""
    seed, iterations, value_mix = job
    level, deck = SOLO_SETUPS[seed % len(SOLO_SETUPS)]
    # (32 fixed worlds taken in turn, as the shipped network's games were played)
    params = mcts.Params(solo_value_mix=value_mix, solo_fresh_worlds=False)
    agent = MCTSAgent(limit=Limit(iterations=iterations), params=params, seed=seed)
    state = new_game(seed=seed, rules=Rules(solo=Automa(level, deck)))
    rng = random.Random(seed)
    rows, estimates = [], []
    while not state.is_terminal():
        result = agent.search(state, candidates=False)
        rows.append(solo_value.inputs(state, solo.sample_worlds(state, rng, 1)))
        estimates.append((result.win_probability, result.margin))
        state = state.apply(result.best_move)
    person, automa = state.scores()
    won = 1.0 if state.winner() == 0 else 0.0
    targets = [(w, m, won, float(person - automa), seed) for w, m in estimates]
    agent.close()
    return np.array(rows, dtype=np.float32), np.array(targets, dtype=np.float32)


def selfplay(args: argparse.Namespace) -> None:
    jobs = [(args.seed + i, args.iterations, args.value_mix) for i in range(args.games)]
    play = solo_game if args.solo else game
    xs, ys = [], []
    start = time.monotonic()
    with ProcessPoolExecutor(args.workers) as pool:
        for i, (x, y) in enumerate(pool.map(play, jobs), 1):
            xs.append(x)
            ys.append(y)
            if i % 50 == 0 or i == len(jobs):
                rate = i / (time.monotonic() - start)
                positions = sum(len(a) for a in xs)
                print(
                    f"{i}/{len(jobs)} games, {positions} positions, {rate * 60:.0f} games/min",
                    flush=True,
                )
    np.savez_compressed(args.out, x=np.concatenate(xs), y=np.concatenate(ys))


def symmetries() -> np.ndarray:
    """The quilt's 8 symmetries as permutations of its 81 squares (a quilt's value does not
    change when it is turned or mirrored, nor does the 7x7 bonus: both sides' quilts are
    turned independently to multiply the positions)."""
    n = 9
    out = []
    for flip in (False, True):
        for turns in range(4):
            perm = np.empty(n * n, dtype=np.int64)
            for r in range(n):
                for c in range(n):
                    rr, cc = r, (n - 1 - c if flip else c)
                    for _ in range(turns):
                        rr, cc = cc, n - 1 - rr
                    perm[r * n + c] = rr * n + cc
            out.append(perm)
    return np.array(out)


def augmented(x: np.ndarray, rng: np.random.Generator, perms: np.ndarray) -> np.ndarray:
    x = x.copy()
    for at in (0, value.PLAYER_INPUTS):
        chosen = perms[rng.integers(len(perms), size=len(x))]
        block = x[:, at : at + value.SQUARES]
        x[:, at : at + value.SQUARES] = np.take_along_axis(block, chosen, axis=1)
    return x


def fit(args: argparse.Namespace) -> None:
    try:
        import torch
    except ImportError:
        raise SystemExit("fit needs PyTorch: pip install torch (a CPU build is enough)") from None

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    with np.load(args.data[0]) as f:
        x, y = f["x"], f["y"]
    for more in args.data[1:]:
        with np.load(more) as f:
            x, y = np.concatenate([x, f["x"]]), np.concatenate([y, f["y"]])
    games = np.unique(y[:, 4])
    held = set(np.random.default_rng(args.seed).choice(games, len(games) // 5, replace=False))
    test = np.array([g in held for g in y[:, 4]])
    b = args.blend
    win = (1 - b) * y[:, 2] + b * y[:, 0]
    margin = ((1 - b) * y[:, 3] + b * y[:, 1]) / value.MARGIN_SCALE
    X = torch.tensor(x)
    T = torch.tensor(np.stack([margin, win], 1), dtype=torch.float32)
    net = torch.nn.Sequential(
        torch.nn.Linear(x.shape[1], args.hidden),
        torch.nn.ReLU(),
        torch.nn.Linear(args.hidden, args.hidden2),
        torch.nn.ReLU(),
        torch.nn.Linear(args.hidden2, 2),
    )
    opt = torch.optim.Adam(net.parameters(), lr=args.lr, weight_decay=1e-5)
    train_idx = np.flatnonzero(~test)
    test_idx = torch.tensor(np.flatnonzero(test))
    rng = np.random.default_rng(args.seed)
    perms = symmetries()

    def losses(out: torch.Tensor, t: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        mse = torch.nn.functional.mse_loss(out[:, 0], t[:, 0])
        bce = torch.nn.functional.binary_cross_entropy_with_logits(out[:, 1], t[:, 1])
        return mse, bce

    # The step size falls to a tenth over the last third of the epochs.
    schedule = torch.optim.lr_scheduler.MultiStepLR(opt, [2 * args.epochs // 3], 0.1)
    start = time.monotonic()
    for epoch in range(args.epochs):
        rng.shuffle(train_idx)
        net.train()
        for i in range(0, len(train_idx), args.batch):
            rows = train_idx[i : i + args.batch]
            idx = torch.tensor(rows)
            batch = torch.tensor(augmented(x[rows], rng, perms)) if args.augment else X[idx]
            mse, bce = losses(net(batch), T[idx])
            opt.zero_grad()
            (mse + bce).backward()
            opt.step()
        schedule.step()
        net.eval()
        with torch.no_grad():
            out = net(X[test_idx])
            mse, bce = losses(out, T[test_idx])
            final = torch.tensor(y[test, 2] > 0.5)
            right = ((out[:, 1] > 0) == final).float().mean()
            mae = (out[:, 0] * value.MARGIN_SCALE - torch.tensor(y[test, 3])).abs().mean()
        print(
            f"epoch {epoch + 1}: held-out margin mse {mse.item():.4f}, win bce {bce.item():.4f}, "
            f"winner right {right.item():.1%}, final margin off by {mae.item():.2f} "
            f"({time.monotonic() - start:.0f} s)",
            flush=True,
        )
    w = [p.detach().numpy().astype(np.float64) for p in net.parameters()]
    arrays = dict(zip(value.NAMES, (w[0].T, w[1], w[2].T, w[3], w[4].T, w[5]), strict=True))
    np.savez_compressed(args.out, **{k: a.astype(np.float32) for k, a in arrays.items()})
    print(f"{len(x)} positions of {len(games)} games ({len(held)} held out) -> {args.out}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("selfplay")
    p.add_argument("--games", type=int, default=1600)
    p.add_argument("--iterations", type=int, default=800)
    p.add_argument("--seed", type=int, default=5000)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument(
        "--value-mix",
        type=float,
        default=0.0,
        help="the searcher's own use of the learned value (default 0: playouts alone, as the "
        "package's weights were fitted)",
    )
    p.add_argument(
        "--solo",
        action="store_true",
        help="solo games against Automa (levels 3-5, both decks in turn) for the solo value",
    )
    p.add_argument("--out", type=Path, required=True)
    p.set_defaults(run=selfplay)
    f = sub.add_parser("fit")
    f.add_argument("data", type=Path, nargs="+")
    f.add_argument("--out", type=Path, required=True)
    f.add_argument("--blend", type=float, default=0.5)
    f.add_argument("--hidden", type=int, default=96)
    f.add_argument("--hidden2", type=int, default=32)
    f.add_argument("--epochs", type=int, default=20)
    f.add_argument("--batch", type=int, default=256)
    f.add_argument("--lr", type=float, default=1e-3)
    f.add_argument("--seed", type=int, default=1)
    f.add_argument("--threads", type=int, default=2)
    f.add_argument("--augment", action="store_true", help="turn and mirror the quilts")
    f.set_defaults(run=fit)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
