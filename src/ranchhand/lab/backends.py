"""Where the games of a run are played: the local process pool, or tasks on Ray.

Both take the same ``play`` (position -> finished game) and feed the same
:class:`~ranchhand.sim.tally.InOrder`, so a run's results depend only on its seeds,
never on the backend or the number of processes. The local pool is the simulation's own
(:func:`~ranchhand.sim.workers.run_pool`: prompt, clean stops). On Ray, ranges of
positions go out as tasks, a few per CPU of the cluster ahead of the first result not yet
added up (memory stays flat), and a stop cancels the tasks not yet finished.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from ranchhand.core.errors import OptionError
from ranchhand.core.game import GameSummary
from ranchhand.sim.simulate import MAX_CHUNK, cores, effective_jobs
from ranchhand.sim.tally import InOrder
from ranchhand.sim.workers import TICK, PoolResult, StopControl, run_pool

Play = Callable[[int], GameSummary]
Progress = Callable[[int], None] | None

INSTALL_RAY = 'the ray backend needs Ray: pip install "ranchhand[cluster]" (or: pip install ray)'


def _chunk(count: int, workers: int) -> int:
    """Games per range: enough to pay for a hand-out, small enough to share the work."""
    return max(1, min(MAX_CHUNK, count // (workers * 8)))


class Backend:
    """The local process pool; a context manager so a cluster backend can connect once."""

    name = "local"

    def __init__(self, jobs: int | None = None) -> None:
        self.jobs = jobs

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def run(
        self, play: Play, count: int, order: InOrder, control: StopControl, progress: Progress
    ) -> PoolResult:
        """Play positions ``0 .. count - 1`` into ``order`` until done or stopped."""
        jobs = effective_jobs(self.jobs, count)
        if jobs > 1:
            chunk = _chunk(count, jobs)
            return run_pool(play, count, jobs, chunk, order, control, progress=progress)
        for position in range(count):
            if control.requested:
                break
            order.offer(position, [play(position)])
            if progress:
                progress(1)
        return PoolResult()


def need_ray() -> ModuleType:
    """The ``ray`` module, or an OptionError that says how to install it."""
    try:
        import ray
    except ImportError:
        raise OptionError(INSTALL_RAY) from None
    return ray


def _play_range(play: Play, start: int, stop: int) -> list[GameSummary]:
    """A Ray task: positions ``start .. stop - 1``."""
    return [play(position) for position in range(start, stop)]


class RayBackend(Backend):
    """Tasks on a Ray cluster at ``address``, or on a local Ray of ``jobs`` CPUs.

    Connects on entering unless Ray is already connected (a test, a notebook), and then
    disconnects on leaving only what it connected.
    """

    name = "ray"

    def __init__(self, jobs: int | None = None, address: str | None = None) -> None:
        super().__init__(jobs)
        self.address = address
        self.ray = need_ray()
        self.connected = False

    def __enter__(self) -> RayBackend:
        ray = self.ray
        if not ray.is_initialized():
            local: dict[str, Any] = {} if self.address else {"num_cpus": self.jobs or cores()}
            ray.init(
                address=self.address,
                include_dashboard=False,
                log_to_driver=False,
                logging_level="ERROR",
                **local,
            )
            self.connected = True
        return self

    def __exit__(self, *exc: object) -> None:
        if self.connected:
            self.ray.shutdown()
            self.connected = False

    def cpus(self) -> int:
        return max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def run(
        self, play: Play, count: int, order: InOrder, control: StopControl, progress: Progress
    ) -> PoolResult:
        ray = self.ray
        cpus = self.cpus()
        chunk = _chunk(count, cpus)
        task = ray.remote(num_cpus=1, max_retries=2)(_play_range)
        shared = ray.put(play)
        starts = iter(range(0, count, chunk))
        inflight: dict[Any, int] = {}
        result = PoolResult()
        try:
            while not control.requested:
                while len(inflight) < 4 * cpus:
                    start = next(starts, None)
                    if start is None:
                        break
                    inflight[task.remote(shared, start, min(start + chunk, count))] = start
                if not inflight:
                    break
                done, _ = ray.wait(list(inflight), num_returns=1, timeout=TICK)
                for ref in done:
                    start = inflight.pop(ref)
                    try:
                        played = ray.get(ref)
                    except Exception as error:
                        result.error = getattr(error, "cause", None) or error
                        control.fail(f"{type(result.error).__name__} in a Ray task")
                        break
                    order.offer(start, played)
                    if progress:
                        progress(len(played))
        finally:
            for ref in inflight:
                ray.cancel(ref)
        return result


def backend(name: str, jobs: int | None = None, address: str | None = None) -> Backend:
    """The backend called ``name`` (``local`` or ``ray``)."""
    if name == "local":
        if address:
            raise OptionError("--address is for --backend ray")
        return Backend(jobs)
    if name == "ray":
        return RayBackend(jobs, address)
    raise OptionError(f"unknown backend {name!r}; backends are: local, ray")
