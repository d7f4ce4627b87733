"""Train a masked PPO agent (sb3-contrib) on Patchwork for a few minutes, then measure it.

    pip install '.[train]'    # in the checkout (the package is not on PyPI)
    python examples/train_masked_ppo.py --minutes 5

The agent plays a random seat against ``--opponent`` (``random`` by default) in
``PatchworkEnv``; its policy only ever picks ids of the legality mask (``action_masks()``).
The reward is +1 / -1 for the result plus a small score-margin shaping. At the end it plays
``--games`` games against ``random`` and ``greedy`` (half in each seat) and prints its win
rates.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env

from patchwork.envs.gymnasium import PatchworkEnv


class TimeLimit(BaseCallback):
    """Stops training after a wall-clock budget and says how far it got."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds
        self.start = time.monotonic()
        self.next_report = 30.0

    def _on_step(self) -> bool:
        elapsed = time.monotonic() - self.start
        if elapsed >= self.next_report:
            print(f"  {elapsed:5.0f} s  {self.num_timesteps:>8,} steps", flush=True)
            self.next_report += 30.0
        return elapsed < self.seconds


def win_rate(model: MaskablePPO, opponent: str, games: int, seed: int) -> float:
    """The share of ``games`` the model wins against ``opponent``, half in each seat."""
    wins = 0
    for g in range(games):
        env = PatchworkEnv(opponent=opponent, agent_player=g % 2)
        obs, info = env.reset(seed=seed + g)
        done = False
        reward: Any = 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=True)
            obs, reward, done, _, info = env.step(int(action))
        wins += reward > 0
        env.close()
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description="Masked PPO on Patchwork")
    parser.add_argument("--minutes", type=float, default=5.0, help="training time budget")
    parser.add_argument("--opponent", default="random", help="training opponent (agent name)")
    parser.add_argument("--envs", type=int, default=8, help="environments stepped together")
    parser.add_argument("--games", type=int, default=200, help="evaluation games per opponent")
    parser.add_argument("--margin-shaping", type=float, default=0.05)
    parser.add_argument("--n-steps", type=int, default=128, help="steps per env per update")
    parser.add_argument("--lr", type=float, default=1e-3, help="learning rate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    parser.add_argument("--save", default=None, help="where to save the trained model (.zip)")
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    env = make_vec_env(
        PatchworkEnv,
        n_envs=args.envs,
        seed=args.seed,
        env_kwargs={"opponent": args.opponent, "margin_shaping": args.margin_shaping},
    )
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=512,
        n_epochs=4,
        learning_rate=args.lr,
        gamma=1.0,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        verbose=0,
    )
    before = {name: win_rate(model, name, 40, 10_000) for name in ("random", "greedy")}
    print(f"untrained: {before['random']:.0%} against random, {before['greedy']:.0%} greedy")
    print(f"training against {args.opponent} for {args.minutes:g} minutes")
    start = time.monotonic()
    model.learn(total_timesteps=10**9, callback=TimeLimit(args.minutes * 60))
    trained_s = time.monotonic() - start
    print(f"trained {model.num_timesteps:,} steps in {trained_s:.0f} s")
    if args.save:
        model.save(args.save)
    rng = np.random.default_rng(args.seed)
    seed = int(rng.integers(1_000_000, 2_000_000))
    for name in ("random", "greedy"):
        rate = win_rate(model, name, args.games, seed)
        print(f"win rate against {name:<6}: {rate:.1%} over {args.games} games")
    env.close()


if __name__ == "__main__":
    main()
