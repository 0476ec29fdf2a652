"""Custom differentiable operations: ``autograd.Function`` (SPEC F5).

A subclass defines ``forward(ctx, *args)`` (or ``forward(*args)`` plus
``setup_context(ctx, inputs, output)``) and ``backward(ctx, *grads)``; ``apply`` runs
forward without recording, then makes the node ``<Name>Backward`` (the ctx object itself,
as in PyTorch) the grad_fn of the outputs. Tensors passed to ``ctx.save_for_backward``
become SavedTensors (saved.py): version-checked, packed by saved-tensor hooks, and an
output is kept as its array (Note [Edges point backward] in graph.py), so saving a result
makes no reference cycle.

Note [Custom Function outputs]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
PyTorch's rules (``_wrap_outputs`` in custom_function.cpp), applied in this order:
an input marked dirty is modified in place: its history is rewritten to the node (through
CopySlices when it is a view) and its version bumped; an input returned as is, not dirty,
becomes a view of itself (so the input keeps its own history); any output that is a view
is flagged so that a later in-place op on it raises (the custom backward would be bypassed);
non-differentiable outputs (marked, or integer) do not require grad.
"""
import functools
import inspect
import warnings

from .. import _errors
from .._backend import np
from . import grad_mode
from .graph import NO_EDGE, Node, _sequence
from .saved import SavedTensor, current_hooks

_state = grad_mode.state


class FunctionCtx:
    """What ``forward``/``setup_context`` and ``backward`` receive as ``ctx``."""

    def save_for_backward(self, *tensors):
        from .._tensor import Tensor
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, Tensor):
                raise TypeError(f"save_for_backward can only save variables, but argument "
                                f"{i} is of type {type(t).__name__}")
        self.to_save = tensors

    def save_for_forward(self, *tensors):
        self.saved_for_forward = tensors

    def mark_dirty(self, *tensors):
        self.dirty_tensors = tensors

    def mark_non_differentiable(self, *tensors):
        self.non_differentiable = tensors

    def set_materialize_grads(self, value):
        self.materialize_grads = bool(value)

    @property
    def saved_tensors(self):
        saved = self._saved_values
        if saved is None:
            raise RuntimeError(_errors.BACKWARD_TWICE)
        return tuple(None if s is None else s.unpack(self) for s in saved)

    saved_variables = saved_tensors


class BackwardCFunction(Node, FunctionCtx):
    """The node of one ``Function.apply`` call (it is also the call's ``ctx``)."""

    _forward_cls = None
    computes_all = True  # (its backward returns every input's gradient, needed or not:
    #                       the engine's post hooks see them all, as PyTorch's PyNode's)

    def name(self):
        return type(self).__name__

    def __repr__(self):
        return f"<torch.autograd.function.{self.name()} object at {hex(id(self))}>"

    def __call__(self, *args, **kwargs):
        raise TypeError(f"'{type(self).__name__}' object is not callable")

    def apply(self, grads, F=None, *more):
        """The engine's call: (gradients, namespace). Called by a user as PyTorch's
        ``ctx.apply(*grads)``, it runs the Function's backward on them as given."""
        if more or not hasattr(F, "is_raw"):
            args = (grads,) if F is None else (grads, F)
            return self._forward_cls.backward(self, *args, *more)
        from .._tensor import _make
        from .._ops.raw import asarray as raw_asarray
        raw = F.is_raw
        gs = []
        for g, meta in zip(grads, self._out_meta):
            if g is None:
                if meta is None or not self.materialize_grads:
                    gs.append(None)
                    continue
                gs.append(_make(np.zeros(*meta)))
            else:
                gs.append(_make(g if g.__class__ is np.ndarray else raw_asarray(g))
                          if raw else g)  # (a zero-tensor gradient kept: Note [Zero-tensor
                #                            gradients] in _zero_grad.py)
        prev = _state.in_formula
        _state.in_formula = False  # user code: its `g * 2` records MulBackward0, as in torch
        try:
            result = self._forward_cls.backward(self, *gs)
        finally:
            _state.in_formula = prev
        return self._check_grads(result, F)

    def _check_grads(self, result, F):
        """PyTorch's checks of what backward returned; gradients summed/cast to fit."""
        from .._tensor import Tensor, _make
        raw = F.is_raw
        if not isinstance(result, tuple):
            result = (result,)
        n_args = len(self.needs_input_grad)
        if len(result) != n_args:
            if len(result) > n_args and all(r is None for r in result[n_args:]):
                result = result[:n_args]
            else:
                raise RuntimeError(f"function {self.name()} returned an incorrect number of "
                                   f"gradients (expected {n_args}, got {len(result)})")
        for i, g in enumerate(result):
            if g is not None and not isinstance(g, Tensor):
                raise RuntimeError(f"expected Variable or None (got {type(g).__name__})")
            if g is not None and not self._is_tensor_arg[i]:
                raise RuntimeError(f"function {self.name()} returned a gradient different "
                                   f"than None at position {i + 1}, but the corresponding "
                                   f"forward input was not a Variable")
        outs = []
        for k, (i, shape, dtype) in enumerate(self._in_meta):
            g = result[i]
            if g is None or self._next[k][0] is None:
                outs.append(None)
                continue
            if g._data.shape != shape:
                from .graph import _expandable
                if not _expandable(shape, g._data.shape):
                    raise RuntimeError(
                        f"Function {self.name()} returned an invalid gradient at index {k} - "
                        f"got [{_errors.shape_str(g._data.shape)}] but expected shape "
                        f"compatible with [{_errors.shape_str(shape)}]")
                g = F.sum_to(g._data if raw else g, shape)
                g = _make(_raw().asarray(g)) if raw else g
            if g._data.dtype != dtype:
                g = g.to(_dtype(dtype))
            outs.append(g._data if raw else g)
        return outs

    def release(self):
        saved = self._saved_values
        if saved:
            for s in saved:
                if s is not None:
                    s.release()
        self._saved_values = None


def _raw():
    from .._ops import raw
    return raw


def _dtype(npdtype):
    from .. import _dtypes
    return _dtypes.from_numpy(npdtype)


class FunctionMeta(type):
    """Gives every Function subclass its node class, ``<Name>Backward``."""

    def __init__(cls, name, bases, attrs):
        super().__init__(name, bases, attrs)
        cls._backward_cls = type(name + "Backward", (BackwardCFunction,),
                                 {"_forward_cls": cls})


class Function(FunctionCtx, metaclass=FunctionMeta):
    """Base class of custom ops: subclass with static ``forward`` and ``backward``."""

    def __init__(self, *args, **kwargs):
        warnings.warn(
            f"{self.__class__} should not be instantiated. Methods on autograd functions "
            "are all static, so you should invoke them on the class itself. Instantiating an "
            "autograd function will raise an error in a future version of PyTorch.",
            DeprecationWarning, stacklevel=2)

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please "
            "use new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(*args, **kwargs):
        """Compute the outputs: ``forward(ctx, *args)``, or ``forward(*args)`` together with
        ``setup_context(ctx, inputs, output)``. Runs without recording a graph."""
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward "
                                  "mode AD.")

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError("You must implement the jvp function for custom "
                                  "autograd.Function to use it with forward mode AD.")

    @classmethod
    def apply(cls, *args, **kwargs):
        from .._tensor import Tensor
        from .._ops.dispatch import edge_of
        setup = cls.setup_context is not Function.setup_context
        if setup:  # PyTorch binds defaults so that setup_context sees every input
            bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, bound.kwargs
        ctx = cls._backward_cls.__new__(cls._backward_cls)
        ctx._seq = next(_sequence)
        ctx._hooks = None
        ctx.to_save = ()
        ctx.dirty_tensors = ()
        ctx.non_differentiable = ()
        ctx.materialize_grads = True
        ctx._saved_values = None
        is_tensor = tuple(isinstance(a, Tensor) for a in args)
        ctx._is_tensor_arg = is_tensor
        ctx.needs_input_grad = tuple(t and a.requires_grad for t, a in zip(is_tensor, args))
        record = _state.enabled and any(ctx.needs_input_grad)
        tensor_args = [a for a, t in zip(args, is_tensor) if t]
        if record:  # before forward, as PyTorch collects them (forward may write its inputs)
            ctx._next = tuple(edge_of(a) if a.requires_grad else NO_EDGE for a in tensor_args)
        prev, prev_fw = _state.enabled, _state.fw
        _state.enabled = _state.fw = False  # (forward mode too: the Function's jvp rules)
        try:
            if setup:
                output = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, output)
            else:
                output = cls.forward(ctx, *args, **kwargs)
        finally:
            _state.enabled, _state.fw = prev, prev_fw
        single = not isinstance(output, tuple)
        outs = (output,) if single else output
        inputs = {id(a): a for a in tensor_args}
        if not record:
            # no graph: an input returned as is comes back as a fresh alias (PyTorch's
            # view_as under no_grad), the others as they are; dirty ones get their
            # version bumped all the same
            dirty = _bump_dirty(ctx, outs)
            wrapped = [_unrecorded_output(o, inputs, dirty) for o in outs]
            _flag_views(None, outs, wrapped, inputs, dirty, False)
            if _state.fw:  # forward mode: the Function's own jvp (Note [Forward mode])
                from .forward_ad import function_jvp
                function_jvp(cls, ctx, args, wrapped)
            return wrapped[0] if single else type(output)(wrapped)
        ctx._in_meta = tuple((i, a._data.shape, a._data.dtype)
                             for i, a in enumerate(args) if isinstance(a, Tensor))
        ctx._n_out = len(outs)
        dirty = _bump_dirty(ctx, outs)
        non_diff = {id(t) for t in ctx.non_differentiable}
        wrapped = [_wrap_output(ctx, k, o, inputs, dirty, non_diff, len(outs))
                   for k, o in enumerate(outs)]
        n_diff = sum(1 for o in wrapped if isinstance(o, Tensor) and o._grad_fn is ctx)
        _flag_views(ctx, outs, wrapped, inputs, dirty, n_diff > 1)
        ctx._out_meta = tuple((o._data.shape, o._data.dtype) if isinstance(o, Tensor)
                              else None for o in wrapped)
        out_nr = {id(o): k for k, o in enumerate(outs) if isinstance(o, Tensor)}
        hooks = current_hooks()
        saved = []
        for t in ctx.to_save:
            if t is None:
                saved.append(None)
            elif id(t) in out_nr and wrapped[out_nr[id(t)]]._grad_fn is ctx:
                saved.append(SavedTensor(wrapped[out_nr[id(t)]], True, out_nr[id(t)], hooks))
            else:
                saved.append(SavedTensor(inputs.get(id(t), t), False, 0, hooks))
        ctx._saved_values = tuple(saved)
        ctx.to_save = ()
        if _state.extras:
            from .anomaly_mode import record_traceback
            record_traceback(ctx)
        if _state.fw:  # after the outputs joined the graph, as in PyTorch
            from .forward_ad import function_jvp
            function_jvp(cls, ctx, args, wrapped)
        return wrapped[0] if single else type(output)(wrapped)


def _unrecorded_output(o, inputs, dirty):
    """An output when no graph is recorded (PyTorch's set_history without a node): an
    input that requires grad comes back detached, another input returned as is (not
    dirty) as a fresh alias (view_as under no_grad)."""
    from .._tensor import Tensor
    if not isinstance(o, Tensor) or id(o) not in inputs:
        return o
    if o.requires_grad:
        return o.detach()
    return o if id(o) in dirty else _alias(o, None)


def _flag_views(ctx, outs, wrapped, inputs, dirty, multi):
    """Every output that is a view (but an input modified in place) refuses in-place ops
    later, recorded or not: PyTorch's IN_CUSTOM_FUNCTION, or MULTI_OUTPUT_NODE when the
    node has several differentiable outputs (_process_backward_mode_ad)."""
    from .._tensor import Tensor
    from . import inplace
    for o, w in zip(outs, wrapped):
        if isinstance(w, Tensor) and w._view is not None and \
                not (id(o) in inputs and id(o) in dirty):
            inplace.mark_custom_view(w, ctx if w._grad_fn is ctx and ctx is not None else None,
                                     multi)


def _bump_dirty(ctx, outs):
    """The version of every tensor marked dirty goes up first (PyTorch's _mark_dirty),
    whatever happens next; each must be an output, with or without a graph
    (_wrap_outputs); returns their ids."""
    from .._tensor import Tensor
    for t in ctx.dirty_tensors:
        if t._meta is None or not t._meta.get("inference"):
            t._vc[0] += 1
    dirty = {id(t) for t in ctx.dirty_tensors}
    if dirty and not dirty <= {id(o) for o in outs if isinstance(o, Tensor)}:
        raise RuntimeError("Some elements marked as dirty during the forward method were not "
                           "returned as output. The inputs that are modified inplace must all "
                           "be outputs of the Function.")
    return dirty


def _wrap_output(ctx, k, o, inputs, dirty, non_diff, n_outputs):
    """Note [Custom Function outputs]: one output of ``apply``."""
    from .._tensor import Tensor
    from . import inplace
    if not isinstance(o, Tensor):
        return o
    differentiable = id(o) not in non_diff and o._data.dtype.kind in "fcV"
    if not differentiable and o.requires_grad:
        # (PyTorch's set_history: a detached alias of an input, dirty or not, rather than a
        # change of its flag; another output not a view is detached in place)
        if id(o) in inputs:
            return o.detach()
        if o._view is None:
            o._grad_fn, o._requires_grad = None, False
        return o
    if id(o) in dirty:
        _check_dirty(o, inputs, differentiable, n_outputs)
        if differentiable:
            o._grad = None  # (PyTorch's set_history of a modified input resets its .grad)
        if o._view is not None and differentiable:
            inplace.rebase_custom(o, ctx)
            return o
    elif id(o) in inputs:
        o = _alias(o, ctx)  # an input returned as is becomes a view of itself
    if not differentiable:
        if o._grad_fn is None:
            o._requires_grad = False
        return o
    old_fn, old_nr = o._grad_fn, o._output_nr
    o._grad_fn = ctx
    o._requires_grad = True
    o._output_nr = k
    if id(o) in dirty:
        inplace.move_retain_grad(o, old_fn, old_nr)
    return o


def _check_dirty(o, inputs, differentiable, n_outputs):
    """PyTorch's rules for a tensor marked dirty (set_history in custom_function.cpp)."""
    if not differentiable:
        return
    view = o._view
    if view is None:
        _dirty_errors(o, inputs, n_outputs)
        return
    # what forward wrote is this very in-place op: no lazy rebase in between (the view's
    # history from before was brought up to date when the edges were taken); if an error
    # stops the rebase, the view reads as modified (AsStridedBackward0), as in PyTorch
    stale, view.version = view.version, o._vc[0]
    try:
        _dirty_errors(o, inputs, n_outputs)
    except BaseException:
        view.version = stale
        raise


def _dirty_errors(o, inputs, n_outputs):
    from . import inplace
    if o._grad_fn is None and o.requires_grad:
        raise RuntimeError("a leaf Variable that requires grad has been used in an "
                           "in-place operation.")
    if id(o) not in inputs:
        warnings.warn("Only input Tensors should be given to ctx.mark_dirty(). If a Tensor is "
                      "not an input, there is no need to pass it to mark_dirty().",
                      UserWarning, stacklevel=5)
    if o._view is not None and n_outputs > 1:
        raise RuntimeError(
            "If your Function modifies inplace an input that is a view of another Tensor, "
            "your Function cannot return more than one Tensor. This is not supported by the "
            "current autograd engine. You should either make sure the input is not a view "
            "(using .clone() for example) or make your Function only return one Tensor "
            "(potentially splitting it into two Functions: one doing the inplace that "
            "returns a single Tensor and a second one that does the other operations). You "
            "can ask on the forum https://discuss.pytorch.org/ if you need help to do this "
            "change.")
    # (set_history resets the .grad of a modified input before rebase_history, whose view
    # checks may still refuse it)
    o._grad = None
    inplace.check_inplace(o, tuple(inputs.values()))


def _alias(t, ctx):
    """``t.view_as(t)``: same memory and version counter, a view of t (made under no_grad
    when not recording: PyTorch's _view_as_self_with_no_grad)."""
    from .._tensor import _make
    from . import inplace
    a = _make(t._data)
    a._vc = t._vc
    prev = _state.enabled
    _state.enabled = prev and ctx is not None
    try:
        inplace.make_views([a], t, ctx.name() if ctx is not None else "ViewBackward0")
    finally:
        _state.enabled = prev
    return a


class _DelayedErrorNode(Node):
    """``torch::autograd::Error``: the grad_fn of a once_differentiable backward's results;
    differentiating it again raises."""

    __slots__ = ("msg", "_n_out")

    def name(self):
        return "torch::autograd::Error"

    def apply(self, grads, F):
        raise RuntimeError(self.msg)

    def release(self):
        pass


_DelayedErrorNode.__name__ = _DelayedErrorNode.__qualname__ = "Error"


def delayed_error(t, msg):
    """PyTorch's DelayedError applied to ``t`` (a formula's result it cannot differentiate
    again): ``t``'s data and version counter behind an Error node whose edge is ``t``'s,
    raising ``msg`` when backward reaches it."""
    from .._ops.dispatch import edge_of
    from .._tensor import _make
    if not (_state.enabled and t.requires_grad):
        return t
    node = _DelayedErrorNode()
    node.msg, node._n_out, node._hooks = msg, 1, None
    node._seq = next(_sequence)
    node._next = (edge_of(t),)
    r = _make(t._data)
    r._vc = t._vc
    r._grad_fn, r._requires_grad, r._output_nr = node, True, 0
    return r


def once_differentiable(fn):
    """Decorator for backward functions that do not support double backward: the backward
    runs without recording, and differentiating its results raises PyTorch's error."""

    @functools.wraps(fn)
    def wrapper(ctx, *args, **kwargs):
        from .._ops.dispatch import edge_of
        from .._tensor import Tensor, _make
        prev = _state.enabled
        _state.enabled = False
        try:
            outputs = fn(ctx, *args, **kwargs)
        finally:
            _state.enabled = prev
        if not prev:
            return outputs
        requires_grad = [a for a in args if isinstance(a, Tensor) and a.requires_grad]
        if not requires_grad:
            return outputs
        outs = outputs if isinstance(outputs, tuple) else (outputs,)
        node = _DelayedErrorNode()
        node.msg = ("trying to differentiate twice a function that was marked with "
                    "@once_differentiable")
        node._n_out = len(outs)
        node._hooks = None
        node._seq = next(_sequence)
        fakes = []
        for o in outs:
            if o is None:
                fakes.append((None, NO_EDGE))
                continue
            leaf = _make(o._data, True)  # (detach().requires_grad_(): an edge to follow)
            leaf._vc = o._vc
            fakes.append((leaf, edge_of(leaf)))
        node._next = tuple(e for _, e in fakes)
        res = []
        for k, (leaf, _) in enumerate(fakes):
            if leaf is None:
                res.append(None)
                continue
            r = _make(leaf._data)
            r._vc = leaf._vc
            r._grad_fn, r._requires_grad, r._output_nr = node, True, k
            res.append(r)
        return tuple(res) if isinstance(outputs, tuple) else res[0]
    return wrapper


class InplaceFunction(Function):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace


class NestedIOFunction(Function):
    pass
