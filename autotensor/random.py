"""``torch.random``: the default CPU generator's seed and state, and ``fork_rng`` (run a block
and give the generator back its state afterwards)."""
import contextlib
import threading

from ._creation import default_generator, get_rng_state, initial_seed, manual_seed, seed, \
    set_rng_state

__all__ = ["set_rng_state", "get_rng_state", "manual_seed", "seed", "initial_seed", "fork_rng",
           "thread_safe_generator"]


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices",
             device_type=None):
    """The CPU generator's state is saved on entry and restored on exit (there is no other
    device's generator to fork here)."""
    if device_type == "meta" or not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)


_local = threading.local()


def thread_safe_generator():
    """The generator of the calling thread (``torch.utils.data`` workers set one); the
    default generator when the thread has none."""
    return getattr(_local, "generator", None) or default_generator
