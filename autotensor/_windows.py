"""Window functions for spectral analysis (``torch.hann_window`` and friends).

Each is computed as PyTorch's factory computes it (aten TensorFactories.cpp): an ``arange``
in the target dtype transformed op by op, every op rounded to that dtype (float16 and
bfloat16 compute each op in float32, as PyTorch's opmath), so results match PyTorch's
bit for bit up to its vectorised ``cos``. A periodic window is the first ``N`` values of
the symmetric window of length ``N + 1`` (a slice: it keeps the longer storage, as PyTorch).
"""
import math

from . import _dtypes
from ._backend import np
from ._creation import _finish

__all__ = ["hann_window", "hamming_window", "blackman_window", "bartlett_window",
           "kaiser_window"]

_CPP_NAMES = {"uint8": "unsigned char", "int8": "signed char", "int16": "short int",
              "int32": "int", "int64": "long int", "bool": "bool",
              "uint16": "short unsigned int", "uint32": "unsigned int",
              "uint64": "long unsigned int"}


def _start(name, length, dtype):
    """PyTorch's checks; the dtype's NumPy type and its opmath type."""
    dt = _dtypes.default_float if dtype is None else dtype
    if dt.np.kind in "iub":
        raise RuntimeError(
            f"{name} expects floating point dtypes, got: TensorOptions(dtype="
            f"{_CPP_NAMES[dt.np.name]}, device=cpu, layout=Strided (default), requires_grad="
            f"false (default), pinned_memory=false, memory_format=(nullopt))")
    if length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got "
                           f"window_length={length}")
    if dt.np.kind == "c":
        raise RuntimeError(f"\"arange_cpu\" not implemented for '{_dtypes.scalar_name(dt)}'")
    op = np.float64 if dt.np == np.float64 else np.float32
    return dt, op


def _round(x, dt):
    """One op's result in the window's dtype (and back to its opmath type)."""
    return x.astype(dt.np).astype(x.dtype)


def _trivial(length, dt, requires_grad):
    if length == 0:
        return _finish(np.zeros(0, dt.np), None, requires_grad)
    return _finish(np.ones(1, dt.np), None, requires_grad)


def _done(w, dt, periodic, requires_grad):
    w = w.astype(dt.np)
    return _finish(w[:-1] if periodic else w, None, requires_grad)


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None,
                   layout=None, device=None, pin_memory=False, requires_grad=False,
                   _name="hamming_window"):
    """alpha - beta cos(2 pi n / (N - 1)), n = 0 .. N - 1 (N + 1 points, the last dropped,
    when periodic)."""
    dt, op = _start(_name, window_length, dtype)
    if window_length <= 1:
        return _trivial(window_length, dt, requires_grad)
    n = window_length + 1 if periodic else window_length
    w = np.arange(n, dtype=op)
    w = _round(w * op(math.pi * 2.0 / (n - 1)), dt)
    w = _round(np.cos(w), dt)
    w = _round(w * op(-beta), dt)
    w = _round(w + op(alpha), dt)
    return _done(w, dt, periodic, requires_grad)


def hann_window(window_length, periodic=True, *, dtype=None, layout=None, device=None,
                pin_memory=False, requires_grad=False):
    """0.5 - 0.5 cos(2 pi n / (N - 1)): hamming_window with alpha = beta = 0.5."""
    return hamming_window(window_length, periodic, 0.5, 0.5, dtype=dtype,
                          requires_grad=requires_grad, _name="hann_window")


def blackman_window(window_length, periodic=True, *, dtype=None, layout=None, device=None,
                    pin_memory=False, requires_grad=False):
    """0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1))."""
    dt, op = _start("blackman_window", window_length, dtype)
    if window_length <= 1:
        return _trivial(window_length, dt, requires_grad)
    n = window_length + 1 if periodic else window_length
    w = _round(np.arange(n, dtype=op) * op(math.pi / (n - 1)), dt)
    four = _round(_round(np.cos(_round(w * op(4), dt)), dt) * op(0.08), dt)
    two = _round(_round(np.cos(_round(w * op(2), dt)), dt) * op(0.5), dt)
    w = _round(_round(four - two, dt) + op(0.42), dt)
    return _done(w, dt, periodic, requires_grad)


def bartlett_window(window_length, periodic=True, *, dtype=None, layout=None, device=None,
                    pin_memory=False, requires_grad=False):
    """The triangle 2n / (N - 1) rising, 2 - 2n / (N - 1) falling."""
    dt, op = _start("bartlett_window", window_length, dtype)
    if window_length <= 1:
        return _trivial(window_length, dt, requires_grad)
    n = window_length + 1 if periodic else window_length
    w = _round(np.arange(n, dtype=op) * op(2.0 / (n - 1)), dt)
    half = ((n - 1) >> 1) + 1
    w[half:] = _round(_round(w[half:] * op(-1), dt) + op(2), dt)
    return _done(w, dt, periodic, requires_grad)


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None, layout=None,
                  device=None, pin_memory=False, requires_grad=False):
    """I0(beta sqrt(1 - ((n - a) / a)^2)) / I0(beta), a = (N - 1) / 2 (computed in float64
    and rounded: PyTorch's float32 kernel differs by an ulp or so)."""
    dt, _ = _start("kaiser_window", window_length, dtype)
    if window_length <= 1:
        return _trivial(window_length, dt, requires_grad)
    n = window_length + 1 if periodic else window_length
    a = (n - 1) / 2.0
    x = np.arange(n, dtype=np.float64)
    w = np.i0(beta * np.sqrt(np.abs(1 - ((x - a) / a) ** 2))) / np.i0(beta)
    return _done(w, dt, periodic, requires_grad)
