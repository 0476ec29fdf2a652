"""One call path for every op: grad-mode check, kernel, node, wrap.

An op's public function (in its family module) parses its arguments, computes the kernel's result
on arrays, and hands it to ``record`` together with the op-table entry, the tensor inputs
and the non-tensor parameters. ``record`` decides whether a node is needed (grad mode on
and some input requires grad), builds it (edges, saved values, version snapshots), and
wraps the result arrays in Tensors. In-place and view ops go through ``record_inplace``
and ``record_view``.
"""
from operator import itemgetter

from .. import _errors, _warn
from .._backend import np
from .._tensor import Tensor, _make
from ..autograd import forward_ad, grad_mode
from ..autograd.graph import NO_EDGE, NO_GRAD_VIEW_EDGE, NOTHING_SAVED, _sequence, make_node_class
from ..autograd.saved import node_extras
from . import raw
from .layout import conform, like_strides, with_strides

ndarray = np.ndarray
_state = grad_mode.state
_new = object.__new__


class OpDef:
    """One entry of the op table: everything about an op, declared once.

    ``formulas[i]`` is ``(fn, arg_indices)`` for differentiable input ``i`` (None for an
    input with no derivative, e.g. an index); ``fn(F, grad, *saved_values)`` returns the
    gradient for that input (Note [One formula, two interpretations] in raw.py).
    ``backward_all`` instead returns the gradients of all inputs at once (variadic ops).
    ``jvp`` is the forward-mode rule: "elementwise", "linear" or a function (Note [Forward
    mode] in autograd/forward_ad.py); None only for an op without one (using it in forward
    mode raises PyTorch's error).
    """

    __slots__ = ("name", "node_name", "kernel", "inputs", "params", "outputs", "formulas",
                 "backward_all", "saved_names", "saved_kinds", "saved_src", "jvp",
                 "node_cls", "plans", "uses_sizes", "n_out", "diff_outputs", "variadic",
                 "tensor_slots", "output_slots", "saves_output", "frees", "recorders",
                 "complex_aware", "layout",
                 "__dict__")

    def __repr__(self):
        return f"<op {self.name} -> {self.node_name}>"


def _arg_names(fn):
    code = fn.__code__
    return code.co_varnames[2:code.co_argcount]


def defop(name, node, kernel=None, inputs=("self",), params=(), outputs=("result",),
          grads=None, backward_all=None, jvp=None, diff_outputs=None, variadic=False,
          complex_aware=False, backward_op=None, layout=None, saves=None,
          graph_backward=None):
    """``saves``: {input name: the inputs whose PyTorch formula reads it} for inputs PyTorch's
    node saves though no formula here reads them (saved when one of those requires grad:
    their ``_saved_<name>`` and the version check of Note [Version counter] in inplace.py).
    ``graph_backward(F, grad, mask, **saved)``: the backward under create_graph instead of
    the per-input formulas (one op of PyTorch's computing them all), ``mask`` saying which
    edges need a gradient."""
    op = OpDef()
    op.graph_backward = graph_backward
    # how PyTorch lays its result out (Note [Result layout] in layout.py): "contiguous",
    # "iter", "like", "preserve", None (as the kernel made it) or a function
    op.layout = layout
    op.complex_aware = complex_aware  # Note [Complex gradients] in autograd/graph.py
    # (name, why, first_order): PyTorch's backward is one aten op without a forward rule
    # (Note [Backward ops without a forward rule] in autograd/engine.py)
    op.backward_op = backward_op
    op.name, op.node_name, op.kernel = name, node, kernel
    op.inputs, op.params = tuple(inputs), tuple(params)
    # outputs=None: a variable number of outputs (split, unbind); formulas get ``grads``.
    op.outputs = tuple(outputs) if outputs is not None else ()
    op.n_out = len(outputs) if outputs is not None else -1
    op.diff_outputs = diff_outputs
    op.variadic = variadic
    if not (jvp is None or jvp in ("elementwise", "linear", "transpose") or callable(jvp)):
        raise ValueError(f"{name}: jvp must be 'elementwise', 'linear', 'transpose' or a "
                         "function")
    op.jvp = jvp
    op.backward_all = backward_all
    fns = [backward_all] if backward_all else [(grads or {}).get(n) for n in op.inputs]
    names = []
    for fn in fns:
        if fn is not None:
            for a in _arg_names(fn):
                if a not in names:
                    names.append(a)
    names += [a for a in (saves or ()) if a not in names]
    op.saved_names = tuple(names)
    op.saves_for = {names.index(a): tuple(op.inputs.index(u) for u in users)
                    for a, users in (saves or {}).items()}
    # Layout of the values a call can save: inputs (one tuple for a variadic op), params,
    # input sizes (only if some formula needs them), outputs.
    n_in = 1 if variadic else len(op.inputs)
    n_par = len(op.params)
    op.uses_sizes = any(a.endswith("_sizes") and a[:-6] in op.inputs for a in names)
    n_sizes = n_in if op.uses_sizes else 0
    kinds, src = [], []
    for a in names:
        if a in op.inputs:
            kinds.append("input")
            src.append(op.inputs.index(a))
        elif a in op.params:
            kinds.append("param")
            src.append(n_in + op.params.index(a))
        elif a in op.outputs:
            kinds.append("output")
            src.append(n_in + n_par + n_sizes + op.outputs.index(a))
        elif a.endswith("_sizes") and a[:-6] in op.inputs:
            kinds.append("sizes")
            src.append(n_in + n_par + op.inputs.index(a[:-6]))
        else:
            raise ValueError(f"{name}: formula argument {a!r} is not an input, param or output")
    op.saved_kinds, op.saved_src = tuple(kinds), tuple(src)
    op.formulas = tuple(
        None if fn is None else (fn, tuple(names.index(a) for a in _arg_names(fn)))
        for fn in ([] if backward_all else fns))
    # slots that may hold tensors (version-checked, freed after backward), in PyTorch's
    # order: its generated nodes save, pack and unpack the inputs sorted by name, then the
    # outputs (atan2 checks ``other`` before ``self``: which modified tensor an error names)
    op.tensor_slots = tuple(sorted((i for i, k in enumerate(kinds) if k in ("input", "param")),
                                   key=names.__getitem__))
    op.output_slots = tuple(sorted(((i, op.outputs.index(names[i]))
                                    for i, k in enumerate(kinds) if k == "output"),
                                   key=lambda slot: names[slot[0]]))
    op.saves_output = bool(op.output_slots)
    op.frees = any(k in ("input", "output") for k in kinds)
    op.plans = {}
    op.node_cls = make_node_class(op)
    # per requires-grad mask (Note [Generated recorders])
    op.recorders = [None] * (1 << len(op.inputs)) if (
        1 <= len(op.inputs) <= 2 and op.n_out == 1 and not op.uses_sizes and
        not variadic) else None
    return op


def _plan(op, mask):
    """Which saved slots a requires-grad pattern needs, as an itemgetter over a call's
    values ``(None, *inputs, *params, *sizes, *outputs)`` (index 0 stands for "not
    needed"). Cached per op and mask."""
    needed = _needed_slots(op, mask)
    idx = tuple(s + 1 if i in needed else 0 for i, s in enumerate(op.saved_src))
    if not idx:
        take = None
    elif not any(idx):  # (nothing saved: graph.NOTHING_SAVED's tuple, kept by release)
        nothing = NOTHING_SAVED.setdefault(len(idx), (None,) * len(idx))
        take = (lambda vals, nothing=nothing: nothing)
    elif len(idx) == 1:
        take = (lambda vals, i=idx[0]: (vals[i],))
    else:
        take = itemgetter(*idx)
    op.plans[mask] = take
    return take


def _needed_slots(op, mask):
    """The saved slots (indices into ``op.saved_names``) a requires-grad pattern saves."""
    if op.backward_all is not None or op.graph_backward is not None:
        needed = set(range(len(op.saved_names)))
    else:
        # PyTorch's codegen guards a save by "this input needs grad" only for a value one
        # formula reads; outputs, and values several formulas read, are saved whenever a
        # node is made (x.pow(w) with only x requiring grad saves its result: an in-place
        # op on it makes backward raise, as PyTorch's does)
        uses = {}
        for f in op.formulas:
            for k in f[1] if f is not None else ():
                uses[k] = uses.get(k, 0) + 1
        needed = set()
        for i, f in enumerate(op.formulas):
            if f is None:
                continue
            if mask >> i & 1:
                needed.update(f[1])
            else:
                needed.update(k for k in f[1] if uses[k] > 1 or op.saved_kinds[k] == "output")
        needed.update(k for k, users in op.saves_for.items() if any(mask >> i & 1
                                                                     for i in users))
    return needed


def edge_of(t):
    """The graph edge a tensor's gradient flows into: its grad_fn, or its AccumulateGrad."""
    view = t._view
    if view is not None and view.version != t._vc[0]:
        t.grad_fn  # noqa: B018  (Note [Lazy view rebase]; may raise PyTorch's view errors)
    fn = t._grad_fn
    if fn is None:
        if not t._requires_grad:
            # a view without history requires grad through its root base alone (PyTorch's
            # DifferentiableViewMeta::requires_grad, read when asked): no edge of its own
            return NO_GRAD_VIEW_EDGE if view is not None and view.base._requires_grad \
                else NO_EDGE
        # (a view made to require grad by requires_grad_(), whatever its creation, is a
        # leaf: PyTorch's grad_accumulator reads the view's own flag)
        return (t._grad_accumulator(), 0)
    return (fn, t._output_nr)


# Note [View errors before an op's checks]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch's VariableType makes a differentiable op's node and collects its next edges (each
# input's grad_fn(), which brings a stale view up to date and raises its no_grad /
# multi-output / custom-Function view error: Note [Lazy view rebase]) before the kernel
# checks its arguments. Ours computes first and records after, so the shared argument
# checks (dims, broadcasting, bool and complex refusals, alpha) call view_errors_first on
# their error path: nothing is paid when the op succeeds.
def view_errors_first(*xs):
    """Raise the view error of a stale view among ``xs`` (an op's tensor inputs), as
    PyTorch's collect_next_edges would before the op's own checks; nothing when grad mode
    is off or no input requires grad (no node is made)."""
    if not _state.enabled:
        return
    ts = [x for x in xs if isinstance(x, Tensor)]
    if not any(t.requires_grad for t in ts):
        return
    for t in ts:
        view = t._view
        if view is not None and view.version != t._vc[0]:
            t.grad_fn  # noqa: B018  (raises PyTorch's error, if it has one)


def view_errors_before_checks(op_fn):
    """For an op whose own argument checks are spread through its body (linear algebra,
    joins, index and loss ops): when a check fails, a stale view among the tensor
    arguments (or in a list of them, as cat's) raises its view error instead, as PyTorch's
    collect_next_edges would before the kernel ran. The try costs nothing on success; the
    call layer costs about 0.1 us, so the hottest ops call view_errors_first in their
    error branches instead."""
    def op(*args, **kwargs):
        try:
            return op_fn(*args, **kwargs)
        except (RuntimeError, IndexError) as e:
            # (a TypeError is the argument parser's and a ValueError mostly a Python-level
            # check's, which PyTorch raises first; so is check_no_requires_grad's)
            if _state.enabled and "is not differentiable with respect to argument" not in \
                    str(e):
                view_errors_first(*_tensor_args(args), *_tensor_args(kwargs.values()))
            raise
    op.__name__, op.__qualname__, op.__doc__ = op_fn.__name__, op_fn.__qualname__, op_fn.__doc__
    op.__module__, op.__wrapped__ = op_fn.__module__, op_fn
    _warn.wrapper(op)  # (Note [Warning locations])
    return op


def _tensor_args(args):
    """The tensors among an op's arguments, one level into lists and tuples."""
    for a in args:
        if isinstance(a, Tensor):
            yield a
        elif isinstance(a, (list, tuple)):
            yield from (x for x in a if isinstance(x, Tensor))


def requires_grad_mask(inputs):
    """Bit i set when input i requires grad (a stale view is brought up to date first)."""
    mask = 0
    bit = 1
    for x in inputs:
        if isinstance(x, Tensor):
            view = x._view
            if view is not None and view.version != x._vc[0]:
                # refreshed in input order, as PyTorch's collect_next_edges: the first
                # stale view's error is raised (a split output's before a no_grad view's)
                x.grad_fn  # noqa: B018
            if x._requires_grad or stale_view_requires_grad(x):
                mask |= bit
        bit <<= 1
    return mask


def stale_view_requires_grad(t):
    """A view whose base was modified in place since its grad_fn was made may now require
    grad (Note [Lazy view rebase]), and a view of a base requiring grad does; checked only
    for tensors whose own flag is off."""
    view = t._view
    if view is None:
        return False
    if view.version != t._vc[0]:
        t.grad_fn  # noqa: B018  (refreshes it)
        if t._requires_grad:
            return True
    # a view of a base that requires grad requires grad too (the base's requires_grad_()
    # came after the view, or the view is a detach()ed alias's); with no history of its own,
    # its gradient goes nowhere (edge_of gives NO_EDGE), as in PyTorch
    return view.base._requires_grad


def make_node(op, inputs, params, outs, mask):
    """Build the backward node of one op call (outs: tuple of result arrays)."""
    node = _new(op.node_cls)
    if len(inputs) == 1:
        node._next = (edge_of(inputs[0]),)
    elif len(inputs) == 2:
        node._next = (edge_of(inputs[0]) if mask & 1 else NO_EDGE,
                      edge_of(inputs[1]) if mask & 2 else NO_EDGE)
    else:
        node._next = tuple([edge_of(x) if mask >> i & 1 else NO_EDGE
                            for i, x in enumerate(inputs)])
    node._seq = next(_sequence)
    node._hooks = None
    node._reduce = None
    node._out_vc = None
    node._versions = None
    if op.n_out < 0:
        node._n_out = len(outs)
    take = op.plans.get(mask, False)
    if take is False:
        take = _plan(op, mask)
    if take is None:
        node._saved = ()
        return node
    if op.variadic:
        vals = (None, inputs, *params)
        if op.uses_sizes:
            vals += (tuple(x._data.shape for x in inputs),)
    else:
        vals = (None, *inputs, *params)
        if op.uses_sizes:
            vals += tuple(x._data.shape if isinstance(x, Tensor) else None for x in inputs)
    saved = node._saved = take(vals + outs)
    # Note [Version counter]: remember versions only when some saved tensor is not at 0
    for i in op.tensor_slots:
        v = saved[i]
        if isinstance(v, Tensor) and (v._vc[0] or v._meta is not None):
            _check_saved(v)
            node._versions = tuple([x._vc[0] if isinstance(x, Tensor) else None
                                    for x in saved])
            break
    return node


def record_fast(op, inputs, params, out, mask):
    """``record`` for the common case: a single-output op of one or two inputs (the second
    may be a Python number), some requiring grad (``mask``). Every elementwise op goes
    through here; each line is paid on every op call (Note [Generated recorders])."""
    recs = op.recorders
    if recs is not None and len(inputs) == len(op.inputs):
        f = recs[mask]
        if f is None:
            f = recs[mask] = _recorder(op, mask)
        return f(inputs, params, out)
    return _record_fast(op, inputs, params, out, mask)


# Note [Generated recorders]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~
# ``_record_fast`` builds a node for any single-output op; per op and requires-grad mask,
# ``_recorder`` generates the same steps as straight-line code: the edges of the inputs
# that require grad, the saved values as one tuple expression (the plan of ``_plan``
# unrolled), the version check of the saved inputs (Note [Version counter]) and the output
# tensor. Ops whose formulas need input sizes, variadic and multi-output ops keep the
# general path.
_EDGE = """    if x{i}._view is None:
        fn = x{i}._grad_fn
        e{i} = (x{i}._grad_accumulator(), 0) if fn is None else (fn, x{i}._output_nr)
    else:
        e{i} = edge_of(x{i})
"""


def _recorder(op, mask):
    n_in = len(op.inputs)
    xs = [f"x{i}" for i in range(n_in)]
    lines = ["def rec(inputs, params, out):",
             "    if out.dtype.kind in 'biu':",
             "        return _integral_result(op, inputs, params, out)",
             f"    {', '.join(xs)}{',' if n_in == 1 else ''} = inputs",
             "    node = _new(cls)"]
    for i in range(n_in):
        if mask >> i & 1:
            lines.append(_EDGE.format(i=i).rstrip("\n"))
    edges = [f"e{i}" if mask >> i & 1 else "NO_EDGE" for i in range(n_in)]
    lines += [f"    node._next = ({', '.join(edges)}{',' if n_in == 1 else ''})",
              "    node._seq = next(_sequence)",
              "    node._hooks = node._reduce = node._versions = node._out_vc = None",
              "    t = _new(Tensor)",
              "    t._data = out",
              "    t._requires_grad = True",
              "    t._grad_fn = node",
              "    t._output_nr = 0",
              "    t._grad = t._view = t._acc = t._meta = None",
              "    t._vc = vc = [0]"]
    needed = _needed_slots(op, mask)  # (the slots _plan saves, as expressions)
    exprs, checks = [], []
    for k, (kind, src) in enumerate(zip(op.saved_kinds, op.saved_src)):
        if k not in needed:
            exprs.append("None")
        elif kind == "input":
            exprs.append(f"x{src}")
            checks.append(f"x{src}")
        elif kind == "param":
            exprs.append(f"params[{src - n_in}]")
            checks.append(f"params[{src - n_in}]")
        else:  # output (single-output op)
            exprs.append("out")
    if exprs and all(e == "None" for e in exprs):  # (nothing saved: kept by release)
        lines.append("    node._saved = nothing")
    elif exprs:
        lines.append(f"    node._saved = ({', '.join(exprs)}{',' if len(exprs) == 1 else ''})")
        if checks:
            # (an input whose mask bit is set requires grad: a Tensor, no isinstance)
            known = {f"x{i}" for i in range(n_in) if mask >> i & 1}
            cond = " or ".join(f"({c}._vc[0] or {c}._meta is not None)" if c in known else
                               f"(isinstance({c}, Tensor) and ({c}._vc[0] or {c}._meta is not "
                               "None))" for c in dict.fromkeys(checks))
            lines += [f"    if {cond}:", "        _saved_versions(op, node)"]
        if op.saves_output and any(e == "out" for e in exprs):
            lines.append("    node._out_vc = (vc,)")
    else:
        lines.append("    node._saved = ()")
    lines += ["    if _state.extras:  # (Note [Saved-tensor hooks])",
              "        node_extras(node, (t,))",
              "    if _state.fw:",
              "        forward_ad.propagate(op, inputs, params, t)",
              "    return t"]
    env = {"_new": _new, "cls": op.node_cls, "edge_of": edge_of, "NO_EDGE": NO_EDGE,
           "_sequence": _sequence, "Tensor": Tensor, "_saved_versions": _saved_versions,
           "_state": _state, "node_extras": node_extras, "forward_ad": forward_ad, "op": op,
           "_integral_result": _integral_result,
           "nothing": NOTHING_SAVED.setdefault(len(exprs), (None,) * len(exprs))}
    # (named under this file: anomaly mode's tracebacks leave out autotensor's own frames)
    exec(compile("\n".join(lines) + "\n", f"{__file__}<recorder of {op.node_name}>", "exec"),
         env)
    return env["rec"]


def _saved_versions(op, node):
    """Remember the versions of the saved tensors (some is not at version 0: Note [Version
    counter])."""
    saved = node._saved
    for i in op.tensor_slots:
        v = saved[i]
        if isinstance(v, Tensor) and (v._vc[0] or v._meta is not None):
            _check_saved(v)
            node._versions = tuple([x._vc[0] if isinstance(x, Tensor) else None
                                    for x in saved])
            return


def _record_fast(op, inputs, params, out, mask):
    """record_fast without a generated recorder (make_node inlined)."""
    if out.dtype.kind in "biu":
        return _integral_result(op, inputs, params, out)
    node = _new(op.node_cls)
    x = inputs[0]
    if mask & 1:
        fn = x._grad_fn
        if fn is None:
            e0 = (x._grad_accumulator(), 0) if x._view is None else edge_of(x)
        elif x._view is None:
            e0 = (fn, x._output_nr)
        else:
            e0 = edge_of(x)
    else:
        e0 = NO_EDGE
    if len(inputs) == 1:
        node._next = (e0,)
    else:
        if mask & 2:
            y = inputs[1]
            fn = y._grad_fn
            if fn is None:
                e1 = (y._grad_accumulator(), 0) if y._view is None else edge_of(y)
            elif y._view is None:
                e1 = (fn, y._output_nr)
            else:
                e1 = edge_of(y)
        else:
            e1 = NO_EDGE
        node._next = (e0, e1)
    node._seq = next(_sequence)
    node._hooks = node._reduce = node._versions = node._out_vc = None
    t = _new(Tensor)
    t._data = out
    t._requires_grad = True
    t._grad_fn = node
    t._output_nr = 0
    t._grad = t._view = t._acc = t._meta = None
    t._vc = [0]
    take = op.plans.get(mask, False)
    if take is False:
        take = _plan(op, mask)
    if take is None:
        node._saved = ()
    else:
        saved = node._saved = take((None,) + inputs + params + (out,))
        for i in op.tensor_slots:  # Note [Version counter]
            v = saved[i]
            if isinstance(v, Tensor) and (v._vc[0] or v._meta is not None):
                _check_saved(v)
                node._versions = tuple([x._vc[0] if isinstance(x, Tensor) else None
                                        for x in saved])
                break
        if op.saves_output:
            node._out_vc = (t._vc,)
    if _state.extras:  # saved-tensor hooks or anomaly mode (Note [Saved-tensor hooks])
        node_extras(node, (t,))
    if _state.fw:
        forward_ad.propagate(op, inputs, params, t)
    return t


def _check_saved(t):
    if t._meta.get("inference") if t._meta is not None else False:
        raise RuntimeError("Inference tensors cannot be saved for backward. Please do not use "
                           "Tensors created in inference mode in computation tracked by "
                           "autograd. To work around this, you can make a clone to get a "
                           "normal tensor and use it in autograd, or use `torch.no_grad()` "
                           "instead of `torch.inference_mode()`.")


def _integral_result(op, inputs, params, out):
    """An integer or bool result of an op with an input requiring grad (an integer tensor
    given history by fill_, FillBackward3): PyTorch's set_history refuses it; its autograd
    fallback (the NotImplemented ops) leaves it without history."""
    if op.node_name != "torch::autograd::NotImplemented":
        from .. import _dtypes
        first = out[0] if out.__class__ is tuple else out
        raise RuntimeError("Autograd not support dtype: "
                           f"{_dtypes.scalar_name(_dtypes.from_numpy(first.dtype))}")
    r = _make(out) if out.__class__ is not tuple else tuple(_make(o) for o in out)
    if _state.fw:
        forward_ad.propagate(op, inputs, params, r)
    return r


def record(op, inputs, params, out):
    """Wrap ``out`` (array, or tuple of arrays for multi-output ops) and record a node."""
    lay = op.layout
    if lay is not None and (lay != "contiguous" or out.__class__ is not ndarray or
                            not out.flags.c_contiguous or 1 in out.shape):
        out = conform(op, inputs, params, out)  # (Note [Result layout] in layout.py)
    if op.n_out == 1:
        if out.__class__ is not ndarray:
            out = raw.asarray(out)
        if (_state.enabled and len(inputs) <= 2 and not op.uses_sizes and not op.variadic
                and isinstance(inputs[0], Tensor)):
            mask = requires_grad_mask(inputs)
            if mask:
                return record_fast(op, inputs, params, out, mask)
            t = _make(out)
        else:
            t = _make(out)
            if _state.enabled:
                mask = requires_grad_mask(inputs)
                if mask and out.dtype.kind in "biu":
                    return _integral_result(op, inputs, params, out)
                if mask:
                    node = make_node(op, inputs, params, (out,), mask)
                    t._grad_fn = node
                    t._requires_grad = True
                    if op.saves_output:
                        node._out_vc = (t._vc,)
                    if _state.extras:
                        node_extras(node, (t,))
        if _state.fw:
            forward_ad.propagate(op, inputs, params, t)
        return t
    outs = tuple([o if o.__class__ is ndarray else raw.asarray(o) for o in out])
    if _state.enabled:
        mask = requires_grad_mask(inputs)
        if mask and outs and outs[op.diff_outputs[0] if op.diff_outputs else 0].dtype.kind in \
                "biu":
            return _integral_result(op, inputs, params, outs)
    results = tuple([_make(o) for o in outs])
    if _state.enabled:
        if mask:
            node = make_node(op, inputs, params, outs, mask)
            diff = op.diff_outputs
            for i, r in enumerate(results):
                if diff is None or i in diff:
                    r._grad_fn = node
                    r._requires_grad = True
                    r._output_nr = i
            if op.saves_output:
                node._out_vc = tuple(r._vc for r in results)
            if _state.extras:
                node_extras(node, results)
    if _state.fw:
        forward_ad.propagate(op, inputs, params, results)
    return results


# ---- forward mode (Note [Forward mode] in autograd/forward_ad.py) ----------------------
def _jvp_plan(op):
    """How to call an explicit jvp rule: for each of its argument names, where the value
    comes from (a primal input, a tangent, a param, an output, an input's sizes)."""
    plan = []
    code = op.jvp.__code__
    for a in code.co_varnames[1:code.co_argcount]:
        if a.endswith("_t") and a[:-2] in op.inputs:
            plan.append(("tangent", op.inputs.index(a[:-2])))
        elif a in op.inputs:
            plan.append(("input", op.inputs.index(a)))
        elif a in op.params:
            plan.append(("param", op.params.index(a)))
        elif a in op.outputs:
            plan.append(("output", op.outputs.index(a)))
        elif a.endswith("_sizes") and a[:-6] in op.inputs:
            plan.append(("sizes", op.inputs.index(a[:-6])))
        else:
            raise ValueError(f"{op.name}: jvp argument {a!r} is not an input, tangent, param "
                             "or output")
    op.__dict__["jvp_plan"] = plan
    return plan


def _tangent(x):
    if isinstance(x, Tensor):
        meta = x._meta
        if meta is not None:
            return meta.get("fw_grad")
    return None


def _formula_values(op, inputs, params, results):
    """The values a backward formula's names index (as make_node lays them out), with
    the results as Tensors."""
    outs = results if isinstance(results, tuple) else (results,)
    if op.variadic:
        vals = (None, inputs, *params)
        if op.uses_sizes:
            vals += (tuple(x._data.shape for x in inputs),)
    else:
        vals = (None, *inputs, *params)
        if op.uses_sizes:
            vals += tuple(x._data.shape if isinstance(x, Tensor) else None for x in inputs)
    return vals + outs


_namespace = [None]  # the TENSOR formula namespace (namespace.py imports this module)


# Note [Zero-tensor tangents]: sgn's forward formula for a real input is PyTorch's
# _efficientzerotensor, a tangent with no storage. mul and div have zero-tensor kernels, so
# an elementwise rule (the tangent times a factor) or div's rule whose only tangents are
# zero tensors gives a zero tensor too, and such a rule skips a zero tensor's term
# (ZeroTensor + t is t itself: -0.0 stays -0.0); zeros stay +0.0 where a stored zero times
# -sin(1) would be -0.0. Ops without such a kernel (neg, rsub, sum, clone) compute on
# materialized zeros (-0.0 for neg); ``keeps_zero_tangent`` on an op overrides its rule's
# default. The forward-grad setter keeps a computed zero tensor only when it has exactly
# one element (its strides cannot differ from the primal's; an empty one is stored, as
# PyTorch's, so in-place ops on it compute); larger ones are stored as
# +0.0 zeros, then computed with as any tangent. A view of a zero tensor is one whatever its
# size (PyTorch's views alias it, expanded ones too: ``zero_view`` on the view ops). An
# in-place op on a dual whose tangent is a zero tensor raises "ZeroTensors are immutable"
# after its write (forward_ad.inplace_tangent).
def _is_zero_tangent(t):
    meta = t._meta
    return meta is not None and meta.get("zero_tensor", False)


def _zero_tangent(op, inputs, results):
    """The zero tangent of ``results`` (Note [Zero-tensor tangents]), or None."""
    if results.__class__ is tuple:
        return None
    flags = op.__dict__
    if results._data.dtype.kind not in "fV" and not (
            results._data.dtype.kind == "c" and flags.get("keeps_zero_tangent") == "dense"):
        return None
    if not flags.get("zero_jvp_real"):
        if not flags.get("keeps_zero_tangent", op.jvp == "elementwise"):
            return None  # (no zero-tensor kernel: neg, sum... compute on zeros)
        present = [t for t in map(_tangent, _rule_inputs(op, inputs)) if t is not None]
        if not present or not all(_is_zero_tangent(t) for t in present):
            return None
    d = results._data
    z = np.zeros(d.shape, dtype=d.dtype)
    z = _make(z if d.flags.c_contiguous else with_strides(z, like_strides(d)))  # (as stored)
    if (d.size == 1 or flags.get("zero_view")) and flags.get("keeps_zero_tangent") != "dense":
        z._meta = {"zero_tensor": True}
    return z


def _rule_inputs(op, inputs):
    """The inputs whose tangents an op's rule reads (copysign's reads self's only)."""
    reads = op.__dict__.get("rule_inputs")
    if reads is None:
        rule = op.jvp
        names = op.inputs or ()
        if callable(rule) and hasattr(rule, "__code__") and names:
            args = rule.__code__.co_varnames[:rule.__code__.co_argcount]
            reads = tuple(i for i, n in enumerate(names) if n + "_t" in args)
        else:
            reads = ()
        op.__dict__["rule_inputs"] = reads = reads or None
    if reads is None:
        return inputs
    return [inputs[i] for i in reads if i < len(inputs)]


def _records(inputs, results):
    """Whether a rule's graph can depend on a primal (grad mode on, one requires grad)."""
    if not _state.enabled:
        return False
    outs = results if isinstance(results, tuple) else (results,)
    return any(isinstance(v, Tensor) and v._requires_grad for v in (*inputs, *outs))


def jvp_of(op, inputs, params, results, in_place=False):
    """The output tangent(s) of one op call by its rule; attached to ``results`` (a
    stand-in for self's value when ``in_place``: the tangent is then written into self's)."""
    F = _namespace[0]
    if F is None:
        from .namespace import TENSOR as F
        _namespace[0] = F
    zero = None
    if not op.variadic:
        zero = _zero_tangent(op, inputs, results)
        if zero is not None:
            if not _records(inputs, results):
                forward_ad._set_tangent(results, zero)
                return zero
            # PyTorch's zero-tensor kernels still record: a zero tangent times a factor
            # that requires grad requires grad (exp's self_t * result: MulBackward0), so
            # the rule runs for that history and its values become the zero tensor's
    rule = op.jvp
    if rule != "transpose" and op.__dict__.get("tangent_check") is not None:
        _mixed_tangent_dtype(op, inputs)  # (Note [Tangents of another dtype in linear rules])
    if rule == "elementwise":
        vals = _formula_values(op, inputs, params, results)
        out = None
        untangled = False
        zeros = ()  # (missing tangents' zero tensors not yet summed: Note [Zero terms' dtypes])
        for i, (x, f, src) in enumerate(zip(inputs, op.formulas, _formula_srcs(op))):
            if f is None:
                continue
            t = _tangent(x)
            if t is None:
                untangled = True
                if isinstance(x, Tensor):
                    if out is None:
                        zeros += (x,)
                    else:
                        out = _plus_zero_dtype(F, out, x)
                continue
            fn, idx = f
            if _is_zero_tangent(t) and op.__dict__.get("keeps_zero_tangent", True) and \
                    zero is None:
                dense = op.__dict__.get("dense_zero_terms")
                if not dense or i not in dense:
                    continue  # (Note [Zero-tensor tangents]: its term is skipped)
                # (a term PyTorch computes on the zero tensor materialized, then sums: +0.0
                # into a -0.0 of the others, Note [Dense zero terms] in pointwise.py)
                fn = dense[i] or fn
            c = fn(F, t, *[vals[src[k]] for k in idx])
            if not isinstance(c, Tensor):
                c = F.constant(c, t)
            elif c._data.dtype.kind == "c" and x._data.dtype.kind != "c" and \
                    op.__dict__.get("real_input_terms"):
                # (the formula PyTorch's rule reuses ends in handle_r_to_c: a real input's
                # term keeps its real part, pow(complex, real dual): Note [Real input terms])
                from .complex_ops import cx
                c = cx(F).real(c)
            for z in zeros:
                c = _plus_zero_dtype(F, c, z)
            zeros = ()
            out = c if out is None else out + c
        if out is not None and len(inputs) > 1:
            out = _tangent_dtype(F, op, inputs, out, params)
            if untangled:
                dense = op.__dict__.get("dense_zero_terms")
                if dense:
                    out = _dense_zero_terms(F, op, inputs, vals, out, dense)
                if _state.enabled:
                    out = _zero_terms(F, op, inputs, vals, out)
        tangent = _shape_like(F, out, results)
    elif rule == "transpose":
        tangent = _jvp_transpose(F, op, inputs, params, results)
    elif rule == "linear":
        tangent = _jvp_linear(op, inputs, params, results)
        if not isinstance(results, tuple):
            tangent = _shape_like(F, tangent, results)
    else:
        plan = op.__dict__.get("jvp_plan") or _jvp_plan(op)
        outs = results if isinstance(results, tuple) else (results,)
        args = []
        for kind, i in plan:
            if kind == "tangent":
                args.append([_tangent(y) for y in inputs] if op.variadic
                            else _tangent(inputs[i]))
            elif kind == "input":
                args.append(inputs if op.variadic else inputs[i])
            elif kind == "param":
                args.append(params[i])
            elif kind == "output":
                args.append(outs[i])
            else:
                args.append(tuple(y._data.shape for y in inputs) if op.variadic
                            else inputs[i]._data.shape)
        tangent = rule(F, *args)
        if not isinstance(results, tuple):
            if tangent is not None and op.__dict__.get("promotes_tangent"):
                tangent = _tangent_dtype(F, op, inputs, tangent, params)
            tangent = _shape_like(F, tangent, results)
    if isinstance(tangent, Tensor):
        flags = op.__dict__
        if flags.get("fits_tangent"):
            # ``result: self_t`` (Note [Shared tangents] in forward_ad.py), or a view of
            # self_t: kept when laid out as the result (Note [Tangent layout])
            tangent = forward_ad.fit_tangent(tangent, results)
        elif not flags.get("shares_tangent"):  # (alias: a view, always laid out so)
            for x in inputs:
                if isinstance(x, Tensor) and tangent is _tangent(x):
                    tangent = F.clone(tangent)  # an output never shares its input's tangent
                    break
    # Note [Tangent layout] in forward_ad.py: set_fw_grad copies a rule's tangent into the
    # primal's layout (sort's gather, svd's diagonal, a zero tensor); a view's (the same
    # view of its base's tangent) already has it
    views = in_place or rule == "linear" or op.__dict__.get("views")
    if isinstance(results, tuple):
        if not isinstance(tangent, (tuple, list)):
            tangent = (tangent,) + (None,) * (len(results) - 1)
        for r, t in zip(results, tangent):
            if t is not None and r._data.dtype.kind in "fcV":
                forward_ad._set_tangent(r, t if views else forward_ad.fit_tangent(t, r))
    elif tangent is not None and results._data.dtype.kind in "biu" and \
            op.__dict__.get("fills_tangent"):
        # PyTorch's rule writes the value's tangent into self_t's zeros, of self's integral
        # dtype, which set_fw_grad refuses (after the write, in place)
        raise RuntimeError(forward_ad.FW_NOT_FLOAT)
    elif tangent is not None and results._data.dtype.kind in "fcV":
        if zero is not None:
            if not tangent._requires_grad:
                tangent = zero
            else:
                tangent._data = np.zeros_like(zero._data)
                tangent._meta = zero._meta
        if not views:
            tangent = forward_ad.fit_tangent(tangent, results)
        forward_ad._set_tangent(results, tangent)
    return tangent


# Note [Zero terms' dtypes]: PyTorch's elementwise rule sums one term per input, left to
# right, an input without a tangent contributing a zero tensor of its primal's dtype
# (_efficientzerotensor): the running sum is promoted where that zero is added, so the
# later terms are summed in the wider dtype (float64 self, float32 tensor1 and tensor2 of
# addcdiv: self_t + t1 - t2 in float64; summed in float32, then cast, the tangent was off
# by 1e-9 relative). Only inputs of another dtype than the running sum change anything.
def _plus_zero_dtype(F, term, x):
    """``term`` + a zero tensor like x: term in their promoted dtype."""
    from .. import _dtypes
    td, xd = term._data, x._data
    if td.dtype == xd.dtype:
        return term
    dt = _dtypes.binary_result_dtype(_dtypes.from_numpy(td.dtype), td.ndim == 0,
                                     _dtypes.from_numpy(xd.dtype), xd.ndim == 0)
    return term if dt.np == td.dtype else F.cast(term, dt.np)


def _tangent_dtype(F, op, inputs, out, params=None):
    """``out`` in the dtype PyTorch's tangent of a multi-input elementwise op has: its rule
    combines the inputs' tangents, each of its input's shape, and for an input without one
    a zero tensor of the primal's dtype and shape (``_efficientzerotensor``), so the
    tangent's dtype is their promotion (a float64 0-d dual and a float32 tensor: float32),
    which the sum of broadcast terms here would not give. A Python number's zero tensor is a
    wrapped number (weak), except in the term ``maybe_multiply(other_t, alpha)`` of add/sub
    (Note [Scaled zero term])."""
    from .. import _dtypes
    dt = zero_d = None
    numbers = []
    for i, (x, f) in enumerate(zip(inputs, op.formulas)):
        if f is None:
            continue
        if not isinstance(x, Tensor):
            if x is not None:
                numbers.append(i)
            continue
        t = _tangent(x)
        xd = x._data
        xdt = _dtypes.from_numpy((xd if t is None else t._data).dtype)
        if dt is None:
            dt, zero_d = xdt, xd.ndim == 0
        else:
            dt = _dtypes.binary_result_dtype(dt, zero_d, xdt, xd.ndim == 0)
            zero_d = zero_d and xd.ndim == 0
    if dt is None:
        return out
    for i, reads, k in op.__dict__.get("scaled_zero_terms", ()):
        term = _scaled_zero_term(inputs, i, reads, params[k])
        if term is not None:
            dt = _dtypes.binary_result_dtype(dt, zero_d, *term)
            numbers = [j for j in numbers if j != i]
    for i in numbers:  # (a complex number's zero tensor makes a real tangent complex)
        dt = _dtypes.scalar_result_dtype(dt, inputs[i])
    for i, reads in op.__dict__.get("zero_terms", ()):
        term = _zero_term(inputs, i, reads)
        if term is not None:
            dt = _dtypes.binary_result_dtype(dt, zero_d, *term)
    od = out._data
    if dt.np == od.dtype or dt.np.kind not in "fcV":
        return out
    if od.dtype.kind in "fcV":  # (terms whose primal factors promote them, x_t * y of a
        # float32 tangent and float64 primals: float64 as PyTorch's, unless only 0-d)
        dt = _dtypes.binary_result_dtype(dt, zero_d, _dtypes.from_numpy(od.dtype),
                                         od.ndim == 0)
        if dt.np == od.dtype:
            return out
    return F.cast(out, dt.np)


# Note [Scaled zero term]: add/sub's forward rule is ``self_t + maybe_multiply(other_t,
# alpha)`` (addcmul's and addcdiv's terms are maybe_multiply(tensor1_t * tensor2_p, value)
# and the like: ``scaled_zero_terms`` lists (input, the primals its zero tensor meets,
# the scalar param) per term); an other without a tangent is a zero tensor of other's
# dtype (a wrapped number for a Python number: update_wrapped_number), and unless alpha is
# 1 it is multiplied by
# alpha, which ZeroTensor's mul reads as a 0-d tensor that is not a wrapped number: a float
# alpha is a float64 term, an int alpha an int64 one. So a float16 0-d dual's
# ``add(2.0, alpha=3.0)`` has a float64 tangent (float32 for alpha=3: a wrapped float times
# an int64 tensor is the default dtype), while the result stays float16.
_ALPHA_DTYPES = {float: "float64", int: "int64", bool: "bool", complex: "complex128"}


def _zero_term(inputs, i, reads):
    """(dtype, is_0d) of the term ``input_t * <reads' primals>`` of a rule (mul's
    ``other_t * self_p``, div's ``other_t * (self_p / other_p) / other_p``) when input ``i``
    has no tangent: its zero tensor (a wrapped number for a Python number) promotes with
    those primals (a float64 primal's float32 tangent times 2 is float64 in PyTorch)."""
    from .. import _dtypes
    x = inputs[i]
    if isinstance(x, Tensor):
        if _tangent(x) is not None:
            return None
        dt, zero_d, weak = _dtypes.from_numpy(x._data.dtype), x._data.ndim == 0, False
    elif x.__class__ in (int, float, bool, complex):
        dt, zero_d, weak = None, True, True
    else:
        return None
    try:
        for j in reads:
            r = inputs[j]
            if not isinstance(r, Tensor):
                continue
            rdt, r0 = _dtypes.from_numpy(r._data.dtype), r._data.ndim == 0
            if weak:
                dt, zero_d, weak = _dtypes.scalar_result_dtype(rdt, x), r0, False
            else:
                dt = _dtypes.binary_result_dtype(dt, zero_d, rdt, r0)
                zero_d = zero_d and r0
    except (RuntimeError, TypeError):
        return None
    return None if dt is None or weak else (dt, zero_d)


def _scaled_zero_term(inputs, i, reads, alpha):
    """(dtype, is_0d) of the term ``maybe_multiply(input_t * <reads' primals>, alpha)`` when
    input ``i`` has no tangent (a zero tensor), or None when there is no such term."""
    from .. import _dtypes
    x = inputs[i]
    if _tangent(x) is not None if isinstance(x, Tensor) else False:
        return None
    kind = alpha.__class__
    if kind is not complex and alpha == 1:
        return None  # (maybe_multiply returns the zero tensor itself)
    name = _ALPHA_DTYPES.get(kind)
    if name is None:
        return None
    a = getattr(_dtypes, name)
    try:
        if not isinstance(x, Tensor):
            return _dtypes.scalar_result_dtype(a, x), True
        d = x._data
        dt, zero_d = _dtypes.from_numpy(d.dtype), d.ndim == 0
        for j in reads:  # (the zero tensor times or over other primals: their promotion)
            r = inputs[j]._data
            dt = _dtypes.binary_result_dtype(dt, zero_d, _dtypes.from_numpy(r.dtype),
                                             r.ndim == 0)
            zero_d = zero_d and r.ndim == 0
        return _dtypes.binary_result_dtype(dt, zero_d, a, True), zero_d
    except (RuntimeError, TypeError):
        return None


def _zero_terms(F, op, inputs, vals, out):
    """``out`` made to depend on the terms of the inputs without a tangent.

    PyTorch evaluates an elementwise rule's every term, with a zero tensor for a missing
    tangent (a Python number is a wrapped tensor too): ``x * w`` with only x dual computes
    ``w_t * x_p + x_t * w_p``. Such a term is zero, but it reads the primals, so the tangent
    requires grad when a primal it reads does (``threshold``-style masks, comparisons, read
    nothing), and the sum of the terms is recorded when the other terms require grad. Zero
    tangents are never allocated on the common path (Note [Forward mode]): only here, with
    grad mode on, a primal it reads or the other terms requiring grad. The
    values stay out's (PyTorch's zero tensor times inf is zero; ours would be NaN)."""
    srcs = _formula_srcs(op)
    for i, x in enumerate(inputs):
        f = op.formulas[i]
        if f is None or x is None or _tangent(x) is not None:
            continue
        fn, idx = f
        args = [vals[srcs[i][k]] for k in idx]
        reads = [a for a in args if isinstance(a, Tensor)]
        if not reads or not (out._requires_grad or any(a.requires_grad for a in reads)):
            continue  # (requires_grad: a no_grad view of a tensor that requires grad does)
        shape = x._data.shape if isinstance(x, Tensor) else ()
        c = fn(F, _make(np.zeros(shape, dtype=out._data.dtype)), *args)
        if isinstance(c, Tensor) and (c._requires_grad or out._requires_grad):
            out = plus_zero_term(out, c)  # (PyTorch's sum of the terms records an Add)
    return out


def _dense_zero_terms(F, op, inputs, vals, out, dense):
    """``out`` summed with the terms of ``dense``'s inputs that have no tangent (Note [Dense
    zero terms] in pointwise.py): each its formula on a zero tensor that a kernel without a
    zero-tensor one materializes (zeroTensorFallback: ``zeros({}).expand(sizes)``, no layout
    of its own), or ``dense[i]`` where the formula first keeps it a zero tensor (pow's
    product). The term comes first in PyTorch's sum, so where ``out`` is laid out otherwise
    it decides the tangent's strides, and with them whether set_fw_grad copies an in-place
    op's tangent into self's dtype (x.pow_(y) of a transposed float32 x and an expanded
    float64 dual y: contiguous, so float32). Its values are +0.0 (NaN where the formula
    makes one: xlogy(0, nan)), computed without history (``_zero_terms`` records that)."""
    srcs = _formula_srcs(op)
    for i, term in dense.items():
        x = inputs[i]
        if not isinstance(x, Tensor) or _tangent(x) is not None:
            continue
        fn, idx = op.formulas[i]
        zero = _make(np.broadcast_to(np.zeros((), x._data.dtype), x._data.shape))
        prev = _state.enabled
        _state.enabled = False
        try:
            z = (term or fn)(F, zero, *[vals[srcs[i][k]] for k in idx])
        finally:
            _state.enabled = prev
        out = z + out if all(j > i for j, y in enumerate(inputs) if _tangent(y) is not None) \
            else out + z
    return out


def plus_zero_term(out, c):
    """``out + c`` for a term ``c`` of a missing (zero) tangent: the graph of the sum, the
    values of ``out`` (Note [Forward mode]: PyTorch's zero tensor times inf is zero)."""
    new = out + c
    new._data = values_like(out._data, new._data)
    return new


def values_like(src, like):
    """``src`` broadcast into an array laid out as ``like`` (of like's dtype): a term's
    graph kept, another's values. (``astype`` of a broadcast array is column-major where
    its strides are 0, and set_fw_grad then copies such a tangent into the primal's layout
    and dtype: a float16 result's float32 tangent came out float16.)"""
    vals = np.empty_like(like)
    np.copyto(vals, np.broadcast_to(src, vals.shape), casting="unsafe")
    return vals


def _jvp_transpose(F, op, inputs, params, results):
    """J t as the transpose of the op's backward (linear in the incoming gradient): the
    gradient of sum_i <backward_i(u), t_i> with respect to a dummy cotangent u of the
    (first) output. For ops whose backward is written in differentiable ops (pooling,
    normalisation): no second formula to keep in step (Note [Forward mode]). Its graph is
    the backward's, not PyTorch's rule's: convolution has convolution_jvp's own rule."""
    from ..autograd.engine import grad as autograd_grad
    outs = results if isinstance(results, tuple) else (results,)
    vals = _formula_values(op, inputs, params, results)
    udt = _transpose_dtype(op, inputs, outs[0]._data.dtype)
    prev, prev_transposing = _state.enabled, _state.transposing
    _state.enabled = _state.transposing = True
    try:
        u = _make(np.zeros_like(outs[0]._data, dtype=udt))  # (its layout kept)
        u._requires_grad = True
        g_in = u if op.n_out == 1 else (u,) + (None,) * (len(outs) - 1)
        if op.backward_all is not None:
            gs = _backward_all(F, op, g_in, vals)
        else:
            srcs = _formula_srcs(op)
            gs = []
            for i, f in enumerate(op.formulas):
                if f is None or _tangent(inputs[i]) is None:
                    gs.append(None)
                    continue
                fn, idx = f
                gs.append(fn(F, g_in, *[vals[srcs[i][k]] for k in idx]))
        pairs = [(g, _tangent(x)) for g, x in zip(gs, inputs)
                 if g is not None and _tangent(x) is not None and g._requires_grad]
        if not pairs:
            return None
        out, = autograd_grad(tuple(g for g, _ in pairs), u, tuple(t for _, t in pairs),
                             create_graph=prev, allow_unused=True)
    finally:
        _state.enabled, _state.transposing = prev, prev_transposing
    if op.n_out != 1:
        return (out,) + (None,) * (len(outs) - 1)
    return out


# Note [Tangents of another dtype in linear rules]: the ops ``jvp="transpose"`` derives
# are linear in one input, and PyTorch's rules apply the op (auto_linear: avg_pool2d(self_t),
# upsample_*(self_t), reflection_pad1d(self_t)) or a gather (max pools: self_t.gather(...))
# to that tangent, so the tangent keeps its own dtype (a float16 primal's float32 tangent
# pools to float32) and meets the kernel's dtype checks (avg_pool3d of a half tangent
# refuses: ``tangent_check``). Convolution (its own rule), linear in two inputs, refuses or keeps
# the primals' dtype (``tangent_check`` too). The transpose then runs in that dtype.
def _mixed_tangent_dtype(op, inputs):
    """The first tangent dtype that differs from its primal's (None: none does), after the
    op's ``tangent_check`` (which raises PyTorch's refusal, or returns the dtype to use)."""
    tdt = None
    for x in inputs:
        t = _tangent(x) if isinstance(x, Tensor) else None
        if t is not None and t._data.dtype != x._data.dtype:
            tdt = t._data.dtype
            break
    check = op.__dict__.get("tangent_check")
    if tdt is not None and check is not None:
        tdt = check(inputs, [_tangent(x) if isinstance(x, Tensor) else None
                             for x in inputs]) or tdt
    return tdt


def _transpose_dtype(op, inputs, dtype):
    """The dtype of the transposed rule's dummy cotangent: ``dtype`` (the output's), or the
    tangent's when it differs from its primal's, for the ops linear in their input (Note
    [Tangents of another dtype in linear rules]; linear algebra's are not:
    ``transposes_in_primal_dtype``)."""
    tdt = _mixed_tangent_dtype(op, inputs)
    if tdt is None or op.__dict__.get("transposes_in_primal_dtype"):
        return dtype
    return tdt if dtype.kind in "fV" and tdt.kind in "fV" else dtype


def _backward_all(F, op, grads, vals):
    """An op's backward_all called with its saved values laid out as its node would."""
    names = op.saved_names
    layout = [vals[s + 1] for s in op.saved_src]
    return op.backward_all(F, grads, *layout[:len(names)])


def _formula_srcs(op):
    srcs = op.__dict__.get("formula_srcs")
    if srcs is None:
        srcs = op.__dict__["formula_srcs"] = [
            None if f is None else tuple(s + 1 for s in op.saved_src) for f in op.formulas]
    return srcs


def _shape_like(F, t, result):
    """A rule's tangent broadcast to the result's shape (own memory: in-place ops write
    into tangents) and in a floating dtype."""
    if t is None or not isinstance(result, Tensor):
        return t
    if not isinstance(t, Tensor):
        t = F.constant(t, result)
    shape = result._data.shape
    if t._data.shape != shape:
        if t._data.size == result._data.size:  # e.g. a kernel that gave (1,) for a 0-d
            # (a copy: t may be an input's tangent, which an output never shares)
            return F.clone(F.reshape(t, shape))
        t = F.clone(F.expand(t, shape))
    return t


def _jvp_linear(op, inputs, params, results):
    """auto_linear: the op's kernel applied to the tangents (zeros where an input of a
    multi-input op has none), recorded as the same op."""
    if op.variadic:
        ts = tuple(_tangent(x) for x in inputs)
        ts = tuple(t if t is not None else _make(np.zeros_like(x._data))
                   for t, x in zip(ts, inputs))
        arrays = op.kernel([t._data for t in ts], *params)
    else:
        ts = tuple(_tangent(x) if isinstance(x, Tensor) else x for x in inputs)
        ts = tuple(_make(np.zeros_like(x._data)) if t is None and isinstance(x, Tensor) else t
                   for t, x in zip(ts, inputs))
        arrays = op.kernel(*[t._data if isinstance(t, Tensor) else t for t in ts], *params)
    if isinstance(results, tuple):
        return record(op, ts, params, tuple(arrays))
    return record(op, ts, params, arrays)


def set_input_metadata(node, inputs, out_shape, out_dtype):
    """Remember input shapes/dtypes when the forward broadcast or promoted, so the engine
    can sum gradients back to shape and cast them back (Note [Un-broadcast in the engine])."""
    reduce = None
    for i, x in enumerate(inputs):
        if isinstance(x, Tensor) and x._requires_grad:
            d = x._data
            if d.shape != out_shape or d.dtype != out_dtype:
                if reduce is None:
                    reduce = [None] * len(inputs)
                reduce[i] = (d.shape, d.dtype)
    node._reduce = reduce


def check_broadcast(*shapes):
    """TensorIterator's shape check. It precedes the kernel's dtype dispatch, so an op that
    refuses a dtype ('"hypot_cpu" not implemented for 'Long'') calls this first: shapes that
    do not broadcast are the error PyTorch reports."""
    out = ()
    for s in shapes:
        try:
            out = np.broadcast_shapes(out, s)
        except ValueError:
            raise broadcast_error(out, s) from None


def broadcast_error(a_shape, b_shape):
    """PyTorch's message for shapes that do not broadcast."""
    n = max(len(a_shape), len(b_shape))
    a = (1,) * (n - len(a_shape)) + tuple(a_shape)
    b = (1,) * (n - len(b_shape)) + tuple(b_shape)
    for i in range(n - 1, -1, -1):
        if a[i] != b[i] and a[i] != 1 and b[i] != 1:
            return RuntimeError(_errors.BROADCAST.format(a[i], b[i], i))
    return RuntimeError("shapes cannot be broadcast")
