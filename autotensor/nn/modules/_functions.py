"""Autograd Functions behind legacy modules (PyTorch's torch/nn/modules/_functions.py)."""
from ...autograd import Function

__all__ = ["CrossMapLRN2d"]


class CrossMapLRN2d(Function):
    """PyTorch's legacy CrossMapLRN2d autograd Function (torch/nn/modules/_functions.py),
    its running-sum recursion over channels kept as written (the window drops channel
    c - pre_pad only once c > pre_pad), vectorised over batch and pixels."""

    @staticmethod
    def forward(ctx, input, size, alpha=1e-4, beta=0.75, k=1):
        from ..._backend import np
        from ..._tensor import _make
        if input.dim() != 4:
            raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D "
                             "instead.")
        ctx.size, ctx.alpha, ctx.beta, ctx.k = size, alpha, beta, k
        x = input._data
        dt = x.dtype.type
        channels = x.shape[1]
        sq = x * x
        pre_pad = int((size - 1) / 2 + 1)
        scale = np.empty_like(x)
        scale[:, 0] = sq[:, :min(pre_pad, channels)].sum(1)
        for c in range(1, channels):
            scale[:, c] = scale[:, c - 1]
            if c < channels - pre_pad + 1:
                scale[:, c] += sq[:, c + pre_pad - 1]
            if c > pre_pad:
                scale[:, c] -= sq[:, c - pre_pad]
        scale = scale * dt(alpha / size) + dt(k)
        output = _make(np.power(scale, dt(-beta)) * x)
        ctx.scale = scale
        ctx.save_for_backward(input, output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        from ..._backend import np
        from ..._tensor import _make
        input, output = ctx.saved_tensors
        x, y, g, scale = input._data, output._data, grad_output._data, ctx.scale
        dt = x.dtype.type
        n, channels, h, w = x.shape
        size = ctx.size
        cache_ratio_value = dt(2 * ctx.alpha * ctx.beta / size)
        inverse_pre_pad = int(size - (size - 1) / 2)
        grad_input = np.power(scale, dt(-ctx.beta)) * g
        padded = np.zeros((n, channels + size - 1, h, w), dtype=x.dtype)
        if inverse_pre_pad + channels > padded.shape[1]:        # size 1, as PyTorch's narrow
            raise RuntimeError(f"start ({inverse_pre_pad}) + length ({channels}) exceeds "
                               f"dimension size ({padded.shape[1]}).")
        padded[:, inverse_pre_pad:inverse_pre_pad + channels] = g * y / scale
        accum = padded[:, :size - 1].sum(1)
        for c in range(channels):
            accum = accum + padded[:, c + size - 1]
            grad_input[:, c] += -cache_ratio_value * x[:, c] * accum
            accum = accum - padded[:, c]
        return _make(grad_input), None, None, None, None
