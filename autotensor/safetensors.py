"""``.safetensors`` files for state dicts: the API of ``safetensors.torch`` (save_file,
load_file, save, load) on our tensors, through the ``safetensors`` package's NumPy backend
(the optional ``safetensors`` extra: ``pip install autotensor[safetensors]``)."""
from ._backend import np
from ._tensor import Tensor, _make

__all__ = ["save_file", "load_file", "save", "load"]


def _backend():
    try:
        import safetensors.numpy as st
    except ImportError:
        raise ImportError("reading and writing .safetensors files needs the 'safetensors' "
                          "package: pip install autotensor[safetensors]") from None
    return st


def _arrays(tensors):
    out = {}
    for name, t in tensors.items():
        if not isinstance(t, Tensor):
            raise ValueError(f"Key `{name}` is invalid, expected torch.Tensor but received "
                             f"{type(t)}")
        out[name] = np.ascontiguousarray(t._data)
    return out


def _tensors(arrays):
    return {k: _make(np.array(v)) for k, v in arrays.items()}


def save_file(tensors, filename, metadata=None):
    """Write a dict of tensors (a state dict) to a ``.safetensors`` file."""
    _backend().save_file(_arrays(tensors), filename, metadata=metadata)


def load_file(filename, device="cpu"):
    """Read a ``.safetensors`` file into a dict of tensors."""
    return _tensors(_backend().load_file(filename))


def save(tensors, metadata=None):
    """The ``.safetensors`` bytes of a dict of tensors."""
    return _backend().save(_arrays(tensors), metadata=metadata)


def load(data):
    """A dict of tensors from ``.safetensors`` bytes."""
    return _tensors(_backend().load(data))
