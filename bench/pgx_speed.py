"""pgx on the CPU, for bench/vector_speed.py's comparison (docs/vector.md). Runs in a virtual
environment of its own, without nutcore:

    python -m venv /tmp/venv-pgx && /tmp/venv-pgx/bin/pip install pgx "jax==0.10.2"
    /tmp/venv-pgx/bin/python bench/pgx_speed.py --seconds 2

One jitted function per batch size does what a nutcore VectorEnv step does: a uniformly random
legal action per environment, the step (pgx draws its chance events inside, from the key), the
observation of the seat to move, and a new game where one ended (auto-reset): jit(vmap(...)) over
B environments, on every core XLA uses. Prints one JSON object per (game, B): steps a second,
where a step is one action in one environment.
"""

from __future__ import annotations

import argparse
import json
import time

import jax
import jax.numpy as jnp
import pgx

GAMES = ("connect_four", "kuhn_poker", "leduc_holdem", "backgammon")
SIZES = (1, 64, 1024, 4096)


def fused_step(env):
    def one(state, key):
        k_action, k_step, k_init = jax.random.split(key, 3)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(k_action, logits)
        state = env.step(state, action, k_step)
        done = state.terminated | state.truncated
        fresh = env.init(k_init)
        state = jax.tree_util.tree_map(lambda f, s: jnp.where(done, f, s), fresh, state)
        return state, state.observation

    return jax.jit(jax.vmap(one))


def measure(name: str, batch: int, seconds: float) -> float:
    env = pgx.make(name)
    init = jax.jit(jax.vmap(env.init))
    step = fused_step(env)
    key = jax.random.PRNGKey(0)
    key, sub = jax.random.split(key)
    state = init(jax.random.split(sub, batch))
    key, sub = jax.random.split(key)
    state, obs = step(state, jax.random.split(sub, batch))  # compile
    obs.block_until_ready()
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(20):
            key, sub = jax.random.split(key)
            state, obs = step(state, jax.random.split(sub, batch))
        obs.block_until_ready()
        steps += 20 * batch
    return steps / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--games", nargs="*", default=list(GAMES))
    ap.add_argument("--sizes", nargs="*", type=int, default=list(SIZES))
    args = ap.parse_args()
    for name in args.games:
        for batch in args.sizes:
            rate = measure(name, batch, args.seconds)
            print(json.dumps({"game": name, "batch": batch, "steps_per_second": rate, "pgx": pgx.__version__}))


if __name__ == "__main__":
    main()
