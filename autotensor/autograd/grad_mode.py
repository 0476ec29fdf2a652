"""Grad modes: whether ops record a graph. Thread-local, as in PyTorch.

``state.enabled`` is read on every op, so it is a plain attribute of a threading.local.
"""
import functools
import inspect
import sys
import threading


class _State(threading.local):
    enabled = True
    inference = False
    in_formula = False  # a backward with create_graph is recording (Scalar overloads)
    saved_hooks = ()  # the saved-tensor hooks stack, (pack, unpack) pairs (saved.py)
    hooks_disabled = None  # disable_saved_tensors_hooks's message
    # Read once per op after the node is made: saved-tensor hooks active in this thread, or
    # anomaly mode on anywhere (a class attribute; Note [Saved-tensor hooks] in saved.py).
    extras = False
    reentrant_depth = 0  # backward calls nested in this thread (engine.py)
    current_node = None  # the node backward is running (anomaly mode's parent_ link)
    graph_task = None  # the innermost running backward call (engine.py)
    fw = False  # a forward-AD level is open: ops propagate tangents (autograd/forward_ad.py)
    # a tangent is computed as a backward's transpose (dispatch._jvp_transpose): nodes run
    # their per-input formulas, not a graph_backward op (whose edges are PyTorch's node's)
    transposing = False


state = _State()


def is_grad_enabled():
    return state.enabled


def is_inference_mode_enabled():
    return state.inference


def _wrap_generator(ctx_factory, func):
    """A generator function decorated with a mode: the mode holds while the generator's
    body runs and is restored around every ``yield`` (PyTorch's _wrap_generator)."""

    @functools.wraps(func)
    def generator_context(*args, **kwargs):
        gen = func(*args, **kwargs)
        try:
            with ctx_factory():
                response = gen.send(None)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    with ctx_factory():
                        gen.close()
                    raise
                except BaseException:
                    with ctx_factory():
                        response = gen.throw(*sys.exc_info())
                else:
                    with ctx_factory():
                        response = gen.send(request)
        except StopIteration as e:
            return e.value
    return generator_context


class _DecoratorContextManager:
    """Usable as ``with no_grad():``, ``@no_grad()`` and ``@no_grad``."""

    def __call__(self, func):
        if inspect.isgeneratorfunction(func):
            return _wrap_generator(self.clone, func)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)
        return wrapper

    def clone(self):
        return self.__class__()

    def __new__(cls, func=None, *args, **kwargs):
        self = super().__new__(cls)
        if callable(func) and cls in (no_grad, enable_grad):
            self.__init__()
            return self(func)
        return self


class no_grad(_DecoratorContextManager):
    """Disable graph recording: results have no grad_fn (evaluation, optimizer steps)."""

    def __enter__(self):
        self.prev = state.enabled
        state.enabled = False

    def __exit__(self, *exc):
        state.enabled = self.prev


class enable_grad(_DecoratorContextManager):
    """Re-enable graph recording inside a ``no_grad`` region."""

    def __enter__(self):
        self.prev = state.enabled
        state.enabled = True

    def __exit__(self, *exc):
        state.enabled = self.prev


class set_grad_enabled(_DecoratorContextManager):
    """``set_grad_enabled(mode)`` sets the mode at once and restores it on ``__exit__``."""

    def __new__(cls, mode):
        return object.__new__(cls)

    def __init__(self, mode):
        self.prev = state.enabled
        self.mode = bool(mode)
        state.enabled = self.mode

    def __call__(self, func):
        state.enabled = self.prev  # used as a decorator: the mode applies inside calls only
        return super().__call__(func)

    def __enter__(self):
        state.enabled = self.mode

    def __exit__(self, *exc):
        state.enabled = self.prev

    def clone(self):
        return self.__class__(self.mode)


class inference_mode(_DecoratorContextManager):
    """Like no_grad, and tensors made inside are inference tensors (see Note [Inference])."""

    def __new__(cls, mode=True):
        if callable(mode):
            self = object.__new__(cls)
            self.__init__(True)
            return self(mode)
        return object.__new__(cls)

    def __init__(self, mode=True):
        self.mode = bool(mode)

    def __enter__(self):
        self.prev = (state.enabled, state.inference)
        self.prev_fw = (state.fw, _level())
        if self.mode:
            from .. import _tensor
            _tensor._note_inference()  # (Note [Sticky mode flags] in _ops/_common.py)
            state.enabled = False
            state.inference = True
        else:
            state.inference = False
        _inference_fw()

    def __exit__(self, *exc):
        state.enabled, state.inference = self.prev
        fw, level = self.prev_fw
        if level == _level():
            state.fw = fw
        else:  # (a level was opened or closed inside)
            _inference_fw()

    def clone(self):
        return self.__class__(self.mode)


def _level():
    from .forward_ad import _current, _generation
    return _current[0], _generation[0]


# Note [Forward AD in inference mode]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch's inference mode leaves out the Autograd dispatch keys, and forward AD lives
# there too: while it is on, no op propagates a tangent (an op's result in it has none,
# even after), unpack_dual reads none and make_dual sets none, though a level is open.
# Views made in it of a normal tensor are normal tensors (Note [Views] in inplace.py), so
# a view of a dual reads its base's tangent view once inference mode is left (Note
# [Tangents of views] in forward_ad.py). ``state.fw`` is off while inference mode is on.
def _inference_fw():
    """state.fw for the current level and inference mode."""
    from .forward_ad import _active_level
    state.fw = _active_level() and not state.inference


_multithreading = True


class set_multithreading_enabled(_DecoratorContextManager):
    """Whether backward may use worker threads. Ours runs on the calling thread (threads
    only for deep reentrant calls), so this records the flag and changes nothing else."""

    def __init__(self, mode):
        global _multithreading
        self.prev = _multithreading
        self.mode = bool(mode)
        _multithreading = self.mode

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        global _multithreading
        _multithreading = self.prev

    def clone(self):
        return self.__class__(self.mode)


def is_multithreading_enabled():
    return _multithreading
