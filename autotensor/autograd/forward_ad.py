"""Forward-mode AD (``torch.autograd.forward_ad``): dual tensors and their tangents.

Note [Forward mode]: inside ``dual_level()``, a tensor made by ``make_dual(primal,
tangent)`` carries its tangent (the directional derivative) in ``_meta["fw_grad"]``; every
op whose inputs carry tangents gives its output the Jacobian-vector product, computed right
after the op by the rule declared in the op's own table entry (``defop(..., jvp=...)``):

- ``jvp="elementwise"`` (PyTorch's ``auto_element_wise``): the op's Jacobian is diagonal, so
  each input's backward formula with ``grad`` replaced by that input's tangent is its
  contribution; contributions of the inputs that have a tangent are summed.
- ``jvp="linear"`` (PyTorch's ``auto_linear``): the op applied to the tangents (its kernel
  on their arrays, recorded as the same op, so a view of a dual tensor has the same view of
  the tangent, sharing memory).
- a function ``jvp=lambda F, <names>: ...`` where the op needs its own rule (matmul,
  softmax, norms, max/min with indices, sort, losses...): names are the op's inputs (the
  primals), ``<input>_t`` (the tangents; None where an input has none), params, outputs and
  ``<input>_sizes``, as in backward formulas.

Tangents that are zero are never allocated: an input without one contributes nothing, and
an output whose inputs have none gets none (``unpack_dual(...).tangent is None``). The one
exception keeps PyTorch's graph of the tangent: with grad mode on, the term of an input
without a tangent is still evaluated (with zeros) when it reads a primal that requires grad,
since PyTorch's formula reads it too and its tangent then requires grad (``_zero_terms``
in dispatch.py; its values are not added). Rules
run with propagation switched off (``state.fw``), so the tangent computation is an ordinary
differentiable computation of the primals and tangents: reverse mode through it
(reverse-over-forward) and forward mode through a backward pass recorded with
``create_graph=True`` (forward-over-reverse: Hessian-vector products) both work.

The hot path pays one flag read (``state.fw``, true only while a level is open) per op.
In-place ops update the tangent in place (and so the base's tangent, for a view); views of
a dual tensor carry views of its tangent; ``detach()`` drops the tangent. Leaving the level
drops every tangent made in it.
"""
import weakref
from collections import namedtuple

from .._backend import np
from .grad_mode import state

__all__ = ["UnpackedDualTensor", "enter_dual_level", "exit_dual_level", "make_dual",
           "unpack_dual", "dual_level"]

_current = [-1]  # the open level (PyTorch has at most one), -1 when none
_generation = [0]  # counts the levels opened (a tangent kept aside belongs to one of them)
_duals = []  # weak references to every tensor given a tangent in the open level


def _active_level():
    return _current[0] >= 0


def enter_dual_level():
    """Open a forward-AD level; at most one at a time, as in PyTorch."""
    if _current[0] >= 0:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _current[0] = 0
    _generation[0] += 1
    from .._ops import _common
    _common.note_forward_ad()  # (Note [Sticky mode flags])
    state.fw = not state.inference  # (Note [Forward AD in inference mode] in grad_mode.py)
    return 0


def exit_dual_level(*, level=None):
    """Close the level: every tangent attached in it is dropped."""
    if level is None:
        level = _current[0]
    if level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    if level != _current[0]:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that "
                           "was created. This is not supported.")
    for ref in _duals:
        t = ref()
        if t is not None and t._meta is not None:
            t._meta.pop("fw_grad", None)
    _duals.clear()
    _current[0] = -1
    state.fw = False


def _tangent_or_none(t):
    meta = t._meta
    tangent = meta.get("fw_grad") if meta is not None else None
    if tangent is None and t._view is not None and _current[0] >= 0:
        return view_tangent(t)
    return tangent


# Note [Tangents of views]: a view without a tangent of its own reads its base's, as
# PyTorch's AutogradMeta::fw_grad does for a forward-differentiable view: when the base
# has a tangent (an in-place op gave it one after the view was made: ``y = x[1:]; y[0] =
# dual`` or ``x.atan2_(dual)``), the view's tangent is the same view of it (as_strided),
# made on first read and kept. make_dual's result and unpack_dual's primal are views that
# are not forward-differentiable (``ViewInfo.nofw``); their own views are forward views of
# them (``ViewInfo.fw_base``: as_view's ViewInfo(base) for a base without a forward view).
# Read on the forward-AD paths only: the gate of every op's rule (_any_tangent),
# unpack_dual, the in-place rules.
#
# Note [Tangent layout]: as PyTorch's set_fw_grad, a tangent has its primal's layout
# (has_same_meta: the storage's size, the storage offset, the strides of dims of more than
# one element, the conjugate/negative bits), so that as_strided of a base's tangent by a
# view's geometry is the view's tangent. A tangent given that does not is copied into
# zeros laid out as the primal (_new_zeros_with_same_feature_meta: storage and offset
# included); one that does is kept, and stays shared: make_dual's tangent, the input's
# tangent of ``result: self_t`` rules (frac, fmod/remainder by a number, alias) and the
# diagonal view of self_t by diag of a matrix (diagonal_copy's rule): ``x.diag()`` of a
# 1x1 dual x shares x's tangent, which x's in-place ops update (fit_tangent).
def _fw_base(info):
    return info.base if info.fw_base is None else info.fw_base


def view_tangent(t):
    """The tangent of view ``t`` read from its base's (Note [Tangents of views]), or None."""
    info = t._view
    if info.nofw:
        return None
    base = _fw_base(info)
    bm = base._meta
    bt = bm.get("fw_grad") if bm is not None else None
    if bt is None:
        return None
    prev = state.fw
    state.fw = False
    try:
        tangent = _view_of(t, bt, base)
    finally:
        state.fw = prev
    _set_tangent(t, tangent)
    return tangent


def _view_of(t, bt, base):
    """The view of base tangent ``bt`` that ``t`` is of its forward base ``base`` (run with
    propagation off)."""
    from .inplace import geometry
    from .._ops.shape import as_strided
    size, stride, offset = geometry(t)
    dv = t._view.dtype_view
    if dv != (base._view.dtype_view if base._view is not None else None):
        # (Note [Complex views])
        from .._ops import complex_ops
        bt = (complex_ops.view_as_real if dv == "as_real" else
              complex_ops.view_as_complex)(bt)
    return as_strided(bt, size, stride, offset)


def _storage_numel(t):
    from .._ops.shape import _storage_array
    return _storage_array(t).size


def same_meta(a, b):
    """PyTorch's has_same_meta (Note [Tangent layout])."""
    da, db = a._data, b._data
    if da.shape != db.shape or _storage_numel(a) != _storage_numel(b):
        return False
    ma, mb = a._meta, b._meta
    if ma is not None or mb is not None:
        for k in ("conj", "neg"):
            if bool(ma and ma.get(k)) != bool(mb and mb.get(k)):
                return False
    if da.size == 0:
        return True
    if a.storage_offset() != b.storage_offset():
        return False
    return all(sa == sb or n == 1 for sa, sb, n in zip(da.strides, db.strides, da.shape)) \
        if da.itemsize == db.itemsize else a.stride() == b.stride()


def zeros_in_layout(t, dtype):
    """Zeros of ``dtype`` laid out as ``t`` within a storage of t's storage's size
    (_new_zeros_with_same_feature_meta), with propagation off."""
    from .._tensor import _make
    from .._backend import np
    size, stride, offset = tuple(t._data.shape), t.stride(), t.storage_offset()
    if any(s < 0 for s in stride) or offset < 0:
        return _make(np.zeros(size, dtype=dtype))
    # the storage must hold every element the layout reaches (a detach()ed view's own
    # array is smaller than the storage its strides and offset refer to)
    reach = offset + 1 + sum((n - 1) * s for n, s in zip(size, stride)) if all(size) else 0
    root = np.zeros(max(_storage_numel(t), reach), dtype=dtype)
    item = root.itemsize
    arr = np.lib.stride_tricks.as_strided(root[offset:] if root.size else root, size,
                                          tuple(s * item for s in stride))
    z = _make(arr)
    if offset or root.size != arr.size or not arr.flags.c_contiguous:
        z._meta = {"root": root}  # (storage_offset() and as_strided read the storage)
    return z


def fit_tangent(new, t):
    """``new`` as t's tangent by set_fw_grad's layout rule (Note [Tangent layout]): kept if
    it has t's layout, else copied into zeros laid out as t (the copy is recorded)."""
    a, b = new._data, t._data
    if a.flags.c_contiguous and b.flags.c_contiguous and a.shape == b.shape and \
            new._meta is None and t._meta is None and new._view is None and t._view is None:
        return new  # (the common case: each its own C-contiguous storage)
    if (new._meta is not None and new._meta.get("zero_tensor")) or same_meta(new, t):
        return new
    prev = state.fw
    state.fw = False
    try:
        from .inplace import check_no_internal_overlap
        check_no_internal_overlap(t)
        z = zeros_in_layout(t, t._data.dtype)
        z.copy_(new)
    finally:
        state.fw = prev
    return z


def _set_tangent(t, tangent):
    """Attach ``tangent`` to ``t`` (registered so the level's exit drops it)."""
    meta = t._meta
    if meta is None:
        t._meta = {"fw_grad": tangent}
    else:
        meta["fw_grad"] = tangent
    _duals.append(weakref.ref(t))


def drop_tangent(t):
    """Remove ``t``'s own tangent (a formula result PyTorch computes without one)."""
    meta = t._meta
    if meta is not None and meta.pop("fw_grad", None) is not None and not meta:
        t._meta = None


def _check_level(level, what):
    if level is not None and level != _current[0]:
        raise RuntimeError(f"Invalid level given to {what}")


def make_dual(tensor, tangent, *, level=None):
    """A view of ``tensor`` whose tangent is ``tangent`` (stored as given, not copied)."""
    if _current[0] < 0:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, "
                           "make sure to enter_dual_level() first.")
    _check_level(level, "_make_dual")
    if not (tensor.is_floating_point() or tensor.is_complex()):
        raise ValueError(f"Expected primal to be floating point or complex, but got: "
                         f"{tensor.dtype}")
    if not (tangent.is_floating_point() or tangent.is_complex()):
        raise ValueError(f"Expected tangent to be floating point or complex, but got: "
                         f"{tangent.dtype}")
    if _tangent_or_none(tensor) is not None:
        raise RuntimeError("Making a dual Tensor based on a Tensor that already has a forward "
                           f"gradient at the same level {_current[0]} is not supported.")
    if tuple(tangent.shape) != tuple(tensor.shape):
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the "
            "original Tensor, this is not supported. Tensor is of size "
            f"{list(tensor.shape)} while the given forward gradient is of size "
            f"{list(tangent.shape)}.")
    prev = state.fw
    state.fw = False
    try:
        from .._ops.shape import _same_strides_view
        dual = _same_strides_view(tensor)
        if dual._view is not None:  # (an inference tensor's: no view, Note [Views])
            dual._view.nofw = True  # (Note [Tangents of views])
    finally:
        state.fw = prev
    if state.inference:
        return dual  # (Note [Forward AD in inference mode] in grad_mode.py: no tangent)
    tangent = fit_tangent(tangent, dual)  # (Note [Tangent layout])
    _set_tangent(dual, tangent)
    return dual


UnpackedDualTensor = namedtuple("UnpackedDualTensor", ["primal", "tangent"])
UnpackedDualTensor.__doc__ = "``unpack_dual``'s result: the primal (a view) and the tangent."


def unpack_dual(tensor, *, level=None):
    """``UnpackedDualTensor(primal, tangent)``: a view of ``tensor`` without its tangent,
    and the tangent (None when it has none)."""
    from .._tensor import Tensor
    if not isinstance(tensor, Tensor) or _current[0] < 0:
        return UnpackedDualTensor(tensor, None)
    _check_level(level, "_fw_primal")
    # (none read in inference mode: Note [Forward AD in inference mode] in grad_mode.py)
    tangent = _tangent_or_none(tensor) if not state.inference else None
    prev = state.fw
    state.fw = False
    try:
        from .._ops.shape import _fw_primal
        primal = _fw_primal(tensor)
        if primal._view is not None:  # (an inference tensor's: no view, Note [Views])
            primal._view.nofw = True  # (Note [Tangents of views])
    finally:
        state.fw = prev
    return UnpackedDualTensor(primal, tangent)


class dual_level:
    """``with dual_level():`` opens a forward-AD level and closes it on exit."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()


# ---- propagation (Note [Forward mode]) -------------------------------------------------
NOT_SUPPORTED = ("Trying to use forward AD with {} that does not support it because it has "
                 "not been implemented yet.\nPlease file an issue to PyTorch at "
                 "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml "
                 "so that we can prioritize its implementation or submit a PR adding the "
                 "implementation to derivatives.yaml")


def propagate(op, inputs, params, results, inplace_self=None):
    """Give ``results`` (a Tensor or a tuple) the tangents of op's rule, if any input of
    ``inputs`` has a tangent. Called by the dispatcher when a level is open."""
    if not _any_tangent(op, inputs):
        return None
    if op.jvp is None:
        raise NotImplementedError(NOT_SUPPORTED.format(op.name))
    state.fw = False
    try:
        out = _lazy.jvp_of(op, inputs, params, results)
    finally:
        state.fw = True
    if op.saves_output:
        # the backward node keeps its saved outputs' tangents: a backward recorded with
        # create_graph inside the level then propagates them (forward-over-reverse)
        outs = results if isinstance(results, tuple) else (results,)
        node = next((o._grad_fn for o in outs if getattr(o, "_grad_fn", None) is not None),
                    None)  # (linalg_lu's P, an output without a node, comes first)
        if node is not None and getattr(node, "op", None) is op:
            node._fw_out = tuple(_tangent_or_none(o) for o in outs)
    return out


# Note [Forward AD through the autograd fallback]: ops PyTorch gives no derivatives.yaml
# entry (the bitwise ops and shifts, floor_divide, heaviside) run through its autograd
# fallback, which refuses an argument with a tangent *before* the kernel runs: under a
# level, its error comes before any dtype or shape error and an in-place op writes nothing.
# Their public functions call ``refuse_tangents`` first (behind the ``state.fw`` flag); ops
# with an entry but no forward formula raise NOT_SUPPORTED after their kernel instead.
FALLBACK = "Trying to use forward AD with aten::{} that does not support it."


def fallback_checks(name, *args):
    """PyTorch's autograd fallback (ops without a derivatives.yaml entry) refuses a tangent
    first (refuse_tangents), then, with grad mode on and an input requiring grad, collects
    the inputs' edges, which brings a stale view up to date (its error: a no_grad view whose
    base was written), then the kernel runs."""
    if state.fw:
        refuse_tangents(name, *args)
    if state.enabled:
        for a in args:
            view = getattr(a, "_view", None)
            if view is not None and view.version != a._vc[0]:
                a.grad_fn  # noqa: B018


def refuse_tangents(name, *args):
    """Raise the fallback's error if an argument has a tangent (Note [Forward AD through
    the autograd fallback]); ``name``: aten's op name, ``bitwise_and_``, ``__lshift__``."""
    for a in args:
        meta = getattr(a, "_meta", None)
        if (meta is not None and "fw_grad" in meta) or (
                getattr(a, "_view", None) is not None and view_tangent(a) is not None):
            raise NotImplementedError(FALLBACK.format(name))


def refuse_unsupported(op, *args):
    """An op whose entry has no forward rule (igamma, special_zeta): PyTorch's generated code
    refuses a tangent before the kernel out of place (its in-place variants after the write:
    record_inplace raises their rule's error last), after collecting the inputs' edges: a
    stale split or no_grad view's error comes first. Called behind the ``state.fw`` flag."""
    if _any_tangent(op, args):
        if state.enabled:
            from .._ops.dispatch import requires_grad_mask
            requires_grad_mask(args)
        raise NotImplementedError(op.jvp.message)


# Note [Shared tangents]: an output's tangent is a tensor of its own (a view's, a view of
# its base's), except where PyTorch's formula is ``result: self_t`` (remainder and fmod by a
# number, frac, alias: ``x[...]``) or a view of self_t (diag of a matrix): the output then
# holds the input's tangent object (or that view) itself when it is laid out as the
# output (Note [Tangent layout]; alias's always is), and an in-place op on the input later
# changes the output's tangent too. Such ops set ``op.fits_tangent`` (alias,
# ``op.shares_tangent``); jvp_of in dispatch.py clones in every other case.


def _any_tangent(op, inputs):
    found = False
    for x in inputs:
        meta = getattr(x, "_meta", None)
        if meta is not None and "fw_grad" in meta:
            found = True
        elif getattr(x, "_view", None) is not None and view_tangent(x) is not None:
            found = True  # (Note [Tangents of views]: every input's, before the rule reads)
    return found


class _Lazy:
    """Names from modules that import this one, bound on first use (the propagation path
    runs per op: no import statements on it)."""

    def __getattr__(self, name):
        from .._ops import dispatch
        self.jvp_of = dispatch.jvp_of
        return getattr(self, name)


_lazy = _Lazy()


# Note [Zero-tensor tangents] in _ops/dispatch.py: an in-place op on a dual whose tangent is
# PyTorch's ZeroTensor (sgn of a real one-element tensor, views of it) raises.
# set_fw_grad's assert on an integral tangent (a rule that fills an integral self with a
# float dual's tangent: masked_fill / index_fill / fill_ by a 0-d dual value)
FW_NOT_FLOAT = (
    "(new_grad_base.is_floating_point() || new_grad_base.is_complex()) && (self_base."
    "is_floating_point() || self_base.is_complex()) INTERNAL ASSERT FAILED at \"/__w/pytorch/"
    "pytorch/torch/csrc/autograd/autograd_meta.cpp\":159, please report a bug to PyTorch. "
    "Expected both tensor and its forward grad to be floating point or complex")
ZERO_TENSOR_IMMUTABLE = ("ZeroTensors are immutable. Please materialize the tensor using "
                         "`.clone()`, if you want a mutable zero tensor.")
ZERO_TENSOR_ZERO_ = ("ZeroTensors are immutable. Please use the materialized zero tensor "
                     "obtained using .clone() if you want a mutable tensor.")


# Which of the two: PyTorch's in-place rule either runs an in-place op on self's tangent,
# which a ZeroTensor refuses in the zero-tensor fallback's words (ZERO_TENSOR_ZERO_), or
# copies the out-of-place rule's value into it, refused by copy_'s own check
# (ZERO_TENSOR_IMMUTABLE). The first: derivatives.yaml's in-place entries on self_t
# (fill_, zero_, the samplers' and in-place comparisons' ``self_t.zero_()``, polygamma_'s
# mul_, conj_physical_, _index_put_impl_), the ops whose out-of-place rule is
# ``self_t.<op>(...)`` itself (torchgen runs it as ``self_t.<op>_``: masked_fill,
# index_fill, index_copy, scatter, masked_scatter, put), and copy_ from a source without a
# tangent (VariableTypeManual's ``self_fw_grad.fill_(0)``); setitem is copy_ or index_put_.
_ZT_IN_PLACE_RULES = frozenset((
    "fill_", "zero_", "masked_fill", "index_put", "index_fill", "index_copy", "scatter",
    "masked_scatter", "put", "polygamma_", "conj_physical_", "bernoulli_", "cauchy_",
    "exponential_", "geometric_", "log_normal_", "normal_", "random_", "uniform_", "eq_",
    "ne_", "lt_", "le_", "gt_", "ge_"))


# Note [Missing self tangent in place]: PyTorch's generated code gives an input without a
# tangent a zero tensor (_efficientzerotensor), whose add/sub/mul/div kernels skip it
# (ZeroTensor + t is t: -0.0 stays -0.0; Note [Zero-tensor tangents] in dispatch.py), except
# self of an in-place op, which gets dense zeros (torchgen's ``zeros_fn``: at::zeros for an
# in-place op's self): where the in-place rule reads self_t (the out-of-place formula reads
# no self_p, so torchgen does not swap in original_self_t, which is a zero tensor again),
# its term is computed and summed: ``x.div_(dual)`` of an x without a tangent is
# (0 - other_t * result) / other (+0.0 where -(other_t * result) / other is -0.0). Such
# ops set ``dense_self_in_place`` (add, sub, div, addcmul, addcdiv, addmm and its kin).
def inplace_tangent(op, t, inputs, params, value, node=None):
    """The tangent ``t`` will have after ``t.op_(...)`` writes ``value`` (None when no
    input has a tangent), computed from the inputs before the write. ``node``: the history
    of the result a rule reads, the op's backward node (or, for a view, the view's node after
    the rebase), so the tangent requires grad when the result does, as PyTorch's formulas on
    ``self`` after the write."""
    if not _any_tangent(op, inputs):
        return None
    if op.jvp is None:
        raise NotImplementedError(NOT_SUPPORTED.format(op.name))
    from .._tensor import _make
    from .._ops.dispatch import jvp_of
    dt = t._data.dtype
    # (``result`` is self after the write: the value in self's dtype, x.div_(y) of a
    # float16 x reads the float16 quotient, not the float32 one it is rounded from)
    result = _make(value if value.dtype == dt else value.astype(dt))
    if node is not None:
        result._grad_fn = node
        result._requires_grad = True
    if len(inputs) > 1:
        inputs = _after_write(t, inputs, result)
    own = _tangent_or_none(t)
    if own is not None and own._meta is not None and own._meta.get("zero_tensor"):
        if getattr(op.jvp, "message", None) is not None:
            raise NotImplementedError(op.jvp.message)  # (no rule: refused before it runs)
        # PyTorch's in-place rule writes into self's tangent, which a ZeroTensor refuses
        # (after the primal's write, version bump and history: record_inplace's ``refused``)
        fallback = op.name in _ZT_IN_PLACE_RULES or (
            op.name == "copy_" and _tangent_or_none(inputs[1]) is None)
        raise RuntimeError(ZERO_TENSOR_ZERO_ if fallback else ZERO_TENSOR_IMMUTABLE)
    state.fw = False
    try:
        if own is not None and own._requires_grad and state.enabled:
            # the rule reads t's tangent, which the write then overwrites: a graph of the
            # new tangent saves a copy (PyTorch's original_self_t)
            t._meta["fw_grad"] = own.clone()
        elif own is None and op.__dict__.get("dense_self_in_place"):
            # Note [Missing self tangent in place]
            dense = _make(np.zeros(t._data.shape, t._data.dtype))  # (at::zeros: contiguous)
            if t._meta is None:
                t._meta = {"fw_grad": dense}
            else:
                t._meta["fw_grad"] = dense
        jvp_of(op, inputs, params, result, in_place=True)
    finally:
        state.fw = True
        if own is not None:
            t._meta["fw_grad"] = own
        elif t._meta is not None:
            t._meta.pop("fw_grad", None)
    tangent = _tangent_or_none(result)
    if tangent is None and _tangent_or_none(t) is not None:
        tangent = _zeros_like(t)  # the op overwrote t with values that have no tangent
    return tangent


def has_zero_tangent(t):
    """Whether ``t``'s tangent is a zero tensor (Note [Zero-tensor tangents])."""
    own = _tangent_or_none(t)
    return own is not None and own._meta is not None and bool(own._meta.get("zero_tensor"))


def refuse_zero_tangent_write(t, message=ZERO_TENSOR_IMMUTABLE):
    """A formula's in-place op on its own intermediate ``t`` (C++'s ``g.div_(n)``,
    ``g.mul_(w)``, ``g.masked_fill_(m, 0)``): the op's rule writes into t's tangent, which
    a zero tensor refuses (``message``: copy_'s wording, or the fallback's for an in-place
    rule: ZERO_TENSOR_ZERO_, as inplace_tangent tells them apart)."""
    if has_zero_tangent(t):
        raise RuntimeError(message)


def materialize_tangent(t):
    """``t`` with a zero-tensor tangent replaced by stored +0.0 zeros: what an op without a
    zero-tensor kernel (the fallback's) gives, e.g. div.Scalar in mean_backward's ``/ n``."""
    if has_zero_tangent(t):
        _set_tangent(t, _zeros_like(t))
    return t


def tangent_materialized(g):
    """``g`` as the input of a fused ``*_backward`` kernel (graph.ZERO_MATERIALIZING): a
    zero-tensor tangent becomes stored +0.0 zeros, as that kernel's forward rule, run on the
    tangent (``tanh_backward(grad_t, result)``), has no zero-tensor kernel. An alias of g
    (same values and history) carries it: g may be the caller's grad_outputs."""
    if not has_zero_tangent(g):
        return g
    from .._tensor import _make
    t = _make(g._data)
    t._grad_fn, t._requires_grad, t._output_nr = g._grad_fn, g._requires_grad, g._output_nr
    _set_tangent(t, _zeros_like(g))
    return t


def buffer_add_tangent(result, old, new):
    """Gives ``result`` (``old + new``, summed out of place) the tangent PyTorch's
    ``old.add_(new)`` leaves: its engine sums into a gradient buffer no one else holds in
    place (input_buffer.cpp's accumulate), and add_'s rule writes into old's tangent: a
    zero tensor there refuses, a missing one is dense zeros (-0.0 + 0 is +0.0), and a zero
    tensor added is skipped (Note [Missing self tangent in place])."""
    own, other = _tangent_or_none(old), _tangent_or_none(new)
    if own is None and other is None:
        return
    if has_zero_tangent(old):
        raise RuntimeError(ZERO_TENSOR_IMMUTABLE)
    if own is None:
        own = _zeros_like(result)
    if other is not None and not has_zero_tangent(new):
        own = own + other
    _set_tangent(result, own)


def _after_write(t, inputs, result):
    """Note [In-place rules read aliased inputs after the write]: PyTorch evaluates an
    in-place op's forward formula after the kernel ran, with ``self_p`` replaced by a copy of
    self from before (``original_self_p``) and ``result`` by self; any other input that is
    self (``x.mul_(x)``, or the same memory with the same layout) is read as it is then, so
    its tangent is t * x_new + x_old * t, not 2 * x * t. Such inputs are replaced by the
    written value carrying their own tangent."""
    from .._tensor import Tensor, _make
    out = None
    for i in range(1, len(inputs)):
        x = inputs[i]
        if not isinstance(x, Tensor):
            continue
        if x is t or _same_memory(x._data, t._data):
            values = result._data.astype(x._data.dtype, copy=False)
        elif x._data.size and np.may_share_memory(x._data, t._data):
            # (a select view of self as other: what the kernel left there)
            values = _read_after_write(x._data, t._data, result._data)
        else:
            continue
        if out is None:
            out = list(inputs)
        new = _make(values)
        new._grad_fn, new._requires_grad = result._grad_fn, result._requires_grad
        tangent = _tangent_or_none(x)
        if tangent is not None:
            new._meta = {"fw_grad": tangent}
        out[i] = new
    return inputs if out is None else tuple(out)


def _read_after_write(x, t, value):
    """``x`` (an array overlapping ``t``'s memory otherwise than as ``t``) as it reads
    once ``value`` is written into ``t``."""
    from .._ops.aliasing import on_shared_copy
    x_copy, t_copy = on_shared_copy((x, t))
    t_copy[...] = value
    return x_copy.copy()


def _same_memory(a, b):
    return (a.shape == b.shape and a.strides == b.strides and a.size and
            a.__array_interface__["data"][0] == b.__array_interface__["data"][0])


def _zeros_like(t):
    from .._tensor import _make
    from .._backend import np
    return _make(np.zeros_like(t._data))


def assign_tangent(t, new, inputs=(), where=True, raw=None):
    """Write ``new`` into t's tangent in place (so a base's tangent sees a view's update);
    a view without one first gets a view of its base's (zero-filled if absent). ``where``:
    the elements the op wrote (an indexing write into an expanded tensor, whose tangent is
    expanded too: PyTorch's rule runs the same op on it, writing those elements only).
    ``raw``: the tangent PyTorch's rule gives where it is not a new tensor (copy_'s
    broadcast source's), which set_fw_grad keeps when laid out as t (Note [Tangent
    layout])."""
    state.fw = False
    try:
        cur = _tangent_or_none(t)
        if cur is not None:
            pass
        elif not all(new is not _tangent_or_none(x) for x in inputs if hasattr(x, "_meta")):
            new = new.clone()
        lay = new if raw is None else raw
        if cur is None and t._view is not None and not t._view.nofw:
            base = _fw_base(t._view)
            bt = _tangent_or_none(base)
            if bt is None:
                if where is True and same_meta(lay, base) and same_meta(lay, t):
                    # (set_fw_grad: the new tangent is the base's, and the view's: a view
                    # that is all of its base, laid out as it; in its own dtype)
                    _set_tangent(base, lay)
                    _set_tangent(t, lay)
                    return
                from .inplace import has_internal_overlap, OVERLAP_MESSAGE
                if has_internal_overlap(t._data):
                    # PyTorch's set_fw_grad copies the new tangent into the same view of
                    # the base's new zero tangent: copy_ refuses an expanded one (after the
                    # primal's write; nobody gets a tangent)
                    raise RuntimeError(OVERLAP_MESSAGE)
                bt = zeros_in_layout(base, base._data.dtype)
                _set_tangent(base, bt)
            cur = _view_of(t, bt, base)
            _set_tangent(t, cur)
        if cur is None:
            _set_tangent(t, lay if raw is not None and same_meta(raw, t) else
                         fit_tangent(new, t))  # (Note [Tangent layout])
        elif cur is not new:
            from .inplace import has_internal_overlap
            if where is not True or has_internal_overlap(cur._data):
                from .._backend import np
                np.copyto(cur._data, new._data, casting="unsafe", where=where)
                cur._vc[0] += 1
            else:
                cur.copy_(new.to(cur.dtype) if new.dtype != cur.dtype else new)
    finally:
        state.fw = True


_NO_JVP = ("You must implement the jvp function for custom autograd.Function to use it with "
           "forward mode AD.")


def function_jvp(cls, ctx, args, output):
    """Tangents of a custom Function's outputs by its ``jvp(ctx, *tangents)`` (tangents of
    inputs without one are zeros, or None with ``ctx.set_materialize_grads(False)``)."""
    from .._tensor import Tensor
    if not any(isinstance(a, Tensor) and _tangent_or_none(a) is not None for a in args):
        return
    jvp = getattr(cls, "jvp", None)
    from .function import Function
    if jvp is None or jvp is getattr(Function, "jvp", None):
        raise NotImplementedError(_NO_JVP)
    materialize = getattr(ctx, "materialize_grads", True)
    tangents = []
    for a in args:
        t = _tangent_or_none(a) if isinstance(a, Tensor) else None
        if t is None and isinstance(a, Tensor) and materialize:
            t = _zeros_like(a)
        tangents.append(t)
    # ctx.saved_tensors in jvp: what forward gave save_for_forward (or save_for_backward)
    saved = getattr(ctx, "saved_for_forward", None)
    prev = getattr(ctx, "_saved_values", None)
    if saved is not None or prev is None:
        ctx._saved_values = tuple(None if t is None else _Held(t)
                                  for t in (saved or getattr(ctx, "to_save", ())))
    state.fw = False
    try:
        res = jvp(ctx, *tangents)
    finally:
        state.fw = True
        ctx._saved_values = prev
    outs = (output,) if isinstance(output, Tensor) else tuple(output)
    res = (res,) if not isinstance(res, (tuple, list)) else tuple(res)
    ins = [a for a in args if isinstance(a, Tensor)]
    for o, t in zip(outs, res):
        if isinstance(o, Tensor) and t is not None and o._data.dtype.kind in "fcV":
            if o._meta is not None:
                o._meta.pop("fw_grad", None)
            if o._view is None:
                t = fit_tangent(t, o)  # (set_fw_grad: kept, even an input's, if laid out)
            elif any(t is _tangent_or_none(a) for a in ins):
                t = t.clone()  # (a view output: not an input's tangent object)
            _set_tangent(o, t)


class _Held:
    """A tensor handed to a Function's jvp through ``ctx.saved_tensors``."""

    __slots__ = ("t",)

    def __init__(self, t):
        self.t = t

    def unpack(self, ctx):
        return self.t
