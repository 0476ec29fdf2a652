"""``save``/``load`` in PyTorch's file format, without PyTorch.

Note [PyTorch's file format]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~
``torch.save`` writes an uncompressed zip archive whose entries sit under one folder
(``<name>/``, the file's base name, or ``archive/`` for file objects):

* ``data.pkl``: the object, pickled with protocol 2. A tensor is pickled as the call
  ``torch._utils._rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad,
  OrderedDict())`` and a parameter as ``torch._utils._rebuild_parameter(tensor,
  requires_grad, OrderedDict())``. A storage is a *persistent id*
  ``('storage', torch.FloatStorage, key, 'cpu', numel)``; its bytes are the entry
  ``data/<key>``, aligned to 64 bytes. Tensors that share memory share one storage, so views
  stay views of one another after loading.
* ``version`` (``3``), ``.format_version`` (``1``), ``.storage_alignment`` (``64``),
  ``byteorder`` (``little``), ``.data/serialization_id``.

We write the same archive, naming PyTorch's globals (``torch._utils._rebuild_tensor_v2``,
``torch.FloatStorage``, ``torch.float32``, ``torch.Size``, ...) without importing torch, so
``torch.load`` reads our files with ``weights_only=True``; and we read PyTorch's, mapping
those names back to our functions.

``weights_only=True`` (the default, as in PyTorch >= 2.6) unpickles through an allowlist:
only the globals a state dict needs (tensor rebuilders, storages, dtypes, ``OrderedDict``,
``torch.Size``, ``torch.device``, a few builtins) can be named, so a malicious file cannot
make ``pickle`` call ``os.system`` or any other function. ``weights_only=False`` unpickles
anything, which runs whatever code the file names: ask for it only for files you trust.
"""
import builtins
import collections
import io
import os
import pickle
import struct
import zipfile

from . import _dtypes
from ._backend import np
from ._tensor import Size, Tensor, _make, device

__all__ = ["save", "load", "add_safe_globals", "get_safe_globals"]

_STORAGE_DTYPES = {
    "DoubleStorage": "float64", "FloatStorage": "float32", "HalfStorage": "float16",
    "LongStorage": "int64", "IntStorage": "int32", "ShortStorage": "int16",
    "CharStorage": "int8", "ByteStorage": "uint8", "BoolStorage": "bool",
    "ComplexFloatStorage": "complex64", "ComplexDoubleStorage": "complex128",
}
_DTYPE_STORAGES = {v: k for k, v in _STORAGE_DTYPES.items()}
_ALIGNMENT = 64


class _Global:
    """A global name to write into the pickle (``torch._utils._rebuild_tensor_v2``), so
    the file names PyTorch's functions without this module importing them."""

    _instances = {}

    def __new__(cls, module, name):
        key = (module, name)
        inst = cls._instances.get(key)
        if inst is None:
            inst = cls._instances[key] = object.__new__(cls)
            inst.module, inst.name = module, name
        return inst

    def __call__(self, *args):  # pickle requires reduce functions to be callable
        raise TypeError(f"{self.module}.{self.name} is only a name to pickle")

    __name__ = "_Global"


class _StorageRef:
    """One storage to save: a flat array and its key."""

    __slots__ = ("key", "array", "dtype_name")

    def __init__(self, key, array, dtype_name):
        self.key, self.array, self.dtype_name = key, array, dtype_name


def _root(arr):
    while isinstance(arr.base, np.ndarray):
        arr = arr.base
    return arr


def _address(arr):
    return arr.__array_interface__["data"][0]


class _Pickler(pickle._Pickler):
    """Protocol-2 pickler that writes tensors, dtypes, sizes and devices under PyTorch's
    names and storages as persistent ids (Note [PyTorch's file format])."""

    dispatch = dict(pickle._Pickler.dispatch)

    def __init__(self, file):
        super().__init__(file, protocol=2)
        self.storages = {}     # id(root array) -> _StorageRef
        self.refs = []         # keeps roots alive (ids stay unique) while pickling

    def _save_global_name(self, obj):
        self.write(pickle.GLOBAL + f"{obj.module}\n{obj.name}\n".encode("utf-8"))
        self.memoize(obj)

    dispatch[_Global] = _save_global_name

    def persistent_id(self, obj):
        if isinstance(obj, _StorageRef):
            return ("storage", _Global("torch", _DTYPE_STORAGES[obj.dtype_name]), obj.key,
                    "cpu", obj.array.size)
        return None

    def _storage_of(self, arr):
        """The storage holding ``arr`` and ``arr``'s element offset in it."""
        root = _root(arr)
        item = arr.itemsize
        offset, rem = divmod(_address(arr) - _address(root), item)
        usable = (root.dtype == arr.dtype and root.flags.c_contiguous and rem == 0
                  and offset >= 0 and all(s >= 0 for s in arr.strides))
        if usable:
            ref = self.storages.get(id(root))
            if ref is None:
                ref = self.storages[id(root)] = _StorageRef(
                    str(len(self.storages)), root.reshape(-1), arr.dtype.name)
                self.refs.append(root)
            return ref, offset, tuple(s // item for s in arr.strides)
        # memory we cannot describe as (storage, offset, strides): a storage of its own
        flat = np.ascontiguousarray(arr)
        key = f"copy-{id(arr)}"
        ref = self.storages.get(key)
        if ref is None:
            ref = self.storages[key] = _StorageRef(str(len(self.storages)), flat.reshape(-1),
                                                   arr.dtype.name)
            self.refs.append(flat)
        return ref, 0, tuple(s // item for s in flat.strides)

    def _tensor_reduce(self, t):
        arr = t._data
        if arr.dtype.name not in _DTYPE_STORAGES:
            raise pickle.PicklingError(f"cannot save a tensor of dtype {arr.dtype.name}")
        ref, offset, stride = self._storage_of(arr)
        if arr.size == 0:  # NumPy's strides of empty arrays are arbitrary; PyTorch's contiguous
            stride = tuple(int(np.prod(arr.shape[i + 1:])) for i in range(arr.ndim))
        return (_Global("torch._utils", "_rebuild_tensor_v2"),
                (ref, offset, tuple(arr.shape), stride, bool(t._requires_grad),
                 collections.OrderedDict()))

    def reducer_override(self, obj):
        if isinstance(obj, Tensor):
            if type(obj).__name__ == "Parameter":
                plain = _make(obj._data)
                return (_Global("torch._utils", "_rebuild_parameter"),
                        (plain, bool(obj._requires_grad), collections.OrderedDict()))
            if type(obj) is not Tensor:
                raise pickle.PicklingError(f"cannot save a {type(obj).__name__}")
            return self._tensor_reduce(obj)
        if isinstance(obj, _dtypes.dtype):
            return _Global("torch", obj.name), ()
        if type(obj) is Size:
            return (_Global("torch", "Size"), (tuple(obj),))
        if isinstance(obj, device):
            return (_Global("torch", "device"), (str(obj),))
        return NotImplemented

    # a _Global inside a reduce tuple is written by the dispatch entry above; a bare
    # _Global returned as the whole reduce value means "this object is that global"
    def save_reduce(self, func, args, *rest, obj=None, **kw):
        if isinstance(func, _Global) and args == () and not rest:
            self._save_global_name(func)
            if obj is not None:
                self.memoize(obj)
            return
        super().save_reduce(func, args, *rest, obj=obj, **kw)


def _archive_name(f):
    if isinstance(f, (str, os.PathLike)):
        name = os.path.basename(os.fspath(f)).split(".")[0]
        return name or "archive"
    return "archive"


def _write_entry(zf, name, data):
    """An uncompressed entry whose data starts at a multiple of 64 bytes (as PyTorch's)."""
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_STORED
    header = 30 + len(name.encode("utf-8"))
    start = zf.fp.tell() + header
    pad = (-(start + 4)) % _ALIGNMENT
    info.extra = struct.pack("<HH", 0x4246, pad) + b"Z" * pad  # PyTorch's "FB" padding field
    zf.writestr(info, data)


def save(obj, f, pickle_module=pickle, pickle_protocol=2, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    """Save ``obj`` in PyTorch's zip format (Note [PyTorch's file format])."""
    buf = io.BytesIO()
    pickler = _Pickler(buf)
    pickler.dump(obj)
    prefix = _archive_name(f) + "/"
    own = isinstance(f, (str, os.PathLike))
    fh = open(f, "wb") if own else f
    try:
        with zipfile.ZipFile(fh, "w", zipfile.ZIP_STORED) as zf:
            _write_entry(zf, prefix + "data.pkl", buf.getvalue())
            _write_entry(zf, prefix + ".format_version", b"1")
            _write_entry(zf, prefix + ".storage_alignment", b"64")
            _write_entry(zf, prefix + "byteorder", b"little")
            for ref in sorted(pickler.storages.values(), key=lambda r: int(r.key)):
                _write_entry(zf, prefix + "data/" + ref.key, ref.array.tobytes())
            _write_entry(zf, prefix + "version", b"3\n")
            _write_entry(zf, prefix + ".data/serialization_id",
                          str(int.from_bytes(os.urandom(16), "little")).zfill(40).encode())
    finally:
        if own:
            fh.close()


# ---- loading ---------------------------------------------------------------------------
def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks,
                       metadata=None):
    """A tensor viewing ``storage`` (a flat array): tensors of one storage share memory."""
    item = storage.itemsize
    if not size:
        arr = storage[storage_offset:storage_offset + 1].reshape(())
    else:
        arr = np.lib.stride_tricks.as_strided(storage[storage_offset:], shape=tuple(size),
                                              strides=tuple(s * item for s in stride))
    t = _make(arr)
    if t._meta is None:
        t._meta = {"root": storage}  # storage_offset() and untyped_storage() see the storage
    else:
        t._meta["root"] = storage
    if requires_grad:
        t.requires_grad_(True)
    return t


def _rebuild_parameter(data, requires_grad, backward_hooks, state=None):
    from .nn.parameter import Parameter
    p = Parameter(data, requires_grad)
    if state:
        for k, v in state.items():
            setattr(p, k, v)
    return p


def _make_device(spec, index=None):
    return device(spec) if index is None else device(spec, index)


def _make_size(dims=()):
    return Size(dims)


# PyTorch's names -> ours. Everything here is safe to call on untrusted input.
_TORCH_GLOBALS = {
    ("torch._utils", "_rebuild_tensor_v2"): _rebuild_tensor_v2,
    ("torch._utils", "_rebuild_parameter"): _rebuild_parameter,
    ("torch._utils", "_rebuild_parameter_with_state"): _rebuild_parameter,
    ("torch", "Size"): _make_size,
    ("torch", "device"): _make_device,
    ("collections", "OrderedDict"): collections.OrderedDict,
    ("collections", "Counter"): collections.Counter,
    ("builtins", "set"): builtins.set,
    ("builtins", "frozenset"): builtins.frozenset,
    ("builtins", "bytearray"): builtins.bytearray,
    ("builtins", "complex"): builtins.complex,
    ("builtins", "slice"): builtins.slice,
    ("builtins", "range"): builtins.range,
}
for _d in _dtypes.all_dtypes:
    _TORCH_GLOBALS[("torch", _d.name)] = _d
_TORCH_GLOBALS[("torch", "float")] = _dtypes.float32
_TORCH_GLOBALS[("torch", "double")] = _dtypes.float64
_TORCH_GLOBALS[("torch", "long")] = _dtypes.int64
_TORCH_GLOBALS[("torch", "half")] = _dtypes.float16
for _n in _STORAGE_DTYPES:
    _TORCH_GLOBALS[("torch", _n)] = _n  # the storage type travels as its name

_user_safe_globals = {}


def add_safe_globals(safe_globals):
    """Allow these classes/functions in ``weights_only`` loads (``(obj, "module.name")`` pairs
    name them explicitly)."""
    for g in safe_globals:
        if isinstance(g, tuple):
            obj, name = g
            module, _, attr = name.rpartition(".")
        else:
            obj, module, attr = g, g.__module__, g.__qualname__
        _user_safe_globals[(module, attr)] = obj


def get_safe_globals():
    return list(_user_safe_globals.values())


def _weights_only_message(detail):
    return (
        "Weights only load failed. In PyTorch 2.6, we changed the default value of the "
        "`weights_only` argument in `torch.load` from `False` to `True`. Re-running "
        "`torch.load` with `weights_only` set to `False` will likely succeed, but it can result "
        "in arbitrary code execution. Do it only if you got the file from a trusted source.\n"
        f"\n\n{detail}\n\nCheck the documentation of torch.load to learn more about types "
        "accepted by default with weights_only "
        "https://pytorch.org/docs/stable/generated/torch.load.html.")


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, zf, prefix, weights_only, map_location):
        super().__init__(file, encoding="utf-8")
        self._zf, self._prefix = zf, prefix
        self._weights_only = weights_only
        self._map_location = map_location
        self._storages = {}

    def find_class(self, module, name):
        key = (module, name)
        if key in _TORCH_GLOBALS:
            return _TORCH_GLOBALS[key]
        if key in _user_safe_globals:
            return _user_safe_globals[key]
        if module.startswith("autotensor"):
            return super().find_class(module, name) if not self._weights_only else \
                self._refuse(module, name)
        if self._weights_only:
            return self._refuse(module, name)
        if module == "torch" or module.startswith("torch."):
            import importlib
            mod = importlib.import_module("autotensor" + module[len("torch"):])
            return getattr(mod, name)
        return super().find_class(module, name)

    def _refuse(self, module, name):
        raise pickle.UnpicklingError(_weights_only_message(
            f"Unsupported global: GLOBAL {module}.{name} was not an allowed global by default. "
            f"Please use `torch.serialization.add_safe_globals([{name}])` to allowlist this "
            "global if you trust this class/function."))

    def persistent_load(self, pid):
        if not isinstance(pid, tuple) or not pid or pid[0] != "storage":
            raise pickle.UnpicklingError(f"Unknown saved id type: {pid!r}")
        _, storage_type, key, location, numel = pid
        if not isinstance(storage_type, str):  # a dtype (newer untyped-storage pickles)
            storage_type = _DTYPE_STORAGES[storage_type.name]
        loc = self._map(location)
        if not str(loc).startswith("cpu"):
            raise RuntimeError(
                "Attempting to deserialize object on a CUDA device but "
                "torch.cuda.is_available() is False. If you are running on a CPU-only "
                "machine, please use torch.load with map_location=torch.device('cpu') to map "
                "your storages to the CPU.")
        arr = self._storages.get(key)
        if arr is None:
            raw = bytearray(self._zf.read(self._prefix + "data/" + str(key)))
            dt = np.dtype(_STORAGE_DTYPES[storage_type]).newbyteorder("<")
            arr = np.frombuffer(raw, dtype=dt, count=numel)
            if not dt.isnative:
                arr = arr.astype(dt.newbyteorder("="))
            self._storages[key] = arr
        return arr

    def _map(self, location):
        ml = self._map_location
        if ml is None:
            return location
        if isinstance(ml, dict):
            return ml.get(location, location)
        if callable(ml):
            return "cpu"
        return str(ml)


def load(f, map_location=None, pickle_module=None, *, weights_only=True, mmap=None,
         **pickle_load_args):
    """Load an object saved by ``save`` or by ``torch.save`` (zip format).

    ``weights_only=True`` (the default) refuses any pickled global outside the allowlist
    (Note [PyTorch's file format]); pass ``weights_only=False`` only for trusted files."""
    if weights_only is None:
        weights_only = True
    if map_location is not None and not isinstance(map_location, (dict, str, device)) and \
            not callable(map_location):
        raise ValueError("map_location should be a str, a torch.device, a dict or a callable")
    if isinstance(map_location, (str, device)) and not str(map_location).startswith("cpu"):
        raise RuntimeError(f"autotensor has no device {str(map_location)!r} (only 'cpu')")
    own = isinstance(f, (str, os.PathLike))
    fh = open(f, "rb") if own else f
    try:
        if not zipfile.is_zipfile(fh):
            raise RuntimeError("autotensor.load reads PyTorch's zip file format (torch >= 1.6); "
                               "this file is in the legacy format")
        fh.seek(0)
        with zipfile.ZipFile(fh) as zf:
            names = zf.namelist()
            pkl = next((n for n in names if n.endswith("data.pkl")), None)
            if pkl is None:
                raise RuntimeError("PytorchStreamReader failed locating file data.pkl: file "
                                   "not found")
            prefix = pkl[:-len("data.pkl")]
            data = io.BytesIO(zf.read(pkl))
            unpickler = _Unpickler(data, zf, prefix, weights_only, map_location)
            try:
                return unpickler.load()
            except pickle.UnpicklingError:
                raise
            except Exception as e:
                if weights_only:
                    raise pickle.UnpicklingError(_weights_only_message(
                        f"{type(e).__name__}: {e}")) from e
                raise
    finally:
        if own:
            fh.close()
