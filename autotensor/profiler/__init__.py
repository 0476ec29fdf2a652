"""``autotensor.profiler``: which ops are slow, which allocate — PyTorch's ``torch.profiler``.

    from autotensor.profiler import profile, record_function, ProfilerActivity
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        with record_function("model_inference"):
            model(inputs)
    print(prof.key_averages().table(sort_by="cpu_time_total", row_limit=10))

Forward ops are named as PyTorch's profiler names them (``aten::mul``), backward nodes by
their class (``MulBackward0``); times are CPU wall time of the Python call. How ops are
observed without any cost when no profiler runs: Note [Observing ops at no cost] in
``_observe.py``; what an event holds: Note [Profiler events] in ``_events.py``.
"""
import enum
import os
import socket
import time

from .. import _observe
from ._events import EventList, FunctionEvent, FunctionEventAvg, Recorder

__all__ = ["profile", "record_function", "schedule", "ProfilerActivity", "ProfilerAction",
           "tensorboard_trace_handler", "EventList", "FunctionEvent", "FunctionEventAvg"]


class ProfilerActivity(enum.Enum):
    CPU = 0
    CUDA = 2  # accepted; there is no device, so it records nothing


class ProfilerAction(enum.Enum):
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def schedule(*, wait, warmup, active, repeat=0, skip_first=0, skip_first_wait=0):
    """PyTorch's schedule: after ``skip_first`` steps, cycles of ``wait`` idle steps,
    ``warmup`` steps and ``active`` recorded steps (the last one saves), ``repeat`` times
    (0: forever)."""
    if wait < 0 or warmup < 0 or active <= 0 or repeat < 0 or skip_first < 0:
        raise AssertionError("Invalid profiler schedule arguments")

    def schedule_fn(step):
        if step < 0:
            raise AssertionError(f"Step must be non-negative. Got {step}.")
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        w = 0 if (skip_first_wait and step < wait + warmup + active) else wait
        num_steps = w + warmup + active
        if repeat > 0 and step / num_steps >= repeat:
            return ProfilerAction.NONE
        mod_step = step % num_steps
        if mod_step < w:
            return ProfilerAction.NONE
        if mod_step < w + warmup:
            return ProfilerAction.WARMUP
        return (ProfilerAction.RECORD if mod_step < num_steps - 1
                else ProfilerAction.RECORD_AND_SAVE)
    return schedule_fn


def _default_schedule_fn(_):
    return ProfilerAction.RECORD


class record_function:
    """A named range in the profile (a context manager or a decorator); nothing without
    an active profiler."""

    def __init__(self, name, args=None):
        self.name = name
        self.args = args
        self._events = ()

    def __enter__(self):
        self._events = [(r, r.begin(self.name, kind="user_annotation",
                                    shapes=r._shapes_for_ranges))
                        for r in _observe.active() if isinstance(r, Recorder)]
        return self

    def __exit__(self, *exc):
        for r, evt in self._events:
            r.end(evt)
        self._events = ()
        return False

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            with record_function(self.name, self.args):
                return fn(*args, **kwargs)
        return wrapped


class _KinetoLikeProfile:
    """What both profilers share: a recorder started and stopped, and its results."""

    _recorder = None
    _results = None

    def _start_recording(self):
        self._recorder = Recorder(self.record_shapes, self.profile_memory, self.with_stack)
        _observe.start(self._recorder)

    def _stop_recording(self):
        if self._recorder is not None:
            _observe.stop(self._recorder)
            self._results = self._recorder
            self._recorder = None

    def events(self):
        """Every event of the last recording (``FunctionEvent``s, in start order)."""
        rec = self._recorder or self._results
        if rec is None:
            raise RuntimeError("Profiler didn't finish running")
        return rec.function_events()

    @property
    def function_events(self):
        return self.events()

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0):
        return self.events().key_averages(group_by_input_shape, group_by_stack_n)

    def table(self, sort_by=None, row_limit=100, **kwargs):
        return self.events().table(sort_by=sort_by, row_limit=row_limit, **kwargs)

    def total_average(self):
        return self.events().total_average()

    @property
    def self_cpu_time_total(self):
        return self.events().self_cpu_time_total

    def export_chrome_trace(self, path):
        """Write the trace as JSON (Trace Event Format: Perfetto, chrome://tracing)."""
        from ._events import write_chrome_trace
        rec = self._recorder or self._results
        if rec is None:
            raise RuntimeError("Profiler didn't finish running")
        return write_chrome_trace(rec.events, path, base_us=rec.start_wall_us)

    def __str__(self):
        return self.table()


class profile(_KinetoLikeProfile):
    """``torch.profiler.profile``: record ops and backward nodes inside the block (or
    between ``start()`` and ``stop()``), following ``schedule`` over ``step()`` calls and
    handing each finished recording to ``on_trace_ready``."""

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None,
                 record_shapes=False, profile_memory=False, with_stack=False,
                 with_flops=False, with_modules=False, experimental_config=None,
                 execution_trace_observer=None, acc_events=False, use_cuda=None):
        self.activities = set(activities) if activities else {ProfilerActivity.CPU}
        self.schedule = schedule or _default_schedule_fn
        self.record_steps = schedule is not None  # ProfilerStep#N ranges, as PyTorch
        self.on_trace_ready = on_trace_ready
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.with_flops = with_flops
        self.step_num = 0
        self.current_action = self.schedule(self.step_num)
        self._step_range = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def start(self):
        if self.current_action in (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE):
            self._start_recording()
        self._enter_step()

    def stop(self):
        self._exit_step()
        if self._recorder is not None:
            self._stop_recording()
            if self.on_trace_ready is not None:
                self.on_trace_ready(self)

    def step(self):
        """Advance the schedule by one step (call it at the end of each iteration)."""
        self._exit_step()
        prev = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        recording = (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE)
        if prev == ProfilerAction.RECORD_AND_SAVE or (prev == ProfilerAction.RECORD and
                                                      self.current_action not in recording):
            self._stop_recording()
            if self.on_trace_ready is not None:
                self.on_trace_ready(self)
        if self.current_action in recording and self._recorder is None:
            self._start_recording()
        self._enter_step()

    def _enter_step(self):
        if self._recorder is not None and self.record_steps:
            self._step_range = record_function(f"ProfilerStep#{self.step_num}")
            self._step_range.__enter__()

    def _exit_step(self):
        if self._step_range is not None:
            self._step_range.__exit__(None, None, None)
            self._step_range = None


def tensorboard_trace_handler(dir_name, worker_name=None, use_gzip=False):
    """An ``on_trace_ready`` that writes each recording as
    ``<dir>/<worker>.<ms>.pt.trace.json`` (TensorBoard's profiler plugin reads them)."""

    def handler_fn(prof):
        nonlocal worker_name
        os.makedirs(dir_name, exist_ok=True)
        if not worker_name:
            worker_name = f"{socket.gethostname()}_{os.getpid()}"
        file_name = f"{worker_name}.{time.time_ns() // 1_000_000}.pt.trace.json"
        if use_gzip:
            file_name += ".gz"
        prof.export_chrome_trace(os.path.join(dir_name, file_name))
    return handler_fn
