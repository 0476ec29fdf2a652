"""Saved tensors: PyTorch's SavedVariable, and the saved-tensor hooks stack.

Note [Saved-tensor hooks]
~~~~~~~~~~~~~~~~~~~~~~~~~
``saved_tensors_hooks(pack, unpack)`` makes every tensor a node saves from now on (an op's
inputs and outputs its formulas need, a custom Function's ``save_for_backward``) go
through ``pack`` at once and through ``unpack`` when backward needs it. Op nodes keep
their saved values as plain tuples (the hot path: Note [Version counter] in inplace.py);
only while a hook is active does ``dispatch`` replace their tensor slots by
``SavedTensor`` objects, which ``graph.unpack_saved`` knows how to open. So the hot path
pays one flag read (``state.extras``, shared with anomaly mode: see anomaly_mode.py).

The hooks stack is thread-local, like grad mode. An output is handed to ``pack`` as an
alias without ``grad_fn`` (as PyTorch does): the packed object may hold it without making
a node -> packed -> output -> node cycle. With hooks PyTorch does not check versions (it
cannot see through the packed object), and neither do we.
"""
import weakref

from .. import _errors
from . import grad_mode

_state = grad_mode.state


def _set_extras():
    """Recompute this thread's ``extras`` flag (Note [Saved-tensor hooks]): an instance
    attribute while hooks are active here, else the class default (anomaly mode)."""
    if _state.saved_hooks:
        _state.extras = True
    elif "extras" in _state.__dict__:
        del _state.extras


def push_hooks(pack, unpack):
    msg = _state.hooks_disabled
    if msg is not None:
        raise RuntimeError(msg)
    _state.saved_hooks = _state.saved_hooks + ((pack, unpack),)
    _set_extras()


def pop_hooks():
    _state.saved_hooks = _state.saved_hooks[:-1]
    _set_extras()


def current_hooks():
    hooks = _state.saved_hooks
    return hooks[-1] if hooks else None


class GuardedKey:
    """An index key saved by IndexBackward0 / IndexPutBackward0 whose index tensors PyTorch
    saves (Note [Saved index tensors] in _ops/_common.py): the key as the formulas take it,
    and each index tensor given by the caller with its position in the key and its version
    when saved, checked in order at unpacking."""
    __slots__ = ("key", "tensors", "versions")

    def __init__(self, key, tensors):
        self.key = key
        hooks = _state.saved_hooks
        if hooks:  # (packed as any saved tensor; PyTorch checks no version then)
            tensors = tuple((p, SavedTensor(t, False, 0, hooks[-1])) for p, t in tensors)
        self.tensors = tensors  # ((position in key, tensor or SavedTensor), ...)
        self.versions = None if hooks else tuple(t._vc[0] for _, t in tensors)

    def unpack(self, node, slot):
        if self.versions is None:  # (hooks: the key rebuilt from what unpack gives back)
            key = list(self.key)
            for p, saved in self.tensors:
                a = saved.unpack(node, True)
                key[p] = a if a.dtype == key[p].dtype else a.astype(key[p].dtype)
            return tuple(key)
        for (_, t), expected in zip(self.tensors, self.versions):
            if t._vc[0] != expected:
                from .graph import _modified_message
                raise RuntimeError(_modified_message(node, slot, t, t._vc[0], expected))
        return self.key

    def accessor(self, node=None):
        """PyTorch's ``_saved_indices``: a tensor per indexed dim, None for the others."""
        from .._tensor import _make
        given = {p: t.unpack(node) if t.__class__ is SavedTensor else t
                 for p, t in self.tensors}
        return tuple(None if k.__class__ is slice else given[p] if p in given else _make(k)
                     for p, k in enumerate(self.key))


class SavedTensor:
    """One saved tensor of a node (``node._raw_saved_<name>``; PyTorch's SavedVariable).

    Without hooks it holds the tensor (or, for a node's own output, the output's array:
    Note [Edges point backward]) and the version it was saved at; with hooks, the packed
    object and the unpack hook.
    """

    __slots__ = ("_value", "_version", "_vc", "_is_output", "_output_nr", "_packed",
                 "_unpack", "_hooked", "_freed", "_requires_grad", "_grad_fn", "_leaf_nr",
                 "_shape", "_fw")

    def __init__(self, tensor, is_output=False, output_nr=0, hooks=None):
        self._vc = tensor._vc
        self._version = tensor._vc[0]
        self._is_output = is_output
        self._output_nr = output_nr
        self._hooked = False
        self._freed = False
        self._packed = self._unpack = None
        self._requires_grad = tensor.requires_grad
        self._grad_fn = None if is_output else tensor._grad_fn
        if self._grad_fn is None and self._requires_grad and not is_output:
            self._grad_fn = weakref.ref(tensor._grad_accumulator())  # (a leaf's, held weakly)
        self._leaf_nr = tensor._output_nr
        self._shape = tensor._data.shape
        self._value = tensor._data if is_output else tensor
        self._fw = None
        if hooks is not None:  # default hooks see the tensor itself, history and all
            if tensor._meta is not None and tensor._meta.get("fw_grad") is not None and \
                    not is_output:
                # PyTorch's SavedVariable keeps the forward grad aside and gives it back on
                # unpack (a checkpoint's recomputed values carry their tangents)
                from .forward_ad import _generation
                self._fw = (_generation[0], tensor._meta["fw_grad"])
            self._pack_with(hooks[0], hooks[1], tensor)

    def _original(self):
        """What a pack hook registered later receives: an alias without history (PyTorch
        passes its saved data as is: no grad_fn, not requiring grad)."""
        from .._tensor import _make
        value = self._value
        t = _make(value if self._is_output else value._data)
        t._vc = self._vc
        return t

    def _pack_with(self, pack, unpack, original=None):
        packed = pack(self._original() if original is None else original)
        self._packed = packed
        self._unpack = unpack
        self._hooked = True
        self._value = None

    def register_hooks(self, *args):
        if len(args) != 2 or not all(callable(a) for a in args):
            raise TypeError(
                "register_hooks(): incompatible function arguments. The following argument "
                "types are supported:\n    1. (self: torch._C._autograd.SavedTensor, arg0: "
                "collections.abc.Callable, arg1: collections.abc.Callable) -> None\n\n"
                "Invoked with: " + ", ".join(repr(a) for a in (self,) + args))
        pack_hook, unpack_hook = args
        if self._freed:
            raise RuntimeError(
                "Calling register_hooks on a saved tensor after it has been freed. Saved "
                "intermediate values of the graph are freed when you call .backward() or "
                "autograd.grad(). Specify retain_graph=True if you need to backward through "
                "the graph a second time or if you need to access saved variables after "
                "calling backward.")
        if self._hooked:
            raise RuntimeError("Calling register_hooks on a saved tensor whose hooks have "
                               "already been set. Hint: only one pair of hooks is allowed at "
                               "a time.")
        self._pack_with(pack_hook, unpack_hook)

    def release(self):
        self._value = self._packed = self._unpack = None
        self._freed = True

    def unpack(self, node, raw=False):
        """The saved tensor for a formula (its array when ``raw``), version-checked when
        no hooks were used; ``node``: the node that saved it (for messages and outputs)."""
        if self._freed:
            raise RuntimeError(_errors.BACKWARD_TWICE)
        if self._hooked:
            t = self._unpack(self._packed)
            from .._tensor import Tensor
            if not isinstance(t, Tensor):
                raise TypeError(f"Output of saved tensor unpack_hook expected to be a Tensor "
                                f"but got result of type {type(t).__name__}")
            if raw:
                return t._data
            out = self._rewrap(t._data, node, t)
            fw = self._fw
            if fw is not None:
                from . import forward_ad
                if forward_ad._active_level() and fw[0] == forward_ad._generation[0]:
                    forward_ad._set_tangent(out, fw[1])
            return out
        if self._vc[0] != self._version:
            raise RuntimeError(_modified_message(self, node))
        if raw:
            return self._value if self._is_output else self._value._data
        if self._is_output:
            from .._tensor import _from_saved_output
            return _from_saved_output(self._value, node, self._output_nr)
        return self._value

    def _rewrap(self, data, node, t):
        """An unpacked tensor gets the saved tensor's history (so double backward works)."""
        from .._tensor import _make
        out = _make(data)
        out._vc = t._vc
        if self._is_output:
            out._grad_fn, out._output_nr, out._requires_grad = node, self._output_nr, True
        elif self._grad_fn.__class__ is weakref.ref:
            out._requires_grad, out._acc = True, self._grad_fn  # the saved leaf's AccumulateGrad
        elif self._grad_fn is not None:
            out._grad_fn, out._output_nr, out._requires_grad = \
                self._grad_fn, self._leaf_nr, True
        return out

    def __repr__(self):
        return f"<torch._C._autograd.SavedTensor object at {hex(id(self))}>"


def _current_grad_fn(t):
    """The saved input's grad_fn now, as PyTorch's data_.grad_fn() in the message: a view
    modified in place since reads as its regenerated AsStridedBackward0."""
    if t._view is not None:
        try:
            return t.grad_fn
        except RuntimeError:  # (a view whose history cannot be regenerated: as recorded)
            return t._grad_fn
    return t._grad_fn


def _modified_message(saved, node):
    from .. import _dtypes
    value = saved._value
    data = value if saved._is_output else value._data
    type_name = _dtypes.tensor_string(_dtypes.from_numpy(data.dtype))
    shape = _errors.shape_str(data.shape)
    now = saved._vc[0]
    if saved._is_output:
        diff = node.op.diff_outputs if hasattr(node, "op") else None
        fn, nr = (node if diff is None or saved._output_nr in diff else None), saved._output_nr
    else:
        fn, nr = _current_grad_fn(value), value._output_nr
    if fn is None:
        msg = _errors.SAVED_MODIFIED_LEAF.format(type=type_name, shape=shape, now=now,
                                                 saved=saved._version)
    else:
        from .graph import _short_name
        msg = _errors.SAVED_MODIFIED.format(type=type_name, shape=shape, nr=nr,
                                            op=_short_name(fn.name()), now=now,
                                            saved=saved._version)
    from .anomaly_mode import modified_message
    return modified_message(msg, saved._vc)


def node_extras(node, results):
    """Once per node made while ``state.extras`` is set (Note [Saved-tensor hooks]):
    pack its saved tensors with the active hooks, record the anomaly-mode traceback."""
    if _state.saved_hooks:
        pack_node(node, results)
    from .anomaly_mode import record_traceback
    record_traceback(node)


def pack_node(node, results):
    """Replace an op node's saved tensors by SavedTensors packed with the current hooks."""
    from .._tensor import Tensor
    saved = node._saved
    if not saved:
        return
    msg = _state.hooks_disabled
    if msg is not None:
        raise RuntimeError(msg)
    hooks = _state.saved_hooks[-1]
    op = node.op
    saved = list(saved)
    for i in op.tensor_slots:
        if isinstance(saved[i], Tensor):
            saved[i] = SavedTensor(saved[i], False, 0, hooks)
    for i, k in op.output_slots:
        if saved[i] is not None and saved[i].__class__ is not SavedTensor:
            saved[i] = SavedTensor(results[k], True, k, hooks)
    node._saved = tuple(saved)
    node._extra()["saved_objects"] = True


def raw_saved(node, index):
    """``node._raw_saved_<name>``: the SavedTensor of one slot, made on first access (op
    nodes keep plain values until then: Note [Saved-tensor hooks])."""
    from .._tensor import Tensor, _from_saved_output
    saved = node._saved
    if saved is None:
        s = SavedTensor.__new__(SavedTensor)
        s._freed = True
        s._hooked = False
        return s
    value = saved[index]
    if value is None or value.__class__ is SavedTensor:
        return value if value is not None else _NoneSaved()
    op = node.op
    if op.saved_kinds[index] == "output":
        k = op.outputs.index(op.saved_names[index])
        t = _from_saved_output(value, node, k)
        t._vc = node._out_vc[k]
        s = SavedTensor(t, True, k)
        if node._versions is not None:
            s._version = node._versions[index]
    elif isinstance(value, Tensor):
        s = SavedTensor(value)
        if node._versions is not None:
            s._version = node._versions[index]
    else:
        return value
    saved = list(saved)
    saved[index] = s
    node._saved = tuple(saved)
    node._extra()["saved_objects"] = True
    return s


class _NoneSaved:
    """A saved slot holding None (e.g. an input that needs no gradient)."""

    def register_hooks(self, *args):
        if len(args) != 2 or not all(callable(a) for a in args):
            raise TypeError(
                "register_hooks(): incompatible function arguments. The following argument "
                "types are supported:\n    1. (self: torch._C._autograd.SavedTensor, arg0: "
                "collections.abc.Callable, arg1: collections.abc.Callable) -> None\n\n"
                "Invoked with: " + ", ".join(repr(a) for a in (self,) + args))
        pack_hook, unpack_hook = args
        raise RuntimeError("Calling register_hooks on a saved tensor with value None is "
                           "forbidden")

    def __repr__(self):
        return f"<torch._C._autograd.SavedTensor object at {hex(id(self))}>"
