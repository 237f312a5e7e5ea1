"""Tasks on this machine's processes or on a Ray cluster, for tournaments and self-play: each task is
a call of a module-level function on picklable arguments, and its result goes to `on_result` as it
arrives (in whatever order). The results must not depend on where a task ran: callers seed each
task from its own index."""

from __future__ import annotations

from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any, Callable, Sequence

BACKENDS = ("local", "ray")


def run(
    function: Callable[..., Any],
    tasks: Sequence[tuple],
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


def _run_ray(function, tasks, on_result, workers, address) -> None:
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
