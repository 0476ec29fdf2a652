"""``torch.backends.opt_einsum``: the contraction-order optimiser PyTorch uses when the
``opt_einsum`` package is installed. autotensor's einsum plans its own order, so it reports
the package as PyTorch does and does not use it."""
import importlib.util

enabled = importlib.util.find_spec("opt_einsum") is not None
strategy = "auto" if enabled else None


def is_available():
    return enabled


def get_opt_einsum():
    if not enabled:
        return None
    import opt_einsum
    return opt_einsum
