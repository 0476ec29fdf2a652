"""``autotensor.autograd.profiler``: PyTorch's legacy profiler API (the one its tutorials
use), on the same recorder as ``autotensor.profiler`` (Note [Profiler events]).

    with torch.autograd.profiler.profile() as prf:
        z = (z / x) * y
    print(prf.key_averages().table(sort_by="self_cpu_time_total"))
"""
from ..profiler import _KinetoLikeProfile, record_function
from ..profiler._events import EventList, FunctionEvent, FunctionEventAvg

__all__ = ["profile", "record_function", "EventList", "FunctionEvent", "FunctionEventAvg"]


class profile(_KinetoLikeProfile):
    """Record every op and backward node run inside the block.

    ``use_cuda``/``use_device``: there is no device; asking for CUDA raises, as PyTorch
    does on a machine without one. ``with_flops``, ``with_modules``, ``use_kineto`` are
    accepted and change nothing."""

    def __init__(self, enabled=True, *, use_cuda=False, use_device=None,
                 record_shapes=False, with_flops=False, profile_memory=False,
                 with_stack=False, with_modules=False, use_kineto=False, use_cpu=True,
                 experimental_config=None, acc_events=False, custom_trace_id_callback=None):
        if use_cuda or (use_device is not None and use_device != "cpu"):
            raise AssertionError("Torch not compiled with CUDA enabled")
        self.enabled = enabled
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.entered = False

    def __enter__(self):
        if not self.enabled:
            return self
        if self.entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        self.entered = True
        self._start_recording()
        return self

    def __exit__(self, *exc):
        if self.enabled:
            self._stop_recording()
        return False

    def events(self):
        if not self.enabled:
            return EventList()
        return super().events()

    def export_chrome_trace(self, path):
        if not self.enabled:
            return None
        return super().export_chrome_trace(path)

    def __repr__(self):
        return "<unfinished torch.autograd.profile>" if self._results is None else \
            repr(self.events())
