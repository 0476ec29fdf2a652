"""The array-module seam: the only module that imports NumPy.

Everything numeric in autotensor goes through ``np`` from here, so a CuPy (or other
array-API) backend can later be swapped in at one place.
"""
import numpy as np

__all__ = ["np"]


# Note [Heap for big temporaries]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# A training step makes and frees arrays of a few MB every op (the LSTM benchmark's
# 1120 x 1000 float32 logits are 4.5 MB, so are their log_softmax and gradient). glibc's
# malloc gives blocks above its mmap threshold (128 KB at start) fresh mmap'd pages and
# returns the heap's top to the kernel beyond 128 KB of slack, so such an array costs a
# page fault per 4 KB page touched (the kernel zeroes each): measured, ~1,700 faults and
# ~5 ms of system time in a 33 ms LSTM step, where PyTorch's step (the same sizes) faults
# ~100 times. A caching allocator in Python cannot see when an array dies, so the fix is
# malloc's own: on glibc, at import, blocks up to 32 MB (glibc's largest threshold) come
# from the heap and 64 MB of free top is kept, so freed temporaries are reused (0 faults a
# step). The cost: a process may hold up to 64 MB it no longer uses.
# AUTOTENSOR_MALLOC=default leaves malloc as it is, and so does any malloc setting of the
# environment (MALLOC_*_ variables, GLIBC_TUNABLES with glibc.malloc: e.g. the memory
# benchmark's, which makes RSS follow the live buffers).
_M_TOP_PAD, _M_MMAP_THRESHOLD = -2, -3
_MALLOC_VARS = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_",
                "MALLOC_MMAP_MAX_")


def _tune_malloc():
    import os
    import sys
    env = os.environ
    if (not sys.platform.startswith("linux") or env.get("AUTOTENSOR_MALLOC") == "default"
            or any(v in env for v in _MALLOC_VARS)
            or "glibc.malloc" in env.get("GLIBC_TUNABLES", "")):
        return False
    try:
        import ctypes
        mallopt = ctypes.CDLL(None).mallopt   # glibc (musl has no mallopt: AttributeError)
        mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
        return bool(mallopt(_M_MMAP_THRESHOLD, 32 << 20) and mallopt(_M_TOP_PAD, 64 << 20))
    except (OSError, AttributeError):
        return False


MALLOC_TUNED = _tune_malloc()


def lapack_gufunc(name):
    """NumPy's LAPACK gufunc ``name`` (numpy.linalg._umath_linalg: svd_s, svd_f, svd...),
    or None where this NumPy has none. np.linalg's wrappers cast float32 and complex64 to
    double before calling them; the gufuncs themselves also take single precision
    (signature 'f->fff'), which is the LAPACK routine PyTorch calls (sgesdd, cgesdd)."""
    try:
        from numpy.linalg import _umath_linalg
    except ImportError:  # pragma: no cover  (NumPy moved it)
        return None
    return getattr(_umath_linalg, name, None)
