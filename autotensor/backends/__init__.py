"""``torch.backends``: the switches PyTorch scripts set for their accelerator libraries
(``torch.backends.cudnn.deterministic = True``, ``torch.backends.cuda.matmul.allow_tf32``,
``torch.backends.mps.is_available()``). autotensor computes on NumPy: the flags are kept
(with PyTorch's defaults) and change nothing; the ``is_available()`` answers are about
autotensor (no cuDNN, MPS, MKL-DNN, OpenMP or MKL of its own)."""
from . import cpu, cuda, cudnn, mkl, mkldnn, mps, openmp, opt_einsum

__all__ = ["cpu", "cuda", "cudnn", "mkl", "mkldnn", "mps", "openmp", "opt_einsum"]
