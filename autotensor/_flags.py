"""Process-wide switches PyTorch scripts set: float32 matmul precision, deterministic
algorithms, warn_always, flush-denormal, the default tensor type. They are kept and reported
as PyTorch keeps them. What they change in PyTorch needs no change here: our kernels are
deterministic, float32 products are computed in float32 whatever precision is asked for,
and NumPy has no flush-to-zero mode (``set_flush_denormal`` answers False, as PyTorch does
on a CPU without one)."""
import warnings

_state = {"matmul": "highest", "deterministic": False, "warn_only": False,
          "warn_always": False}


def set_float32_matmul_precision(precision):
    if not isinstance(precision, str):
        raise RuntimeError(f"set_float32_matmul_precision expects a str, but got "
                           f"{type(precision).__name__}")
    if precision not in ("highest", "high", "medium"):
        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                      "setFloat32MatmulPrecision call has no effect.", stacklevel=2)
        return
    _state["matmul"] = precision


def get_float32_matmul_precision():
    return _state["matmul"]


def use_deterministic_algorithms(mode, *, warn_only=False):
    for name, value in (("mode", mode), ("warn_only", warn_only)):
        if value.__class__ is not bool:
            position = " (position 1)" if name == "mode" else ""
            raise TypeError(f"_set_deterministic_algorithms(): argument '{name}'{position} must "
                            f"be bool, not {type(value).__name__}")
    _state["deterministic"], _state["warn_only"] = mode, warn_only


def are_deterministic_algorithms_enabled():
    return _state["deterministic"]


def is_deterministic_algorithms_warn_only_enabled():
    return _state["warn_only"]


def set_deterministic_debug_mode(debug_mode):
    if isinstance(debug_mode, str):
        names = {"default": 0, "warn": 1, "error": 2}
        if debug_mode not in names:
            raise RuntimeError("invalid value of debug_mode, expected one of `default`, `warn`, "
                               f"`error`, but got {debug_mode}")
        debug_mode = names[debug_mode]
    elif not isinstance(debug_mode, int):
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)}")
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got "
                           f"{debug_mode}")
    use_deterministic_algorithms(debug_mode != 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode():
    if not _state["deterministic"]:
        return 0
    return 1 if _state["warn_only"] else 2


def set_warn_always(b):
    if b.__class__ is not bool:
        raise RuntimeError(f"setWarnOnlyOnce expects a bool, but got {type(b).__name__}")
    _state["warn_always"] = b


def is_warn_always_enabled():
    return _state["warn_always"]


def set_flush_denormal(mode):
    return False


def set_default_tensor_type(t):
    """Deprecated PyTorch API: the default dtype from a floating tensor type (or its name)."""
    from . import _dtypes
    warnings.warn("torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
                  "torch.set_default_dtype() and torch.set_default_device() as alternatives.",
                  UserWarning, stacklevel=2)
    if isinstance(t, str):
        import autotensor
        t = getattr(autotensor, t.split(".")[-1]) if t.startswith("torch.") else \
            getattr(autotensor, t)
    dtype = getattr(t, "dtype", None)
    if not isinstance(dtype, _dtypes.dtype) or isinstance(t, _dtypes.dtype):
        raise TypeError("invalid type object: only floating-point types are supported as the "
                        "default type")
    if not dtype.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _dtypes.set_default_dtype(dtype)
