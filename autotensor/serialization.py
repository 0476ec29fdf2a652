"""``save``/``load``: tensors (and containers of them) to a file or file-like object.

Minimal for now (the saved-tensor-hooks tutorial packs activations to disk with them):
plain pickle of Tensor's ``__reduce_ex__``; not PyTorch's zip format. The full version
(state dicts, ``weights_only``, ``map_location``) belongs to the serialization issue.
"""
import os
import pickle

DEFAULT_PROTOCOL = 2


def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL,
         _use_new_zipfile_serialization=True):
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as fh:
            pickle_module.dump(obj, fh, protocol=pickle_protocol)
    else:
        pickle_module.dump(obj, f, protocol=pickle_protocol)


def load(f, map_location=None, pickle_module=pickle, *, weights_only=None, mmap=None,
         **pickle_load_args):
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as fh:
            return pickle_module.load(fh, **pickle_load_args)
    return pickle_module.load(f, **pickle_load_args)
