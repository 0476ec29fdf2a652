"""``torch.cuda`` on a CPU-only build: ``is_available()`` is False (so the usual
``"cuda" if torch.cuda.is_available() else "cpu"`` picks the CPU); seeding is accepted and
does nothing, as PyTorch defers it until CUDA initialises."""

__all__ = ["is_available", "device_count", "manual_seed", "manual_seed_all",
           "is_initialized", "current_device", "synchronize"]


def is_available():
    return False


def device_count():
    return 0


def is_initialized():
    return False


def manual_seed(seed):
    pass


def manual_seed_all(seed):
    pass


def _not_compiled(*args, **kwargs):
    raise AssertionError("Torch not compiled with CUDA enabled")


current_device = synchronize = _not_compiled
