"""Custom differentiable operations: ``autograd.Function`` (SPEC F5).

A subclass defines ``forward(ctx, *args)`` and ``backward(ctx, *grads)``; ``apply`` runs
forward without recording, then makes the node ``<Name>Backward`` (the ctx object itself,
as in PyTorch) the grad_fn of the outputs. Tensors passed to ``ctx.save_for_backward`` are
kept like the op table's saved values: version-checked, and an output is kept as its array
(Note [Edges point backward] in graph.py), so saving a result makes no reference cycle.
"""
from .. import _errors
from .._backend import np
from . import grad_mode
from .graph import NO_EDGE, Node, _sequence

_state = grad_mode.state


class FunctionCtx:
    """What ``forward`` and ``backward`` receive as ``ctx``."""

    def save_for_backward(self, *tensors):
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
        out = []
        for entry in saved:
            if entry is None:
                out.append(None)
                continue
            kind, value, vc, version = entry
            if vc[0] != version:
                raise RuntimeError(_modified(self, kind, value, vc[0], version))
            if kind == "output":
                from .._tensor import _from_saved_output
                data, nr = value
                out.append(_from_saved_output(data, self, nr))
            else:
                out.append(value)
        return tuple(out)


def _modified(node, kind, value, now, saved):
    from .. import _dtypes
    data = value[0] if kind == "output" else value._data
    type_name = _dtypes.legacy_type_name(_dtypes.from_numpy(data.dtype))
    shape = _errors.shape_str(data.shape)
    if kind == "output":
        return _errors.SAVED_MODIFIED.format(type=type_name, shape=shape, nr=value[1],
                                             op=node.name(), now=now, saved=saved)
    return _errors.SAVED_MODIFIED_LEAF.format(type=type_name, shape=shape, now=now,
                                              saved=saved)


class BackwardCFunction(Node, FunctionCtx):
    """The node of one ``Function.apply`` call (it is also the call's ``ctx``)."""

    _forward_cls = None

    def name(self):
        return type(self).__name__

    def __repr__(self):
        return f"<torch.autograd.function.{self.name()} object at {hex(id(self))}>"

    def apply(self, grads, F):
        from .._tensor import _make
        raw = F.is_raw
        fwd = self._forward_cls
        gs = []
        for g, (shape, dtype) in zip(grads, self._out_meta):
            if g is None:
                if not self.materialize_grads:
                    gs.append(None)
                    continue
                g = np.zeros(shape, dtype)
                gs.append(_make(g))
            else:
                gs.append(_make(np.asarray(g)) if raw else g)
        result = fwd.backward(self, *gs)
        if not isinstance(result, tuple):
            result = (result,)
        n_args = len(self.needs_input_grad)
        if len(result) != n_args:
            if len(result) > n_args and all(r is None for r in result[n_args:]):
                result = result[:n_args]
            else:
                raise RuntimeError(f"function {self.name()} returned an incorrect number of "
                                   f"gradients (expected {n_args}, got {len(result)})")
        outs = []
        for k, (i, shape, dtype) in enumerate(self._in_meta):
            g = result[i]
            if g is None or self._next[k][0] is None:
                outs.append(None)
                continue
            if not hasattr(g, "_data"):
                raise TypeError(f"function {self.name()} returned a gradient different than "
                                f"None at position {i + 1}, but the corresponding forward "
                                f"input was not a Variable")
            if g._data.shape != shape:
                from .graph import _expandable
                if not _expandable(shape, g._data.shape):
                    raise RuntimeError(
                        f"Function {self.name()} returned an invalid gradient at index {k} - "
                        f"got [{_errors.shape_str(g._data.shape)}] but expected shape "
                        f"compatible with [{_errors.shape_str(shape)}]")
                g = F.sum_to(g._data if raw else g, shape)
                g = _make(np.asarray(g)) if raw else g
            if g._data.dtype != dtype:
                g = g.to(_dtype(dtype))
            outs.append(g._data if raw else g)
        return outs

    def release(self):
        self._saved_values = None


def _dtype(npdtype):
    from .. import _dtypes
    return _dtypes.from_numpy(npdtype)


class FunctionMeta(type):
    """Gives every Function subclass its node class, ``<Name>Backward``."""

    def __init__(cls, name, bases, attrs):
        super().__init__(name, bases, attrs)
        cls._backward_cls = type(name + "Backward", (BackwardCFunction,),
                                 {"_forward_cls": cls})


class Function(metaclass=FunctionMeta):
    """Base class of custom ops: subclass with static ``forward`` and ``backward``."""

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward "
                                  "mode AD.")

    vjp = backward

    @classmethod
    def apply(cls, *args, **kwargs):
        from .._tensor import Tensor
        from .._ops.dispatch import edge_of
        ctx = cls._backward_cls.__new__(cls._backward_cls)
        ctx._seq = next(_sequence)
        ctx._hooks = None
        ctx.to_save = ()
        ctx.dirty_tensors = ()
        ctx.non_differentiable = ()
        ctx.materialize_grads = True
        ctx._saved_values = None
        tensor_args = [(i, a) for i, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._requires_grad
                                     for a in args)
        record = _state.enabled and any(ctx.needs_input_grad)
        prev = _state.enabled
        _state.enabled = False
        try:
            output = cls.forward(ctx, *args, **kwargs)
        finally:
            _state.enabled = prev
        single = isinstance(output, Tensor)
        outs = (output,) if single else tuple(output)
        if not record:
            return output
        ctx._next = tuple(edge_of(a) if a._requires_grad else NO_EDGE for _, a in tensor_args)
        ctx._in_meta = tuple((i, a._data.shape, a._data.dtype) for i, a in tensor_args)
        ctx._n_out = len(outs)
        ctx._out_meta = tuple((o._data.shape, o._data.dtype) if isinstance(o, Tensor)
                              else ((), np.float32) for o in outs)
        inputs = {id(a) for _, a in tensor_args}
        dirty = {id(t) for t in ctx.dirty_tensors}
        non_diff = {id(t) for t in ctx.non_differentiable}
        wrapped = []
        for k, o in enumerate(outs):
            if not isinstance(o, Tensor):
                wrapped.append(o)
                continue
            if id(o) in inputs and id(o) not in dirty:
                o = _alias(o)  # an input returned as is gets a node of its own
            if id(o) in non_diff or o._data.dtype.kind not in "fc":
                o._requires_grad = False
            else:
                o._grad_fn = ctx
                o._requires_grad = True
                o._output_nr = k
            wrapped.append(o)
        out_ids = {id(o): k for k, o in enumerate(wrapped) if isinstance(o, Tensor)}
        saved = []
        for t in ctx.to_save:
            if t is None:
                saved.append(None)
            elif id(t) in out_ids:
                saved.append(("output", (t._data, out_ids[id(t)]), t._vc, t._vc[0]))
            else:
                saved.append(("input", t, t._vc, t._vc[0]))
        ctx._saved_values = tuple(saved)
        ctx.to_save = ()
        return wrapped[0] if single else type(output)(wrapped) \
            if isinstance(output, tuple) else wrapped


def _alias(t):
    from .._tensor import _make
    a = _make(t._data)
    a._vc = t._vc
    return a


class once_differentiable:
    """Decorator for backward functions that do not support double backward."""

    def __new__(cls, fn):
        return fn
