"""Where a warning points: at the user's line, as PyTorch's do.

Note [Warning locations]
~~~~~~~~~~~~~~~~~~~~~~~~
A C++ TORCH_WARN reaches Python as a warning of the frame that called into C++: the user's
line (``torch.tensor(t)``, ``x.std()`` of one element, ``x.T`` of a 3-d tensor). Ours are
raised inside the package, some frames deep and behind wrappers (the argument parser's
guard, view_errors_before_checks, out= handling), so a fixed ``stacklevel`` points into
autotensor: ``cpp`` walks out of the package instead. A warning of PyTorch's Python code
(``F.grid_sample``'s align_corners, stacklevel=2) counts its frames as PyTorch does:
``python`` skips the wrappers' frames, which PyTorch's code does not have.
"""
import os
import sys
import warnings

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep
_WRAPPERS = set()  # code objects of wrapper functions (not counted by ``python``)


def wrapper(fn):
    """Register ``fn``'s code as a wrapper's (returns fn)."""
    _WRAPPERS.add(fn.__code__)
    return fn


def cpp(message, category=UserWarning):
    """A TORCH_WARN: attributed to the first frame outside the package."""
    f, level = sys._getframe(1), 2
    while f is not None and f.f_code.co_filename.startswith(_PACKAGE):
        f, level = f.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


def python(message, category=UserWarning, stacklevel=1):
    """warnings.warn(message, category, stacklevel) as called from PyTorch's Python code:
    ``stacklevel`` counts from the caller of this function, not counting wrapper frames."""
    f, level, n = sys._getframe(1), 2, 1
    while f is not None and (n < stacklevel or f.f_code in _WRAPPERS):
        if f.f_code not in _WRAPPERS:
            n += 1
        f, level = f.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)
