"""The ops, one module per family; each holds its table entries (``defop``), its formula
helpers and its public functions (with their in-place ``_`` variants):

- ``pointwise``  arithmetic, unary math, comparisons and logic, clamp/where, activations,
                 copies and casts
- ``reduction``  sum/mean/max/min/prod/norm, softmax/logsumexp, scans, sort/topk
- ``shape``      views and shape ops (view/reshape/transpose/expand/split/cat/stack/flip...)
- ``indexing``   getitem/setitem, index_put, gather/scatter, index_select/add, masked ops
- ``linalg``     mm/bmm/dot/mv/matmul/addmm/outer/linear
- ``nn_ops``     kernels of nn.functional (losses...)
- ``complex_ops`` view_as_real/complex, real/imag, angle, polar, complex, conj (Note
                 [Conjugate bit])
- ``fft``        torch.fft's transforms, three primitives (Note [FFT as three primitives]),
                 stft
- ``special``    special functions (i0/i1, ndtr/ndtri/log_ndtr, erfcx, zeta, mvlgamma...),
                 heaviside/nextafter, prelu's kernel, rrelu's training noise

Shared machinery that does not grow with the op count: ``dispatch`` (defop, the one record
path), ``raw`` (array kernels and the raw formula namespace), ``_common`` (argument
helpers), ``_out`` (out= arguments), ``namespace`` (TENSOR, the graph formula
namespace). This package re-exports every public function, for ``autotensor/__init__.py``,
Tensor methods and nn.functional.

Declaring an op: ``defop(name, node_name, kernel, inputs=, params=, outputs=, grads=)``.
A formula is ``lambda F, grad, <names>: ...``. The names after ``grad`` say what the node
must save: an input (``self``, ``other``, ...), a parameter (``dim``, ``exponent``, ...),
an output (``result``, ``indices``), or an input's shape (``self_sizes``). Nodes expose
them as ``_saved_<name>`` like PyTorch's. ``F`` is the namespace the formula computes in
(Note [One formula, two interpretations] in raw.py). Gradients are summed back to the
input's shape and cast to its dtype by the engine when the forward broadcast or promoted
(Note [Un-broadcast in the engine] in engine.py), so formulas never do it themselves.
Kernels take arrays (inputs first, then params) and return arrays; the public functions
parse arguments and promote dtypes before calling them.
"""
from .pointwise import (  # noqa: F401
    abs, abs_, absolute, add, add_, allclose, bitwise_and, bitwise_not, bitwise_or, bitwise_xor,
    bitwise_left_shift, bitwise_right_shift,
    ceil, clamp, clamp_, clamp_max, clamp_min, clip, clip_, clone, contiguous, copy_, cos, cos_,
    div, div_, divide, eq, equal, exp, exp_, fill_, floor, floor_divide, fmod, ge, greater,
    greater_equal, gt, isclose, isfinite, isinf, isnan, le, less, less_equal, log, log_,
    logical_and, logical_not, logical_or, logical_xor, lt, maximum, minimum, mul, mul_, multiply,
    ne, neg, neg_, negative, not_equal, pow, pow_, rdiv, reciprocal, reciprocal_, relu, relu_,
    remainder, round, rsqrt, rsub, sigmoid, sigmoid_, sign, sin, sin_, sqrt, sqrt_, square, sub,
    sub_, subtract, tanh, tanh_, to, true_divide, type_as, where, zero_, zeros_like_)
from .reduction import (  # noqa: F401
    all, amax, amin, any, argmax, argmin, argsort, cumsum, log_softmax, logsumexp, max, mean, min,
    norm, prod, softmax, sort, sum, topk)
from .shape import (  # noqa: F401
    adjoint, as_strided, broadcast_to, cat, chunk, concat, concatenate, diagonal, expand,
    expand_as, flatten, flip, hstack, moveaxis, movedim, narrow, permute, reshape, reshape_as,
    select, split, squeeze, stack, swapaxes, swapdims, t, transpose, tril, triu, unbind, unflatten,
    unfold, unsqueeze, view, view_as, vstack)
from .indexing import (  # noqa: F401
    gather, getitem, index_add, index_add_, index_put, index_put_, index_select, masked_fill,
    masked_fill_, masked_select, nonzero, scatter, scatter_, scatter_add, scatter_add_, setitem)
from .linalg import (  # noqa: F401
    addmm, bmm, dot, linear, matmul, mm, mv, outer)
from .pointwise import (  # noqa: F401  (the catalogue, issue 11)
    acos, acos_, acosh, acosh_, addcdiv, addcdiv_, addcmul, addcmul_, arccos, arccos_, arccosh,
    arccosh_, arcsin, arcsin_, arcsinh, arcsinh_, arctan, arctan2, arctan2_, arctan_, arctanh,
    arctanh_, asin, asin_, asinh, asinh_, atan, atan2, atan2_, atan_, atanh, atanh_, celu, celu_,
    copysign, copysign_, cosh, cosh_, deg2rad, deg2rad_, digamma, digamma_, elu, elu_, erf, erf_,
    erfc, erfc_, erfinv, erfinv_, exp2, exp2_, expm1, expm1_, fix, fix_, float_power, float_power_,
    fmax, fmin, frac, frac_, gelu, glu, hardshrink, hardsigmoid, hardswish, hardtanh, hardtanh_,
    hypot, hypot_, leaky_relu, leaky_relu_, lerp, lerp_, lgamma, lgamma_, log10, log10_, log1p,
    log1p_, log2, log2_, logaddexp, logaddexp2, logit, logit_, logsigmoid, mish, nan_to_num,
    nan_to_num_, polygamma, polygamma_, rad2deg, rad2deg_, relu6, rrelu, rrelu_, selu, selu_, sgn,
    sgn_, signbit, silu, sinc, sinc_, sinh, sinh_, softplus, softshrink, softsign, tan, tan_,
    tanhshrink, threshold, threshold_, trunc, trunc_, xlogy, xlogy_)
from .reduction import (  # noqa: F401  (the catalogue, issue 11)
    aminmax, count_nonzero, cummax, cummin, cumprod, diff, kthvalue, logcumsumexp, median, nanmean,
    nanmedian, nansum, std, std_mean, var, var_mean)
from .shape import (  # noqa: F401  (the catalogue: shape, issue 11)
    atleast_1d, atleast_2d, atleast_3d, block_diag, broadcast_shapes, broadcast_tensors,
    cartesian_prod, column_stack, combinations, diag_embed, dsplit, dstack, fliplr, flipud,
    hsplit, meshgrid, narrow_copy, repeat, repeat_interleave, roll, rot90, row_stack, squeeze_,
    swapaxes_, swapdims_, t_, tensor_split, tile, transpose_, unsqueeze_, vsplit)
from .indexing import (  # noqa: F401  (the catalogue: indexing, issue 11)
    diagonal_scatter, index_copy, index_copy_, index_fill, index_fill_, masked_scatter,
    masked_scatter_, put, put_, scatter_reduce, scatter_reduce_, select_scatter, slice_scatter,
    take, take_along_dim)
from .reduction import (  # noqa: F401  (the catalogue: reductions, issue 11)
    bincount, bucketize, corrcoef, cov, gradient, histc, histogram, histogramdd, mode, msort,
    nanquantile, quantile, renorm, renorm_, searchsorted, unique, unique_consecutive)
from .special import (  # noqa: F401  (the catalogue: special functions, issue 11)
    heaviside, heaviside_, i0, i0_, isneginf, isposinf, isreal, mvlgamma, mvlgamma_, nextafter,
    nextafter_, prelu)
from .shape import tril_, triu_  # noqa: F401,E402
from .pointwise import (  # noqa: F401,E402  (issue 8: missing names)
    ceil_, eq_, floor_, gcd, gcd_, ge_, greater_, greater_equal_, gt_, lcm, lcm_, ldexp,
    ldexp_, le_, less_, less_equal_, lt_, ne_, not_equal_, sign_, square_)
from .reduction import cumulative_trapezoid, trapezoid, trapz  # noqa: F401,E402
from .indexing import index_reduce, index_reduce_  # noqa: F401,E402
from .shape import unsafe_chunk, unsafe_split  # noqa: F401,E402
from .indexing import argwhere  # noqa: F401,E402
from . import indexing, linalg, nn_ops, pointwise, reduction, shape, special
from . import complex_ops, fft  # noqa: E402  (complex views; torch.fft)
from .linalg import (  # noqa: F401  (the catalogue, issue 11)
    addbmm, addmv, addr, baddbmm, chain_matmul, cholesky, cross, diag, diagflat,
    einsum, ger, inner, inverse, kron, logdet, matrix_power, pinverse, tensordot, trace, vdot)
from .pointwise import (  # noqa: F401,E402  (the catalogue: names still missing, issue 11)
    bitwise_and_, bitwise_left_shift_, bitwise_not_, bitwise_or_, bitwise_right_shift_,
    bitwise_xor_, clamp_max_, clamp_min_, logical_and_, logical_not_, logical_or_, logical_xor_,
    round_, rsqrt_)
from .reduction import cumsum_  # noqa: F401,E402
from .reduction import dist, positive  # noqa: F401,E402
from .linalg import addbmm_, addmm_, addmv_, addr_, baddbmm_  # noqa: F401,E402
from .shape import (  # noqa: F401,E402
    as_strided_, resize_, resize_as_, split_with_sizes, tril_indices, triu_indices)
from .indexing import isin  # noqa: F401,E402
from .special import igamma, igamma_, igammac, igammac_  # noqa: F401,E402
from .pointwise import frexp  # noqa: F401,E402
from .reduction import sum_to_size  # noqa: F401,E402
from .shape import fill_diagonal_  # noqa: F401,E402

# every module holding table entries (tests walk them)
FAMILIES = (pointwise, reduction, shape, indexing, linalg, nn_ops, special, complex_ops, fft)
