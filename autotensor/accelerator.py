"""``torch.accelerator``: the answers of a CPU-only build (no accelerator)."""

__all__ = ["is_available", "current_accelerator", "device_count", "current_device_index",
           "set_device_index", "synchronize"]


def is_available():
    return False


def current_accelerator(check_available=False):
    return None


def device_count():
    return 0


def current_device_index():
    raise RuntimeError("Cannot access accelerator device when none is available.")


def set_device_index(device):
    raise RuntimeError("Cannot access accelerator device when none is available.")


set_device_idx = set_device_index


def synchronize(device=None):
    raise RuntimeError("Cannot access accelerator device when none is available.")
