"""Padding layers: ZeroPad / ConstantPad / ReflectionPad / ReplicationPad / CircularPad
1d-3d, all through ``F.pad`` (index-map entries, Note [Index-map ops])."""
from .. import functional as F
from .module import Module

__all__ = [f"{k}Pad{n}d" for k in ("Zero", "Constant", "Reflection", "Replication", "Circular")
           for n in (1, 2, 3)]


def _ntuple(x, n):
    return tuple(x) if isinstance(x, (list, tuple)) else (x,) * n


class _PadNd(Module):
    _mode, _n = "constant", 1

    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple(padding, 2 * self._n)

    def forward(self, input):
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self):
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    def __init__(self, padding, value):
        super().__init__(padding)
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class _ZeroPadNd(_ConstantPadNd):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


def _make(base, mode, n, name):
    return type(name, (base,), {"_mode": mode, "_n": n, "__module__": __name__})


for _n in (1, 2, 3):
    globals()[f"ZeroPad{_n}d"] = _make(_ZeroPadNd, "constant", _n, f"ZeroPad{_n}d")
    globals()[f"ConstantPad{_n}d"] = _make(_ConstantPadNd, "constant", _n, f"ConstantPad{_n}d")
    globals()[f"ReflectionPad{_n}d"] = _make(_PadNd, "reflect", _n, f"ReflectionPad{_n}d")
    globals()[f"ReplicationPad{_n}d"] = _make(_PadNd, "replicate", _n, f"ReplicationPad{_n}d")
    globals()[f"CircularPad{_n}d"] = _make(_PadNd, "circular", _n, f"CircularPad{_n}d")
