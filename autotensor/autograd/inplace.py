"""Views, the version counter, and in-place operations under autograd.

Note [Version counter]
~~~~~~~~~~~~~~~~~~~~~~
Every tensor has ``_vc``, a one-element list (``_version`` reads it) shared by all tensors
that alias the same memory as autograd sees it: a base, all its views, and ``detach()``ed
aliases (but not ``.data``, whose changes autograd deliberately does not see). Each
in-place op bumps it. A node remembers the counter's value of each saved tensor at save
time (only when it is not 0: most tensors are never modified); unpacking a saved tensor
whose counter moved on raises PyTorch's "modified by an inplace operation"
error instead of computing a wrong gradient (engine.unpack_saved).

Note [Views]
~~~~~~~~~~~~
A view op's result shares its input's ndarray memory (NumPy basic indexing, reshape when
possible, transpose, ...) and its version counter, and records ``_view``: a ViewInfo with
the *root* base (views of views point to the first tensor that owns the memory), how the
view was made (normal, under no_grad, by a multi-output op, in inference mode), and the
counter value at which the view's ``grad_fn`` was last brought up to date. Where the view
sits in the base's memory (size, stride, storage offset) is derived on demand from the two
arrays, so making a view costs nothing extra.

Note [CopySlices]
~~~~~~~~~~~~~~~~~
An in-place op on a view ``v`` of base ``b`` (``v = b[0]; v.mul_(2)``) is, for autograd,
the pure program ``b1 = b0.as_strided_scatter(op(b0.as_strided(geom)), geom)``: the base's
``grad_fn`` becomes a CopySlices node wrapping the op's node, whose first edge goes to the
base's previous history and whose other edges are the op's other inputs'. Backward of
CopySlices: take the incoming base gradient, run the wrapped node on its slice, write the
result for the view back into the slice, and pass the whole to the base's old history.
The view itself is then rebased on the new base history: its ``grad_fn`` becomes an
``AsStridedBackward0`` of the base (PyTorch's default mode).

Note [Lazy view rebase]
~~~~~~~~~~~~~~~~~~~~~~~
Other views of the same base are not tracked by the base (that would need forward
references and a cycle). Instead each view remembers the counter value its ``grad_fn``
was made at; reading ``grad_fn`` (which every op does through ``dispatch.edge_of``) when
the counter has moved on builds the AsStridedBackward0 node on the base's current history
then. Nodes built before the mutation stay in the graph for values computed before it.
"""
import functools
import math
import weakref

from .. import _errors
from .._backend import np
from . import grad_mode
from .graph import NO_EDGE, Node, _sequence, _short_name

_state = grad_mode.state

# How a view was created: decides whether in-place on it is allowed (PyTorch's CreationMeta).
DEFAULT, NO_GRAD_MODE, MULTI_OUTPUT, INFERENCE_MODE = "default", "no_grad", "multi_output", \
    "inference"
IN_CUSTOM_FUNCTION = "custom_function"  # an output of a custom Function that is a view


class ViewInfo:
    __slots__ = ("base", "version", "creation", "op_name", "multi", "offset", "dtype_view",
                 "nofw", "fw_base", "replay")

    def __init__(self, base, version, creation, op_name, multi=False, dtype_view=None):
        self.base = base
        # not a forward-differentiable view (make_dual's, unpack_dual's primal): it never
        # reads its base's tangent; its own views are forward views of it, ``fw_base``
        # (None: ``base``) (Note [Tangents of views] in forward_ad.py)
        self.nofw = False
        self.fw_base = None
        # "as_real" / "as_complex": the view reads the base's memory in another element type
        # (Note [Complex views] in _ops/complex_ops.py); geometry is in the view's elements
        self.dtype_view = dtype_view
        self.version = version
        self.creation = creation
        self.op_name = op_name
        self.multi = multi  # made by an op returning several views (split, unbind)
        self.offset = None  # storage offset, kept only where NumPy cannot tell it
        self.replay = None  # Note [View replay chains]


def make_views(results, source, op_name, multi=False):
    """Mark op results as views of ``source``'s root base (Note [Views])."""
    view = source._view
    base = view.base if view is not None else source
    inherited = False
    # PyTorch's CreationMeta, by the mode alone (whether or not the source requires grad)
    if _state.inference and (source._meta is None or not source._meta.get("inference")):
        creation = INFERENCE_MODE
    elif not _state.enabled:
        creation = NO_GRAD_MODE
    elif multi:
        creation = MULTI_OUTPUT
    else:
        creation = DEFAULT if view is None else view.creation
        inherited = creation is not DEFAULT
    if view is not None and view.creation is INFERENCE_MODE:
        creation = INFERENCE_MODE  # (PyTorch's propagate_creation_meta: it sticks)
        inherited = True
    vc = source._vc
    if source._meta is not None and source._meta.get("inference", False):
        # views of inference tensors are inference tensors, and not tracked as views
        for r in results:
            r._vc = vc
            r._meta = {"inference": True}
        return results
    for k, r in enumerate(results):
        r._vc = vc
        if r._meta is not None and "fw_grad" not in r._meta:
            # (a view of a ZeroTensor tangent stays one: Note [Zero-tensor tangents])
            r._meta = {"zero_tensor": True} if r._meta.get("zero_tensor") else None
        # for the errors: "Output 1 of Split", "Output 0 of Select" (a view of such a view)
        name = f"Output {k} of {_short_name(op_name)}" \
            if creation is MULTI_OUTPUT or inherited else op_name
        r._view = ViewInfo(base, vc[0], creation, name, multi,
                           view.dtype_view if view is not None else None)
        if view is not None and view.offset is not None and not r._data.size:
            r._view.offset = view.offset  # (an empty view of an empty slice: its offset)
        if view is not None and (view.nofw or view.fw_base is not None):
            r._view.fw_base = source if view.nofw else view.fw_base
        if view is not None and view.replay is not None:  # Note [View replay chains]
            r._view.replay = view.replay + (geometry(r),)
        # (a view made under no_grad requires grad while its root base does: read from the
        # base when asked, Tensor.requires_grad / stale_view_requires_grad / edge_of, as
        # PyTorch's DifferentiableViewMeta::requires_grad; its own flag stays off)
    sm = source._meta
    if sm is not None and ("conj" in sm or "neg" in sm):  # Note [Conjugate bit]
        for r in results:
            d = r._meta_dict()
            d.update((k, sm[k]) for k in ("conj", "neg") if k in sm)
    if _state.fw:
        _tangent_views(results, source, op_name, multi)
    return results


def _copy_raw_tangent(t, src):
    """The new tangent VariableTypeManual's copy_ gives a self without one from a broadcast
    source: ``src_t.broadcast_to(self.sizes())``, a view of src's tangent (kept, so shared,
    where it is laid out as self: Note [Tangent layout] in forward_ad.py); None otherwise."""
    from .forward_ad import _tangent_or_none
    if src._data.shape == t._data.shape:
        return None
    st = _tangent_or_none(src)
    if st is None:
        return None
    prev = _state.fw
    _state.fw = False
    try:
        return st.expand(t._data.shape)
    finally:
        _state.fw = prev


def _tangent_views(results, source, op_name, multi):
    """Views of a dual tensor carry views of its tangent (Note [Forward mode])."""
    st = source._meta.get("fw_grad") if source._meta is not None else None
    if st is None:
        return
    ts = [r._meta.get("fw_grad") if r._meta is not None else None for r in results]
    ts = [t for t in ts if t is not None and t._view is None and t is not st]  # (alias's)
    if ts:
        _state.fw = False
        try:
            make_views(ts, st, op_name, multi)
        finally:
            _state.fw = True


def geometry(t):
    """(size, stride, storage_offset) of tensor t within its root base, in elements."""
    return tuple(t._data.shape), t.stride(), t.storage_offset()


def refresh_view_grad_fn(view_tensor):
    """Note [Lazy view rebase]: bring a view's grad_fn up to date with its base."""
    info = view_tensor._view
    base = info.base
    vc = view_tensor._vc[0]
    if info.version == vc:
        return
    if info.creation in (NO_GRAD_MODE, MULTI_OUTPUT, IN_CUSTOM_FUNCTION, INFERENCE_MODE) and \
            (base._requires_grad or view_tensor._grad_fn is not None):
        raise RuntimeError(_creation_error(view_tensor, info, indirect=True))
    if not base._requires_grad and view_tensor._grad_fn is None:
        # (PyTorch's early return, before the version is recorded: the view regenerates its
        # node once its base requires grad, e.g. `v = b.view(1); v.exp_(); b.requires_grad_()`)
        return
    info.version = vc
    # (a view that had history is rebuilt even on a base that no longer requires grad,
    # e.g. after base.detach_(): PyTorch's AsStridedBackward0 then has no edge)
    node = _view_node(base, info, geometry(view_tensor))
    old_fn, old_nr = view_tensor._grad_fn, view_tensor._output_nr
    view_tensor._grad_fn = node
    view_tensor._requires_grad = True
    view_tensor._output_nr = 0
    move_retain_grad(view_tensor, old_fn, old_nr)
    m = view_tensor._meta
    if m is not None and m.get("hooked"):  # (its hook dict stays with the old node: the
        m["hooked"] = False                # next register_hook makes one on the new node)


def _view_node(base, info, geom):
    """The history of a view replayed on its base's current history: AsStridedBackward0 of
    the base, or for a view whose chain has a view in another element type, PyTorch's
    chained view_fn (Note [View replay chains])."""
    from .._ops.shape import AS_STRIDED
    if info.replay is None:
        return _as_strided_node(AS_STRIDED, base, geom, base._data.shape)
    from .._ops.complex_ops import VIEW_AS_COMPLEX, VIEW_AS_REAL
    from .._ops.dispatch import edge_of
    edge = edge_of(base)
    item = base._data.itemsize
    size, stride, offset = base._data.shape, tuple(s // item for s in base._data.strides), 0
    for step in info.replay:
        if step == "as_real":
            node = _replay_node(VIEW_AS_REAL, edge, {})
            size, stride, offset = size + (2,), tuple(2 * s for s in stride) + (1,), 2 * offset
        elif step == "as_complex":
            node = _replay_node(VIEW_AS_COMPLEX, edge, {})
            size, stride, offset = size[:-1], tuple(s // 2 for s in stride[:-1]), offset // 2
        else:
            node = _replay_node(AS_STRIDED, edge, {
                "size": step[0], "stride": step[1], "storage_offset": step[2] - offset,
                "layout": (tuple(size), tuple(stride))})
            size, stride, offset = step
        edge = (node, 0)
    return node


# Note [View replay chains]
# ~~~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch replays a view on its base by as_strided, unless a view in its chain changed
# the element type (view_as_real, view_as_complex: their ViewInfo has a view_fn, always).
# ViewInfo::chain then composes functions: a view made from a view with a view_fn appends
# as_strided to the view's own geometry; a view with a view_fn made from a view without
# one prepends as_strided to that input's geometry. So ``x.real`` of a root x replays as
# as_strided(view_as_real(x)), ``x.real.view_as(...)`` as two as_strided of it, and
# ``make_dual(x).real`` as as_strided(view_as_real(as_strided(x))): a stale view's grad_fn
# after an in-place write has one node per step. ``ViewInfo.replay`` lists the steps
# ("as_real", "as_complex", or a (size, stride, offset) in that step's elements), None
# for a plain as_strided replay. CopySlices reads the same memory either way.
def _replay_node(op, edge, params):
    node = object.__new__(op.node_cls)
    node._next = (edge,)
    node._seq = next(_sequence)
    node._hooks = None
    node._reduce = None
    node._out_vc = None
    node._saved = tuple(params[n] for n in op.saved_names)
    node._versions = None
    return node


def _as_strided_node(op, base, geom, base_shape):
    from .._ops.dispatch import edge_of
    size, stride, offset = geom
    item = base._data.itemsize
    layout = (tuple(base_shape), tuple(s // item for s in base._data.strides))
    return _replay_node(op, edge_of(base), {"size": size, "stride": stride,
                                            "storage_offset": offset, "layout": layout})


def move_retain_grad(t, old_fn, old_nr):
    """Note [retain_grad follows the tensor]: when an in-place op gives t a new grad_fn,
    its retain_grad hook moves from the old node to the new one (so ``.grad`` is the
    gradient of the latest version), while hooks from ``register_hook`` stay with the old
    node (PyTorch's update_tensor_hooks_on_new_gradfn)."""
    meta = t._meta
    if meta is None or not meta.get("retains_grad") or t._grad_fn is None:
        return
    if old_fn is not None and old_fn._hooks is not None:
        old_fn._hooks["retain"].pop(old_nr, None)
    t._grad_fn._extra()["retain"][t._output_nr] = weakref.ref(t)


def check_inplace(t, inputs=(), differentiable=True, inference=True):
    """PyTorch's checks before any in-place write (before the data changes).
    ``differentiable=False``: copy_ into an integer or bool tensor, which computes no
    requires_grad, so only the inference-tensor check applies. ``inference=False``: the
    caller refuses an inference tensor after the write (record_inplace), as PyTorch's
    version bump does."""
    if inference and t._meta is not None and t._meta.get("inference") and \
            not _state.inference:
        raise RuntimeError(INFERENCE_INPLACE)
    if not (_state.enabled and differentiable):
        return
    view = t._view
    if view is not None and view.creation is INFERENCE_MODE and not _state.inference and \
            (t._requires_grad or view.base._requires_grad or
             any(getattr(x, "requires_grad", False) for x in inputs)):
        raise RuntimeError(_creation_error(t, view))
    if view is not None and view.creation not in (DEFAULT, INFERENCE_MODE) and \
            (t._requires_grad or view.base._requires_grad or
             any(getattr(x, "requires_grad", False) for x in inputs)):
        # (PyTorch's direct message, before a stale view's grad_fn is brought up to date)
        raise RuntimeError(_creation_error(t, view))
    if view is not None and view.version != t._vc[0]:
        if t._grad_fn is None and view.creation is DEFAULT and view.base._grad_fn is not None:
            # (PyTorch's check_inplace reads the view's stored grad_fn, not a regenerated
            # one: a view that had no history when its base got one reads as a leaf that
            # requires grad, e.g. `v = b[0]; b.add_(w); v.mul_(2)` with w requiring grad)
            raise RuntimeError(_errors.LEAF_INPLACE)
        t.grad_fn  # noqa: B018  (a stale view raises PyTorch's errors here)
    if t._grad_fn is None and t._requires_grad:
        # PyTorch asks whether the base is a leaf, not whether it requires grad (a view that
        # was given requires_grad itself, e.g. make_dual's, reads as a view of a leaf)
        if view is not None and view.base._grad_fn is None:
            raise RuntimeError(_errors.VIEW_OF_LEAF_INPLACE)
        raise RuntimeError(_errors.LEAF_INPLACE)
    if view is not None:
        base = view.base
        # (PyTorch: the view requires grad and its base is a leaf; a view with history
        # still does after its base's detach_())
        if base._grad_fn is None and (base._requires_grad or t._requires_grad):
            raise RuntimeError(_errors.VIEW_OF_LEAF_INPLACE)


def autograd_checks_first(op):
    """An in-place op whose own checks (index ranges, dtypes, shapes, arguments) run
    before record_inplace: PyTorch's autograd kernel runs check_inplace (leaf, views)
    before the op's meta and kernel checks, so when the op fails without having written,
    autograd's error is raised in its place. (The argument parser's TypeErrors come
    before both; an error after the write keeps its own words.) Only for ops off the
    hot path: it costs a frame."""
    def checked(self, *args, **kwargs):
        vc = getattr(self, "_vc", None)
        before = vc[0] if vc is not None else None
        try:
            return op(self, *args, **kwargs)
        except (TypeError, OverflowError):
            raise  # (the argument parser's: "int too big to convert")
        except Exception:
            if vc is not None and vc[0] == before:
                check_inplace(self, (self,) + tuple(
                    a for a in (*args, *kwargs.values()) if hasattr(a, "_vc")))
            raise
    functools.update_wrapper(checked, op)
    return checked


def _creation_error(t, view, indirect=False):
    """PyTorch's handle_view_on_rebase: why an in-place write is refused for a view made
    this way, written to the view (direct) or to its base or another view of it
    (indirect, found when the view's grad_fn is next read: Note [Lazy view rebase])."""
    modified = "its base or another view of its base has been" if indirect else "is being"
    creation = view.creation
    if creation in (NO_GRAD_MODE, INFERENCE_MODE) or t._grad_fn is None:
        # (a view without a node was made with grad mode off or of a tensor without grad,
        # whatever its kind; a view of such a view made with grad mode on has a node
        # PyTorch names)
        prefix = f"{view.op_name} is a view of a view which was created in" \
            if t._grad_fn is not None else "A view was created in"
        mode = "inference mode" if creation is INFERENCE_MODE else "no_grad mode"
        normal = "in normal mode" if creation is INFERENCE_MODE else "with grad mode enabled"
        msg = f"{prefix} {mode} and {modified} modified inplace {normal}."
    else:
        msg = f"{view.op_name} is a view and {modified} modified inplace."
    if creation is MULTI_OUTPUT:
        return (f"{msg} This view is the output of a function that returns multiple views. "
                f"Such functions do not allow the output views to be modified inplace. You "
                f"should replace the inplace operation by an out-of-place one.")
    if creation is IN_CUSTOM_FUNCTION:
        return (f"{msg} This view was created inside a custom Function (or because an input "
                f"was returned as-is) and the autograd logic to handle view+inplace would "
                f"override the custom backward associated with the custom Function, leading "
                f"to incorrect gradients. This behavior is forbidden. You can fix this by "
                f"cloning the output of the custom Function.")
    block = "inference_mode" if creation is INFERENCE_MODE else "no_grad"
    return (f"{msg} Given that this use case is ambiguous and error-prone, it is forbidden. "
            f"You can clarify your code by moving both the view and the inplace either both "
            f"inside the {block} block (if you don't want the inplace to be tracked) or both "
            f"outside (if you want the inplace to be tracked).")


def has_internal_overlap(arr):
    """Some memory location is several elements of ``arr`` (an expanded array)."""
    return overlaps_itself(arr.shape, arr.strides)


def overlaps_itself(shape, strides):
    """aten's has_internal_overlap for a geometry: a dim of size > 1 with stride 0, unless
    the tensor has at most one element (c10 counts an empty tensor as contiguous, so
    in-place ops and CopySlices' backward accept an expanded (2, 0))."""
    return (math.prod(shape) > 1
            and any(st == 0 and n > 1 for n, st in zip(shape, strides)))


def written_positions(arr, write):
    """Where an indexing write into an expanded ``arr`` lands, as a ``where`` mask for
    record_inplace (None when arr does not overlap itself: the whole result is written).
    PyTorch writes only those elements, so the memory they share takes the written value,
    not the old one an unwritten element would copy back."""
    if not has_internal_overlap(arr):
        return None
    mask = np.zeros(arr.shape, dtype=bool)
    write(mask)
    return mask


def check_no_overlap(t, others):
    """aten's assert_no_overlap (index_put_, index_copy_, scatter_, put_...): an input that
    is self, or the same dense memory laid out alike, is refused too (partial overlap aside;
    a tensor that overlaps itself, e.g. expanded, is "too hard" unless it is self)."""
    for o in others:
        if hasattr(o, "_data") and (o is t or _same_data(o._data, t._data)
                                    and _dense(o._data)):
            raise RuntimeError(INPUT_OVERLAP)
    check_input_overlap(t, others)


def check_no_internal_overlap(t, src=None):
    """Writing into an expanded view would write one memory location several times (but
    aten's copy_ returns at once when ``src`` is self's very data: x[...] = x)."""
    arr = t._data
    if has_internal_overlap(arr) and not (src is not None and _same_data(arr, src._data)):
        raise RuntimeError(OVERLAP_MESSAGE)


def _same_data(a, b):
    """aten's is_same_data: one memory, same dtype, sizes and strides (a dim of size 1
    aside: NumPy's strides there are not PyTorch's)."""
    return (a.dtype == b.dtype and a.shape == b.shape
            and a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
            and all(x == y for x, y, n in zip(a.strides, b.strides, a.shape) if n != 1))


INFERENCE_INPLACE = ("Inplace update to inference tensor outside InferenceMode is not allowed."
                     "You can make a clone to get a normal tensor before doing inplace update."
                     "See https://github.com/pytorch/rfcs/pull/17 for more details.")
OVERLAP_MESSAGE = ("unsupported operation: more than one element of the written-to tensor "
                   "refers to a single memory location. Please clone() the tensor before "
                   "performing the operation.")

# Ops PyTorch lets write into expanded (self-overlapping) tensors: they read nothing back.
OVERLAP_OK = frozenset(("zero_", "fill_", "masked_fill", "index_put", "index_fill", "tril",
                        "triu"))  # (tril_/triu_: their own check, Note [Triangular in place])
# Ops whose source may not be self even in full (aten's assert_no_overlap, not partial).
NO_FULL_OVERLAP = frozenset(("index_copy", "index_add", "index_reduce_", "scatter",
                             "scatter_add", "scatter_reduce", "put"))


def write_inplace(t, value, op_name=None, where=True):
    """Copy the out-of-place result into t's memory, with PyTorch's shape and cast checks."""
    dst = t._data
    if value.__class__ is not np.ndarray:
        value = np.asarray(value)
    check_write(dst, value)
    if value.dtype.kind == "V" and dst.dtype.kind in "iu":
        value = value.astype(np.float32)  # (bfloat16 -> integers as float32 does: x86 cvtt)
    np.copyto(dst, value, casting="unsafe", where=where)


def check_write(dst, value):
    """The checks of write_inplace, which raise before anything is written or recorded."""
    if value.shape != dst.shape:
        check_output_shape(dst.shape, value.shape)
    if value.dtype != dst.dtype:
        check_cast(value.dtype, dst.dtype)


# c10's canCast: no complex into a non-complex, no float into an integer, nothing but a bool
# into a bool; int64 into uint8 is fine (NumPy's "same_kind" refuses it); "V" is bfloat16
_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "V": 2, "c": 3}


def check_cast(src, dst):
    """TensorIterator's check that an op's result type (NumPy dtype ``src``) can be written
    into an output of dtype ``dst`` (no float into an integer, nothing into a bool...)."""
    if src != dst and _KIND_RANK[src.kind] > _KIND_RANK[dst.kind]:
        from .._dtypes import from_numpy, scalar_name
        raise RuntimeError(f"result type {scalar_name(from_numpy(src))} can't be cast "
                           f"to the desired output type {scalar_name(from_numpy(dst))}")


def check_output_shape(dst_shape, *shapes):
    """TensorIterator's shape checks of an in-place op: the operands broadcast, and to the
    output's shape."""
    try:
        shape = np.broadcast_shapes(dst_shape, *shapes)
    except ValueError:
        shape = dst_shape  # (TensorIterator names the shape so far and the next operand's)
        for s in shapes:
            try:
                shape = np.broadcast_shapes(shape, s)
            except ValueError:
                raise _broadcast_error(shape, s) from None
    if shape != dst_shape:
        raise RuntimeError(f"output with shape [{_errors.shape_str(dst_shape)}] doesn't "
                           f"match the broadcast shape [{_errors.shape_str(shape)}]")


def check_inplace_order(t, inputs, op_name=None):
    """PyTorch's checks of an in-place op in its order, for an op whose kernel failed or
    cannot run: autograd's (leaf, views), then TensorIterator's memory overlaps, then the
    shapes (the caller raises its own error after these). An inference tensor's refusal is
    the version bump's, after the kernel: not here."""
    check_inplace(t, inputs, inference=False)
    from .._ops.dispatch import view_errors_first
    view_errors_first(*inputs)  # (collect_next_edges: a stale input view's error, then the
    if op_name not in OVERLAP_OK:  # kernel's checks)
        check_no_internal_overlap(t)
    check_input_overlap(t, inputs[1:])
    check_output_shape(t._data.shape, *(np.shape(getattr(x, "_data", x)) for x in inputs[1:]))


def _broadcast_error(a, b):
    from .._ops.dispatch import broadcast_error
    return broadcast_error(a, b)


def check_input_overlap(t, others):
    """PyTorch refuses an in-place op whose input partially aliases the output."""
    dst = t._data
    for o in others:
        if hasattr(o, "_data") and o is not t and o._data is not dst and \
                np.may_share_memory(o._data, dst) and _partial_overlap(dst, o._data):
            raise RuntimeError(INPUT_OVERLAP)


INPUT_OVERLAP = ("unsupported operation: some elements of the input tensor and the written-to "
                 "tensor refer to a single memory location. Please clone() the tensor before "
                 "performing the operation.")


def _partial_overlap(a, b):
    """PyTorch's get_overlap_status(a, b) == Partial: both non-overlapping and dense, their
    memory ranges intersect, and they are not the same elements with the same strides (an
    operand that is not dense, e.g. expanded or strided, is "too hard" and passes)."""
    if a.size == 0 or b.size == 0 or not _dense(a) or not _dense(b):
        return False
    a0, b0 = _begin(a), _begin(b)
    a1, b1 = a0 + a.size * a.itemsize, b0 + b.size * b.itemsize
    if a0 == b0 and a1 == b1:
        return _torch_strides(a) != _torch_strides(b)
    return a0 < b1 and b0 < a1


def _torch_strides(a):
    """Strides as PyTorch would give them: NumPy gives a broadcast size-1 dim stride 0,
    PyTorch (expand, unsqueeze) the size times the stride of the dim after it; a size-1 dim
    with a stride of its own keeps it (a transposed (2, 1) tensor is (1, 1) in both)."""
    st = list(a.strides)
    for i in range(len(st) - 1, -1, -1):
        if a.shape[i] == 1 and st[i] == 0:
            st[i] = a.shape[i + 1] * st[i + 1] if i + 1 < len(st) else a.itemsize
    return st


def _dense(a):
    """Its elements fill a contiguous block of memory exactly once."""
    expected = a.itemsize
    for stride, size in sorted((st, sz) for sz, st in zip(a.shape, a.strides) if sz != 1):
        if stride != expected:
            return False
        expected *= size
    return True


def _begin(a):
    """The address of a dense array's lowest element."""
    return a.__array_interface__["data"][0] + sum(
        st * (sz - 1) for sz, st in zip(a.shape, a.strides) if st < 0)


def original_self(t):
    """A tensor holding t's value and history from before an in-place op, for formulas of
    the op's other inputs that need ``self``: PyTorch saves ``self.clone()``, recorded
    (CloneBackward0, what a double backward's graph shows) when self requires grad."""
    from .._tensor import _make
    if t._requires_grad and _state.enabled:
        from .._ops.pointwise import clone
        return clone(t)
    o = _make(t._data.copy())
    o._grad_fn = t._grad_fn
    o._requires_grad = t._requires_grad
    o._output_nr = t._output_nr
    if _state.fw:
        from .forward_ad import _set_tangent, _tangent_or_none
        tangent = _tangent_or_none(t)
        if tangent is not None:
            # (PyTorch saves self.clone(), a dual tensor: Note [Backward ops without a
            # forward rule] in engine.py)
            _set_tangent(o, tangent.clone())
    return o


def check_overlaps(t, inputs, op_name):
    """TensorIterator's overlap checks of an in-place op writing ``t`` (before its shape
    checks); a stale view among the inputs raises its error first, as PyTorch collects the
    node's edges before its kernel runs."""
    try:
        if op_name not in OVERLAP_OK:
            check_no_internal_overlap(t, inputs[1] if op_name == "copy_" else None)
        if len(inputs) > 1 and op_name not in ("fill_", "masked_fill", "index_put"):
            # (fill_ and masked_fill_ read their 0-d value first; index_put_ checks its own)
            if op_name in NO_FULL_OVERLAP:
                check_no_overlap(t, inputs[1:])
            else:
                check_input_overlap(t, inputs[1:])
    except RuntimeError:
        from .._ops.dispatch import view_errors_first
        view_errors_first(*inputs)
        raise


def _refuse_integral_clone(t):
    """PyTorch's in-place op whose formulas need self saves self.clone() before its kernel
    runs: the clone of an integer or bool tensor with history (given by fill_ from a tensor
    requiring grad) gets no CloneBackward0, set_history refuses its dtype."""
    from .._dtypes import from_numpy, scalar_name
    raise RuntimeError(f"Autograd not support dtype: {scalar_name(from_numpy(t._data.dtype))}")


def check_saved_self(op, t, inputs, params=()):
    """The refusal of _refuse_integral_clone, for an in-place op whose own checks (the
    cast of a float result into t) would raise first here but come after it in PyTorch."""
    from .._ops import dispatch
    if not (_state.enabled and t._data.dtype.kind in "biu" and t.requires_grad):
        return
    mask = dispatch.requires_grad_mask(inputs)
    if mask and any(v is t for v in dispatch.make_node(op, inputs, params, (t._data,),
                                                       mask)._saved):
        _refuse_integral_clone(t)


def _refuse_zero_grad(op, t):
    """A write into a zero-tensor gradient (``.grad.add_``) raises PyTorch's error (Note
    [Zero-tensor gradients] in _zero_grad.py): copy_'s own check, or the fallback's."""
    from .._zero_grad import IMMUTABLE_COPY, IMMUTABLE_ZERO_, is_zero
    if is_zero(t._data):
        raise RuntimeError(IMMUTABLE_COPY if op.name == "copy_" else IMMUTABLE_ZERO_)


def record_inplace(op, t, inputs, params, value, where=True):
    """Apply an in-place op: t <- value, and rewrite t's history (Note [CopySlices])."""
    from .._ops import dispatch
    nondiff_copy = op.name == "copy_" and t._data.dtype.kind not in "fcV"
    check_inplace(t, inputs, not nondiff_copy, False)
    if (t._meta is not None and t._meta.get("zero_tensor")) or (
            t._view is not None and t._view.base._meta is not None and
            t._view.base._meta.get("zero_tensor")):
        # (a zero-tensor tangent, unpacked: ZeroTensor's kernels refuse every write, after
        # autograd's checks; Note [Zero-tensor tangents] in _ops/dispatch.py)
        from .forward_ad import ZERO_TENSOR_IMMUTABLE, ZERO_TENSOR_ZERO_
        raise RuntimeError(ZERO_TENSOR_IMMUTABLE if op.name == "copy_" else ZERO_TENSOR_ZERO_)
    if t._data.__class__ is not np.ndarray:
        _refuse_zero_grad(op, t)
    check_overlaps(t, inputs, op.name)
    mask = dispatch.requires_grad_mask(inputs) if _state.enabled else 0
    if mask and nondiff_copy:
        # PyTorch's copy_ records nothing into an integer or bool tensor; its generated
        # in-place ops record whatever self's dtype (mul_ of an integer tensor given
        # history by fill_, masked_fill_ of one by a 0-d tensor requiring grad)
        mask = 0
    node = None
    if mask:
        if t._view is not None:
            t.grad_fn  # noqa: B018  (a stale view's history first: Note [Lazy view rebase])
            # CopySlices passes the view's gradient on to the base, which requires grad
            # from now on: the node computes self's gradient even if the view had none
            mask |= 1
        node = dispatch.make_node(op, inputs, params, (t._data,), mask)
        saved = node._saved
        if any(v is t for v in saved):
            # formulas that need self get its value (and history) from before the write;
            # another input that is t itself stays t, and its version check fails at
            # backward as PyTorch's (x.mul_(x))
            if t._data.dtype.kind in "biu" and t.requires_grad:
                _refuse_integral_clone(t)
            orig = original_self(t)
            saved = node._saved = tuple(
                orig if v is t and kind == "input" and src == 0 else v
                for v, kind, src in zip(saved, op.saved_kinds, op.saved_src))
            node._versions = tuple(v._vc[0] if hasattr(v, "_vc") else None for v in saved)
    if _state.extras:
        from . import graph
        if graph._allow_mutation_ctx is not None:
            graph._allow_mutation_ctx.maybe_clone(t)
    new_tangent = refused = None
    view = t._view
    rebased = False
    if _state.fw:  # computed from the values before the write (Note [Forward mode])
        from .forward_ad import inplace_tangent
        history = node
        if node is not None and view is not None:
            # PyTorch's rule reads self after rebase_history: the tangent's graph has an
            # edge to the view's new node (AsStridedBackward0), which it keeps alive (and
            # with it the name in a saved output's version error), not to the op's node
            check_write(t._data, np.asarray(value))  # (errors come before any history)
            dispatch.set_input_metadata(node, inputs, t._data.shape, t._data.dtype)
            _rebase_view(t, view, node, t._grad_fn, t._output_nr)
            history, rebased = t._grad_fn, True
        try:
            new_tangent = inplace_tangent(op, t, inputs, params, value, history)
        except Exception as e:  # noqa: BLE001
            # PyTorch computes an in-place op's tangent after the write: an error of its
            # rule (igamma_ has none; pow_ by a bool tensor) comes after the write, the
            # version bump and the new history
            refused = e
    write_inplace(t, value, op.name, where)
    if t._meta is None or not t._meta.get("inference"):
        t._vc[0] += 1  # inference tensors have no version counter
    elif not _state.inference:
        # (PyTorch's VariableVersion::bump refuses it, after the kernel wrote: no history)
        raise RuntimeError(INFERENCE_INPLACE)
    if _state.extras:  # Note [Anomaly mode], Note [Saved-tensor hooks]
        from .anomaly_mode import _enabled, record_inplace as remember
        if _enabled:
            remember(t._vc, op.name)
        if node is not None:
            from .saved import node_extras
            node_extras(node, (t,))
    if mask:
        _record_history(op, t, inputs, node, view, rebased)
    if new_tangent is not None:
        if refused is None and len(inputs) > 1:
            refused = _stale_primal_error(op, t, inputs)
        if refused is None:  # (a refused read of a primal leaves the tangent as it was)
            refused = _write_tangent(op, t, inputs, where, node, new_tangent)
    if refused is not None:
        raise refused
    return t


def _write_tangent(op, t, inputs, where, node, new_tangent):
    """Write an in-place op's new tangent into t's; returns assign_tangent's error (raised
    last, as the rule's own errors)."""
    from .forward_ad import _tangent_or_none, assign_tangent
    refused = None
    if op.__dict__.get("tangent_copied"):
        # (the rule computes the new tangent out of place and copy_()s it into self's,
        # whose overlap check refuses an expanded one: tril_/triu_, whose kernel wrote the
        # expanded primal in place)
        cur = _tangent_or_none(t)
        if cur is not None and has_internal_overlap(cur._data):
            return RuntimeError(OVERLAP_MESSAGE)
    try:
        assign_tangent(t, new_tangent, inputs, where,
                       _copy_raw_tangent(t, inputs[1]) if op.name == "copy_" else None)
    except RuntimeError as e:
        refused = e
    if node is not None and op.saves_output:
        # the saved result keeps self's tangent, as an out-of-place op's (propagate)
        node._fw_out = (_tangent_or_none(t),)
    return refused


def _record_history(op, t, inputs, node, view, rebased):
    """t's new history after an in-place op recorded as ``node``: its grad_fn, or for a
    view CopySlices on the base."""
    from .._ops import dispatch
    if op.saves_output:
        node._out_vc = (t._vc,)
        # (no versions yet: every saved tensor was at version 0 when the node was made)
        before = node._versions or tuple(0 if hasattr(v, "_vc") else None
                                         for v in node._saved)
        node._versions = tuple(t._vc[0] if k == "output" else v
                               for k, v in zip(op.saved_kinds, before))
    if rebased:
        view.version = t._vc[0]
    else:
        dispatch.set_input_metadata(node, inputs, t._data.shape, t._data.dtype)
    old_fn, old_nr = t._grad_fn, t._output_nr
    if view is None:
        t._grad_fn = node
        t._output_nr = 0
        t._requires_grad = True
        move_retain_grad(t, old_fn, old_nr)
        return
    if not rebased:
        _rebase_view(t, view, node, old_fn, old_nr)
    if op.saves_output:
        # PyTorch's message for this saved output names the view's node while it lives
        node._out_vc = (t._vc, weakref.ref(t._grad_fn))


def _primal_reads(op):
    """The inputs whose primal an op's forward rule reads (PyTorch unpacks ``other_p``, a
    ``_fw_primal`` view, whatever tangents are defined): for an elementwise rule the inputs
    its formulas save, for a rule function the inputs it names without ``_t``."""
    reads = op.__dict__.get("primal_reads")
    if reads is None:
        rule = op.jvp
        if rule == "elementwise":
            reads = {op.saved_src[k] for f in op.formulas if f is not None for k in f[1]
                     if op.saved_kinds[k] == "input"}
        elif callable(rule) and hasattr(rule, "__code__"):
            names = rule.__code__.co_varnames[:rule.__code__.co_argcount]
            reads = {i for i, n in enumerate(op.inputs) if n in names}
        else:
            reads = set()
        reads = op.__dict__["primal_reads"] = tuple(sorted(i for i in reads if i > 0))
    return reads


def _stale_primal_error(op, t, inputs):
    """PyTorch computes an in-place op's tangent after the write and the rebase: its rule's
    read of another input's primal regenerates that input's history when the input is a
    view of the written memory, and a multi-output (split) or no_grad view refuses it.
    Under no_grad nothing is read: ``_fw_primal`` collects its input's edges only when
    compute_requires_grad holds (grad mode on), so PyTorch computes there."""
    if not _state.enabled:
        return None
    for i in _primal_reads(op):
        x = inputs[i] if i < len(inputs) else None
        if getattr(x, "_view", None) is not None and x is not t and x._vc is t._vc:
            try:
                refresh_view_grad_fn(x)
            except RuntimeError as e:
                return e
    return None


def mark_custom_view(t, node, multi=False):
    """An output of a custom Function that is a view: in-place ops on it are refused
    (Note [Custom Function outputs] in function.py); ``node``: the Function's node when
    the output has it as grad_fn (None when not recorded or not differentiable)."""
    view = t._view
    view.creation = MULTI_OUTPUT if multi else IN_CUSTOM_FUNCTION
    if node is not None:
        view.op_name = f"Output {t._output_nr} of {_short_name(node.name())}"
    view.version = t._vc[0]


def rebase_custom(t, node):
    """A view marked dirty by a custom Function: the base's history goes through
    CopySlices wrapping the Function's node (as for a built-in in-place op on a view)."""
    view = t._view
    if node._next[0][0] is None and t.requires_grad:
        from .._ops.dispatch import edge_of
        node._next = (edge_of(t),) + node._next[1:]
    _rebase_view(t, view, node, t._grad_fn, t._output_nr)


def _rebase_view(t, view, node, old_fn, old_nr):
    """An in-place op on view t: its base's history goes through CopySlices(node), and t
    reads as AsStridedBackward0 of the base (Note [CopySlices]); retain_grad hooks move."""
    base = view.base
    geom = geometry(t)
    cs = CopySlices(base, geom, node, view.dtype_view)
    base_fn, base_nr = base._grad_fn, base._output_nr
    base._grad_fn = cs
    base._requires_grad = True
    base._output_nr = 0
    move_retain_grad(base, base_fn, base_nr)
    t._grad_fn = _view_node(base, view, geom)
    t._requires_grad = True
    t._output_nr = 0
    view.version = t._vc[0]
    move_retain_grad(t, old_fn, old_nr)


class _ViewInput(Node):
    """Stands for the view input of a node wrapped by CopySlices (never executed)."""

    __slots__ = ()

    def __init__(self):
        self._next = ()
        self._seq = -1
        self._hooks = None


class CopySlices(Node):
    """Note [CopySlices]: the base's history after an in-place op on one of its views."""

    __slots__ = ("fn", "geom", "base_shape", "base_strides", "dtype_view")

    def __init__(self, base, geom, fn, dtype_view=None):
        from .._ops.dispatch import edge_of
        self._next = (edge_of(base),) + fn._next[1:]
        # The wrapped node's first edge (the view's old history) is replaced by this node's
        # own edge to the base; like PyTorch, drop it (it only has to say "compute it": a
        # view without history, of a base that requires no grad, has its formula skipped,
        # igamma_'s refusal of self included)
        if fn._next[0][0] is not None:
            fn._next = ((_VIEW_INPUT, 0),) + fn._next[1:]
        self._seq = next(_sequence)
        self._hooks = None
        self.fn = fn
        self.geom = geom
        self.dtype_view = dtype_view  # geom is in the elements of the base read this way
        arr = base._data
        if dtype_view is not None:
            from .._ops.complex_ops import _as_complex_array, _as_real_array
            arr = _as_real_array(arr) if dtype_view == "as_real" else _as_complex_array(arr)
        self.base_shape = arr.shape
        item = arr.itemsize
        self.base_strides = tuple(s // item for s in arr.strides)

    def name(self):
        return "torch::autograd::CopySlices"

    def apply(self, grads, F):
        if self.fn is None:  # released by an earlier backward (PyTorch: fn = nullptr)
            raise RuntimeError(_errors.BACKWARD_TWICE)
        grad = grads[0]
        size, stride, offset = self.geom
        if overlaps_itself(size, stride):
            # the view overlaps itself (expanded): PyTorch's backward refuses to scatter
            raise RuntimeError(OVERLAP_MESSAGE)
        layout = (self.base_shape, self.base_strides)
        if self.dtype_view is not None:  # the base's gradient read as the view reads it
            from .._ops.complex_ops import cx
            grad = (cx(F).view_as_real if self.dtype_view == "as_real" else
                    cx(F).view_as_complex)(grad)
        g_view = F.strided_view(grad, layout, size, stride, offset)
        res = self.fn.apply((g_view,), F)
        g_slice = res[0]
        if g_slice is None:
            g_slice = F.zeros_like(g_view)
        out = F.strided_scatter(grad, g_slice, layout, size, stride, offset)
        if self.dtype_view is not None:
            out = (cx(F).view_as_complex if self.dtype_view == "as_real" else
                   cx(F).view_as_real)(out)
        return (out,) + tuple(res[1:])

    def release(self):
        # as PyTorch's CopySlices::release_variables, the wrapped node goes: a second
        # backward raises even when the failure was in a node further down
        if self.fn is not None:
            self.fn.release()
            self.fn = None


_ = NO_EDGE


_VIEW_INPUT = _ViewInput()
