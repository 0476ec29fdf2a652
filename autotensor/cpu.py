"""``torch.cpu``: the device autotensor computes on (one, always available, synchronous)."""
import contextlib

__all__ = ["current_device", "current_stream", "device_count", "is_available",
           "is_initialized", "set_device", "stream", "synchronize", "Stream", "Event",
           "StreamContext"]


def is_available():
    return True


def is_initialized():
    return True


def device_count():
    return 1


def current_device():
    return "cpu"


def set_device(device):
    pass


def synchronize(device=None):
    """Nothing to wait for: every op has finished when it returns."""


class Stream:
    """The CPU's one (synchronous) stream."""

    def __init__(self, priority=-1):
        pass

    def wait_stream(self, stream):
        pass

    def record_event(self, event=None):
        return event if event is not None else Event()

    def synchronize(self):
        pass

    def query(self):
        return True


class Event:
    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        pass

    def record(self, stream=None):
        pass

    def synchronize(self):
        pass

    def wait(self, stream=None):
        pass

    def query(self):
        return True


_stream = Stream()


def current_stream(device=None):
    return _stream


@contextlib.contextmanager
def stream(stream):
    yield


StreamContext = stream


class amp:  # noqa: N801 - PyTorch's name
    """``torch.cpu.amp`` (deprecated): ``autocast`` as ``torch.amp.autocast("cpu")``."""

    class autocast:  # noqa: N801
        def __new__(cls, enabled=True, dtype=None, cache_enabled=True):
            import warnings
            from .amp import autocast
            warnings.warn("`torch.cpu.amp.autocast(args...)` is deprecated. Please use "
                          "`torch.amp.autocast('cpu', args...)` instead.", FutureWarning,
                          stacklevel=2)
            return autocast("cpu", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)
