"""The backward pass: an iterative executor over the graph.

Note [Engine]
~~~~~~~~~~~~~
1. Walk the graph once from the roots (an explicit stack, never recursion) and count, for
   every node, how many edges point at it: its dependencies.
2. Keep a gradient buffer per node (one slot per forward output) and a heap of ready
   nodes ordered by sequence number, newest first; AccumulateGrad nodes have the highest
   numbers so leaves receive their gradient as soon as it is complete.
3. Pop a ready node, run its hooks and its ``apply``, add each resulting gradient into the
   buffer of the node it flows to, and push that node once all its dependencies delivered.
   Gradients arriving on several paths are summed there (B4).
4. Unless ``retain_graph``, each node frees its saved values right after it ran.

Note [Un-broadcast in the engine]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
When an op broadcast or promoted its inputs, its node remembers the inputs' shapes and
dtypes (``_reduce``) and ``OpNode.apply`` sums each gradient back to its input's shape and
casts it to its dtype, in one place for every op (PyTorch does this in validate_outputs).

With ``create_graph=False`` gradients are plain ndarrays and formulas run on arrays
(Note [One formula, two interpretations]); with ``create_graph=True`` they are Tensors
and grad mode is on, so the backward records a graph of its own.
"""
import collections.abc
import heapq
import itertools
from sys import getrefcount as _refcount
import threading
import weakref
import warnings

from .. import _errors
from .._backend import np
from . import anomaly_mode as _anomaly
from .graph import NOTHING_SAVED as _NOTHING_SAVED
from . import grad_mode
from .graph import AccumulateGrad, GradientEdge
from .._zero_grad import IMMUTABLE_ZERO_ as _IMMUTABLE, is_zero as _is_zero, \
    ZeroGrad as _ZeroGrad

_state = grad_mode.state


# Bound on first use (these modules import this one): an import statement in a function
# costs about a microsecond on every backward call.
Tensor = edge_of = RAW = TENSOR = _dense_array = None


def _late():
    global Tensor, edge_of, RAW, TENSOR, _dense_array
    from .._ops.dispatch import edge_of
    from .._ops.namespace import TENSOR
    from .._ops.raw import RAW
    from .._tensor import Tensor
    from .inplace import _dense as _dense_array


def _namespaces():
    if RAW is None:
        _late()
    return RAW, TENSOR


def _to_tensor(g):
    return _make(g if g.__class__ is np.ndarray or g.__class__ is _ZeroGrad else
                 np.asarray(g))  # (a zero-tensor gradient, a subclass, kept)


def _make(data):
    """_tensor._make, bound here on first use (the two modules import each other): an
    import statement in _to_tensor cost ~0.5 us on every leaf's first gradient."""
    global _make
    from .._tensor import _make
    return _make(data)


def _dense(a):
    """Not an expanded view (NumPy scalars count as dense 0-d arrays). An empty array is
    dense whatever its strides (NumPy 2 zeroes them; c10 counts an empty tensor contiguous,
    so aten's is_non_overlapping_and_dense holds)."""
    if a.__class__ is not np.ndarray:
        return True
    return a.flags.writeable and (a.size == 0 or not any(
        st == 0 and n > 1 for st, n in zip(a.strides, a.shape)))


def _run_tensor_hooks(hooks, g, raw):
    """Tensor hooks see Tensors and may return a replacement gradient. PyTorch calls them
    with None where the node's gradient for that output is undefined."""
    for fn in list(hooks.values()):
        t = _to_tensor(g) if raw and g is not None else g
        r = _user_code(fn, t)
        if r is not None:
            if g is None:
                raise RuntimeError("can't replace a None gradient with a non-None value")
            new = r._data
            old = t._data
            if new.shape != old.shape:
                raise RuntimeError(f"hook '{_hook_name(fn)}' has changed the size of value")
            if new.dtype != old.dtype:
                from .. import _dtypes
                was = _dtypes.tensor_string(_dtypes.from_numpy(old.dtype))
                got = _dtypes.tensor_string(_dtypes.from_numpy(new.dtype))
                raise RuntimeError(f"hook '{_hook_name(fn)}' has changed the type of value "
                                   f"(was {was} got {got})")
            g = new if raw else r
    return g


def _hook_name(fn):
    return getattr(fn, "__name__", type(fn).__name__)


def _pre_hooks(node, grads, raw):
    """Tensor pre-hooks, retain_grad hooks, then node pre-hooks (PyTorch's order)."""
    grads = _tensor_pre_hooks(node, grads, raw)
    if node._hooks["pre"]:
        for fn in list(node._hooks["pre"].values()):
            r = _user_code(fn, tuple(_to_tensor(g) if raw and g is not None else g
                                     for g in grads))
            if r is not None:
                grads = [x._data if raw and x is not None else x for x in r]
    return grads


def _user_code(fn, *args):
    """A hook: user code, whose `g * 2` records MulBackward0 (not a formula's Scalar
    overload, MulBackward1) under create_graph, as in torch."""
    prev = _state.in_formula
    _state.in_formula = False
    try:
        return fn(*args)
    finally:
        _state.in_formula = prev


def _tensor_pre_hooks(node, grads, raw):
    """The hooks registered on the node's output tensors, then their retain_grad (which so
    sees the gradient after tensor hooks and before node pre-hooks)."""
    extra = node._hooks
    tensor_pre = extra["tensor_pre"]
    if tensor_pre:
        grads = list(grads)
        for nr, hooks in tensor_pre.items():
            if hooks:
                grads[nr] = _run_tensor_hooks(hooks, grads[nr], raw)
    retain = extra["retain"]
    if retain:
        for nr, ref in retain.items():
            t = ref()
            g = grads[nr]
            if t is None or g is None:
                continue
            if t._grad is None:
                # (grad mode is off for formulas run only for their tangents: clone keeps
                # the tangent, as PyTorch's retain_grad hook's clone, and records nothing)
                t._grad = _to_tensor(np.array(g, copy=True)) if raw else g.clone()
            else:
                t._grad = _to_tensor(t._grad._data + g) if raw else t._grad + g
    return grads


def _post_hooks(node, outs, grads, raw):
    for fn in list(node._hooks["post"].values()):
        wrap = (lambda seq: tuple(_to_tensor(g) if g is not None else None for g in seq)) \
            if raw else tuple
        r = _user_code(fn, wrap(outs), wrap(grads))
        if r is not None:
            outs = [x._data if raw and x is not None else x for x in r]
    return outs


# Backward formulas PyTorch computes with in-place ops (zeros(...).index_put_(...), ...):
# the gradient they make starts at this version.
_GRAD_VERSIONS = {"IndexBackward0": 1, "MaxBackward1": 1, "MinBackward1": 1,
                  "MaximumBackward0": 1, "MinimumBackward0": 1,  # (masked_fill_)
                  "MaxBackward0": 2, "MinBackward0": 2, "GatherBackward0": 1,
                  "IndexSelectBackward0": 1, "MaskedSelectBackward0": 1, "TopkBackward0": 2,
                  "SortBackward0": 2, "SortBackward1": 2,
                  # evenly_distribute_backward: new_zeros(...).masked_fill_(mask, ...)
                  "MedianBackward0": 1, "NanmedianBackward0": 1,
                  # value_selecting_reduction_backward: zeros(...).scatter_(dim, indices, grad)
                  "MedianBackward1": 2, "NanmedianBackward1": 2, "KthvalueBackward0": 2,
                  "ModeBackward0": 2,
                  # (cummaxmin_backward returns an empty input itself)
                  "CummaxBackward0": lambda node, grad: 2 if _numel_of(grad) else 0,
                  "CumminBackward0": lambda node, grad: 2 if _numel_of(grad) else 0,
                  "TakeBackward0": 1,  # (zeros_like(self).put_(index, grad, true))
                  # a tuple: one version per input (other's gradient: zeros_like filled)
                  "CopysignBackward0": (0, 1), "NextafterBackward0": (0, 1),
                  "TraceBackward0": 2,  # (zeros, then index_fill_)
                  # (the onesided gradient's mul_ by 2 of the entries past the first, only
                  # when there are some: a signal of length n > 2 along the last dim)
                  "FftC2RBackward0": lambda node, grad: 1 if grad is None or getattr(
                      grad, "shape", ())[node._saved_dim[-1]] > 2 else 0,
                  # a function of the node and its gradient: repeat_backward is at::zeros
                  # for a 0 count
                  "RepeatBackward0": lambda node, grad: 1 if 0 in node._saved_repeats else 0,
                  # cat_tensors_backward: at::zeros({0}) for a 1-d empty input
                  "CatBackward0": lambda node, grad: tuple(
                      1 if tuple(s) == (0,) else 0 for s in node._saved_tensors_sym_sizes),
                  # as_strided_backward: zeros, then .copy_ (or index_add_) of the gradient
                  # through the view's geometry (a leaf whose own elements overlap: a
                  # further div_, version 2, not modelled)
                  "AsStridedBackward0": 1, "AsStridedBackward1": 1,
                  # CopySlices: result.copy_(grad), then its slice's copy_ of fn's gradient
                  # (zero_ without one); fn's other gradients pass through, at the
                  # versions fn's formulas made them (copysign_'s other: 1)
                  "CopySlices": lambda node, grad: (2,) + _fn_versions(node, grad),
                  # (input: sigmoid().sub_(target).mul_(grad); both: mul_(weight), div_ for a
                  # mean, two more for pos_weight's log_weight steps)
                  "BinaryCrossEntropyWithLogitsBackward0": lambda node, grad:
                      _bce_versions(node)}


# Formulas whose gradient is, in PyTorch, a fresh tensor (True: a buffer then summed into
# in place, Note [Gradient versions]) where ours is a NumPy view of the formula's own
# temporary (a reshape or transpose of a kernel's result), or a view of the formula's own
# buffer (False: never summed into) where ours is not a view; the engine reads this in
# place of the array's own ``base`` (_owns)
_GRAD_STORAGE = {
    "GeluBackward0": True, "NativeLayerNormBackward0": True,
    "NativeBatchNormBackward0": True, "TakeBackward0": True, "PutBackward0": True,
    "Rot90Backward0": True, "ConstantPadNdBackward0": True, "LinalgCrossBackward0": True,
    "ReflectionPad1DBackward0": True, "ReflectionPad2DBackward0": True,
    "ReflectionPad3DBackward0": True, "ReplicationPad1DBackward0": True,
    "ReplicationPad2DBackward0": True, "ReplicationPad3DBackward0": True,
    "MultilabelMarginLossBackward0": True, "MultiMarginLossBackward0": True,
    # as_strided_backward: grad_input.as_strided(...) of its zeros buffer
    "AsStridedBackward0": False, "AsStridedBackward1": False}


class _GradStorage(dict):
    def __missing__(self, cls):
        v = self[cls] = _GRAD_STORAGE.get(cls.__name__)
        return v


_STORAGE = _GradStorage()


def _mark_storage(sums, outs, owns):
    marks = sums.get("owns")
    if marks is None:
        marks = sums["owns"] = {}
    for g in outs:
        if g is not None and (getattr(g, "base", None) is None) is not owns:
            # (a weak reference: a strong one would stop .grad stealing it)
            marks[id(g)] = (weakref.ref(g), owns)


def _owns(old, sums):
    """Whether gradient array ``old`` holds its memory alone, as PyTorch's in-place sum into
    a buffer requires (its storage's use_count 1): not a view, unless _GRAD_STORAGE says
    otherwise of the formula that made it."""
    mark = sums.get("owns", {}).get(id(old))
    if mark is not None and mark[0]() is old:
        return mark[1]
    return getattr(old, "base", None) is None


def _fn_versions(node, grad):
    """The versions of a CopySlices' wrapped node's gradients of its other inputs."""
    n = len(node._next) - 1
    fn = getattr(node, "fn", None)  # (an op whose node PyTorch names CopySlices has none)
    made = _MADE[fn.__class__] if fn is not None else 0
    if not made:
        return (0,) * n
    per_input = _made_versions(fn, made, getattr(grad, "_data", grad), n + 1, True)
    return tuple(per_input[1:n + 1])


def _bce_versions(node):
    """(input's, target's) versions of binary_cross_entropy_with_logits' gradients."""
    mean = node._saved_reduction == 1
    extra = (node._saved_weight is not None) + mean + 2 * (node._saved_pos_weight is not None)
    if _state.enabled:  # (create_graph: with grad mode on, the input's gradient is the
        return (int(mean), extra)  # out-of-place composite, then only a mean's div_)
    return (2 + extra, extra)


def _numel_of(grad):
    return 1 if grad is None else getattr(grad, "_data", grad).size


class _MadeVersions(dict):
    """node class -> its _GRAD_VERSIONS entry (0 if none), filled on first use."""

    def __missing__(self, cls):
        v = self[cls] = _GRAD_VERSIONS.get(cls.__name__, 0)
        return v


_MADE = _MadeVersions()



def _pass_buffer_version(sums, node, grad, outs):
    """A gradient buffer at version v (summed into in place, or made by an in-place formula)
    passed on unchanged or as a view (cat's narrow, select, a complex gradient's real part)
    shares its version counter: the gradients it becomes show v too (Note [Gradient
    versions]; autograd.grad reads them)."""
    if grad is None:
        return
    v = _version_of(sums, node, 0, grad)
    if not v:
        return
    base = grad if grad.base is None else grad.base
    cast = node.__class__.__name__ == "ToCopyBackward0"  # (its real part of a complex
    for g in outs:  # gradient: a view in PyTorch, a view of the conjugated copy here)
        if g is not None and (g is grad or g.base is base or cast and g.base is not None):
            if _made(sums, g) < v:
                _set_made(sums, g, v)


class _Casts(dict):
    """node class -> whether it is ToCopyBackward0, whose gradient (a complex one's real
    part) is a view in PyTorch, of a conjugated copy here: the only node that passes a
    buffer's version on explicitly; others pass the array itself, or a NumPy view of it,
    which carry it (_set_made, _version_of)."""

    def __missing__(self, cls):
        v = self[cls] = cls.__name__ == "ToCopyBackward0"
        return v


_CASTS = _Casts()


_OUTPUT_SHAPED = frozenset(("MaximumBackward0", "MinimumBackward0"))  # (gradients of the
# output's shape: summed back to a broadcast input's shape after the in-place write)


def _made_versions(node, made, grad, n, raw):
    """The version of each input's gradient an in-place formula made; 0 where the engine
    then summed it back over broadcast dims or cast it (a fresh tensor, as PyTorch's)."""
    if callable(made):
        made = made(node, grad)
    per_input = made if made.__class__ is tuple else (made,) * n
    reduce = getattr(node, "_reduce", None)  # (CopySlices has none)
    if reduce is None or grad is None or node.__class__.__name__ not in _OUTPUT_SHAPED:
        return per_input
    g = grad if raw else grad._data  # (a complex gradient's real part is a view: kept)
    return tuple(0 if r is not None and (r[0] != g.shape or r[1] != g.dtype and
                                         g.dtype.kind != "c") else v
                 for v, r in zip(per_input, reduce))

_eager = threading.local()  # .versions: formulas on tensors only for tangents (_grad_with_tangents)



def _obeys_layout(g, v):
    """PyTorch's obeys_layout_contract: a gradient whose strides are the leaf's (or that is
    contiguous, for a leaf that is not dense) is stolen into .grad rather than copied."""
    if g.flags.c_contiguous and v.flags.c_contiguous and 1 not in v.shape:
        return True  # (the common case: both C order, no size-1 dim's stride to look at)
    if not _dense_array(v):
        return g.flags.c_contiguous
    gi, vi = g.itemsize, v.itemsize
    for size, gs, vs in zip(g.shape, g.strides, v.strides):
        if (gs // gi != vs // vi) if size != 1 else gs == 0:
            return False
    return True


# Note [Empty gradients' layout]: for an empty leaf the layout contract is decided on the
# strides PyTorch would show (Note [Empty strides] in _ops/layout.py): the leaf's own
# (Tensor.stride), and the gradient's (a fresh one's contiguous strides, a view's own: sum's
# expand gives zeros). An empty tensor is always dense; a size-1 dim obeys unless the
# gradient's stride there is 0. A copied gradient has the leaf's strides, a stolen one its
# own.
def _empty_obeys(g, var):
    from .._ops.layout import _elem_strides
    for size, a, b in zip(g.shape, _elem_strides(g), var.stride()):
        if (a != b) if size != 1 else a == 0:
            return False
    return True


def _empty_grad_strides(grad, g, var):
    """An empty leaf's new .grad laid out as PyTorch's: the gradient's strides where it obeys
    the leaf's layout (stolen), else the leaf's (copied). NumPy's flags say nothing of an
    empty array's layout, so the copy-or-steal choice above did not look at them."""
    from .._ops.layout import _elem_strides, empty_strided
    st = _elem_strides(g) if _empty_obeys(g, var) else var.stride()
    if _elem_strides(grad._data) != st:
        grad._data = empty_strided(g.shape, st, grad._data.dtype)


def _like_leaf(g, d):
    """A copy of gradient ``g`` with the strides of the dense leaf data ``d``."""
    from .._ops.layout import empty_strided
    item = d.itemsize
    out = empty_strided(d.shape, tuple(st // item for st in d.strides), d.dtype)
    np.copyto(out, g, casting="unsafe")
    return out


def accumulate_grad(node, g, raw, version=0, steal=False, dual=None):
    """AccumulateGrad: add g into the leaf's .grad (in place when no graph is recorded).

    ``version``: how many gradients were summed into g in place (PyTorch's buffers do
    that, and its .grad shows it in ``_version``). ``dual``: (g's tangent or None,) in a
    backward() inside a forward-AD level (Note [backward() inside a forward-AD level])."""
    var = node.variable
    meta = var._meta
    old = var._grad
    if raw:
        if old is None:
            stolen = steal and _stealable(g, var._data)
            if stolen:
                var._grad = _to_tensor(g)
            else:
                if stolen is None and _dense_array(var._data):
                    version = 1  # (someone else holds it: PyTorch's copy_ into the leaf's
                    #               layout, as when _run_accumulate decides to copy)
                # PyTorch's clone_obey_contract: laid out as the leaf when it is dense (C
                # order for a contiguous one: a transposed gradient from TBackward0 would
                # slow every optimizer step), else contiguous
                d = var._data
                if d.flags.c_contiguous or not _dense_array(d):
                    var._grad = _to_tensor(np.array(g, dtype=d.dtype, copy=True, order="C"))
                else:
                    var._grad = _to_tensor(_like_leaf(g, d))
            if not g.size:  # Note [Empty gradients' layout]
                _empty_grad_strides(var._grad, g, var)
            var._grad._vc[0] = version
        elif old._data.__class__ is not np.ndarray and _is_zero(old._data):
            raise RuntimeError(_IMMUTABLE)  # (PyTorch's ``grad += new`` into a ZeroTensor)
        elif old._data.flags.writeable and old._data.shape == np.shape(g):
            old._data += g
            old._vc[0] += 1
        else:
            var._grad = _to_tensor(old._data + g)
    else:
        if old is None:
            # PyTorch copies into a fresh buffer, recorded as CopyBackwards
            from .._ops.pointwise import copy_, zeros_like_
            var._grad = copy_(zeros_like_(g), g)
        else:
            var._grad = old + g
    if dual is not None:
        _grad_tangent(var, old, g, dual[0])
    if meta is not None and meta.get("post_acc_hooks"):
        for fn in list(meta["post_acc_hooks"].values()):
            fn(var)


# Note [backward() inside a forward-AD level]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch's engine runs each formula on the saved tensors as they are, dual ones included,
# with grad mode off, so the gradients carry tangents (forward-over-reverse): tensor hooks,
# retain_grad's clone and an accumulation into an existing .grad (``grad += new``, in
# place) see them. A leaf's first gradient that is stolen becomes ``.grad`` through
# ``new_grad.detach()``, which drops the tangent; one that is copied (clone_obey_contract)
# keeps it. backward() so runs the formulas on tensors as autograd.grad does
# (_grad_with_tangents: grad mode off, ``_eager.versions``); each AccumulateGrad takes the
# gradient's array in the tensor's place in the engine's buffer (so the steal decision, by
# reference count, and the version are the raw path's) and its tangent here.
def _grad_tangent(var, old, g, tangent):
    from . import forward_ad
    new = var._grad
    if new is None:
        return
    dtype = new._data.dtype
    if old is None:
        if new._data is g or tangent is None:
            return  # (stolen: detach() drops the tangent)
        t = np.array(tangent._data, dtype=dtype, copy=True)
    else:
        mine = forward_ad._tangent_or_none(old)
        if tangent is None:
            if new is old or mine is None:
                return
            t = np.array(mine._data, dtype=dtype, copy=True)  # (old + g: old's tangent)
        else:
            t = tangent._data if mine is None else mine._data + tangent._data
            t = np.array(t, dtype=dtype, copy=True)
    forward_ad._set_tangent(new, _to_tensor(t))


# Note [Stealing gradients]
# ~~~~~~~~~~~~~~~~~~~~~~~~~
# A leaf's first gradient becomes its ``.grad``. PyTorch steals the gradient buffer when
# nothing else holds it and its layout obeys the parameter's, else it copies. We steal the
# same way, by reference count: a writeable, C-contiguous array of the leaf's dtype and
# shape (the leaf C-contiguous too), held only by the engine's frames, becomes ``.grad``
# as is. A view counts as its own tensor, whoever holds its base (PyTorch's use_count is
# the view's): a view op's backward (ViewBackward0's reshape, TBackward0's transpose of a
# fresh product, unsqueeze of the caller's gradient) makes one, stolen, version 0; a
# formula that gives the gradient itself back (a squeeze that squeezed nothing, sum_to of
# the same shape) must return that very array, held by its giver, so copied. A
# gradient anyone else holds (the caller's, a hook's tensor, another leaf's buffer) has
# more references and is copied (copy_ into the leaf's layout: version 1, as PyTorch's
# clone_obey_contract). Values and layout are the copy's; one copy of every parameter's
# gradient less per step. (The compiled backward does the same: program.py.) The engine
# keeps no stale reference: a tensor hook's result goes into the engine's own list, and
# the loop drops its last ready entry.
_STEAL_REFS = 6  # (CPython 3.11) the engine's buffer list, _run_accumulate's local,
#                  accumulate_grad's and _stealable's parameters, getrefcount's argument
#                  and the caller's stack; tests/test_engine.py checks both sides


def _stealable(g, d):
    if g.__class__ is not np.ndarray or g.dtype != d.dtype or g.shape != d.shape:
        if g.__class__ is not np.ndarray and _is_zero(g) and g.dtype == d.dtype and \
                g.shape == d.shape and g.flags.c_contiguous and d.flags.c_contiguous:
            # a zero tensor has no storage: stolen when no one else holds it (Note
            # [Zero-tensor gradients] in _zero_grad.py)
            # (one reference less than below, where ``flags`` holds one)
            return True if _refcount(g) < _STEAL_REFS else None
        return False
    flags = g.flags
    if not (flags.c_contiguous and flags.writeable and d.flags.c_contiguous):
        return False
    if g.size and 0 in g.strides:  # (a size-1 dim expanded: PyTorch's layout contract says
        return False               # no, NumPy's C-contiguity yes)
    if _refcount(g) > _STEAL_REFS:
        return None  # (held by someone else: accumulate_grad's copy shows version 1)
    return True


def _run_accumulate(node, grads, raw, capture_map, captured, needed, capture,
                    accumulate_into, sums):
    """An AccumulateGrad's turn: the leaf's tensor hooks, node pre-hooks, capture for
    autograd.grad, accumulation into .grad, post hooks."""
    meta = node.variable._meta
    summed = id(grads[0])  # (not a reference: it would stop .grad stealing the buffer)
    if meta is not None and meta.get("hooks"):
        # (into the engine's own list: a second list holding the gradient would keep .grad
        # from stealing it, Note [Stealing gradients])
        if grads.__class__ is list:
            grads[0] = _run_tensor_hooks(meta["hooks"], grads[0], raw)
        else:
            grads = [_run_tensor_hooks(meta["hooks"], grads[0], raw)]
    runs = not (needed is not None and node not in needed) and not (
        capture is not None and accumulate_into is None) and not (
        accumulate_into is not None and node not in accumulate_into)
    if node._hooks is not None:
        grads = _pre_hooks(node, grads, raw) if runs else _tensor_pre_hooks(node, grads, raw)
    if capture_map and node in capture_map:
        for nr, i in capture_map[node]:
            # (a hook's new tensor does not show the summed buffer's version)
            captured[i] = (grads[nr], _version_of(sums, node, nr, grads[nr])
                           if id(grads[nr]) == summed else 0)
    if not runs:
        return
    if grads[0] is not None and node.variable._grad_fn is not None:
        # (the leaf was detach_()ed, then written in place by an op recording a node)
        raise RuntimeError("leaf variable has been moved into the graph interior")
    if grads[0] is not None and node.variable._requires_grad:
        # (PyTorch's AccumulateGrad returns early for a leaf detach_()ed since; its post
        # hooks still run)
        g = grads[0]
        version = sums.get((node, 0), 0)
        dual = None
        if not raw and getattr(_eager, "versions", False):
            # (Note [backward() inside a forward-AD level]: the array in the tensor's place)
            from .forward_ad import _tangent_or_none
            dual = (_tangent_or_none(g),)
            held = _held(g, sums)
            version = g._vc[0]
            grads[0] = g = g._data
        if raw or dual is not None:
            d = node.variable._data
            if g is d or (held if dual is not None else _held(g, sums)) or not (
                    _obeys_layout(g, d) if d.size else _empty_obeys(g, node.variable)):
                # PyTorch copies it into .grad (clone_obey_contract): copy_ into the
                # leaf's strides (version 1), or a contiguous clone of a leaf that is not
                # dense (version 0; an empty one is dense); the leaf's own data (an empty
                # input's cummax gradient) is held by the leaf
                version = 1 if not d.size or _dense_array(d) else 0
            elif not version:
                version = _made(sums, g)
        accumulate_grad(node, g, raw or dual is not None, version, True, dual)
        if dual is not None:  # (the post hooks see the gradient with its tangent)
            grads = [_to_tensor(g)]
            if dual[0] is not None:
                from .forward_ad import _set_tangent
                _set_tangent(grads[0], dual[0])
    elif meta is not None and meta.get("post_acc_hooks"):  # (PyTorch runs them anyway)
        for fn in list(meta["post_acc_hooks"].values()):
            fn(node.variable)
    if node._hooks is not None and node._hooks["post"]:
        _post_hooks(node, (), grads, raw)


def _sum_zero(old, g, sums, first, more):
    """A buffer plus a zero-tensor gradient: PyTorch adds in place (``old.add_(g)``, on
    materialized zeros: -0.0 becomes +0.0) into a dense buffer no one else holds, else
    ``old + g`` is old's copy (Note [Zero-tensor gradients] in _zero_grad.py)."""
    if _is_zero(old) or not _owns(old, sums) or not _dense(old) or \
            _held(old, sums, first, more):
        return old + g
    return old + g.view(np.ndarray)


def _hold(sums, g):
    """A captured gradient (autograd.grad's non-leaf input) is held by the caller: a buffer
    it passes on unchanged (SubBackward0's self) is no longer summed into in place, so the
    other input's gradient keeps version 0, as PyTorch's use_count > 1 decides."""
    if g is not None:
        sums["shared"][id(g)] = g


def _held(g, sums, first=None, more=None):
    """Whether someone besides the buffer being summed into holds gradient ``g``: the
    caller (a root gradient), another node's pending input buffer (AddBackward0 gives one
    tensor to both inputs; once one of them has run, the other holds it alone), or the
    entries made ready by the current step. PyTorch adds in place, and steals a leaf's
    first gradient, only when its use_count is 1 (Note [Gradient versions])."""
    if id(g) in sums.get("shared", ()):
        return True
    for buf in sums.get("buffers", {}).values():
        for x in buf:
            if x is g:
                return True
    for entry in ((first,) if first is not None else ()) + tuple(more or ()):
        for x in entry[1]:
            if x is g:
                return True
    return False


def _version_of(sums, node, nr, g):
    """The _version PyTorch's gradient buffer would show (Note [Gradient versions])."""
    v = sums.get((node, nr), 0)
    if not v and g is not None:
        v = _made(sums, g)
        base = getattr(g, "base", None)  # a view shares its base's version counter
        if not v and base is not None:
            v = _made(sums, base)
    return v


def _set_made(sums, g, v):
    """Records that gradient ``g`` is at version ``v`` (made in place, or a buffer summed
    into and passed on). A weak reference: a strong one would keep every such gradient
    alive to the end of the backward and stop .grad stealing it (Note [Stealing
    gradients]); it also tells a later array of the same id from ``g``."""
    try:
        ref = weakref.ref(g)
    except TypeError:  # (a NumPy scalar: small, kept)
        ref = (lambda g=g: g)
    sums["made", id(g)] = (ref, v)


def _made(sums, g):
    """The version _set_made recorded for gradient ``g`` (0 if none), or for the array it
    is a NumPy view of (a view shares its base's version counter)."""
    entry = sums.get(("made", id(g)))
    if entry is not None and entry[0]() is g:
        return entry[1]
    base = getattr(g, "base", None)
    if base is not None:
        entry = sums.get(("made", id(base)))
        if entry is not None and entry[0]() is base:
            return entry[1]
    return 0


def _dependencies(roots, needed=None):
    """How many edges point at each node reachable from the roots (Note [Engine] step 1);
    with ``needed``, only edges between needed nodes count. A node enters ``deps`` the
    first time an edge reaches it, which is when it is pushed."""
    deps = {}
    stack = [r for r in dict.fromkeys(roots) if needed is None or r in needed]
    is_root = set(stack).__contains__
    get = deps.get
    if needed is None:  # (the common case, without the filter)
        while stack:
            for nxt, _ in stack.pop()._next:
                if nxt is not None:
                    n = get(nxt)
                    if n is None:
                        deps[nxt] = 1
                        if not is_root(nxt):
                            stack.append(nxt)
                    else:
                        deps[nxt] = n + 1
        return deps
    while stack:
        for nxt, _ in stack.pop()._next:
            if nxt is not None and (needed is None or nxt in needed):
                n = get(nxt)
                if n is None:
                    deps[nxt] = 1
                    if not is_root(nxt):
                        stack.append(nxt)
                else:
                    deps[nxt] = n + 1
    return deps


def _needed(roots, targets):
    """Nodes from which some target node can be reached (iterative post-order DFS)."""
    needed = set()
    done = set()
    for root in roots:
        if root in done:
            continue
        stack = [(root, iter(root._next))]
        done.add(root)
        while stack:
            node, it = stack[-1]
            advanced = False
            for nxt, _ in it:
                if nxt is None:
                    continue
                if nxt not in done:
                    done.add(nxt)
                    stack.append((nxt, iter(nxt._next)))
                    advanced = True
                    break
                if nxt in needed:
                    needed.add(node)
            if advanced:
                continue
            stack.pop()
            if node in targets:
                needed.add(node)
            if node in needed and stack:
                needed.add(stack[-1][0])
    return needed


def run_backward(roots, root_grads, keep_graph, create_graph, capture=None,
                 accumulate_into=None):
    """Run the graph backward from ``roots`` (edges) seeded with ``root_grads``.

    capture: edges whose incoming gradient to return (autograd.grad); those nodes'
    AccumulateGrads do not run. accumulate_into: the only nodes allowed to accumulate
    (backward(inputs=...)); None means every leaf reached.
    """
    depth = _state.reentrant_depth
    if depth >= _MAX_DEPTH:
        return _run_reentrant(roots, root_grads, keep_graph, create_graph, capture,
                              accumulate_into)
    _state.reentrant_depth = depth + 1
    try:
        return _run_backward(roots, root_grads, keep_graph, create_graph, capture,
                             accumulate_into)
    finally:
        _state.reentrant_depth = depth


def _run_backward(roots, root_grads, keep_graph, create_graph, capture, accumulate_into):
    RAW, TENSOR = _namespaces()
    F = TENSOR if create_graph else RAW
    raw = not create_graph
    root_nodes = [e[0] for e in roots]
    targets = needed = runs = None
    if capture is not None or accumulate_into is not None:
        targets = set(e[0] for e in capture or ()) | set(accumulate_into or ())
        needed = _needed(root_nodes, targets)
        # a node only captured from (autograd.grad's input) runs only if it leads further;
        # backward(inputs=[non-leaf]) still runs the input's node, as PyTorch does (but
        # computes nothing for edges that lead to no target: _apply_needed)
        into = accumulate_into or ()
        runs = {n for n in needed if n.__class__ is AccumulateGrad or n in into or
                any(child in needed for child, _ in n._next)}
    deps = _dependencies(root_nodes, needed)
    captured = {}
    capture_map = {}
    for i, e in enumerate(capture or ()):
        capture_map.setdefault(e[0], []).append((e[1], i))
    buffers = {}
    for (node, nr), g in zip(roots, root_grads):
        buf = buffers.get(node)
        if buf is None:
            buffers[node] = buf = [None] * node._n_out
        buf[nr] = g if buf[nr] is None else buf[nr] + g
    heap = []
    order = itertools.count()  # ties (AccumulateGrads) run in the order they became ready
    for node in dict.fromkeys(root_nodes):
        if not deps.get(node):
            heap.append((-node._seq, next(order), node))
    heapq.heapify(heap)
    prev_mode, prev_formula = _state.enabled, _state.in_formula
    prev_task, prev_node = _state.graph_task, _state.current_node
    # (formulas run on tensors only for their tangents do so with grad mode off, as
    # PyTorch's: hooks and custom backwards see gradients without a graph)
    _state.enabled = create_graph and not getattr(_eager, "versions", False)
    _state.in_formula = create_graph
    _state.graph_task = GraphTask(deps, needed, runs, root_nodes)
    pop, push = heapq.heappop, heapq.heappush
    filtered = targets is not None
    ready = None  # the one node made ready by the last step while the heap was empty
    sums = {}  # (node, slot): how many gradients were summed there (see accumulate_grad)
    # Note [Gradient versions]: PyTorch sums into a buffer in place only when nothing else
    # holds it (_held); a gradient still held by another pending buffer (AddBackward0 gives
    # grad to both inputs) is summed out of place, a new tensor (version 0); a gradient that
    # is a view (expand), the caller's or another buffer's goes into .grad as a copy
    # (version 1)
    # (id -> the caller's gradient itself, kept alive so that its id is not reused)
    sums["shared"] = {id(g): g for g in root_grads if g is not None}  # (the caller's)
    sums["buffers"] = buffers
    anomaly = _anomaly._enabled
    slow = filtered or bool(capture_map) or anomaly
    fw = _state.fw  # (a forward-AD level is open: Note [Backward ops without a forward rule])
    node = None
    versioned = False  # (a gradient version was recorded: buffers passed on carry it)
    try:
        while True:
            if ready is not None:
                node, grads = ready
                ready = None
            elif heap:
                node = pop(heap)[2]
                grads = buffers.pop(node)
            else:
                break
            if node.__class__ is AccumulateGrad:
                if grads[0] is None and not slow and node._hooks is None and \
                        node.variable._meta is None:
                    continue  # (its gradient was stolen by a compiled region: nothing to do)
                _run_accumulate(node, grads, raw, capture_map, captured, needed if filtered
                                else None, capture, accumulate_into, sums)
                continue
            if slow:  # (one flag for what a plain backward() never has)
                if filtered and node not in runs:
                    # only captured (autograd.grad's input): its tensor hooks run, not the
                    # node
                    if node._hooks is not None:
                        grads = _tensor_pre_hooks(node, grads, raw)
                    for nr, i in capture_map.get(node, ()):
                        captured[i] = (grads[nr], _version_of(sums, node, nr, grads[nr]))
                        _hold(sums, grads[nr])
                    continue
                if capture_map and node in capture_map:
                    for nr, i in capture_map[node]:  # (PyTorch captures before the hooks)
                        captured[i] = (grads[nr], _version_of(sums, node, nr, grads[nr]))
                        _hold(sums, grads[nr])
                if anomaly:
                    _state.current_node = node
            hooks = node._hooks
            if hooks is not None:
                grads = _pre_hooks(node, grads, raw)
            if grads[0] is not None or any(g is not None for g in grads):
                if fw and (not filtered or any(e[0] is not None and e[0] in needed
                                               for e in node._next)):
                    # (a node computing nothing, backward(inputs=[its output]), runs no
                    # formula: task_should_compute_output)
                    _refuse_backward_op(node, grads, raw)
                outs = node.apply(grads, F) if not filtered else \
                    _apply_needed(node, grads, F, needed)
                made = _MADE[node.__class__]
                if made:  # (its formula writes in place: Note [Gradient versions])
                    per_input = _made_versions(node, made, grads[0], len(outs), raw)
                    if raw:
                        for g, v in zip(outs, per_input):
                            if g is not None and v:
                                _set_made(sums, g, v)
                                versioned = True
                    else:
                        # create_graph: PyTorch's formula writes into its fresh result all
                        # the same; set before any other node can save the tensor
                        for g, v in zip(outs, per_input):
                            if g is not None and g._vc[0] < v:
                                g._vc[0] = v
                if raw and _STORAGE[node.__class__] is not None:
                    _mark_storage(sums, outs, _STORAGE[node.__class__])
                if versioned and _CASTS[node.__class__]:
                    _pass_buffer_version(sums, node, grads[0], outs)
            else:
                outs = (None,) * len(node._next)
            if anomaly:
                _state.current_node = None
                if _anomaly.is_anomaly_check_nan_enabled():
                    _anomaly.check_nan(node, outs)
            if not keep_graph:
                if node._frees and hooks is None:  # (OpNode.release's common case inlined)
                    saved = node._saved  # (a node that saved nothing can run again)
                    if saved and saved is not _NOTHING_SAVED.get(len(saved)):
                        node._saved = None
                else:
                    node.release()
            if hooks is not None and hooks["post"]:
                if filtered and not getattr(node, "computes_all", False):
                    # (PyTorch does not compute gradients no target needs; a custom
                    # Function's backward computes them all, its hook sees them)
                    outs = [None if nxt is None or nxt not in needed else g
                            for (nxt, _), g in zip(node._next, outs)]
                outs = _post_hooks(node, outs, grads, raw)
            first = more = None  # the nodes this step makes ready, in order
            for (nxt, nr), g in zip(node._next, outs):
                if nxt is None or (filtered and nxt not in needed):
                    continue
                d = deps[nxt] - 1
                deps[nxt] = d
                buf = buffers.get(nxt)
                if buf is None:
                    if d == 0 and nxt._n_out == 1:
                        # its only (or last, with nothing buffered) input: ready as is
                        if first is None:
                            first = (nxt, [g])
                        elif more is None:
                            more = [(nxt, [g])]
                        else:
                            more.append((nxt, [g]))
                        continue
                    buffers[nxt] = buf = [None] * nxt._n_out
                if g is not None:
                    old = buf[nr]
                    if old is None:
                        buf[nr] = g
                    else:
                        if raw and g.__class__ is not np.ndarray and _is_zero(g):
                            buf[nr] = None  # (old is no longer held by its own buffer)
                            buf[nr] = _sum_zero(old, g, sums, first, more)
                        else:
                            buf[nr] = old + g
                        # PyTorch adds in place (bumping the version autograd.grad shows)
                        # only into a dense buffer no one else holds: not when both
                        # gradients are one array (x + x), nor into an expanded one or a
                        # view, nor into one passed through unchanged (Note [Gradient
                        # versions])
                        # (counted at every node: a buffer a node passes on unchanged,
                        # CloneBackward0's, reaches a leaf's .grad or a captured gradient
                        # at its version, _pass_buffer_version)
                        if raw and old is not g:
                            key = (nxt, nr)
                            prev = sums.get(key)
                            if prev is not None:  # old is the array the last sum made
                                sums[key] = prev + 1
                                _set_made(sums, buf[nr], prev + 1)
                            elif _owns(old, sums) and _dense(old) and \
                                    not _held(old, sums, first, more):
                                sums[key] = v = _made(sums, old) + 1
                                _set_made(sums, buf[nr], v)  # (the array carries its
                                versioned = True  # version on: Note [Gradient versions])
                        elif not raw and old is not g and getattr(_eager, "versions", False) \
                                and old._view is None and old._data.__class__ is np.ndarray \
                                and _dense(old._data) and not _held(old, sums, first, more):
                            # (a zero-tensor gradient, ZeroGrad, is immutable: PyTorch adds
                            # out of place into it, as the raw path above)
                            # (formulas on tensors only for tangents: PyTorch, without a
                            # graph, adds in place; _grad_with_tangents reads the version,
                            # and add_'s rule gives the tangent)
                            buf[nr]._vc[0] = old._vc[0] + 1
                            from .forward_ad import buffer_add_tangent
                            buffer_add_tangent(buf[nr], old, g)
                if d == 0:
                    entry = (nxt, buffers.pop(nxt))
                    if first is None:
                        first = entry
                    elif more is None:
                        more = [entry]
                    else:
                        more.append(entry)
            if first is not None:
                if more is None and not heap:
                    ready = first  # (no heap round trip for a chain)
                else:
                    buffers[first[0]] = first[1]
                    push(heap, (-first[0]._seq, next(order), first[0]))
                    for nxt, g in more or ():
                        buffers[nxt] = g
                        push(heap, (-nxt._seq, next(order), nxt))
            outs = g = grads = entry = first = more = None  # (Note [Stealing gradients]: no
            #                                                  stale references)
    except Exception:
        if anomaly and node is not None:
            _anomaly.warn_node_error(node)
        raise
    finally:
        _state.enabled, _state.in_formula = prev_mode, prev_formula
        _state.graph_task, _state.current_node = prev_task, prev_node
    return captured


def _apply_needed(node, grads, F, needed):
    """``node.apply`` in a backward limited to some inputs (``inputs=``, autograd.grad):
    as PyTorch's task_should_compute_output, the node computes the gradients only of the
    edges that lead to a needed node; the others' formulas are not run, so one without a
    derivative (igamma's input) does not raise. Done by giving the node (and the node a
    CopySlices wraps) those edges as NO_EDGE while it runs."""
    nxt = node._next
    if all(e[0] is None or e[0] in needed for e in nxt) or \
            isinstance(type(node).__dict__.get("_next"), property) or \
            getattr(node, "computes_all", False):  # (a custom Function's backward: all)
        return node.apply(grads, F)  # (NotImplemented's edges: it raises whatever it gets)
    from .graph import NO_EDGE
    from .inplace import _VIEW_INPUT, CopySlices
    nodes = [node, node.fn] if node.__class__ is CopySlices and node.fn else [node]
    kept = [n._next for n in nodes]
    # (the wrapped node's view input stands for the base's history, CopySlices' first
    # edge: computed only if that leads somewhere needed, as PyTorch's CopySlices adds
    # fn's edge to exec_info only then)
    base_needed = nxt[0][0] is not None and nxt[0][0] in needed
    try:
        for n, edges in zip(nodes, kept):
            n._next = tuple([e if e[0] is None or e[0] in needed or
                             (e[0] is _VIEW_INPUT and base_needed) else NO_EDGE
                             for e in edges])
        return node.apply(grads, F)
    finally:
        for n, edges in zip(nodes, kept):
            n._next = edges


# Note [Backward ops without a forward rule]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# Under a forward-AD level PyTorch's engine evaluates each backward formula on the saved
# tensors as they are, dual ones included, so a formula that is one aten op without a
# forward rule (hardsigmoid_backward, huber_loss_backward; logit/silu/mish/
# native_group_norm_backward only with grad mode off, i.e. not create_graph: with it their
# infinitely differentiable composites run) raises "Trying to use forward AD with
# aten::logit_backward that does not support it." when a saved input or output, or the
# incoming gradient, has a tangent. Such entries declare ``backward_op=(name, why,
# first_order)``; the engine checks them before running the node, only while a level is
# open. (backward() in a level runs the formulas on tensors, so a gradient made dual by
# another formula is seen too: Note [backward() inside a forward-AD level].)
def _refuse_backward_op(node, grads, raw):
    from .graph import OpNode
    from .inplace import CopySlices
    if node.__class__ is CopySlices:
        node = node.fn  # (the in-place op's node it wraps; None once released)
    if not isinstance(node, OpNode) or node.op.backward_op is None:
        return
    if all(e[0] is None for e in node._next):
        return  # (no input's gradient is computed, so no formula runs: a no_grad view's
        #          node has no edge, PyTorch's task_should_compute_output is false)
    op = node.op
    spec = op.backward_op
    name, why, first_order = spec
    if first_order and not raw and not getattr(_eager, "versions", False):
        return  # (create_graph: PyTorch's grad mode is on, its composite formula runs)
    from .forward_ad import _tangent_or_none
    saved = node._saved
    dual = bool(saved) and any(isinstance(saved[i], _Tensor()) and
                               _tangent_or_none(saved[i]) is not None
                               for i in op.tensor_slots)
    dual = dual or any(t is not None for t in getattr(node, "_fw_out", None) or ())
    if not raw:
        dual = dual or any(g is not None and _tangent_or_none(g) is not None for g in grads)
    if dual:
        from .graph import unpack_saved
        unpack_saved(node, _namespaces()[0])  # (a saved tensor modified in place: the
        # version error comes first, when the node unpacks its saved values)
        raise NotImplementedError(f"Trying to use forward AD with {name} that does not "
                                  f"support it{why}")


def _Tensor():
    from .._tensor import Tensor
    return Tensor


class GraphTask:
    """The running backward call, as hooks may ask about it (register_multi_grad_hook)."""

    __slots__ = ("id", "deps", "needed", "runs", "roots")
    _ids = itertools.count()

    def __init__(self, deps, needed, runs, roots):
        self.id = next(GraphTask._ids)
        self.deps, self.needed, self.runs, self.roots = deps, needed, runs, roots

    def will_execute(self, node):
        if self.needed is not None:
            return node in self.runs or (node.__class__ is AccumulateGrad and
                                         node in self.needed)
        return node in self.deps or node in self.roots


# Note [Reentrant backward]
# ~~~~~~~~~~~~~~~~~~~~~~~~~
# A custom Function's backward may itself call backward or autograd.grad: the inner call
# runs to completion (its graph first, as PyTorch gives it priority) inside the outer
# node's turn. Each nesting adds Python frames, so past _MAX_DEPTH nested calls in one
# thread the inner call runs on a fresh thread (with a fresh stack and recursion count,
# the thread-local modes copied over) while this one waits: PyTorch's engine does the same
# with its reentrant worker pool (MAX_DEPTH = 60), so depth is bounded only by memory.
_MAX_DEPTH = 24
_COPIED_STATE = ("enabled", "inference", "in_formula", "saved_hooks", "hooks_disabled",
                 "graph_task", "current_node")


def _run_reentrant(*args, **kwargs):
    """run_backward on a fresh thread (Note [Reentrant backward])."""
    import threading
    state = {k: getattr(_state, k) for k in _COPIED_STATE}
    result = []

    def work():
        for k, v in state.items():
            setattr(_state, k, v)
        if state["saved_hooks"]:
            _state.extras = True
        try:
            result.append((True, run_backward(*args, **kwargs)))
        except BaseException as e:  # re-raised in the calling thread
            result.append((False, e))

    t = threading.Thread(target=work, name="autotensor-reentrant-backward")
    t.start()
    t.join()
    ok, value = result[0]
    if not ok:
        raise value
    return value


def call_node(node, grads, kwargs=None):
    """``node(*grads)``: apply one node outside the engine (as PyTorch allows), with
    PyTorch's argument checks; one result comes back bare, several as a tuple."""
    from .._tensor import Tensor
    if kwargs:
        raise TypeError("keyword arguments are not supported")
    if len(grads) != node._n_out:
        raise TypeError(f"expected {node._n_out} arguments, got {len(grads)} instead")
    for i, g in enumerate(grads):
        if g is not None and not isinstance(g, Tensor):
            raise TypeError(f"argument {i} is not a Variable")
    _, TENSOR = _namespaces()
    out = tuple(node.apply(list(grads), TENSOR))
    return out[0] if len(out) == 1 else out


# ---- the public entry points -----------------------------------------------------------
def _as_tuple(x):
    if Tensor is None:
        _late()
    if x is None:
        return ()
    if isinstance(x, (Tensor, GradientEdge)):
        return (x,)
    return tuple(x)


def _inputs_tuple(inputs, fn_name):
    """``inputs`` of backward/grad: a tensor or GradientEdge, a sequence of them, or a
    dict (its values; grad then returns a dict)."""
    if type(inputs) is dict:
        return tuple(inputs.values())
    if isinstance(inputs, collections.abc.Mapping):
        raise TypeError(f"`inputs` argument to `{fn_name}()` must be a dict, not "
                        f"{type(inputs).__name__}. Other Mapping types are not supported.")
    return _as_tuple(inputs)


def _make_root_grads(tensors, grads, create_graph, is_grads_batched=False):
    if len(grads) == 0:
        grads = (None,) * len(tensors)
    if len(grads) != len(tensors):
        raise RuntimeError(f"Mismatch in number of gradients: expected {len(tensors)}, "
                           f"got {len(grads)}")
    out = []
    for i, (t, g) in enumerate(zip(tensors, grads)):
        if t.__class__ is GradientEdge:
            meta = t._shape_dtype()
            shape, dtype = meta if meta is not None else (None, None)
        else:
            shape, dtype = t._data.shape, t._data.dtype
        if g is None:
            edge = t.__class__ is GradientEdge
            if (shape is None or any(n != 1 for n in shape)) and (edge or t.requires_grad):
                raise RuntimeError(_errors.NON_SCALAR_BACKWARD)  # (a no_grad view of one
                #                                                   requires grad, no edge)
            if dtype is not None and dtype.kind not in "fV" and (edge or t.requires_grad):
                # (an integer tensor given history by fill_: v[...] = x; complex too)
                from .. import _dtypes
                raise RuntimeError(_errors.NON_REAL_BACKWARD.format(_dtypes.from_numpy(dtype)))
            if not edge and not t._requires_grad:
                t.grad_fn  # noqa: B018  (a stale no_grad view: PyTorch's view error first)
                if not t.requires_grad:  # (a view whose base an in-place op made require
                    # grad requires it once its grad_fn is rebased)
                    raise RuntimeError(_errors.NO_GRAD_FN.format(i))
            g_data = np.ones(shape, dtype)
            out.append(_to_tensor(g_data) if create_graph else g_data)
            continue
        if not isinstance(g, Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got "
                            f"{type(g).__name__}")
        if shape is not None and g._data.shape != shape:
            from .._tensor import Size
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of {Size(g._data.shape)} "
                f"and output[{i}] has a shape of {Size(shape)}.")
        if dtype is not None and g._data.dtype != dtype:
            from .. import _dtypes
            g = g.to(_dtypes.from_numpy(dtype))
        out.append(g if create_graph else g._data)
    return out


def _root_edges(tensors):
    edges = []
    for i, t in enumerate(tensors):
        if t.__class__ is GradientEdge:
            edges.append(tuple(t))
            continue
        # (a view whose base an in-place op made require grad has its edge from the lazy
        # rebase in edge_of: Note [Lazy view rebase])
        edge = edge_of(t) if t._requires_grad or t._view is not None else (None, 0)
        if edge[0] is None:  # (a view made under no_grad requires grad, but has no edge)
            t.grad_fn  # noqa: B018  (PyTorch's gradient_edge: a stale view's error first)
            raise RuntimeError(_errors.NO_GRAD_FN.format(i))
        edges.append(edge)
    return edges


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False,
             grad_variables=None, inputs=None):
    """Accumulate into the ``.grad`` of the leaves the gradients of ``tensors``."""
    tensors = _as_tuple(tensors)
    if grad_variables is not None:
        grad_tensors = grad_variables
    grads = _as_tuple(grad_tensors)
    if retain_graph is None:
        retain_graph = create_graph
    if create_graph:
        warnings.warn(
            "Using backward() with create_graph=True will create a reference cycle between "
            "the parameter and its gradient which can cause a memory leak. We recommend "
            "using autograd.grad when creating the graph to avoid this. If you have to use "
            "this function, make sure to reset the .grad fields of your parameters to None "
            "after use to break the cycle and avoid the leak.", UserWarning, stacklevel=3)
    # inside a forward-AD level the formulas run on tensors for the gradients' tangents
    # (Note [backward() inside a forward-AD level])
    dual = _state.fw and not create_graph
    root_grads = _make_root_grads(tensors, grads, create_graph or dual)  # (torch's
    #                                                                        _make_grads first)
    edges = _root_edges(tensors)
    accumulate_into = None
    given = inputs is not None
    inputs = _inputs_tuple(inputs, "backward")
    if given and len(inputs) == 0:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    if inputs:
        accumulate_into = set()
        for t in inputs:
            if t.__class__ is GradientEdge:
                accumulate_into.add(t.node)  # (no retain_grad: nothing to keep it in)
            elif t.grad_fn is None:  # (a stale view's errors first: Note [Lazy view rebase])
                if not t.requires_grad:
                    raise RuntimeError("can't retain_grad on Tensor that has "
                                       "requires_grad=False")
                accumulate_into.add(t._grad_accumulator())
            else:
                t.retain_grad()
                accumulate_into.add(t.grad_fn)

    if dual:
        prev = getattr(_eager, "versions", False)
        _eager.versions = True  # (grad mode off, as PyTorch's: _grad_with_tangents)
        try:
            run_backward(edges, root_grads, retain_graph, True,
                         accumulate_into=accumulate_into)
        finally:
            _eager.versions = prev
        return
    run_backward(edges, root_grads, retain_graph, create_graph,
                 accumulate_into=accumulate_into)


def _grad_batched(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused,
                  materialize_grads):
    """``grad(..., is_grads_batched=True)``: PyTorch runs one backward under vmap over the
    first dimension of every grad_output; here one backward per row, stacked (Note [vmap as
    a loop] in func/_vmap.py). The graph is kept until the last row."""
    outputs = _as_tuple(outputs)
    gos = _as_tuple(grad_outputs) if grad_outputs is not None else (None,) * len(outputs)
    for i, (out, g) in enumerate(zip(outputs, gos)):
        if isinstance(g, Tensor) and isinstance(out, Tensor) and g[0].shape != out.shape:
            raise RuntimeError(
                "If `is_grads_batched=True`, we interpret the first dimension of each "
                "grad_output as the batch dimension. The sizes of the remaining dimensions "
                "are expected to match the shape of corresponding output, but a mismatch was "
                f"detected: grad_output[{i}] has a shape of {g[0].shape[1:]} and output[{i}] "
                f"has a shape of {out.shape}. If you only want some tensors in `grad_output` "
                "to be considered batched, consider using vmap.")
    sizes = [g.shape[0] for g in gos if isinstance(g, Tensor)]
    if not sizes:  # (PyTorch's vmap over the implicit 0-d ones: its error)
        raise ValueError("vmap(vjp, in_dims=0, ...)(<inputs>): Got in_dim=0 for some input, "
                         "but that input is a Tensor of dimensionality 0 so expected in_dim "
                         "to satisfy 0 <= in_dim < 0.")
    if any(n != sizes[0] for n in sizes):
        raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped "
                         f"dimension, got sizes {sizes} for the mapped dimension")
    if retain_graph is None:
        retain_graph = create_graph
    if allow_unused is None:
        allow_unused = materialize_grads
    rows = [grad(outputs, inputs, tuple(g[b] if isinstance(g, Tensor) else g for g in gos),
                 retain_graph=retain_graph or b < sizes[0] - 1, create_graph=create_graph,
                 allow_unused=allow_unused)
            for b in range(sizes[0])]
    from .._ops import stack
    as_dict = type(inputs) is dict
    values = tuple(inputs.values()) if as_dict else _as_tuple(inputs)
    columns = zip(*(r.values() if as_dict else r for r in rows))
    result = tuple(None if any(x is None for x in col) else stack(col) for col in columns)
    if materialize_grads:  # (after the batching, as PyTorch: unbatched zeros)
        result = tuple(_zeros_like(x, create_graph) if r is None else r
                       for r, x in zip(result, values))
    return dict(zip(inputs, result)) if as_dict else result


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=None, is_grads_batched=False,
         materialize_grads=False):
    """The gradients of ``outputs`` w.r.t. ``inputs``, returned; ``.grad`` is untouched."""
    if is_grads_batched:
        return _grad_batched(outputs, inputs, grad_outputs, retain_graph, create_graph,
                             allow_unused, materialize_grads)
    outputs = _as_tuple(outputs)
    as_dict = type(inputs) is dict
    keys = tuple(inputs) if as_dict else None
    inputs = _inputs_tuple(inputs, "grad")
    if len(inputs) == 0:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    if allow_unused is None:
        allow_unused = materialize_grads
    if materialize_grads and not allow_unused:
        raise ValueError("Expected allow_unused to be True or not passed when "
                         "materialize_grads=True, but got: allow_unused=False.")
    if retain_graph is None:
        retain_graph = create_graph
    if _state.fw and not create_graph:
        # a forward-AD level is open: the formulas run on tensors (grad mode off) so that
        # the gradients carry tangents (forward-over-reverse)
        result = _grad_with_tangents(outputs, inputs, grad_outputs, retain_graph,
                                     allow_unused, materialize_grads)
        return dict(zip(keys, result)) if as_dict else result
    root_grads = _make_root_grads(outputs, _as_tuple(grad_outputs), create_graph)
    given = {id(t._data): t for t in _as_tuple(grad_outputs) if isinstance(t, Tensor)}
    edges = _root_edges(outputs)
    capture = []
    for t in inputs:  # (PyTorch, input by input: its grad_fn, which may raise a stale view's
        # error, then the requires_grad check)
        if t.__class__ is GradientEdge:
            capture.append(tuple(t))
            continue
        capture.append(edge_of(t))
        if not t._requires_grad and not t.requires_grad:  # (a view of a base requiring grad
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    captured = run_backward(edges, root_grads, retain_graph, create_graph, capture=capture)
    result = []
    for i in range(len(inputs)):
        g, version = captured.get(i, (None, 0))
        if g is None:
            if not allow_unused:
                raise RuntimeError(_errors.UNUSED_INPUT.format(i))
            result.append(None)
            continue
        # returned as computed, like PyTorch (e.g. the expanded gradient of a sum)
        if create_graph:
            pass
        elif g is getattr(inputs[i], "_data", None):
            g = inputs[i]  # (a formula gave the saved input back: cummaxmin_backward of an
            # empty input returns it, and PyTorch's grad is that very tensor)
        elif id(g) in given:
            g = given[id(g)]  # (a grad_output passed on unchanged: that very tensor)
        elif g.__class__ is np.ndarray and g.base is not None and (g.size or not _own_empty(g)):
            g = _no_grad_view(_to_tensor(g), _to_tensor(_owner(g)))
            g._vc[0] = version
        else:
            g = _to_tensor(g)
            g._vc[0] = version
        result.append(g)
    if materialize_grads:
        if any(r is None and t.__class__ is GradientEdge for r, t in zip(result, inputs)):
            raise RuntimeError("materialize_grads cannot be used when the given input is a "
                               "GradientEdge")
        result = [r if r is not None else _zeros_like(t, create_graph)
                  for r, t in zip(result, inputs)]
    return dict(zip(keys, result)) if as_dict else tuple(result)


# Note [Gradients that are views]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch's formulas run under no_grad (without create_graph), so a gradient a formula
# returns as a view of the incoming one (SumBackward0's expand) is a view made in no_grad
# mode: autograd.grad hands it out as such (``_is_view()``, a ``_base``), and an in-place
# write into it with grad mode on of a value that requires grad raises "A view was created
# in no_grad mode and is being modified inplace with grad mode enabled..." (``x.grad`` is a
# copy). Ours: a raw gradient with a zero stride (an expand), or, under a forward-AD level
# (where the formulas run on tensors), a gradient that is a view.
def _no_grad_view(t, base):
    from .inplace import make_views
    prev = _state.enabled
    _state.enabled = False
    try:
        make_views([t], base, "expand")
    finally:
        _state.enabled = prev
    return t


def _own_empty(g):
    """An empty gradient laid out by empty_strided (a copy's strides) is no view, though
    NumPy gives it a base (Note [Empty strides] in _ops/layout.py)."""
    from .._ops.layout import own_empty
    return own_empty(g)


def _owner(a):
    """The array that owns an array's memory (through as_strided's intermediate object)."""
    while True:
        b = a.base
        if b is not None and b.__class__ is not np.ndarray:
            b = getattr(b, "base", None)
        if b.__class__ is not np.ndarray:
            return a
        a = b


def _zeros_like(t, requires_grad):
    z = _to_tensor(np.zeros_like(t._data))
    if requires_grad:
        z.requires_grad_(True)
    return z


def _grad_with_tangents(outputs, inputs, grad_outputs, retain_graph, allow_unused,
                        materialize_grads):
    from . import forward_ad
    prev = getattr(_eager, "versions", False)
    _eager.versions = True  # (PyTorch runs these without a graph: eager formulas' versions)
    try:
        res = grad(outputs, inputs, grad_outputs, retain_graph=retain_graph, create_graph=True,
                   allow_unused=allow_unused, materialize_grads=materialize_grads)
    finally:
        _eager.versions = prev
    out = []
    for g, t in zip(res, inputs):
        if g is None:
            out.append(None)
            continue
        if g._data is getattr(t, "_data", None):  # (the input itself: see grad())
            out.append(t)
            continue
        tangent = forward_ad._tangent_or_none(g)
        d = _to_tensor(g._data)
        if g._view is not None:  # (Note [Gradients that are views])
            d = _no_grad_view(d, _to_tensor(g._view.base._data))
            d._view.dtype_view = g._view.dtype_view
        d._vc[0] = g._vc[0]  # (a formula's in-place write: Note [Gradient versions])
        if tangent is not None:
            detached = tangent.detach()
            if tangent._meta is not None and tangent._meta.get("zero_tensor"):
                # (PyTorch returns the zero tensor itself: ops on the gradient then follow
                # its kernels, an in-place op refuses; Note [Zero-tensor tangents])
                detached._meta["zero_tensor"] = True
            forward_ad._set_tangent(d, detached)
        out.append(d)
    return tuple(out)
