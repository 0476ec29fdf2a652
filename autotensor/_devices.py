"""Devices: only the CPU exists; every other device fails as PyTorch's CPU build fails.

One place decides what a ``device=`` argument means (the default device when None), so
factories, ``Tensor.to`` and ``set_default_device`` agree, and a GPU backend would change
this module only.
"""
import os

__all__ = ["check", "set_default_device", "get_default_device", "get_num_threads",
           "set_num_threads", "get_num_interop_threads", "set_num_interop_threads"]

DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
                "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia",
                "privateuseone")
_BACKEND_NAMES = {"mps": "MPS", "xpu": "XPU", "meta": "Meta", "hip": "HIP", "xla": "XLA",
                  "hpu": "HPU", "mtia": "MTIA", "ipu": "IPU", "ve": "VE", "lazy": "Lazy",
                  "vulkan": "Vulkan", "maia": "MAIA"}

_default = None  # None: the CPU


def parse(spec):
    """``(type, index)`` of a device string, device or index, with PyTorch's errors."""
    if hasattr(spec, "type") and hasattr(spec, "index"):
        return spec.type, spec.index
    if isinstance(spec, int) and not isinstance(spec, bool):
        raise RuntimeError("Cannot access accelerator device when none is available.")
    if not isinstance(spec, str):
        raise TypeError(f"Expected a torch.device, a string or an int, got {type(spec).__name__}")
    kind, _, idx = spec.partition(":")
    if kind not in DEVICE_TYPES:
        raise RuntimeError(f"Expected one of {', '.join(DEVICE_TYPES)} device type at start of "
                           f"device string: {spec}")
    if idx:
        if not idx.isdigit():
            raise RuntimeError(f"Invalid device string: '{spec}'")
        return kind, int(idx)
    return kind, None


def check(device):
    """Raise unless ``device`` (None: the default device) is the CPU."""
    if device is None:
        device = _default
        if device is None:
            return
    if device == "cpu" or getattr(device, "type", None) == "cpu":
        return
    kind, _ = parse(device)
    if kind == "cpu":
        return
    if kind == "cuda":
        raise AssertionError("Torch not compiled with CUDA enabled")
    name = _BACKEND_NAMES.get(kind, kind)
    raise NotImplementedError(
        f"Could not run 'aten::empty.memory_format' with arguments from the '{name}' backend. "
        "This could be because the operator doesn't exist for this backend, or was omitted "
        "during the selective/custom build process (if using custom build). If you are a "
        "Facebook employee using PyTorch on mobile, please visit https://fburl.com/ptmfixes "
        "for possible resolutions.")


def set_default_device(device):
    """The device of factories called without ``device=`` (``None``/"cpu": the CPU)."""
    global _default
    if device is not None:
        parse(device)
        if str(device) == "cpu" or getattr(device, "type", None) == "cpu" and \
                device.index is None:
            device = None
    _default = device


def get_default_device():
    from ._tensor import device
    check(None)
    return device("cpu")


# ---- threads ------------------------------------------------------------------------------
def _cpu_count():
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


_num_threads = None
_num_interop_threads = None


def get_num_threads():
    """Threads of the BLAS pool (threadpoolctl's view when installed; else the CPU count)."""
    if _num_threads is not None:
        return _num_threads
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return _cpu_count()
    pools = [p["num_threads"] for p in threadpool_info() if p.get("user_api") == "blas"]
    return max(pools) if pools else _cpu_count()


def set_num_threads(n):
    """Set the BLAS pool's threads through threadpoolctl (recorded only without it)."""
    global _num_threads, _limiter
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"set_num_threads(): argument 'int' must be int, not {type(n).__name__}")
    if n <= 0:
        raise RuntimeError("Number of threads must be positive")
    _num_threads = n
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return
    _limiter = threadpool_limits(limits=n, user_api="blas")


_limiter = None


def get_num_interop_threads():
    return _num_interop_threads if _num_interop_threads is not None else _cpu_count()


def set_num_interop_threads(n):
    global _num_interop_threads
    if n <= 0:
        raise RuntimeError("Number of threads must be positive")
    _num_interop_threads = n
