"""The profiler's recorder and its results: events, averages, PyTorch's table, Chrome trace.

Note [Profiler events]
~~~~~~~~~~~~~~~~~~~~~~
A ``Recorder`` is an observer (Note [Observing ops at no cost] in _observe.py): each op call
and each backward node run becomes a ``FunctionEvent`` with its name as PyTorch's profiler
gives it (``aten::mul``, ``MulBackward0``, ``torch::autograd::AccumulateGrad``), start and
end (``time.perf_counter_ns``), thread, parent (the event open on the same thread when it
began), input shapes (``record_shapes``), bytes its results allocated
(``profile_memory``: buffers of its results that no earlier event made and no input
holds; a view or an in-place result allocates nothing; frees are not tracked; and, ours,
``saved_tensor_bytes``: what the backward node the op made keeps for backward) and the
Python stack outside autotensor (``with_stack``). Self time and self memory are the
event's minus its children's, as in PyTorch. Times are in microseconds, like PyTorch's
``FunctionEvent``.
"""
import json
import os
import threading
import time
import traceback
import weakref
from collections import OrderedDict

_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Interval:
    __slots__ = ("start", "end")

    def __init__(self, start, end):
        self.start, self.end = start, end

    def elapsed_us(self):
        return self.end - self.start


class FunctionEvent:
    """One op call, backward node run or ``record_function`` range."""

    __slots__ = ("id", "name", "thread", "time_range", "input_shapes", "stack", "kind",
                 "sequence_nr", "cpu_memory_usage", "cpu_children", "cpu_parent",
                 "saved_tensor_bytes")
    # what PyTorch's FunctionEvent also has, constant here (CPU only, no devices)
    count = 1
    node_id = -1
    is_async = False
    is_legacy = True
    device_type = "CPU"
    use_device = None
    overload_name = ""
    flops = 0
    device_time_total = self_device_time_total = 0
    device_memory_usage = self_device_memory_usage = 0

    def __init__(self, id, name, thread, start_us, end_us=None, input_shapes=None,
                 stack=None, kind="cpu_op", sequence_nr=-1):
        self.id = id
        self.name = name
        self.thread = thread
        self.time_range = Interval(start_us, end_us if end_us is not None else start_us)
        self.input_shapes = input_shapes
        self.stack = stack or []
        self.kind = kind
        self.sequence_nr = sequence_nr
        self.cpu_memory_usage = 0
        self.saved_tensor_bytes = 0  # ours: what the node this op made holds for backward
        self.cpu_children = []
        self.cpu_parent = None

    @property
    def is_user_annotation(self):
        return self.kind == "user_annotation"

    @property
    def key(self):
        return self.name

    @property
    def cpu_time_total(self):
        return self.time_range.elapsed_us()

    @property
    def self_cpu_time_total(self):
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    @property
    def cpu_time(self):
        return self.cpu_time_total

    @property
    def self_cpu_memory_usage(self):
        return self.cpu_memory_usage - sum(c.cpu_memory_usage for c in self.cpu_children)

    def __repr__(self):
        return (f"<FunctionEvent id={self.id} name={self.name} "
                f"cpu_time={_format_time(self.cpu_time_total)} "
                f"self_cpu_time={_format_time(self.self_cpu_time_total)} "
                f"input_shapes={self.input_shapes} cpu_memory_usage={self.cpu_memory_usage}>")


class FunctionEventAvg:
    """Events of one key (name, and input shapes / stack when grouped) added up."""

    def __init__(self):
        self.key = None
        self.count = 0
        self.cpu_time_total = 0
        self.self_cpu_time_total = 0
        self.cpu_memory_usage = 0
        self.self_cpu_memory_usage = 0
        self.saved_tensor_bytes = 0
        self.input_shapes = None
        self.stack = None
        self.cpu_parent = None
        self.node_id = -1
        self.is_async = False
        self.is_legacy = True
        self.is_user_annotation = False
        self.device_type = "CPU"
        self.use_device = None
        self.overload_name = ""
        self.flops = 0
        self.device_time_total = 0
        self.self_device_time_total = 0
        self.device_memory_usage = 0
        self.self_device_memory_usage = 0

    def add(self, evt):
        if self.key is None:
            self.key = evt.key
            self.input_shapes = evt.input_shapes
            self.stack = evt.stack
            self.is_user_annotation = evt.is_user_annotation
            self.cpu_parent = evt.cpu_parent
        self.count += evt.count
        self.cpu_time_total += evt.cpu_time_total
        self.self_cpu_time_total += evt.self_cpu_time_total
        self.cpu_memory_usage += evt.cpu_memory_usage
        self.self_cpu_memory_usage += evt.self_cpu_memory_usage
        self.saved_tensor_bytes += evt.saved_tensor_bytes
        return self

    @property
    def cpu_time(self):
        return 0.0 if self.count == 0 else self.cpu_time_total / self.count

    def __repr__(self):
        return (f"<FunctionEventAvg key={self.key} self_cpu_time="
                f"{_format_time(self.self_cpu_time_total)} cpu_time="
                f"{_format_time(self.cpu_time)} input_shapes={self.input_shapes} "
                f"cpu_memory_usage={self.cpu_memory_usage}>")


class EventList(list):
    """A list of events that prints as PyTorch's table."""

    def __init__(self, *args, profile_memory=False, **kwargs):
        super().__init__(*args)
        self._profile_memory = profile_memory

    def __str__(self):
        return self.table()

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75,
              max_name_column_width=55, max_shapes_column_width=80, header=None,
              top_level_events_only=False, time_unit=None):
        """PyTorch's profiler table: one row per event, sorted by ``sort_by`` (an event
        attribute: ``self_cpu_time_total``, ``cpu_time_total``, ``count``,
        ``cpu_memory_usage``, ...), descending."""
        return build_table(self, sort_by=sort_by, header=header, row_limit=row_limit,
                           max_src_column_width=max_src_column_width,
                           max_name_column_width=max_name_column_width,
                           max_shapes_column_width=max_shapes_column_width,
                           profile_memory=self._profile_memory,
                           top_level_events_only=top_level_events_only, time_unit=time_unit)

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0):
        """One ``FunctionEventAvg`` per name (and input shapes / top stack frames)."""
        groups = OrderedDict()
        for evt in self:
            key = [evt.key]
            if group_by_input_shape:
                key.append(str(evt.input_shapes))
            if group_by_stack_n > 0:
                key += evt.stack[:group_by_stack_n]
            groups.setdefault(tuple(key), FunctionEventAvg()).add(evt)
        return EventList(groups.values(), profile_memory=self._profile_memory)

    def total_average(self):
        total = FunctionEventAvg()
        for evt in self:
            total.add(evt)
        total.key = "Total"
        return total

    @property
    def self_cpu_time_total(self):
        return sum(e.self_cpu_time_total for e in self)

    def export_chrome_trace(self, path):
        write_chrome_trace(self, path)


class Recorder:
    """The observer behind ``profile``: turns op calls and node runs into events."""

    def __init__(self, record_shapes=False, profile_memory=False, with_stack=False):
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.events = []
        self._local = threading.local()
        self._shapes_for_ranges = [] if record_shapes else None
        self._buffers = weakref.WeakValueDictionary()  # id -> array already counted
        self._nodes = weakref.WeakSet()  # backward nodes whose saved tensors were counted
        self._ids = iter(range(1 << 62))
        self._t0 = time.perf_counter_ns()
        self.start_wall_us = time.time() * 1e6

    def _now_us(self):
        return (time.perf_counter_ns() - self._t0) / 1000.0

    def _stack(self):
        s = getattr(self._local, "stack", None)
        if s is None:
            s = self._local.stack = []
        return s

    def begin(self, name, kind="cpu_op", shapes=None, sequence_nr=-1):
        stack = self._stack()
        evt = FunctionEvent(next(self._ids), name, threading.get_ident(), 0.0,
                            input_shapes=shapes, kind=kind, sequence_nr=sequence_nr)
        if self.with_stack:
            evt.stack = _python_stack()
        if stack:
            evt.cpu_parent = stack[-1]
            stack[-1].cpu_children.append(evt)
        stack.append(evt)
        self.events.append(evt)
        evt.time_range.start = self._now_us()
        return evt

    def end(self, evt, results=()):
        evt.time_range.end = self._now_us()
        stack = self._stack()
        if stack and stack[-1] is evt:
            stack.pop()
        elif evt in stack:
            stack.remove(evt)
        if self.profile_memory:
            self._account(evt, results)

    def _account(self, evt, results):
        """Bytes allocated inside ``evt``: its children's, plus its results' buffers that
        no earlier event produced and that are not an input's (a view, or in place)."""
        seen = self._buffers
        own = 0
        for arr, inputs in results:
            root = _owner(arr)
            if seen.get(id(root)) is root or any(_owner(getattr(a, "_data", a)) is root
                                                 for a in inputs):
                continue
            seen[id(root)] = root
            own += min(int(arr.nbytes), int(root.nbytes))  # a broadcast view: its buffer
        evt.cpu_memory_usage = own + sum(c.cpu_memory_usage for c in evt.cpu_children)

    # -- observer protocol (_observe.py) --
    def op_begin(self, name, args, kwargs):
        shapes = None
        if self.record_shapes:
            shapes = [_shape_of(a) for a in args] + [_shape_of(v) for v in kwargs.values()]
        return self.begin(name, shapes=shapes)

    def op_end(self, evt, out, args):
        if self.profile_memory and out is not None:
            inputs = [a for a in args if hasattr(a, "_data")]
            tensors = _tensors_of(out)
            self.end(evt, [(t._data, inputs) for t in tensors])
            node = tensors[0]._grad_fn if tensors else None
            if node is not None and node not in self._nodes:
                # the memory its backward node keeps alive until backward (saved tensors)
                from ..autograd.graph_text import _saved_values
                self._nodes.add(node)
                evt.saved_tensor_bytes = sum(v.numel() * v.element_size()
                                             for _, v in _saved_values(node))
        else:
            self.end(evt)

    def node_begin(self, node):
        return self.begin(node.name(), shapes=[] if self.record_shapes else None,
                          sequence_nr=getattr(node, "_seq", -1))

    def node_end(self, evt, outs):
        if self.profile_memory and outs is not None:
            arrays = [getattr(g, "_data", g) for g in outs if g is not None]
            self.end(evt, [(a, ()) for a in arrays if hasattr(a, "nbytes")])
        else:
            self.end(evt)

    def function_events(self):
        return EventList(self.events, profile_memory=self.profile_memory)


def _shape_of(x):
    shape = getattr(x, "shape", None)
    if shape is not None and hasattr(x, "_data"):
        return list(shape)
    return []


def _tensors_of(out):
    if hasattr(out, "_data"):
        return (out,)
    if isinstance(out, (tuple, list)):
        return [t for t in out if hasattr(t, "_data")]
    return ()


def _owner(a):
    """The array that owns ``a``'s memory."""
    while getattr(a, "base", None) is not None:
        a = a.base
    return a


def _python_stack():
    """The caller's frames outside autotensor, innermost first ('file(line): func')."""
    out = []
    for fr in reversed(traceback.extract_stack()[:-1]):
        if os.path.abspath(fr.filename).startswith(_PKG_DIR):
            continue
        out.append(f"{fr.filename}({fr.lineno}): {fr.name}")
    return out


# ---- PyTorch's table -----------------------------------------------------------------------
def _format_time(time_us):
    if time_us >= 1e6:
        return f"{time_us / 1e6:.3f}s"
    if time_us >= 1e3:
        return f"{time_us / 1e3:.3f}ms"
    return f"{time_us:.3f}us"


def _format_time_share(time_us, total_time_us):
    if total_time_us == 0:
        return "NaN"
    return f"{time_us * 100.0 / total_time_us:.2f}%"


def _format_memory(nbytes):
    KB = 1024
    MB = 1024 * KB
    GB = 1024 * MB
    if abs(nbytes) >= GB:
        return f"{nbytes * 1.0 / GB:.2f} GB"
    if abs(nbytes) >= MB:
        return f"{nbytes * 1.0 / MB:.2f} MB"
    if abs(nbytes) >= KB:
        return f"{nbytes * 1.0 / KB:.2f} KB"
    return str(nbytes) + " B"


def _override_time_unit(time_us, time_unit):
    if time_unit == "s":
        return f"{time_us / 1e6:.3f}s"
    if time_unit == "ms":
        return f"{time_us / 1e3:.3f}ms"
    if time_unit == "us":
        return f"{time_us:.3f}us"
    return _format_time(time_us)


def build_table(events, sort_by=None, header=None, row_limit=100, max_src_column_width=75,
                max_name_column_width=55, max_shapes_column_width=80, profile_memory=False,
                top_level_events_only=False, time_unit=None):
    """PyTorch's ``_build_table`` (torch/autograd/profiler_util.py) for CPU events: the same
    columns, widths, number formats and footer."""
    if len(events) == 0:
        return ""
    if sort_by is not None:
        key = sort_by.replace("cuda", "device").replace("xpu", "device")
        events = sorted(events, key=lambda evt: getattr(evt, key), reverse=True)
    has_input_shapes = any(e.input_shapes is not None and len(e.input_shapes) > 0
                           for e in events)
    name_column_width = max(len(evt.key) for evt in events) + 4
    if max_name_column_width is not None:
        name_column_width = min(name_column_width, max_name_column_width)
    shapes_column_width = max(len(str(evt.input_shapes)) for evt in events) + 4
    if max_shapes_column_width is not None:
        shapes_column_width = min(shapes_column_width, max_shapes_column_width)
    stacks = [evt.stack for evt in events if evt.stack]
    has_stack = len(stacks) > 0
    src_column_width = None
    if has_stack:
        src_column_width = max(max(len(entry) for entry in s) for s in stacks) + 4
        if max_src_column_width is not None:
            src_column_width = min(src_column_width, max_src_column_width)
    headers = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg"]
    if profile_memory:
        headers += ["CPU Mem", "Self CPU Mem"]
    headers.append("# of Calls")
    spacing = 2
    row_format, header_sep, line_length = "", "", -spacing

    def add_column(padding, text_dir=">"):
        nonlocal row_format, header_sep, line_length
        row_format += "{: " + text_dir + str(padding) + "}" + " " * spacing
        header_sep += "-" * padding + " " * spacing
        line_length += padding + spacing

    add_column(name_column_width)
    for _ in headers[1:]:
        add_column(12)
    if has_input_shapes:
        headers.append("Input Shapes")
        add_column(shapes_column_width)
    if has_stack:
        headers.append("Source Location")
        add_column(src_column_width, text_dir="<")
    result = []

    def append(s):
        result.append(s)
        result.append("\n")

    total = sum(evt.self_cpu_time_total for evt in events)
    if header is not None:
        append("=" * line_length)
        append(header)
    if top_level_events_only:
        append("=" * line_length)
        append("This report only display top-level ops statistics")
    append(header_sep)
    append(row_format.format(*headers))
    append(header_sep)

    def trim_path(path, width):
        if len(path) > width:
            path = path[len(path) - width:]
            if len(path) > 3:
                path = "..." + path[3:]
        return path

    shown = 0
    for evt in events:
        if shown == row_limit:
            break
        if top_level_events_only and evt.cpu_parent is not None:
            continue
        shown += 1
        name = evt.key
        if max_name_column_width is not None and len(name) >= max_name_column_width - 3:
            name = name[:(max_name_column_width - 3)] + "..."
        row = [name, _format_time_share(evt.self_cpu_time_total, total),
               _override_time_unit(evt.self_cpu_time_total, time_unit),
               _format_time_share(evt.cpu_time_total, total),
               _override_time_unit(evt.cpu_time_total, time_unit),
               _override_time_unit(evt.cpu_time, time_unit)]
        if profile_memory:
            row += [_format_memory(evt.cpu_memory_usage),
                    _format_memory(evt.self_cpu_memory_usage)]
        row.append(evt.count)
        if has_input_shapes:
            row.append(str(evt.input_shapes)[:shapes_column_width])
        if has_stack:
            row.append(trim_path(evt.stack[0], src_column_width) if evt.stack else "")
        append(row_format.format(*row))
        if has_stack:
            empty = [""] * (len(headers) - 1)
            for entry in (evt.stack or [])[1:]:
                append(row_format.format(*(empty + [trim_path(entry, src_column_width)])))
            append(row_format.format(*(empty + [""])))
    append(header_sep)
    append(f"Self CPU time total: {_override_time_unit(total, time_unit)}")
    return "".join(result)


# ---- Chrome trace ------------------------------------------------------------------------------
def chrome_trace(events, base_us=0.0):
    """The trace as a dict in the Trace Event Format that Perfetto and chrome://tracing
    read: one complete ("X") event per op/node/range, microsecond timestamps."""
    pid = os.getpid()
    trace = [{"ph": "M", "name": "process_name", "pid": pid, "tid": 0,
              "args": {"name": "python"}}]
    threads = {}
    for evt in events:
        if evt.thread not in threads:
            threads[evt.thread] = len(threads)
            trace.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": evt.thread,
                          "args": {"name": f"thread {evt.thread} (python)"}})
    for evt in events:
        args = {"External id": evt.id}
        if evt.input_shapes is not None:
            args["Input Dims"] = evt.input_shapes
        if evt.sequence_nr >= 0:
            args["Sequence number"] = evt.sequence_nr
        if evt.cpu_memory_usage:
            args["Memory allocated (bytes)"] = evt.cpu_memory_usage
        if evt.saved_tensor_bytes:
            args["Saved tensors (bytes)"] = evt.saved_tensor_bytes
        if evt.stack:
            args["Call stack"] = ";".join(evt.stack)
        trace.append({"ph": "X", "cat": evt.kind, "name": evt.name, "pid": pid,
                      "tid": evt.thread, "ts": round(base_us + evt.time_range.start, 3),
                      "dur": round(evt.cpu_time_total, 3), "args": args})
    return {"schemaVersion": 1, "displayTimeUnit": "ms", "traceEvents": trace}


def write_chrome_trace(events, path, base_us=0.0):
    opener = open
    if str(path).endswith(".gz"):
        import gzip
        opener = gzip.open
    with opener(path, "wt") as f:
        json.dump(chrome_trace(events, base_us), f)
    return path
