"""The backward graph: Node, AccumulateGrad, and the nodes generated from the op table.

Note [Edges point backward]
~~~~~~~~~~~~~~~~~~~~~~~~~~~
A node holds strong references only to the nodes of its inputs (``_next``, a tuple of
``(node, input_nr)`` pairs, ``(None, 0)`` where an input needs no gradient) and to the
values it saved. A tensor holds its ``grad_fn`` strongly. Nothing points forward: a node
never holds its output tensor (a saved output is kept as its array, and rebuilt as a tensor
whose grad_fn is the node itself when a double backward needs it), and a leaf holds its
AccumulateGrad only through a weak reference. So the graph has no reference cycles and is
freed by reference counting as soon as its last tensor dies.
"""
import itertools
import weakref

from .. import _errors
from .._backend import np as _np
from .saved import GuardedKey, SavedTensor, raw_saved
from .grad_mode import state
from .._zero_grad import materialized as _zero_materialized, ZeroGrad as _ZeroGrad
from . import forward_ad as _forward_ad

_ndarray = _np.ndarray
_sequence = itertools.count()
# A node whose requires-grad pattern saves none of its slots holds the one tuple of Nones
# of its length (dispatch._plan), which release keeps: the node can run again.
NOTHING_SAVED = {}
# AccumulateGrad nodes run as soon as they are ready (PyTorch gives them all UINT64_MAX;
# among them the engine keeps the order they became ready in).
_ACCUMULATE_PRIORITY = 1 << 62
NO_EDGE = (None, 0)
# The edge of an input that requires grad but has nowhere to send it (a view made under
# no_grad): equal to NO_EDGE but not it, so a NotImplemented node keeps it as PyTorch's
# autograd fallback does (it collects the edges of the inputs that require grad).
NO_GRAD_VIEW_EDGE = tuple([None, 0])


class RemovableHandle:
    """Returned by ``register_hook``; ``remove()`` unregisters the hook."""

    __slots__ = ("_hooks_ref", "id")
    _ids = itertools.count()

    def __init__(self, hooks):
        self._hooks_ref = weakref.ref(hooks)
        self.id = next(RemovableHandle._ids)

    def remove(self):
        hooks = self._hooks_ref()
        if hooks is not None:
            hooks.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def add_hook(hooks, fn):
    handle = RemovableHandle(hooks)
    hooks[handle.id] = fn
    return handle


class _HookDict(dict):
    """A dict that can be weakly referenced by hook handles."""

    __slots__ = ("__weakref__",)


class Node:
    """A function of the backward graph (``grad_fn``).

    ``apply(grads, create_graph)`` maps the gradients of the node's forward outputs to the
    gradients of its forward inputs, one per entry of ``next_functions``.
    """

    __slots__ = ("_next", "_seq", "_hooks", "__weakref__")
    _n_out = 1  # how many forward outputs (gradient slots) the node has
    # release() only drops _saved when it holds something and no hook holds SavedTensors
    # (the engine does that itself for these classes: OpNode.release's common case)
    _frees = False

    def name(self):
        return type(self).__name__

    @property
    def next_functions(self):
        return self._next

    def _sequence_nr(self):
        return self._seq

    @property
    def metadata(self):
        return self._extra()["metadata"]

    def _extra(self):
        if self._hooks is None:
            self._hooks = {"pre": _HookDict(), "post": _HookDict(), "tensor_pre": {},
                           "retain": {}, "metadata": {}}
        return self._hooks

    def register_hook(self, fn):
        """``fn(grad_inputs, grad_outputs)`` runs after the node; may return new grad_inputs."""
        return add_hook(self._extra()["post"], fn)

    def register_prehook(self, fn):
        """``fn(grad_outputs)`` runs before the node; may return new grad_outputs."""
        return add_hook(self._extra()["pre"], fn)

    def _register_tensor_prehook(self, output_nr, fn):
        hooks = self._extra()["tensor_pre"].setdefault(output_nr, _HookDict())
        return add_hook(hooks, fn)

    def __call__(self, *grads, **kwargs):
        from .engine import call_node
        return call_node(self, grads, kwargs)

    def __repr__(self):
        return f"<{type(self).__name__} object at {hex(id(self))}>"


class AccumulateGrad(Node):
    """The hidden node of a leaf that requires grad: adds incoming gradients to ``.grad``.

    The leaf keeps only a weak reference to it (Note [Edges point backward]), so the same
    node is reused while some graph holds it, and a fresh one is made afterwards.
    """

    __slots__ = ("variable",)

    def __init__(self, variable):
        self.variable = variable
        self._next = ()
        self._seq = _ACCUMULATE_PRIORITY
        self._hooks = None

    def name(self):
        return "torch::autograd::AccumulateGrad"

    def apply(self, grads, F):
        """Called directly (``node(grad)``): accumulate into the leaf's .grad (the engine
        does this itself, in engine._run_accumulate)."""
        from .engine import accumulate_grad
        if grads[0] is not None:
            accumulate_grad(self, grads[0]._data, True)
        return ()


class OpNode(Node):
    """A node generated from an op-table entry (``MulBackward0``, ``SumBackward1``, ...).

    ``_saved`` holds the values the entry's formulas need, aligned with ``op.saved_names``
    (``None`` for values no formula needs under this call's requires-grad pattern);
    ``_versions`` the version of each saved tensor when it was saved (Note [Version
    counter] in inplace.py); ``_reduce`` the input shapes/dtypes to restore when the
    forward broadcast or promoted (None when it did not).
    """

    __slots__ = ("_saved", "_versions", "_out_vc", "_reduce", "_fw_out")
    op = None  # (_n_out becomes a slot for ops with a variable number of outputs)

    def release(self):
        """Free saved tensors after backward (PyTorch keeps non-tensor values: sizes, dims,
        so a node that saved none of those can run again)."""
        saved = self._saved
        if saved and saved is not NOTHING_SAVED.get(len(saved)):  # (one that saved nothing
            # runs again, as PyTorch's node whose SavedVariables were never set)
            if self._hooks is not None and self._hooks.get("saved_objects"):
                for v in saved:  # SavedTensors someone may hold (_raw_saved_<name>)
                    if v.__class__ is SavedTensor:
                        v.release()
            if self.op.frees:
                self._saved = None
                return
            for v in saved:  # only parameters were saved: free the array-like ones
                if hasattr(v, "_data") or hasattr(v, "dtype"):
                    self._saved = None
                    return

    def _check_saved(self):
        if self._saved is None:
            raise RuntimeError(_errors.BACKWARD_TWICE)

    def apply(self, grads, F):
        """Gradients for the inputs (one per edge) from the gradients of the outputs."""
        op = self.op
        saved = self._saved
        if self._reduce is not None and F.is_raw and saved is not None and \
                _mixed_saved(self, grads[0], saved):
            return apply_promoted(self, grads)
        vals = unpack_saved(self, F) if (op.tensor_slots or op.output_slots or
                                         saved is None) else saved
        conj = None
        if op.n_out == 1:
            g = grads[0]
            if g is None:
                return (None,) * len(self._next)
            if g.__class__ is not _ndarray and op.node_name in ZERO_MATERIALIZING:
                g = _zero_materialized(g)
                if not F.is_raw and g._meta is not None and op.node_name not in \
                        (_TANGENT_KEEPING_GRAD_MODE if state.enabled else _TANGENT_KEEPING):
                    g = _forward_ad.tangent_materialized(g)  # (a zero-tensor tangent)
            if (g if F.is_raw else g._data).dtype.kind == "c" and not op.complex_aware:
                conj = _conj_of(F)  # Note [Complex gradients]
                g = conj(g)
        else:
            g = grads
        if op.backward_all is not None:
            outs = op.backward_all(F, g, *vals)
        elif not F.is_raw and op.graph_backward is not None and not state.transposing:
            outs = op.graph_backward(F, g, tuple(e[0] is not None for e in self._next),
                                     **dict(zip(op.saved_names, vals)))
        else:
            outs = []
            formulas = op.formulas
            for i, edge in enumerate(self._next):
                f = formulas[i]
                if edge[0] is None or f is None:
                    outs.append(None)
                else:
                    fn, idx = f
                    if not idx:
                        outs.append(fn(F, g))
                    elif len(idx) == 1:
                        outs.append(fn(F, g, vals[idx[0]]))
                    else:
                        outs.append(fn(F, g, *[vals[j] for j in idx]))
        if self._reduce is not None:
            outs = _reduce_outs(self, list(outs), F)
        if conj is not None:
            outs = [None if o is None else conj(o) if (o if F.is_raw else o._data).dtype.kind
                    == "c" else o for o in outs]
        return outs


# Note [Mixed-dtype formulas]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~
# A node whose forward promoted (a float16 tensor times a float32 0-d tensor) saves its
# inputs in their own dtypes, and PyTorch's formula computes on them with its promotion:
# ``grad * other`` of a float16 grad and a float32 0-d other is float16 (a 0-d tensor does
# not promote a dimensioned one of its category), read through the kernel's float32 opmath.
# NumPy's promotion is not PyTorch's (a 0-d array promotes as any other: float32), so the
# raw interpretation of such a formula would compute in float32 and round once at the end:
# other values (atan2's gradient 7e-4 off in float16), other ties (maximum). Such a node
# runs its formulas on tensors instead (grad mode off, no tangents: nothing is recorded),
# the interpretation whose ops are PyTorch's; the common case pays one check of
# ``_reduce``, set only when the forward broadcast or promoted.
def _mixed_saved(node, g, saved):
    """Whether a saved tensor of ``node`` has a floating dtype other than the gradient's."""
    if g is None:
        return False
    dt = g.dtype
    for i in node.op.tensor_slots:
        v = saved[i]
        if v is None:
            continue
        d = v._data if isinstance(v, Tensor) else getattr(v, "dtype", None)
        if d is None:
            continue
        d = getattr(d, "dtype", d)
        if d != dt and d.kind in "fcV":
            return True
    return False


def apply_promoted(node, grads):
    """``node.apply`` of raw gradients computed on tensors (Note [Mixed-dtype formulas])."""
    from .._ops.namespace import TENSOR
    from .._tensor import _make
    prev_fw = state.fw
    state.fw = False  # (tangents are not the backward's concern here)
    try:
        outs = OpNode.apply(node, [None if g is None else _make(g) for g in grads], TENSOR)
    finally:
        state.fw = prev_fw
    return [None if o is None else o._data for o in outs]


def _reduce_outs(self, outs, F):
    """Each gradient summed back to its input's shape and cast to its dtype (Note
    [Un-broadcast in the engine])."""
    for i, r in enumerate(self._reduce):
        if r is not None and outs[i] is not None:
            shape, dtype = r
            gi = outs[i]
            if gi.shape != shape:
                if not _expandable(shape, gi.shape):
                    raise RuntimeError(
                        f"Function {self.name()} returned an invalid gradient at index "
                        f"{i} - got [{_errors.shape_str(gi.shape)}] but expected shape "
                        f"compatible with [{_errors.shape_str(shape)}]")
                gi = F.sum_to(gi, shape)
            if gi.dtype != dtype:
                if self.op.__dict__.get("refuses_complex_grad") and dtype.kind != "c" and (
                        gi.is_complex() if hasattr(gi, "is_complex") else gi.dtype.kind == "c"):
                    # (PyTorch's formula has no handle_r_to_c: validate_outputs refuses a
                    # complex gradient for a real input, e.g. a real 0-d value filled into
                    # a complex tensor, ``z[0] = w``)
                    raise RuntimeError(_errors.COMPLEX_GRAD_FOR_REAL)
                gi = F.cast(gi, dtype)
            outs[i] = gi
    return outs


# Note [Complex gradients]
# ~~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch's gradient of a complex function is the conjugate Wirtinger derivative: for a
# holomorphic f, grad_in = grad * conj(f'(z)) (mul: grad * other.conj(); exp: grad *
# result.conj(); mm: grad @ other^H). The table's formulas are written for real inputs,
# grad * f'(z), and are linear in grad, so for a complex gradient a node computes
# conj(formula(conj(grad))) = grad * conj(f'(z)) with the very same formula: every
# holomorphic op, and every op that only moves elements (its formula commutes with conj),
# gets PyTorch's gradient from its one declaration, in both interpretations. Entries whose
# formulas are written for complex values themselves (the FFTs, view_as_real /
# view_as_complex) say so with ``complex_aware``. Real-valued functions of a complex input
# (abs) receive a real gradient and are not affected; summing back and casting to a real
# input's dtype (real part) commute with conj. A real gradient costs one dtype check.
# Forward mode needs nothing: a holomorphic tangent is f'(z) t, the formula as written.
def _conj_of(F):
    from .._ops.complex_ops import cx
    return cx(F).conj


def _expandable(shape, target):
    """Whether ``shape`` broadcasts to ``target`` (so a gradient can be summed back)."""
    if len(shape) > len(target):
        return False
    return all(s == 1 or s == t for s, t in zip(reversed(shape), reversed(target)))


def unpack_saved(node, F):
    """The node's saved values for a formula: arrays (raw mode) or tensors (graph mode).

    Raises PyTorch's errors for freed values and for tensors modified in place since
    they were saved (Note [Version counter] in inplace.py)."""
    saved = node._saved
    if saved is None:
        raise RuntimeError(_errors.BACKWARD_TWICE)
    op = node.op
    versions = node._versions
    vals = list(saved)
    raw = F.is_raw
    for i in op.tensor_slots:
        v = vals[i]
        if isinstance(v, Tensor):
            m = v._meta
            if m is not None and m.get("detached_seq", -1) > node._seq:
                raise RuntimeError(_errors.SAVED_DETACHED_INPLACE)  # (before the version's)
            expected = versions[i] if versions is not None else 0
            if v._vc[0] != expected:
                raise RuntimeError(_modified_message(node, i, v, v._vc[0], expected))
            if raw or (m is not None and "index_guard" in m):
                vals[i] = v._data  # (Note [Saved index tensors] in _ops/_common.py)
        elif v.__class__ is SavedTensor:  # Note [Saved-tensor hooks]
            vals[i] = v.unpack(node, raw)
            if not raw and op.saved_kinds[i] == "param" and \
                    vals[i]._data.dtype.kind in "biu":
                vals[i] = vals[i]._data  # (an index tensor: its formulas take the array)
        elif v.__class__ is GuardedKey:  # (Note [Saved index tensors] in _ops/_common.py)
            vals[i] = v.unpack(node, i)
    for i, k in op.output_slots:
        if vals[i] is None:
            continue
        if vals[i].__class__ is SavedTensor:
            vals[i] = vals[i].unpack(node, raw)
            continue
        current = node._out_vc[k][0]
        expected = versions[i] if versions is not None and versions[i] is not None else 0
        if current != expected:
            raise RuntimeError(_modified_message(node, i, vals[i], current, expected))
        if not F.is_raw:
            vals[i] = _from_saved_output(vals[i], node, k)
            fw_out = getattr(node, "_fw_out", None)
            if fw_out is not None and fw_out[k] is not None and state.fw:
                # a saved output keeps its tangent (forward-over-reverse)
                from .forward_ad import _set_tangent
                _set_tangent(vals[i], fw_out[k])
    return vals


def _modified_message(node, i, value, current, saved_version):
    """PyTorch names the op by the tensor's grad_fn now ("Add" for AddBackward0); for a
    saved output, by the node itself."""
    from .. import _dtypes
    op = node.op
    kind = op.saved_kinds[i]
    if kind == "param" and value._meta is not None and "index_guard" in value._meta:
        value = value._meta["index_guard"]  # (Note [Saved index tensors])
    data = value if kind == "output" else value._data
    type_name = _dtypes.tensor_string(_dtypes.from_numpy(data.dtype))
    shape = _errors.shape_str(data.shape)
    fn, nr = None, 0
    diff = op.diff_outputs
    if kind == "output" and diff is not None and \
            op.outputs.index(op.saved_names[i]) not in diff:
        pass  # an output without grad_fn (layer norm's rstd, max_pool's indices): PyTorch
        # names no op, as for a leaf
    elif kind == "output":
        fn, nr = node, op.outputs.index(op.saved_names[i])
        view_ref = node._out_vc[1] if op.n_out == 1 and len(node._out_vc) > 1 else None
        view_fn = view_ref() if view_ref is not None else None
        if view_fn is not None:
            fn, nr = view_fn, 0
    elif value._grad_fn is not None:
        fn, nr = value.grad_fn, value._output_nr
    if fn is None:
        msg = _errors.SAVED_MODIFIED_LEAF.format(type=type_name, shape=shape, now=current,
                                                 saved=saved_version)
    else:
        msg = _errors.SAVED_MODIFIED.format(type=type_name, shape=shape, nr=nr,
                                            op=_short_name(fn.name()), now=current,
                                            saved=saved_version)
    from .anomaly_mode import modified_message
    return modified_message(msg, node._out_vc[op.outputs.index(op.saved_names[i])]
                            if kind == "output" else value._vc)


def _short_name(name):
    """'AddBackward0' -> 'Add', 'ProdBackward1' -> 'Prod1', as PyTorch's message shows it."""
    stem = name.rstrip("0123456789")
    if not stem.endswith("Backward"):
        return name
    overload = name[len(stem):]
    return stem[:-8] + ("" if overload == "0" else overload)


# Set by _tensor.py once Tensor exists (the two modules need each other).
Tensor = _from_saved_output = None


def saved_property(index, name, kind):
    """``node._saved_<name>``: the saved value as a tensor, like PyTorch's accessors."""

    def get(node):
        from .._tensor import _from_saved_output
        node._check_saved()
        value = node._saved[index]
        if value.__class__ is SavedTensor:
            return value.unpack(node)
        if value.__class__ is GuardedKey:
            return value.accessor(node)
        if kind == "output" and value is not None:
            return _from_saved_output(value, node, node.op.outputs.index(name))
        if name == "reduction" and value.__class__ is str:
            return _REDUCTIONS[value]  # (PyTorch saves at::Reduction's enum value)
        if name == "ignore_index" and value.__class__ is int and value < 0:
            return value + 2 ** 64  # (nll_loss's SymInt: PyTorch's accessor shows -100 as
        return value  #                an unsigned 64-bit integer, 18446744073709551516)
    return property(get)


_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}
_UNBOUND = frozenset(("torch::autograd::Identity",))


def make_node_class(op):
    """Generate the node class of an op entry (what PyTorch's codegen does in C++)."""
    attrs = {"__slots__": ("_n_out",) if op.n_out < 0 else (), "op": op, "_frees": op.frees}
    if op.n_out > 1 and (op.diff_outputs is None or len(op.diff_outputs) > 1):  # var_mean, lstsq
        attrs["_n_out"] = op.n_out
    cls_name = op.node_name
    if "::" in cls_name:  # e.g. torch::autograd::CopyBackwards: class CopyBackwards
        # (a node PyTorch binds no Python class for is a CppFunction)
        cls_name = "CppFunction" if cls_name in _UNBOUND else cls_name.rsplit("::", 1)[1]
        attrs["name"] = lambda self, n=op.node_name: n
    for i, name in enumerate(op.saved_names):
        public = name[:-6] + "_sym_sizes" if name.endswith("_sizes") else name
        attrs["_saved_" + public] = saved_property(i, name, op.saved_kinds[i])
        if op.saved_kinds[i] in ("input", "output", "param"):
            attrs["_raw_saved_" + public] = property(
                lambda node, i=i: raw_saved(node, i))
    if op.node_name == "torch::autograd::NotImplemented":
        # PyTorch's NotImplemented node has edges only to the inputs that require grad
        attrs["__slots__"] += ("_edges",)
        attrs["_next"] = property(lambda node: node._edges, _set_required_edges)
    fast = _raw_apply(op)
    if fast is not None:
        attrs["apply"] = fast
    return type(cls_name, (OpNode,), attrs)


def _set_required_edges(node, edges):
    node._edges = tuple(e for e in edges if e is not NO_EDGE)


# Note [Zero-tensor gradients] in _zero_grad.py: the nodes whose PyTorch backward is one
# fused kernel (or reaches one before any mul/div/add/sub/view) compute on a zero tensor
# materialized, so their formulas here, compositions of NumPy ops, get +0.0 zeros instead
# (found by experiment: tanh's 0 * (1 - y * y) is then NaN for y = NaN, mean's quotient is
# stored). The others' formulas are PyTorch's compositions and follow ZeroGrad's rules.
ZERO_MATERIALIZING = frozenset((
    "TanhBackward0", "SigmoidBackward0", "SiluBackward0", "LogSigmoidBackward0",
    "MishBackward0", "MeanBackward0", "MeanBackward1", "SoftmaxBackward0",
    "LogSoftmaxBackward0", "MseLossBackward0", "SmoothL1LossBackward0",
    "HuberLossBackward0", "GeluBackward0", "EluBackward0", "HardtanhBackward0",
    "LeakyReluBackward0", "SoftplusBackward0", "HardswishBackward0",
    "HardsigmoidBackward0", "ThresholdBackward0", "ReluBackward0", "LogitBackward0",
    "NllLossBackward0", "NllLoss2DBackward0", "SoftMarginLossBackward0", "GluBackward0",
    "PreluKernelBackward0", "DiagonalScatterBackward0"))
# Their formulas also materialize a zero-tensor tangent of the gradient (forward over
# reverse: the fused kernel's forward rule runs that kernel on ``grad_output_t``), except
# softmax's and log_softmax's, whose rule gives what the composition here does (found by
# experiment: tests/zero_tangent_sweep.py)
_TANGENT_KEEPING = frozenset(("SoftmaxBackward0", "LogSoftmaxBackward0"))
# and, in grad mode (create_graph=True), silu's, mish's and logit's, whose formulas are
# then the infinitely_differentiable_*_backward compositions (mul keeps the zero tensor)
_TANGENT_KEEPING_GRAD_MODE = _TANGENT_KEEPING | {"SiluBackward0", "MishBackward0",
                                                 "LogitBackward0"}


# Note [Generated raw apply]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~
# ``OpNode.apply`` serves every op, every mode and every rare case (saved-tensor hooks,
# versions, variadic and multi-output ops). Most nodes a backward runs are of a
# single-output op, with create_graph=False, whose saved tensors are unchanged: for those,
# each op class gets an ``apply`` generated from its entry (as PyTorch generates its node
# classes), with the saved slots, the version checks and the formula calls unrolled. Any
# case it does not handle (a graph-mode F, a SavedTensor, a version that differs, so the
# error is raised, a complex gradient) goes to ``OpNode.apply``, which does the same work
# in general.
def _raw_apply(op):
    if op.n_out != 1 or op.backward_all is not None or op.variadic or Tensor is None:
        return None  # (Tensor is set once _tensor.py is imported, before any op is made)
    n_in = len(op.formulas)
    lines = ["def apply(self, grads, F):",
             "    saved = self._saved",
             "    if saved is None or not F.is_raw:",
             "        return generic(self, grads, F)",
             "    g = grads[0]",
             "    if g is None:",
             f"        return {(None,) * n_in!r}"]
    if op.node_name in ZERO_MATERIALIZING:
        lines += ["    if g.__class__ is ZeroGrad:",
                  "        g = g.view(ndarray)"]
    if not op.complex_aware:  # a complex gradient is conjugated around the formulas
        lines += ["    if g.dtype.kind == 'c':",  # (Note [Complex gradients])
                  "        return generic(self, grads, F)"]
    if op.tensor_slots or op.output_slots:
        lines.append("    versions = self._versions")
    for i in range(len(op.saved_names)):
        lines.append(f"    v{i} = saved[{i}]")
    for i in op.tensor_slots:
        lines += [f"    if isinstance(v{i}, Tensor):",
                  f"        if v{i}._vc[0] != (0 if versions is None else versions[{i}]) or "
                  f"(v{i}._meta is not None and 'detached_seq' in v{i}._meta):",
                  "            return generic(self, grads, F)",
                  f"        v{i} = v{i}._data",
                  f"    elif v{i}.__class__ is SavedTensor:",
                  "        return generic(self, grads, F)"]
        if op.name in ("index", "index_put"):  # (a GuardedKey: Note [Saved index tensors])
            lines += [f"    elif v{i}.__class__ is GuardedKey:",
                      f"        if v{i}.versions is None:",
                      "            return generic(self, grads, F)",
                      f"        v{i} = v{i}.unpack(self, {i})"]
    for i, k in op.output_slots:
        lines += [f"    if v{i} is not None:",
                  f"        if v{i}.__class__ is SavedTensor or self._out_vc[{k}][0] != (",
                  f"                0 if versions is None or versions[{i}] is None "
                  f"else versions[{i}]):",
                  "            return generic(self, grads, F)"]
    env = {"generic": OpNode.apply, "Tensor": Tensor, "SavedTensor": SavedTensor,
           "GuardedKey": GuardedKey,
           "ZeroGrad": _ZeroGrad, "ndarray": _ndarray,
           "reduce": _reduce_outs, "mixed": _mixed_saved, "promoted": apply_promoted}
    lines += ["    if self._reduce is not None and mixed(self, g, saved):",
              "        return promoted(self, grads)  # (Note [Mixed-dtype formulas])"]
    lines.append("    nxt = self._next")
    outs = []
    for j, f in enumerate(op.formulas):
        if f is None:
            outs.append("None")
            continue
        fn, idx = f
        env[f"f{j}"] = fn
        args = "".join(f", v{k}" for k in idx)
        lines.append(f"    r{j} = f{j}(F, g{args}) if nxt[{j}][0] is not None else None")
        outs.append(f"r{j}")
    lines += ["    if self._reduce is not None:",
              f"        return reduce(self, [{', '.join(outs)}], F)",
              f"    return ({', '.join(outs)}{',' if len(outs) == 1 else ''})"]
    # (named under this file: anomaly mode's tracebacks leave out autotensor's own frames)
    exec(compile("\n".join(lines) + "\n", f"{__file__}<apply of {op.node_name}>", "exec"), env)
    return env["apply"]


# ---- the public graph API (torch.autograd.graph) ---------------------------------------
class saved_tensors_hooks:
    """Context manager: every tensor saved for backward inside goes through
    ``pack_hook`` now and ``unpack_hook`` when backward needs it (Note [Saved-tensor hooks]
    in saved.py). Nested: the innermost pair applies."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        from .saved import push_hooks
        push_hooks(self.pack_hook, self.unpack_hook)

    def __exit__(self, *args):
        from .saved import pop_hooks
        pop_hooks()


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors are packed on the CPU and moved back to their device for backward.
    PyTorch's hooks: ``tensor.cpu()`` (the tensor itself when already on the CPU, as every
    tensor is here, so later in-place changes show and no version check applies), or with
    ``pin_memory=True`` a copy into a fresh (pinned where a CUDA device exists) buffer."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        def pack_to_cpu(tensor):
            if not pin_memory:
                return (tensor.device, tensor.cpu())
            from .._creation import empty
            packed = empty(tensor.size(), dtype=tensor.dtype)  # (nothing to pin here)
            packed.copy_(tensor)
            return (tensor.device, packed)

        def unpack_from_cpu(packed):
            device, tensor = packed
            return tensor.to(device)

        super().__init__(pack_to_cpu, unpack_from_cpu)


class disable_saved_tensors_hooks:
    """Context manager: registering saved-tensor hooks inside raises ``error_message``."""

    def __init__(self, error_message):
        self.error_message = error_message

    def __enter__(self):
        from . import grad_mode
        if grad_mode.state.saved_hooks:  # (PyTorch: hooks already registered)
            raise RuntimeError(self.error_message)
        self.prev = grad_mode.state.hooks_disabled
        grad_mode.state.hooks_disabled = self.error_message

    def __exit__(self, *args):
        from . import grad_mode
        grad_mode.state.hooks_disabled = self.prev

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with disable_saved_tensors_hooks(self.error_message):
                return fn(*args, **kwargs)
        return wrapper


class GradientEdge(tuple):
    """``(node, output_nr)``: where a tensor's gradient flows into the graph; accepted by
    ``autograd.grad``/``backward`` in place of tensors (as outputs and as inputs).

    PyTorch reads the shape and dtype of the gradient an edge expects from the node's
    input metadata; our nodes do not keep that (it would cost every op), so an edge from
    ``get_gradient_edge`` carries its tensor's (shape, dtype) in ``_meta``, and an edge
    built by hand finds it where the node knows it (a leaf's, a custom Function's)."""

    def __new__(cls, node, output_nr):
        return tuple.__new__(cls, (node, output_nr))

    node = property(lambda self: self[0])
    output_nr = property(lambda self: self[1])

    def __repr__(self):
        return f"GradientEdge(node={self[0]!r}, output_nr={self[1]})"

    def _shape_dtype(self):
        """(shape, numpy dtype) of the gradient this edge takes, or None if unknown."""
        meta = self.__dict__.get("_meta")
        if meta is not None:
            return meta
        node, nr = self
        if node.__class__ is AccumulateGrad:
            return node.variable._data.shape, node.variable._data.dtype
        out_meta = getattr(node, "_out_meta", None)  # a custom Function's node
        if out_meta is not None and nr < len(out_meta) and out_meta[nr] is not None:
            return out_meta[nr]
        return None


def _get_grad_fn_or_grad_acc(t):
    if isinstance(t, GradientEdge):
        return t.node
    if t.requires_grad and t.grad_fn is None:
        return t.view_as(t).grad_fn.next_functions[0][0]
    return t.grad_fn


def get_gradient_edge(tensor):
    """The GradientEdge of a tensor's gradient (its grad_fn, or a leaf's AccumulateGrad)."""
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that "
                           "does not require gradients")
    from .._ops.dispatch import edge_of
    node, nr = edge_of(tensor)
    edge = GradientEdge(node, nr)
    edge._meta = (tensor._data.shape, tensor._data.dtype)
    return edge


def increment_version(tensor):
    """Bump the version counter of a tensor (or of each tensor of an iterable), as an
    in-place op would: saved copies of it then refuse to be used."""
    if Tensor is not None and isinstance(tensor, Tensor):
        tensor = (tensor,)
    for t in tensor:
        if t._meta is not None and t._meta.get("inference"):
            continue
        t._vc[0] += 1


class _MultiHandle(RemovableHandle):
    __slots__ = ("handles",)

    def __init__(self, handles):
        self.handles = handles

    def remove(self):
        for h in self.handles:
            h.remove()


def register_multi_grad_hook(tensors, fn, *, mode="all"):
    """Call ``fn`` once the gradients of all ``tensors`` that the current backward computes
    are ready (``mode="all"``: fn(grads), None for those not computed), or on the first
    one (``mode="any"``: fn(grad)). PyTorch's implementation, on tensor hooks."""
    import functools
    import threading
    from . import grad_mode
    supported_modes = ("all", "any")
    lock = threading.Lock()
    if mode not in supported_modes:
        raise ValueError(f"Expects mode to be one of {supported_modes} but got {mode}")

    def task_id():
        task = grad_mode.state.graph_task
        if task is None:
            raise AssertionError("expected this hook to be called inside a backward call")
        return task

    if mode == "all":
        count, buffer = {}, {}
        nb_calls = None
        grad_fns = list(map(_get_grad_fn_or_grad_acc, tensors))
        n = len(tensors)

        def get_inner_hook(idx):
            def inner_hook(grad):
                nonlocal nb_calls
                task = task_id()
                tid = task.id
                count[tid] = count.get(tid, 0)
                buffer[tid] = buffer.get(tid, [None] * n)
                with lock:
                    curr, count[tid] = count[tid], count[tid] + 1
                    if curr == 0:
                        nb_calls = sum(1 for g in grad_fns
                                       if g is not None and task.will_execute(g))
                buffer[tid][idx] = grad
                if curr == nb_calls - 1:
                    fn(buffer[tid])
                    del count[tid]
                    del buffer[tid]
            return inner_hook

        handles = tuple(t.register_hook(get_inner_hook(i)) for i, t in enumerate(tensors))
    else:
        ran = {}

        @functools.wraps(fn)
        def wrapped_fn(grad):
            tid = task_id().id
            with lock:
                prev, ran[tid] = ran.get(tid, False), True
            if prev:
                return
            fn(grad)

        handles = tuple(t.register_hook(wrapped_fn) for t in tensors if t.requires_grad)
    return _MultiHandle(handles)



# ---- allow_mutation_on_saved_tensors: PyTorch's implementation, with the in-place hook
# in inplace.record_inplace standing for its TorchDispatchMode ------------------------
class _Handle:
    pass


class _AllowMutationOnSavedContext:
    def __init__(self):
        import collections
        self.cloned = weakref.WeakKeyDictionary()
        self.original = weakref.WeakKeyDictionary()
        self.tid_to_weakhandle = weakref.WeakValueDictionary()
        self.sid_to_tid = collections.defaultdict(set)

    def clear(self):
        self.cloned.clear()
        self.original.clear()
        self.tid_to_weakhandle.clear()
        self.sid_to_tid.clear()

    def maybe_clone(self, t):
        """Before an in-place write to t: keep a copy of every saved tensor it aliases."""
        sid = (t.data_ptr(), t._version)
        for tid in self.sid_to_tid.get(sid, ()):
            handle = self.tid_to_weakhandle.get(tid)
            if handle is None or handle in self.cloned:
                continue
            self.cloned[handle] = self.original[handle].clone()
            del self.original[handle]


_allow_mutation_ctx = None


def _swap_with_cloned(ctx):
    def pack_hook(tensor):
        tid = (id(tensor), tensor.data_ptr(), tensor._version)
        sid = (tensor.data_ptr(), tensor._version)
        ctx.sid_to_tid[sid].add(tid)
        handle = ctx.tid_to_weakhandle.get(tid)
        if handle is None:
            handle = _Handle()
            ctx.tid_to_weakhandle[tid] = handle
            ctx.original[handle] = tensor
        return handle

    def unpack_hook(handle):
        error_msg = ("Trying to backward outside of the 'allow_mutation_on_saved_tensors' "
                     "contextin which the graph was originally recorded.")
        if _allow_mutation_ctx is None:
            raise AssertionError(error_msg)
        if handle in ctx.cloned:
            return ctx.cloned[handle]
        if handle not in ctx.original:
            raise AssertionError(error_msg)
        return ctx.original[handle]

    return saved_tensors_hooks(pack_hook, unpack_hook)


class allow_mutation_on_saved_tensors:
    """Context manager: tensors saved for backward may be modified in place inside; the
    saved original is cloned just before the first write, and backward uses the clone."""

    def __enter__(self):
        global _allow_mutation_ctx
        self.ctx = _AllowMutationOnSavedContext()
        self.hooks = _swap_with_cloned(self.ctx)
        self.hooks.__enter__()
        if _allow_mutation_ctx is not None:
            self.hooks.__exit__()
            raise RuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
        _allow_mutation_ctx = self.ctx
        return self.ctx

    def __exit__(self, *exc):
        global _allow_mutation_ctx
        self.hooks.__exit__()
        self.ctx.clear()
        _allow_mutation_ctx = None


from .graph_text import format_graph, print_graph, saved_tensors_report  # noqa: E402,F401
