"""Dropout modules; masks drawn as PyTorch's CPU kernels draw them (see F.dropout)."""
from .. import functional as F
from .module import Module

__all__ = ["Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout",
           "FeatureAlphaDropout"]


class _DropoutNd(Module):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)


class _ChannelDropout(_DropoutNd):
    """Whole channels zeroed: the mask has the input's (N, C) shape and ones elsewhere,
    drawn with bernoulli_(1 - p) as PyTorch's feature dropout does."""

    _dims = 1

    def forward(self, input):
        if not self.training or self.p == 0:
            return input
        from ... import _random
        from ..._creation import _make
        from ... import _ops as fn
        batched = input.dim() == self._dims + 2
        shape = tuple(input.shape[:2]) if batched else tuple(input.shape[:1])
        shape = shape + (1,) * self._dims
        d = input._data
        if self.p == 1:
            noise = _random.bernoulli(0.0, shape, d.dtype)
        else:
            noise = _random.bernoulli(1 - self.p, shape, d.dtype)
            noise /= noise.dtype.type(1 - self.p)
        return fn.mul(input, _make(noise))


class Dropout1d(_ChannelDropout):
    _dims = 1


class Dropout2d(_ChannelDropout):
    _dims = 2


class Dropout3d(_ChannelDropout):
    _dims = 3


class AlphaDropout(_DropoutNd):
    def forward(self, input):
        return F.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(_DropoutNd):
    def forward(self, input):
        return F.feature_alpha_dropout(input, self.p, self.training)
