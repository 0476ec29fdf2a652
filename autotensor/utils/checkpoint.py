"""Activation checkpointing: trade compute for memory (PyTorch's torch.utils.checkpoint).

Note [Checkpointing]
~~~~~~~~~~~~~~~~~~~~
``checkpoint(fn, *args)`` runs ``fn`` keeping none of its intermediate activations and
recomputes them when backward needs them. Two variants, as in PyTorch:

- reentrant (``use_reentrant=True``): ``fn`` runs under no_grad inside a custom Function;
  its backward reruns ``fn`` with grad enabled and calls ``autograd.backward`` on the
  recomputed graph (a reentrant backward: Note [Reentrant backward] in engine.py). It
  cannot serve ``autograd.grad`` or ``backward(inputs=...)``.
- non-reentrant (``use_reentrant=False``): ``fn`` runs normally under saved-tensor hooks
  whose pack keeps only a placeholder per saved tensor; the first unpack in a backward
  reruns ``fn`` under hooks that capture the recomputed tensors in the same order, checks
  their metadata against the forward's (``determinism_check``), and hands them out. It
  works with autograd.grad, nested checkpoints and keyword arguments.

Both restore the RNG state of the forward before recomputing (``preserve_rng_state``), so
dropout draws the same mask twice. The code follows PyTorch's, minus devices/autocast.
"""
import contextlib
import uuid
import warnings
import weakref
from collections import defaultdict

from .. import _random
from .._tensor import Tensor
from ..autograd import grad_mode
from ..autograd.function import Function
from ..autograd.graph import saved_tensors_hooks
from ..autograd.saved import SavedTensor

__all__ = ["checkpoint", "checkpoint_sequential", "CheckpointError", "CheckpointFunction",
           "check_backward_validity", "detach_variable", "set_checkpoint_early_stop",
           "set_checkpoint_debug_enabled"]

_state = grad_mode.state
_DEFAULT_DETERMINISM_MODE = "default"
_checkpoint_debug_enabled = None
_enable_checkpoint_early_stop = None


@contextlib.contextmanager
def set_checkpoint_debug_enabled(enabled):
    global _checkpoint_debug_enabled
    prev = _checkpoint_debug_enabled
    _checkpoint_debug_enabled = enabled
    try:
        yield
    finally:
        _checkpoint_debug_enabled = prev


@contextlib.contextmanager
def set_checkpoint_early_stop(enable):
    global _enable_checkpoint_early_stop
    prev = _enable_checkpoint_early_stop
    _enable_checkpoint_early_stop = enable
    try:
        yield
    finally:
        _enable_checkpoint_early_stop = prev


def detach_variable(inputs):
    if isinstance(inputs, tuple):
        out = []
        for inp in inputs:
            if not isinstance(inp, Tensor):
                out.append(inp)
                continue
            x = inp.detach()
            x.requires_grad = inp.requires_grad
            out.append(x)
        return tuple(out)
    raise RuntimeError(f"Only tuple of tensors is supported. Got Unsupported input type: "
                       f"{type(inputs).__name__}")


def check_backward_validity(inputs):
    if not any(inp.requires_grad for inp in inputs if isinstance(inp, Tensor)):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None",
                      stacklevel=2)


@contextlib.contextmanager
def _forked_rng(state):
    """Run with the RNG set to ``state`` (the forward's), restoring the current one after."""
    if state is None:
        yield
        return
    current = _random.get_rng_state()
    _random.set_rng_state(state)
    try:
        yield
    finally:
        _random.set_rng_state(current)


def _is_checkpoint_valid():
    """False inside autograd.grad or backward(inputs=...) (PyTorch's engine flag)."""
    task = _state.graph_task
    return task is None or task.needed is None


class CheckpointFunction(Function):
    """The reentrant variant (Note [Checkpointing])."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        check_backward_validity(args)
        ctx.run_function = run_function
        ctx.preserve_rng_state = preserve_rng_state
        if preserve_rng_state:
            ctx.fwd_cpu_state = _random.get_rng_state()
        ctx.inputs = []
        ctx.tensor_indices = []
        tensor_inputs = []
        for i, arg in enumerate(args):
            if isinstance(arg, Tensor):
                tensor_inputs.append(arg)
                ctx.tensor_indices.append(i)
                ctx.inputs.append(None)
            else:
                ctx.inputs.append(arg)
        ctx.save_for_backward(*tensor_inputs)
        return run_function(*args)

    @staticmethod
    def backward(ctx, *args):
        from ..autograd import backward
        from ..autograd.grad_mode import enable_grad
        if not _is_checkpoint_valid():
            raise RuntimeError(
                "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() "
                "or passing an `inputs` parameter to .backward(). To resolve this error, you "
                "can either set use_reentrant=False, or call .backward() without passing the "
                "`inputs` argument.")
        inputs = list(ctx.inputs)
        tensors = ctx.saved_tensors
        for i, idx in enumerate(ctx.tensor_indices):
            inputs[idx] = tensors[i]
        with _forked_rng(ctx.fwd_cpu_state if ctx.preserve_rng_state else None):
            detached_inputs = detach_variable(tuple(inputs))
            with enable_grad():
                outputs = ctx.run_function(*detached_inputs)
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        outputs_with_grad = []
        args_with_grad = []
        for i in range(len(outputs)):
            if isinstance(outputs[i], Tensor) and outputs[i].requires_grad:
                outputs_with_grad.append(outputs[i])
                args_with_grad.append(args[i])
        if len(outputs_with_grad) == 0:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is "
                               "not necessary")
        backward(outputs_with_grad, args_with_grad)
        grads = tuple(inp.grad if isinstance(inp, Tensor) else None for inp in detached_inputs)
        return (None, None) + grads


def noop_context_fn():
    return contextlib.nullcontext(), contextlib.nullcontext()


def checkpoint(function, *args, use_reentrant=None, context_fn=noop_context_fn,
               determinism_check=_DEFAULT_DETERMINISM_MODE, debug=False, early_stop=True,
               **kwargs):
    """Run ``function(*args, **kwargs)`` without keeping its activations; recompute them in
    backward (Note [Checkpointing])."""
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. "
            "Starting in PyTorch 2.9, calling checkpoint without use_reentrant will raise an "
            "exception. use_reentrant=False is recommended, but if you need to preserve the "
            "current default behavior, you can pass use_reentrant=True. Refer to docs for "
            "more details on the differences between the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if use_reentrant:
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when "
                             "use_reentrant=False.")
        return CheckpointFunction.apply(function, preserve, *args)
    gen = _checkpoint_without_reentrant_generator(
        function, preserve, context_fn, determinism_check, debug, early_stop, *args, **kwargs)
    next(gen)
    try:
        ret = function(*args, **kwargs)
    except BaseException as e:
        try:
            gen.throw(e)
        except StopIteration as stop:
            raise RuntimeError(
                "torch.utils.checkpoint: the forward context provided by context_fn "
                "suppressed an exception raised during the checkpointed forward. This is not "
                "supported because checkpoint cannot return a value for a failed forward."
            ) from stop
        raise
    try:
        next(gen)
    except StopIteration:
        return ret
    raise AssertionError("torch.utils.checkpoint: expected context_fn generator to yield "
                         "exactly twice, but it yielded more than twice.")


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """Checkpoint all but the last of ``segments`` equal runs of ``functions`` (a list or
    an ``nn.Sequential``): O(segments + n/segments) activations are kept."""
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should "
            "be passed explicitly. In version 2.9 we will raise an exception if use_reentrant "
            "is not passed. use_reentrant=False is recommended, but if you need to preserve "
            "the current default behavior, you can pass use_reentrant=True. Refer to docs for "
            "more details on the differences between the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))

    def run_function(start, end, functions):
        def forward(input):
            for j in range(start, end + 1):
                input = functions[j](input)
            return input
        return forward

    from ..nn import Sequential
    if isinstance(functions, Sequential):
        functions = list(functions.children())
    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(run_function(start, end, functions), input,
                           use_reentrant=use_reentrant, preserve_rng_state=preserve)
    return run_function(end + 1, len(functions) - 1, functions)(input)


# ---- the non-reentrant variant ----------------------------------------------------------
class CheckpointError(RuntimeError):
    pass


_debug_tip_msg = """
Tip: To see a more detailed error message, either pass `debug=True` to
`torch.utils.checkpoint.checkpoint(...)` or wrap the code block
with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to
enable checkpoint‑debug mode globally.

If this error occurs under torch.compile with automatic_dynamic_shapes enabled,
it may be because the recomputation selected a different compiled graph than the
forward pass (e.g., a dynamic graph instead of the original static graph).
To fix this, either:
  - Use torch._dynamo.mark_dynamic() to explicitly mark varying dimensions as
    dynamic upfront, avoiding the static-to-dynamic transition.
  - Call torch._C._dynamo.eval_frame._set_lru_cache(False) to disable LRU cache
    reordering, which can change which graph is checked first between forward
    and recompute.
See https://github.com/pytorch/pytorch/issues/166926 for more details and
workaround examples.
"""


_checkpoint_error_template = """ \
An error happened while unpacking tensors; dumping logs of latest computation
because you passed `debug=True` to `torch.utils.checkpoint.checkpoint()`.
Scroll all the way down for guidance on how to navigate these logs.

+~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~+
|        1. Stack traces of the operators that ran in the original forward     |
+------------------------------------------------------------------------------+

{forward_traces}
+~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~+
|        2. Stack traces of the operators that ran during recomputation        |
+------------------------------------------------------------------------------+

{recompute_traces}
+~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~+
|       3. Log of operators in the original forward and recomputation          |
+------------------------------------------------------------------------------+
(Scroll up to correlate stack traces with each operation listed below. This
 helps identify their source in the code.)

IMPORTANT: Differences in "detach" calls between the original forward and the
           recomputation are expected. They are introduced by the checkpointing
           mechanism and can be ignored.

Operations executed during the original forward:

{forward_ops}

Operations executed during recomputation:

{recompute_ops}

+------------------------------------------------------------------------------+
 ERROR: Detected non-determinism while running activation checkpointing

 You are seeing this error because you passed `debug=True` to checkpoint and
 tensors to be saved during the original forward and differ between those saved
 during recomputation. This can happen if different operators were ran in the
 original forward and in the recomputation.

 To identify where the mismatch may be coming from, you can do the following:

 1) Compare the operators ran during original forward and recomputation to
    see where they differ. These operators are printed above in the order they
    were executed.

 2) Review the stack trace for each operator to locate its invocation source.
    Each operator's stack trace is printed in their execution order.

 Note that the logs can be quite long. Here's how they are structured:
 (Tip: you can Ctrl-f for these headers)

 1. Stack traces of the operators that ran in the original forward
 2. Stack traces of the operators that ran during recomputation
 3. Log of operators in the original forward and recomputation
 4. Error message                                             <--- You are here
--------------------------------------------------------------------------------
"""


def _describe(x):
    """'f32[2, 3]' for a tensor (PyTorch's LoggingTensorMode style), repr otherwise."""
    if isinstance(x, Tensor):
        from .._dtypes import from_numpy
        short = {"float32": "f32", "float64": "f64", "float16": "f16", "int64": "i64",
                 "int32": "i32", "bool": "b8", "bfloat16": "bf16", "complex64": "c64",
                 "complex128": "c128", "uint8": "u8", "int8": "i8", "int16": "i16"}
        name = str(from_numpy(x._data.dtype)).rsplit(".", 1)[-1]
        return f"{short.get(name, name)}[{', '.join(str(n) for n in x._data.shape)}]"
    if isinstance(x, (tuple, list)):
        return "(" + ", ".join(_describe(v) for v in x) + ")"
    return repr(x)


class _CaptureLogs:
    """Note [Checkpoint debug logs]: PyTorch logs every aten op run in the checkpointed
    forward and in its recomputation (LoggingTensorMode) with its stack. Here the op
    observer of _observe.py does it: each outermost op call (ops called by ops are part of
    it), with the Python stack that called it, innermost frame first."""

    def __init__(self):
        self.logs = None
        self.tbs = None

    def get_context_manager(self):
        return _Logging(self)


class _Logging:
    def __init__(self, capture):
        self.capture = capture
        self.depth = 0

    def __enter__(self):
        import threading
        self.thread = threading.get_ident()
        self.capture.logs, self.capture.tbs = [], []
        from .. import _observe
        _observe.start(self)
        return self

    def __exit__(self, *exc):
        from .. import _observe
        _observe.stop(self)

    def op_begin(self, name, args, kwargs):
        import threading
        import traceback
        if threading.get_ident() != self.thread:
            return None
        self.depth += 1
        if self.depth > 1:
            return True
        frames = [f for f in traceback.extract_stack()[:-2]
                  if not f.filename.endswith("_observe.py")]
        self.capture.tbs.append([{"filename": f.filename, "line": f.lineno, "name": f.name}
                                 for f in reversed(frames)])
        self.capture.logs.append(None)
        return (len(self.capture.logs) - 1, name, args)

    def op_end(self, token, out, args):
        if token is None:
            return
        self.depth -= 1
        if token is True:
            return
        i, name, args = token
        ins = ", ".join(_describe(a) for a in args)
        self.capture.logs[i] = f"${i + 1}: {name}({ins})" if out is None else \
            f"${i + 1}: {_describe(out)} = {name}({ins})"

    def node_begin(self, node):
        return None

    def node_end(self, token, outs):
        pass


def _get_debug_context_and_cb():
    """context_fn (forward and recomputation logged) and the unpack error callback of
    debug mode: PyTorch's message, with both op logs and their stacks."""
    capture_logs_fwd = _CaptureLogs()
    capture_logs_recompute = _CaptureLogs()

    def unpack_error_cb(e):
        def get_str_tb(label, capture_logs):
            out = ""
            total_len = len(capture_logs.logs)
            for i, (log, tb) in enumerate(zip(capture_logs.logs, capture_logs.tbs)):
                out += f"{log}   ({i + 1} of {total_len} in {label})\n\n"
                for line in tb:
                    out += f"{line['filename']}:{line['line']}:{line['name']}\n"
                out += "\n\n"
            return out
        if capture_logs_fwd.logs is None:
            raise AssertionError("capture_logs_fwd.logs is None")
        if capture_logs_recompute.logs is None:
            raise AssertionError("capture_logs_recompute.logs is None")
        raise CheckpointError(
            _checkpoint_error_template.format(
                forward_traces=get_str_tb("original", capture_logs_fwd),
                recompute_traces=get_str_tb("recompute", capture_logs_recompute),
                forward_ops="\n".join(str(x) for x in capture_logs_fwd.logs),
                recompute_ops="\n".join(str(x) for x in capture_logs_recompute.logs))
        ) from e

    def context_fn():
        return (capture_logs_fwd.get_context_manager(),
                capture_logs_recompute.get_context_manager())

    return context_fn, unpack_error_cb


def _internal_assert(cond):
    if not cond:
        raise AssertionError("Something went unexpectedly wrong in activation checkpoint. "
                             "Please report this bug by filing an issue to PyTorch.")


class _Handle:
    pass


class _Holder:
    def __init__(self):
        self.handles = {}


def _default_meta_extractor(x):
    return {"shape": x.shape, "dtype": x.dtype, "device": x.device}


_allowed_determinism_checks_to_fns = {
    _DEFAULT_DETERMINISM_MODE: _default_meta_extractor,
    "none": lambda _: None,
}


class _CheckpointFrame:
    def __init__(self, recompute_fn, early_stop, unpack_error_cb, metadata_fn):
        self.recompute_fn = recompute_fn
        self.saved_args = []
        self.weak_holders = []
        self.recomputed = defaultdict(weakref.WeakKeyDictionary)
        self.recomp_counter = defaultdict(int)
        self.is_recomputed = defaultdict(bool)
        self.early_stop = early_stop
        self.metadata_fn = metadata_fn
        self.unpack_error_cb = unpack_error_cb
        self.x_metadatas = []
        self.forward_completed = False
        self.ignore_saved_mismatch = False

    def save_inputs(self, *args):
        self.saved_args = [SavedTensor(a) if isinstance(a, Tensor) else a for a in args]

    def get_inputs(self):
        return [a.unpack(None) if isinstance(a, SavedTensor) else a for a in self.saved_args]

    def check_recomputed_tensors_match(self, gid):
        if self.ignore_saved_mismatch:
            return
        if not len(self.weak_holders) == self.recomp_counter[gid]:
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the "
                "original forward and recomputation.\n"
                f"Number of tensors saved during forward: {len(self.weak_holders)}\n"
                f"Number of tensors saved during recomputation: {self.recomp_counter[gid]}.\n"
                f"{_debug_tip_msg}")
        nb_meta_different = []
        for idx, weak_holder in enumerate(self.weak_holders):
            holder = weak_holder()
            if holder is None:
                continue
            _internal_assert(gid in holder.handles)
            _internal_assert(holder.handles[gid] is not None)
            _internal_assert(holder.handles[gid] in self.recomputed[gid])
            x_meta = self.x_metadatas[idx]
            recomputed_x = self.recomputed[gid][holder.handles[gid]]
            if x_meta != self.metadata_fn(recomputed_x):
                nb_meta_different.append((idx, x_meta, self.metadata_fn(recomputed_x)))
        if nb_meta_different:
            mismatched = ""
            for idx, x_meta, recomputed_meta in nb_meta_different:
                mismatched += (f"tensor at position {idx}:\nsaved metadata: {x_meta}\n"
                               f"recomputed metadata: {recomputed_meta}\n")
            raise CheckpointError(
                "torch.utils.checkpoint: Recomputed values for the following tensors have "
                f"different metadata than during the forward pass.\n{mismatched}.\n"
                f"{_debug_tip_msg}")


class _StopRecomputationError(Exception):
    pass


class _recomputation_hook(saved_tensors_hooks):
    def __init__(self, target_frame_ref, gid):
        def pack_hook(x):
            x = x.detach() if x.requires_grad else x
            target_frame = target_frame_ref()
            _internal_assert(target_frame is not None)
            recomp_idx = target_frame.recomp_counter[gid]
            target_frame.recomp_counter[gid] += 1
            if recomp_idx >= len(target_frame.weak_holders):
                _internal_assert(not target_frame.early_stop)
                if not target_frame.forward_completed:
                    target_frame.ignore_saved_mismatch = True
                    return x
                raise CheckpointError(
                    "torch.utils.checkpoint: trying to save more tensors during recomputation "
                    f"than during the original forward pass.\n{_debug_tip_msg}")
            holder = target_frame.weak_holders[recomp_idx]()
            if holder is not None:
                _internal_assert(holder.handles.get(gid, None) is None)
                holder.handles[gid] = _Handle()
                target_frame.recomputed[gid][holder.handles[gid]] = x
            if target_frame.early_stop and target_frame.recomp_counter[gid] == len(
                    target_frame.weak_holders):
                raise _StopRecomputationError
            return x

        super().__init__(pack_hook, lambda x: x)


class _checkpoint_hook(saved_tensors_hooks):
    def __init__(self, frame):
        from ..autograd.grad_mode import enable_grad, no_grad

        def pack_hook(x):
            holder = _Holder()
            frame.weak_holders.append(weakref.ref(holder))
            if frame.metadata_fn is not None:
                with no_grad():
                    frame.x_metadatas.append(frame.metadata_fn(x))
            return holder

        def unpack_hook(holder):
            task = _state.graph_task
            gid = task.id if task is not None else int(uuid.uuid4())
            if not frame.is_recomputed[gid]:
                args = frame.get_inputs()
                prev_formula = _state.in_formula
                _state.in_formula = False  # (an ordinary forward, even inside a backward
                try:                         # that records a graph: create_graph, forward AD)
                    with _recomputation_hook(weakref.ref(frame), gid), enable_grad():
                        frame.recompute_fn(*args)
                except _StopRecomputationError:
                    pass
                finally:
                    _state.in_formula = prev_formula
                frame.is_recomputed[gid] = True
                frame.check_recomputed_tensors_match(gid)
            _internal_assert(gid in holder.handles)
            if holder.handles[gid] is None:
                raise CheckpointError(
                    "torch.utils.checkpoint: Unpack is being triggered for a tensor that was "
                    "already unpacked once. If you are calling ctx.saved_tensors in backward, "
                    "make sure to do so only once. Otherwise please open an issue with details "
                    "on your use case.")
            _internal_assert(holder.handles[gid] in frame.recomputed[gid])
            ret = frame.recomputed[gid][holder.handles[gid]]
            holder.handles[gid] = None
            return ret

        if frame.unpack_error_cb is not None:
            def unpack_hook_with_error_cb(holder):
                try:
                    return unpack_hook(holder)
                except CheckpointError as e:
                    frame.unpack_error_cb(e)
            super().__init__(pack_hook, unpack_hook_with_error_cb)
        else:
            super().__init__(pack_hook, unpack_hook)


def _checkpoint_without_reentrant_generator(fn, preserve_rng_state=True,
                                            context_fn=noop_context_fn,
                                            determinism_check=_DEFAULT_DETERMINISM_MODE,
                                            debug=False, early_stop=True, *args, **kwargs):
    """Runs before (first ``next``) and after (second) the checkpointed forward."""
    unpack_error_cb = None
    if _checkpoint_debug_enabled if _checkpoint_debug_enabled is not None else debug:
        if context_fn is not noop_context_fn:
            raise ValueError("debug=True is incompatible with non-default context_fn")
        context_fn, unpack_error_cb = _get_debug_context_and_cb()
    if determinism_check in _allowed_determinism_checks_to_fns:
        metadata_fn = _allowed_determinism_checks_to_fns[determinism_check]
    else:
        raise ValueError(f"determinism_check should be one of "
                         f"{list(_allowed_determinism_checks_to_fns.keys())}, but got "
                         f"{determinism_check}")
    forward_context, recompute_context = context_fn()
    fwd_cpu_state = _random.get_rng_state() if preserve_rng_state else None

    def recompute_fn(*inputs):
        with _forked_rng(fwd_cpu_state), recompute_context:
            fn(*inputs, **kwargs)

    new_frame = _CheckpointFrame(
        recompute_fn,
        _enable_checkpoint_early_stop if _enable_checkpoint_early_stop is not None
        else early_stop, unpack_error_cb, metadata_fn)
    if not _state.enabled:
        yield
        return
    new_frame.save_inputs(*args)
    suppressed = False
    with _checkpoint_hook(new_frame), forward_context:
        try:
            yield
        except BaseException:
            suppressed = True
            raise
    if suppressed:
        raise RuntimeError(
            "torch.utils.checkpoint: the forward context provided by context_fn suppressed an "
            "exception raised during the checkpointed forward. This is not supported because "
            "checkpoint cannot return a value for a failed forward.")
    new_frame.forward_completed = True
