"""The Tensor: a NumPy array plus autograd slots. Thin on purpose.

The semantics live elsewhere: ops and their derivatives in ``_ops/`` (one module per family),
recording in ``_ops/dispatch.py``, views and in-place rules in ``autograd/inplace.py``,
the backward pass in ``autograd/engine.py``. Methods and operators are attached to this
class by ``_methods.py`` straight from the public functions, so ``a * b`` costs one
Python call.
"""
import warnings
import weakref

from . import _dtypes, _errors, _memory_format
from ._backend import np
from .autograd import grad_mode

_new = object.__new__
_state = grad_mode.state


class Size(tuple):
    """``torch.Size``: a tuple of ints that prints as ``torch.Size([2, 3])``."""

    __slots__ = ()

    def __repr__(self):
        return f"torch.Size({list(self)})"

    __str__ = __repr__

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, key):
        r = tuple.__getitem__(self, key)
        return Size(r) if isinstance(key, slice) else r

    def __add__(self, other):
        return Size(tuple(self) + tuple(other))


class Tensor:
    """A multi-dimensional array that can record the operations applied to it."""

    __slots__ = ("_data", "_requires_grad", "_grad_fn", "_output_nr", "_grad", "_vc",
                 "_view", "_acc", "_meta", "__weakref__")
    __array_priority__ = 1000  # NumPy defers to our operators (ndarray * Tensor -> Tensor)

    def __new__(cls, *args, **kwargs):
        # The legacy constructor: torch.Tensor([[1., 0.]]) or torch.Tensor(2, 3).
        from ._creation import legacy_tensor_data
        return _make(legacy_tensor_data(args, kwargs))

    # ---- storage and metadata ----------------------------------------------------------
    @property
    def shape(self):
        return Size(self._data.shape)

    def size(self, dim=None):
        if dim is None:
            return Size(self._data.shape)
        shape = self._data.shape
        if not shape:  # (PyTorch wraps no dim of a 0-d tensor here)
            raise _errors.no_dims_error(dim)
        return shape[_errors.wrap_dim(dim, len(shape))]

    def dim(self):
        return self._data.ndim

    @property
    def ndim(self):
        return self._data.ndim

    ndimension = dim

    def numel(self):
        return self._data.size

    nelement = numel

    @property
    def dtype(self):
        return _dtypes.from_numpy(self._data.dtype)

    @property
    def device(self):
        return device("cpu")

    @property
    def is_cuda(self):
        return False

    def is_floating_point(self):
        k = self._data.dtype.kind
        return k == "f" or (k == "V" and self._data.dtype.name == "bfloat16")  # (ml_dtypes)

    def is_complex(self):
        return self._data.dtype.kind == "c"

    def element_size(self):
        return self._data.itemsize

    def stride(self, dim=None):
        d = self._data
        item = d.itemsize
        strides = tuple(s // item for s in d.strides)
        if not d.size and d.ndim and not any(strides) and not self._numpy_strides() and \
                not _views_memory(d):
            # (NumPy 2 zeroes a fresh empty array's strides, which stand for contiguous ones:
            # Note [Empty strides] in _ops/layout.py; an empty view of a non-empty tensor
            # keeps its own, e.g. an expanded 0-d gradient's zeros, and one made from a
            # NumPy array the array's, as tensor_from_numpy)
            from ._ops.layout import c_strides
            strides = c_strides(d.shape)
        if dim is None:
            return strides
        if not strides:
            raise _errors.no_dims_error(dim)
        return strides[_errors.wrap_dim(dim, len(strides))]

    def _numpy_strides(self):
        """Whether this empty tensor (or the base it views) was made from a NumPy array."""
        t = self._view.base if self._view is not None else self
        return t._meta is not None and t._meta.get("numpy_strides", False)

    def storage_offset(self):
        view = self._view
        if view is not None and view.offset is not None:
            return view.offset  # an empty slice: NumPy does not move its data pointer
        if not self._data.size and self._meta is not None and "offset" in self._meta:
            return self._meta["offset"]  # (a detached one)
        base = self._root_array()
        if base is self._data:
            return 0
        return (_address(self._data) - _address(base)) // self._data.itemsize

    def _root_array(self):
        """The array that owns the memory (a detached alias remembers its source's)."""
        view = self._view
        owner = view.base if view is not None else self
        meta = owner._meta
        if meta is not None and "root" in meta:
            return meta["root"]
        return owner._data

    def data_ptr(self):
        return _address(self._data)

    def _in_storage(self):
        """(storage array, offset, sizes, strides) in elements, as PyTorch pickles and deep-
        copies a tensor (Note [PyTorch's file format] in serialization.py), or None where
        the memory is not one contiguous 1-D storage to describe it in."""
        d = self._data
        if d.__class__ is not np.ndarray or d.dtype.kind == "V" or not d.size:
            return None
        root = self._root_array()
        item = d.itemsize
        if root.__class__ is np.ndarray and not root.flags.c_contiguous:
            while isinstance(root.base, np.ndarray):  # (NumPy's owner of the memory)
                root = root.base
        if root.__class__ is not np.ndarray or root.dtype != d.dtype or \
                not root.flags.c_contiguous or any(st % item for st in d.strides):
            return None
        offset, rem = divmod(_address(d) - _address(root), item)
        strides = tuple(st // item for st in d.strides)
        last = offset + sum((n - 1) * st for n, st in zip(d.shape, strides))
        if rem or offset < 0 or any(st < 0 for st in strides) or last >= root.size:
            return None
        return root, offset, d.shape, strides

    def untyped_storage(self):
        return _Storage(self._root_array())

    def is_contiguous(self, memory_format=None):
        if memory_format is None or memory_format is _memory_format.contiguous_format:
            return _is_contiguous(self._data)
        _memory_format._check(memory_format, "is_contiguous")
        return _memory_format.is_contiguous(self._data.shape, self.stride(), memory_format)

    # ---- conversion ----------------------------------------------------------------------
    def item(self):
        if self._data.size != 1:
            raise RuntimeError(
                f"a Tensor with {self._data.size} elements cannot be converted to Scalar")
        return self._data.reshape(-1)[0].item()

    def tolist(self):
        if self._data.__class__ is not np.ndarray and _zero_grad(self._data):
            from ._zero_grad import NO_STORAGE_TOLIST
            raise RuntimeError(NO_STORAGE_TOLIST)
        return self._data.tolist()

    def numpy(self, *, force=False):
        if self._requires_grad and not force:
            raise RuntimeError(_errors.NUMPY_REQUIRES_GRAD)
        if self._data.__class__ is not np.ndarray and _zero_grad(self._data):
            from ._zero_grad import NO_NUMPY
            if not force:
                raise RuntimeError(NO_NUMPY)
            return np.zeros_like(self._data.view(np.ndarray))  # (materialized)
        m = self._meta
        if m is not None and not force:  # (Note [Conjugate bit]: PyTorch's lazy bits)
            for bit, name in (("conj", "conjugate"), ("neg", "negative")):
                if m.get(bit):
                    raise RuntimeError(f"Can't call numpy() on Tensor that has {name} bit set. "
                                       f"Use tensor.resolve_{bit}().numpy() instead.")
        return _as_numpy(self._data)

    def __array__(self, dtype=None, copy=None):
        if self._data.__class__ is not np.ndarray and _zero_grad(self._data):
            from ._zero_grad import NO_NUMPY
            raise RuntimeError(NO_NUMPY)  # (PyTorch's __array__ is numpy())
        if dtype is not None and dtype != self._data.dtype:
            return self._data.astype(dtype)
        return self._data.copy() if copy else _as_numpy(self._data)

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def _scalar_or_raise(self):
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self._data.reshape(-1)[0]

    def __bool__(self):
        if self._data.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._data.reshape(-1)[0])

    def __float__(self):
        if self._requires_grad and _state.enabled:
            _warn_scalar_of_grad()
        return float(self._scalar_or_raise())

    def __int__(self):
        return int(self._scalar_or_raise())

    def __complex__(self):
        if self._requires_grad and _state.enabled:
            _warn_scalar_of_grad()
        return complex(self._scalar_or_raise())

    def __index__(self):
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._data.reshape(-1)[0])

    def __hash__(self):
        return id(self)

    def __repr__(self, *, tensor_contents=None):
        from ._printing import tensor_repr
        gf = self.grad_fn
        meta = self._meta
        tangent = meta.get("fw_grad") if meta is not None else None  # a dual tensor
        if tangent is None and self._view is not None and _state.fw:
            from .autograd.forward_ad import view_tangent
            tangent = view_tangent(self)  # (Note [Tangents of views])
        return tensor_repr(self._data, self.dtype,
                           grad_fn_name=type(gf).__name__ if gf is not None else None,
                           requires_grad=self._requires_grad,
                           extra=() if tangent is None else (f"tangent={tangent}",))

    __str__ = __repr__

    def __format__(self, spec):
        if self._data.ndim == 0 and type(self) is Tensor:  # f"{loss}" is the number
            return format(self._data.item(), spec)
        return object.__format__(self, spec)

    def __reduce_ex__(self, proto):
        where = self._in_storage()
        if where is not None:  # (as PyTorch's: the whole storage, a copy of its own)
            return (_rebuild_in, (where[0].copy(),) + where[1:] + (self._requires_grad,))
        return (_rebuild, (self._data.copy(), self._requires_grad))

    def __deepcopy__(self, memo):
        if not self.is_leaf:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) "
                               "support the deepcopy protocol at the moment.  If you were "
                               "attempting to deepcopy a module, this may be because of a "
                               "torch.nn.utils.weight_norm usage, see "
                               "https://github.com/pytorch/pytorch/pull/103001")
        where = self._in_storage()
        if where is None:
            t = _make(self._data.copy(), requires_grad=self._requires_grad)
        else:  # (PyTorch deep-copies the storage, once per memo, and sets the same geometry)
            root = where[0]
            copied = memo.get(id(root))
            if copied is None:
                copied = memo[id(root)] = root.copy()
                memo.setdefault(id(memo), []).append(root)  # (keeps the id valid)
            t = _rebuild_in(copied, *where[1:], self._requires_grad)
        if self._grad is not None:
            t._grad = self._grad.__deepcopy__(memo)
        if type(self) is not Tensor:
            t.__class__ = type(self)
        memo[id(self)] = t
        return t

    # ---- autograd state ------------------------------------------------------------------
    @property
    def requires_grad(self):
        view = self._view
        if view is not None:
            # a view of a tensor that requires grad does too (PyTorch's rule)
            return self._requires_grad or view.base._requires_grad
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, flag):
        if flag and self._grad_fn is None and self._data.dtype.kind not in "fcV":
            raise RuntimeError(_errors.REQUIRES_GRAD_DTYPE_SETTER)
        self.requires_grad_(flag)

    def requires_grad_(self, requires_grad=True):
        if self._grad_fn is not None:
            if not requires_grad:
                raise RuntimeError(
                    "you can only change requires_grad flags of leaf variables. If you want to "
                    "use a computed variable in a subgraph that doesn't require "
                    "differentiation use var_no_grad = var.detach().")
            return self
        if requires_grad and self._meta is not None and self._meta.get("inference") and \
                not _state.inference:  # (TensorImpl::set_requires_grad's check comes first)
            raise RuntimeError("Setting requires_grad=True on inference tensor outside "
                               "InferenceMode is not allowed.")
        if requires_grad and self._data.dtype.kind not in "fcV":  # (V: bfloat16)
            raise RuntimeError(_errors.REQUIRES_GRAD_DTYPE)
        self._requires_grad = bool(requires_grad)
        return self

    @property
    def is_leaf(self):
        view = self._view
        if view is not None and view.version != self._vc[0]:
            return self.grad_fn is None  # a stale view: PyTorch's view errors, if any
        return self._grad_fn is None

    @property
    def grad_fn(self):
        view = self._view
        if view is not None and view.version != self._vc[0]:
            from .autograd.inplace import refresh_view_grad_fn
            refresh_view_grad_fn(self)
        return self._grad_fn

    @property
    def output_nr(self):
        return self._output_nr

    @property
    def grad(self):
        if self._grad_fn is not None and not self.retains_grad and self._grad is None:
            warnings.warn(
                "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. "
                "Its .grad attribute won't be populated during autograd.backward(). If you "
                "indeed want the .grad field to be populated for a non-leaf Tensor, use "
                ".retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by "
                "mistake, make sure you access the leaf Tensor instead. See "
                "github.com/pytorch/pytorch/pull/30531 for more informations. (Triggered "
                "internally at /pytorch/build/aten/src/ATen/core/TensorBody.h:499.)",
                UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            if type(value) is not Tensor and not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad "
                                f"of type {type(value).__name__}")
            if value._data.dtype != self._data.dtype:
                raise RuntimeError(_errors.GRAD_DTYPE.format(
                    _dtypes.cpp_name(_dtypes.from_numpy(value._data.dtype)),
                    _dtypes.scalar_name(_dtypes.from_numpy(self._data.dtype))))
            if value._data.shape != self._data.shape:
                raise RuntimeError(_errors.GRAD_SIZE.format(
                    _errors.shape_str(value._data.shape), _errors.shape_str(self._data.shape)))
        self._grad = value

    @grad.deleter
    def grad(self):
        self._grad = None

    @property
    def data(self):
        """The same storage without autograd history (prefer ``detach()``)."""
        t = _make(self._data)
        t._vc = [0]  # .data does not share the version counter (the documented trap)
        return t

    @data.setter
    def data(self, value):
        self._data = value._data

    @property
    def _version(self):
        """How many in-place ops modified this memory (Note [Version counter])."""
        if self._meta is not None and self._meta.get("inference"):
            raise RuntimeError("Inference tensors do not track version counter.")
        return self._vc[0]

    @property
    def _base(self):
        view = self._view
        return view.base if view is not None else None

    def _is_view(self):
        return self._view is not None

    def _is_zerotensor(self):
        """Whether this stands for PyTorch's _efficientzerotensor: a zero tangent (Note
        [Zero-tensor tangents] in _ops/dispatch.py) or a zero gradient (Note [Zero-tensor
        gradients] in _zero_grad.py)."""
        if self._data.__class__ is not np.ndarray and _zero_grad(self._data):
            return True
        return self._meta is not None and self._meta.get("zero_tensor", False)

    @property
    def retains_grad(self):
        return self._meta is not None and self._meta.get("retains_grad", False)

    def _meta_dict(self):
        if self._meta is None:
            self._meta = {}
        return self._meta

    def retain_grad(self):
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self._grad_fn is None or self.retains_grad:
            return
        # (grad_fn first: a stale view raises PyTorch's errors before anything is retained)
        self.grad_fn._extra()["retain"][self._output_nr] = weakref.ref(self)
        self._meta_dict()["retains_grad"] = True

    def register_hook(self, hook):
        """``hook(grad)`` runs when the gradient w.r.t. this tensor is computed; it may
        return a replacement gradient."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        # PyTorch reads grad_fn (a stale view's errors: Note [Lazy view rebase]) only on the
        # first call, after making the tensor's hook dict: a later call never raises them,
        # and after a first call that raised, its hooks go to a dict no node reads
        from .autograd.graph import _HookDict, add_hook
        m = self._meta_dict()
        if m.get("orphan_hooks") is not None:
            return add_hook(m["orphan_hooks"], hook)
        if m.setdefault("hooked", False):
            view = self._view
            if view is not None and view.version != self._vc[0]:
                # (a stale view's later hooks join its hook dict on the node it had; the
                # lazy rebase gives it a new node and a new dict: Note [Lazy view rebase])
                fn = self._grad_fn
            else:
                try:
                    fn = self.grad_fn
                except RuntimeError:
                    fn = self._grad_fn
        else:
            m["hooked"] = True
            try:
                fn = self.grad_fn
            except RuntimeError:
                m["orphan_hooks"] = _HookDict()
                raise
        if fn is None:
            return add_hook(m.setdefault("hooks", _HookDict()), hook)
        return fn._register_tensor_prehook(self._output_nr, hook)

    def register_post_accumulate_grad_hook(self, hook):
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf "
                               "tensors")
        from .autograd.graph import _HookDict, add_hook
        hooks = self._meta_dict().setdefault("post_acc_hooks", _HookDict())
        return add_hook(hooks, hook)

    def _grad_accumulator(self):
        """This leaf's AccumulateGrad, made on demand and held weakly (Note [Edges point
        backward])."""
        ref = self._acc
        node = ref() if ref is not None else None
        if node is None:
            node = AccumulateGrad(self)
            self._acc = weakref.ref(node)
        return node

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        _backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def detach(self):
        """A tensor sharing storage and version counter, cut from the graph."""
        t = _make(self._data)
        t._vc = self._vc
        # (not a view: PyTorch's non-differentiable view; views of it are views of it)
        t._meta = {"root": self._root_array()}  # (root: storage_offset)
        if not self._data.size:
            if self._numpy_strides():
                t._meta["numpy_strides"] = True  # (an empty one keeps its strides: stride())
            t._meta["offset"] = self.storage_offset()
        m = self._meta
        if m is not None and ("conj" in m or "neg" in m):  # Note [Conjugate bit]
            t._meta.update((k, m[k]) for k in ("conj", "neg") if k in m)
        return t

    def detach_(self):
        if self._view is not None:
            raise RuntimeError("Can't detach views in-place. Use detach() instead. If you are "
                               "using DistributedDataParallel (DDP) for training, and "
                               "gradient_as_bucket_view is set as True, gradients are views "
                               "of DDP buckets, and hence detach_() cannot be called on these "
                               "gradients. To fix this error, please refer to the "
                               "Optimizer.zero_grad() function in torch/optim/optimizer.py "
                               "as the solution.")
        if self._grad_fn is not None:  # (nodes made before now that saved this tensor
            # refuse to use it: SavedVariable's "detached in-place" error, graph.py)
            from ._ops.dispatch import _sequence
            self._meta_dict()["detached_seq"] = next(_sequence)
        self._grad_fn = None
        self._requires_grad = False
        self._output_nr = 0
        if self._meta is not None:
            self._meta.pop("fw_grad", None)  # (the tangent goes too, as with detach())
        return self

    def is_inference(self):
        return self._meta is not None and self._meta.get("inference", False)

    @property
    def is_sparse(self):
        return False

    # (every autotensor tensor is a dense strided CPU tensor: PyTorch's other kinds' flags)
    is_sparse_csr = is_meta = is_mps = is_xpu = is_ipu = is_xla = is_mtia = is_maia = \
        is_vulkan = is_mkldnn = is_quantized = is_nested = property(lambda self: False)

    @property
    def volatile(self):
        import warnings
        warnings.warn("volatile was removed (Variable.volatile is always False)", stacklevel=2)
        return False

    @property
    def grad_dtype(self):
        """The dtype a gradient of this tensor is expected to have: its own."""
        return self.dtype

    def is_pinned(self, device=None):
        return False

    def is_shared(self):
        return False

    def share_memory_(self):
        return self

    def pin_memory(self, device=None):
        raise RuntimeError("Cannot access accelerator device when none is available.")

    def to_dense(self, dtype=None, *, masked_grad=None):
        return self if dtype is None else self.to(dtype)

    def sparse_dim(self):
        return 0

    def dense_dim(self):
        return self._data.ndim

    def const_data_ptr(self):
        return self.data_ptr()

    def is_set_to(self, tensor):
        """Same memory, shape and strides."""
        return (self.data_ptr() == tensor.data_ptr() and self.shape == tensor.shape and
                self.stride() == tensor.stride() and self.dtype is tensor.dtype)

    def dim_order(self, *, ambiguity_check=False):
        """Dims from the outermost in memory to the innermost (stable for equal strides)."""
        strides = self.stride()
        return tuple(sorted(range(len(strides)), key=lambda d: -strides[d]))

    def as_subclass(self, cls):
        """This tensor's data and graph seen as an instance of ``cls`` (a Tensor subclass)."""
        from ._ops.shape import _alias
        out = _alias(self)  # (PyTorch's alias: AliasBackward0, the same strides)
        out.__class__ = cls
        return out

    @property
    def layout(self):
        from ._memory_format import strided
        return strided

    def get_device(self):
        return -1

    def cpu(self):
        return self

    def cuda(self, *args, **kwargs):
        raise AssertionError("Torch not compiled with CUDA enabled")

    def type(self, dtype=None, non_blocking=False):
        if dtype is None:
            return _dtypes.legacy_type_name(self.dtype)
        if isinstance(dtype, str) or hasattr(dtype, "_legacy_dtype"):
            from ._legacy import legacy_dtype
            dtype = legacy_dtype(dtype)
        return self.to(dtype)


def _address(arr):
    return arr.__array_interface__["data"][0]


def _is_contiguous(arr):
    """PyTorch's rule: strides match the C-order strides, ignoring dims of size 1."""
    if arr.flags.c_contiguous:
        return True
    expected = arr.itemsize
    for size, stride in zip(reversed(arr.shape), reversed(arr.strides)):
        if size == 0:
            return True
        if size != 1:
            if stride != expected:
                return False
            expected *= size
    return True


class _Storage:
    __slots__ = ("_array",)

    def __init__(self, array):
        self._array = array

    def data_ptr(self):
        return _address(self._array)

    def nbytes(self):
        return self._array.nbytes

    def size(self):
        return self._array.nbytes


class device:
    """``torch.device``: only 'cpu' exists so far (the backend seam is in _backend.py)."""

    __slots__ = ("type", "index")

    def __init__(self, type="cpu", index=None):
        if isinstance(type, device):
            type, index = type.type, type.index
        else:
            from ._devices import parse
            type, idx = parse(type)
            index = idx if idx is not None else index
        self.type = type
        self.index = index

    def __repr__(self):
        return f"device(type='{self.type}')" if self.index is None else \
            f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))


def _as_numpy(d):
    """The array numpy() hands out: NumPy 2 zeroes the strides of the empty array PyTorch
    makes for an empty tensor (Note [Empty strides] in _ops/layout.py)."""
    if d.size or not any(d.strides):
        return d
    return np.lib.stride_tricks.as_strided(d, d.shape, (0,) * d.ndim, subok=True)


def view_source(t):
    """The array a view op computes empty ``t``'s view from: a fresh one given the
    contiguous strides ``stride()`` shows (Note [Empty strides] in _ops/layout.py)."""
    if t._numpy_strides():
        return t._data
    from ._ops.layout import view_source
    return view_source(t._data)


def _make(data, requires_grad=False):
    """Wrap an ndarray in a new leaf Tensor (no copy)."""
    t = _new(Tensor)
    t._data = data
    t._requires_grad = requires_grad
    t._output_nr = 0
    t._grad_fn = t._grad = t._view = t._acc = None
    t._vc = [0]
    t._meta = {"inference": True} if _inference_seen and _state.inference else None
    return t


_scalar_warned = []  # float()/complex() of a tensor requiring grad warned (once a process)


def _warn_scalar_of_grad():
    """PyTorch's TORCH_WARN_ONCE in float() and complex() (not int(), bool() or item())."""
    if not _scalar_warned:
        _scalar_warned.append(True)
        warnings.warn("Converting a tensor with requires_grad=True to a scalar may lead to "
                      "unexpected behavior.\nConsider using tensor.detach() first.",
                      UserWarning, stacklevel=3)


_inference_seen = False  # inference mode was entered once (Note [Sticky mode flags])


def _note_inference():
    global _inference_seen
    _inference_seen = True


def _from_saved_output(data, node, output_nr):
    """A saved output unpacked for double backward: same values, grad_fn the node itself
    (none for an output the op does not differentiate: frexp's exponent, an LU's pivots)."""
    t = _make(data)
    vcs = getattr(node, "_out_vc", None)
    if vcs is not None:  # (the output's own version counter, as SavedVariable's unpack
        t._vc = vcs[output_nr]  # gives: an in-place change of it shows in double backward)
    diff = node.op.diff_outputs if hasattr(node, "op") else None
    if diff is not None and output_nr not in diff:
        return t
    t._grad_fn = node
    t._requires_grad = True
    t._output_nr = output_nr
    return t


Tensor._from_saved_output = staticmethod(_from_saved_output)


def _rebuild(data, requires_grad):
    return _make(data, requires_grad)


def _rebuild_in(storage, offset, sizes, strides, requires_grad):
    """A tensor over ``storage`` (a C-contiguous array) at PyTorch's geometry."""
    storage = storage.reshape(-1)
    item = storage.itemsize
    data = np.lib.stride_tricks.as_strided(storage[offset:], tuple(sizes),
                                           tuple(st * item for st in strides))
    t = _make(data, requires_grad)
    if data.size != storage.size or offset:
        t._meta = {"root": storage}  # (storage_offset(), untyped_storage() as PyTorch's)
    return t


def is_tensor(obj):
    return isinstance(obj, Tensor)


__all__ = ["Tensor", "Size", "device", "is_tensor"]
_ = np


from .autograd import graph as _graph  # noqa: E402  (graph needs Tensor first)
from .autograd.engine import backward as _backward  # noqa: E402
from ._zero_grad import is_zero as _zero_grad  # noqa: E402
from ._ops.layout import views_memory as _views_memory  # noqa: E402

AccumulateGrad = _graph.AccumulateGrad
_graph.Tensor, _graph._from_saved_output = Tensor, _from_saved_output
