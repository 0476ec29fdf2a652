"""autotensor: PyTorch's tensors and automatic differentiation, in Python on NumPy.

Write ``import autotensor as torch`` and use it as PyTorch: the same values, gradients,
graph (``grad_fn``, ``next_functions``), view and in-place semantics, and errors.
"""
from . import _dtypes
from ._dtypes import (bool, cdouble, cfloat, complex64, complex128, double, dtype, finfo, float,
                      float16, float32, float64, get_default_dtype, half, iinfo, int, int8,
                      int16, int32, int64, long, promote_types, set_default_dtype, short,
                      uint8)
from ._dtypes import bfloat16, uint16, uint32, uint64
from ._memory_format import (channels_last, channels_last_3d, contiguous_format,  # noqa: E402
                             jagged, layout, memory_format, preserve_format, sparse_bsc,
                             sparse_bsr, sparse_coo, sparse_csc, sparse_csr, strided)
from ._tensor import Size, Tensor, device, is_tensor
from ._printing import set_printoptions, get_printoptions
from ._creation import (Generator, arange, as_tensor, asarray, bernoulli, default_generator,
                        binomial, empty, empty_like, eye, from_dlpack, from_numpy, full, full_like,
                        get_rng_state,
                        initial_seed, linspace, logspace, manual_seed, multinomial, normal,
                        ones, ones_like, poisson, rand, rand_like, randint, randint_like, randn,
                        randn_like, randperm, seed, set_rng_state, tensor, zeros, zeros_like,
                        _dirichlet_grad, _sample_dirichlet, _standard_gamma,
                        _standard_gamma_grad)
from ._windows import (bartlett_window, blackman_window, hamming_window, hann_window,
                       kaiser_window)
from ._ops import (
    abs, absolute, add, addmm, adjoint, all, allclose, amax, amin, any, argmax, argmin,
    argsort, as_strided, bitwise_and, bitwise_not, bitwise_or, bitwise_xor, bmm, broadcast_to,
    cat, ceil, chunk, clamp, clamp_max, clamp_min, clip, clone, concat, concatenate, cos,
    cumsum, diagonal, div, divide, dot, eq, equal, exp, flatten, flip, floor,
    floor_divide, fmod, gather, ge, greater, greater_equal, gt, hstack, index_add, index_put,
    index_select, isclose, isfinite, isinf, isnan, le, less, less_equal, log,
    log_softmax, logical_and, logical_not, logical_or, logical_xor, logsumexp, lt,
    masked_fill, masked_select, matmul, max, maximum, mean, min, minimum, mm, moveaxis,
    movedim, mul, multiply, mv, narrow, ne, neg, negative, nonzero, norm, not_equal, outer,
    permute, pow, prod, reciprocal, relu, remainder, reshape, round, rsqrt, rsub, scatter,
    scatter_add, select, sigmoid, sign, sin, softmax, sort, split, sqrt, square, squeeze,
    stack, sub, subtract, sum, swapaxes, swapdims, t, tanh, topk, transpose, tril, triu,
    true_divide, unbind, unflatten, unsqueeze, vstack, where)
from ._ops import (  # the catalogue (issue 11)
    acos, acos_, acosh, acosh_, addcdiv, addcmul, arccos, arccos_, arccosh, arccosh_, arcsin,
    arcsin_, arcsinh, arcsinh_, arctan, arctan2, arctan_, arctanh, arctanh_, asin, asin_, asinh,
    asinh_, atan, atan2, atan_, atanh, atanh_, celu, celu_, copysign, cosh, cosh_, deg2rad,
    deg2rad_, digamma, erf, erf_, erfc, erfc_, erfinv, exp2, exp2_, expm1, expm1_, fix, fix_,
    float_power, fmax, fmin, frac, frac_, hardshrink, hypot, lerp, lgamma, log10, log10_, log1p,
    log1p_, log2, log2_, logaddexp, logaddexp2, logit, logit_, nan_to_num, nan_to_num_, polygamma,
    rad2deg, rad2deg_, rrelu, rrelu_, selu, selu_, sgn, signbit, sinc, sinc_, sinh, sinh_, tan,
    tan_, threshold, threshold_, trunc, trunc_, xlogy, xlogy_)
from ._ops import (  # the catalogue: reductions
    aminmax, count_nonzero, cummax, cummin, cumprod, diff, kthvalue, logcumsumexp, median, nanmean,
    nanmedian, nansum, std, std_mean, var, var_mean)
from ._ops import bitwise_left_shift, bitwise_right_shift
from ._ops import (  # (the catalogue: shape and indexing)
    atleast_1d, atleast_2d, atleast_3d, block_diag, broadcast_shapes, broadcast_tensors,
    cartesian_prod, column_stack, combinations, diag_embed, dsplit, dstack, fliplr, flipud,
    hsplit, meshgrid, narrow_copy, repeat_interleave, roll, rot90, row_stack, tensor_split, tile,
    vsplit, diagonal_scatter, index_copy, index_fill, masked_scatter, put, scatter_reduce,
    select_scatter, slice_scatter, take, take_along_dim)
from ._ops import (  # (the catalogue: reductions)
    bincount, bucketize, corrcoef, cov, gradient, histc, histogram, histogramdd, mode, msort,
    nanquantile, quantile, renorm, searchsorted, unique, unique_consecutive)
from ._ops import (  # (issue 8: missing names)
    cumulative_trapezoid, gcd, gcd_, index_reduce, lcm, lcm_, ldexp, ldexp_, trapezoid, trapz)
from ._ops import frexp  # noqa: E402
from ._ops import (  # (the catalogue: special functions)
    heaviside, i0, i0_, isneginf, isposinf, isreal, mvlgamma, nextafter, prelu)
from ._ops import (  # the catalogue: linear algebra
    addbmm, addmv, addr, baddbmm, chain_matmul, cholesky, cross, diag, diagflat, ger,
    einsum,
    inner, inverse, kron, logdet, matrix_power, pinverse, tensordot, trace, vdot)
from ._ops.linalg import det, matrix_exp, torch_slogdet as slogdet, torch_svd as svd
from ._ops.linalg import cdist, lu_unpack
from ._ops import argwhere
from ._ops import unsafe_chunk, unsafe_split
from ._ops import (  # (the catalogue: names still missing, issue 11)
    addmv_, as_strided_, clamp_, clamp_max_, clamp_min_, clip_, index_put_, isin,
    reciprocal_, resize_as_, round_, rsqrt_, split_with_sizes, tril_indices, triu_indices)
detach, detach_ = Tensor.detach, Tensor.detach_
from ._ops import igamma, igammac  # noqa: E402
from ._ops import dist, positive  # noqa: E402
from ._ops.linalg import (cholesky_inverse, cholesky_solve, torch_qr as qr,
                          triangular_solve)
from ._ops.linalg import geqrf, orgqr, ormqr, symeig, vander  # (torch.linalg, part 3)
from ._ops.linalg import frobenius_norm, nuclear_norm, pca_lowrank, svd_lowrank
from ._ops.linalg import (torch_eig as eig, torch_lstsq as lstsq, torch_lu as lu,
                          torch_lu_solve as lu_solve)
from . import _methods
from . import autograd
from .autograd import enable_grad, inference_mode, no_grad, set_grad_enabled
from .autograd.grad_mode import is_grad_enabled, is_inference_mode_enabled
from .autograd.anomaly_mode import (is_anomaly_check_nan_enabled, is_anomaly_enabled,
                                    set_anomaly_enabled)

_methods.attach()

from . import nn  # noqa: E402  (nn builds on the tensor methods attached above)
pdist = nn.functional.pdist  # (torch.pdist is F.pdist)
from .nn._aten import *  # noqa: E402,F401,F403  (torch.conv2d, torch.batch_norm, torch.kl_div...)
from . import optim  # noqa: E402
from . import utils  # noqa: E402
from . import serialization  # noqa: E402
from . import safetensors  # noqa: E402
from . import accelerator, cuda  # noqa: E402
from ._devices import (get_default_device, get_num_interop_threads,  # noqa: E402
                       get_num_threads, set_default_device, set_num_interop_threads,
                       set_num_threads)
from ._legacy import LEGACY_TYPES as _LEGACY_TYPES  # noqa: E402
globals().update(_LEGACY_TYPES)  # FloatTensor, LongTensor, ... (torch.tensortype instances)
from .serialization import load, save  # noqa: E402
from .utils import data as _data  # noqa: E402,F401  (torch.utils.data works after import)
from .autograd import functional as _functional  # noqa: E402,F401  (needs the tensor API)
from . import func  # noqa: E402
from . import testing  # noqa: E402
from . import distributions  # noqa: E402
from . import special  # noqa: E402
from . import signal  # noqa: E402
from ._compile import compile  # noqa: E402  (torch.compile: replays traced kernels)
from . import _dynamo  # noqa: E402,F401

__version__ = "0.1.0"


def result_type(tensor1, tensor2):
    return _dtypes.result_type(tensor1, tensor2)


def numel(input):
    return input.numel()


def is_floating_point(input):
    return input.is_floating_point()


def is_complex(input):
    return input.is_complex()


def is_grad_enabled_():
    return is_grad_enabled()


def is_inference(input):
    if not isinstance(input, Tensor):
        raise TypeError(f"is_inference(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    return input.is_inference()


def typename(obj):
    return obj.type() if isinstance(obj, Tensor) else type(obj).__name__


# Constants, switches and small functions of the torch namespace.
import builtins as _builtins  # noqa: E402  (int, bool and float are dtypes here)
import math as _math  # noqa: E402
pi, e, inf, nan, newaxis = _math.pi, _math.e, _math.inf, _math.nan, None
from ._flags import (are_deterministic_algorithms_enabled,  # noqa: E402
                     get_deterministic_debug_mode, get_float32_matmul_precision,
                     is_deterministic_algorithms_warn_only_enabled, is_warn_always_enabled,
                     set_default_tensor_type, set_deterministic_debug_mode, set_flush_denormal,
                     set_float32_matmul_precision, set_warn_always, use_deterministic_algorithms)
from .func import vmap  # noqa: E402
from ._creation import empty_strided, scalar_tensor  # noqa: E402


def can_cast(from_, to):
    """PyTorch's canCast: no complex -> real, floating -> integral, or non-bool -> bool."""
    if from_._cat == _dtypes._CAT_COMPLEX and to._cat != _dtypes._CAT_COMPLEX:
        return False
    if from_._cat == _dtypes._CAT_FLOAT and to._cat == _dtypes._CAT_INT:
        return False
    return not (from_._cat != _dtypes._CAT_BOOL and to._cat == _dtypes._CAT_BOOL)


def is_nonzero(input):
    return input.is_nonzero()


def is_same_size(input, other):
    return input.is_same_size(other)


def is_signed(input):
    return input.is_signed()


def ravel(input):
    return input.ravel()


def unravel_index(indices, shape):
    """The coordinates of flat ``indices`` in ``shape``: one int64 tensor per dim."""
    if not isinstance(indices, Tensor):
        raise TypeError(f"expected 'indices' to be a tensor, but got {type(indices)}")
    dt = indices.dtype
    if dt.is_floating_point or dt.is_complex or dt is bool:  # (bool: torch.bool here)
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    shape = (shape,) if isinstance(shape, _builtins.int) else tuple(shape)
    n = 1
    for d in shape:
        if d < 0:
            raise ValueError("'shape' cannot have negative values, but got "
                             f"{tuple(shape)}")
        n *= d
    flat = indices._data.astype("int64")
    flat = flat % n if n else flat  # (PyTorch wraps indices out of range, as here)
    coords = []
    for d in reversed(shape):
        coords.append(tensor(flat % d if d else flat))
        flat = flat // d if d else flat
    return tuple(reversed(coords))


def fill(input, value):
    return input.clone().fill_(value)


def fill_(input, value):
    return input.fill_(value)


def zero_(input):
    return input.zero_()


def _inplace_function(name):
    def f(input, *args, **kwargs):
        return getattr(input, name)(*args, **kwargs)
    f.__name__ = f.__qualname__ = name
    return f


for _name in ("abs_", "ceil_", "cos_", "exp_", "floor_", "log_", "neg_", "negative_", "relu_",
              "sigmoid_", "sin_", "sqrt_", "square_", "tanh_"):
    globals()[_name] = _inplace_function(_name)
del _name


from ._ops._out import add_out as _add_out  # noqa: E402
_add_out(globals())  # out= on the torch functions that take it (Note [out= arguments])
from . import functional  # noqa: E402  (imports the namespace above)
from . import linalg  # noqa: E402
from ._ops.complex_ops import (  # noqa: E402  (complex views and conjugation)
    _neg_view, angle, complex, conj, conj_physical, conj_physical_, imag, is_conj, is_neg, polar,
    real,
    resolve_conj, resolve_neg, view_as_complex, view_as_real)
from . import fft  # noqa: E402
from ._ops.fft import istft, stft  # noqa: E402

__all__ = [n for n in dir() if not n.startswith("_")]


def __getattr__(name):
    """``autotensor.profiler`` is imported on first use (Note [Observing ops at no cost])."""
    if name == "profiler":
        import importlib
        return importlib.import_module(".profiler", __name__)
    raise AttributeError(f"module 'autotensor' has no attribute '{name}'")

from . import backends, cpu, random  # noqa: E402,F401


def get_device(input):
    """-1: the CPU (PyTorch's answer for a CPU tensor)."""
    return -1


# ``torch.sym_*``: the symbolic-shape helpers on plain Python numbers (autotensor traces no
# symbolic shapes, so they are the numbers' own operations, as PyTorch's eager results)
def sym_int(a):
    return _builtins.int(a)


def sym_float(a):
    return _builtins.float(a)


def _sym_minmax(pick, a, b):
    """PyTorch's: a float when either is a float."""
    r = pick(a, b)
    return _builtins.float(r) if isinstance(a, _builtins.float) or \
        isinstance(b, _builtins.float) else r


def sym_max(a, b):
    return _sym_minmax(_builtins.max, a, b)


def sym_min(a, b):
    return _sym_minmax(_builtins.min, a, b)


def sym_not(a):
    return not a


def sym_ite(b, if_true, if_false):
    return if_true if b else if_false


def sym_sqrt(a):
    return _math.sqrt(a)


def sym_sum(args):
    return _builtins.sum(args)


from ._creation import empty_permuted, frombuffer  # noqa: E402
from ._creation import range_ as range  # noqa: E402,A001  (torch.range; no range() here)
from ._ops.indexing import nonzero_static  # noqa: E402,F401
from .nn.modules.rnn import gru_cell, lstm_cell, rnn_relu_cell, rnn_tanh_cell  # noqa: E402,F401


def constant_pad_nd(input, pad, value=0):
    """``F.pad`` in constant mode (ConstantPadNdBackward0)."""
    return nn.functional.pad(input, pad, mode="constant", value=value)


def channel_shuffle(input, groups):
    return nn.functional.channel_shuffle(input, groups)

import warnings as _warnings  # noqa: E402

from . import amp  # noqa: E402
from .amp import GradScaler, autocast  # noqa: E402,F401
from .amp.autocast_mode import (clear_autocast_cache, get_autocast_dtype,  # noqa: E402,F401
                                is_autocast_cache_enabled, is_autocast_enabled,
                                set_autocast_cache_enabled, set_autocast_dtype,
                                set_autocast_enabled)


def is_autocast_cpu_enabled():
    _warnings.warn("torch.is_autocast_cpu_enabled() is deprecated. Please use "
                   "torch.is_autocast_enabled('cpu') instead.", DeprecationWarning, stacklevel=2)
    return is_autocast_enabled("cpu")


def get_autocast_cpu_dtype():
    _warnings.warn("torch.get_autocast_cpu_dtype() is deprecated. Please use "
                   "torch.get_autocast_dtype('cpu') instead.", DeprecationWarning, stacklevel=2)
    return get_autocast_dtype("cpu")


from . import _argparse  # noqa: E402
_argparse.install(__import__(__name__))  # (PyTorch's argument errors: Note [Argument errors
# on the exception path])
