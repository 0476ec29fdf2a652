"""``torch.fft``: discrete Fourier transforms with PyTorch's signatures, norm modes, dtype
rules, errors, gradients and node names. The ops live in ``_ops/fft.py`` (Note [FFT as
three primitives])."""
from ._ops.fft import (  # noqa: F401
    fft, fft2, fftfreq, fftn, fftshift, hfft, hfft2, hfftn, ifft, ifft2, ifftn, ifftshift, ihfft,
    ihfft2, ihfftn, irfft, irfft2, irfftn, rfft, rfft2, rfftfreq, rfftn)

__all__ = ["fft", "fft2", "fftfreq", "fftn", "fftshift", "hfft", "hfft2", "hfftn", "ifft",
           "ifft2", "ifftn", "ifftshift", "ihfft", "ihfft2", "ihfftn", "irfft", "irfft2", "irfftn",
           "rfft", "rfft2", "rfftfreq", "rfftn"]
