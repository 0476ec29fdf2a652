"""``torch.backends.cpu``."""


def get_cpu_capability():
    """PyTorch names the SIMD level its kernels were dispatched to; autotensor's kernels are
    NumPy's, which dispatch on their own: "DEFAULT"."""
    return "DEFAULT"
