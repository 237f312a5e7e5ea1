"""Tasks on this machine's processes or on a Ray cluster, for tournaments and self-play: each task is
a call of a module-level function on picklable arguments, and its result goes to `on_result` as it
arrives (in whatever order). The results must not depend on where a task ran: callers seed each
task from its own index."""

from __future__ import annotations

import os
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any, Callable, Sequence

from . import _checks

BACKENDS = ("local", "ray")


def cores() -> int:
    """The cores this process may run on: its CPU affinity where the system has one (a container
    or `taskset` may give it fewer than the machine has), else the machine's count."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def check_workers(workers: Any, name: str = "workers") -> int:
    """`workers` if it is 1..cores(); else a ValueError naming `name`. More processes than cores
    only share them, each with its own memory, and a typo such as 1000000 must not fork without end."""
    n = cores()
    try:
        return _checks.integer(workers, name, 1, n)
    except ValueError as e:
        raise ValueError(f"{e} (at most the {n} cores this process may use)") from None


def run(
    function: Callable[..., Any],
    tasks: Sequence[tuple[Any, ...]],
    on_result: Callable[[Any], None],
    backend: str = "local",
    workers: int = 1,
    address: str | None = None,
) -> None:
    """function(*task) for every task: "local" in this process (workers=1) or a process pool,
    "ray" as Ray tasks (ray.init with `workers` CPUs unless `address` names a cluster). An
    exception, Ctrl-C included, cancels what has not started."""
    if backend == "ray":
        return _run_ray(function, tasks, on_result, workers, address)
    if workers == 1:
        for task in tasks:
            on_result(function(*task))
        return
    with ProcessPoolExecutor(workers) as pool:
        pending = {pool.submit(function, *task) for task in tasks}
        try:
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    on_result(future.result())
        except BaseException:
            for future in pending:
                future.cancel()
            raise


def _run_ray(
    function: Callable[..., Any],
    tasks: Sequence[tuple[Any, ...]],
    on_result: Callable[[Any], None],
    workers: int,
    address: str | None,
) -> None:
    try:
        import ray
    except ImportError:
        raise ValueError('the ray backend needs Ray: pip install "nutcore[ray]"') from None
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    remote = ray.remote(function)
    pending = [remote.remote(*task) for task in tasks]
    try:
        while pending:
            finished, pending = ray.wait(pending, num_returns=1)
            on_result(ray.get(finished[0]))
    except BaseException:
        for ref in pending:
            ray.cancel(ref)
        raise
