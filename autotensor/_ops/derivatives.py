"""THE op table: each op declared once — kernel, node name, and one backward formula per
differentiable input, written in differentiable operations.

A formula is ``lambda F, grad, <names>: ...``. The names after ``grad`` say what the node
must save: an input (``self``, ``other``, ...), a parameter (``dim``, ``exponent``, ...),
an output (``result``, ``indices``), or an input's shape (``self_sizes``). Nodes expose
them as ``_saved_<name>`` like PyTorch's. ``F`` is the namespace the formula computes in
(Note [One formula, two interpretations] in raw.py). Gradients are summed back to the
input's shape and cast to its dtype by the engine when the forward broadcast or promoted
(Note [Un-broadcast in the engine] in engine.py), so formulas never do it themselves.

Kernels take arrays (inputs first, then params) and return arrays. The public functions
in functions.py parse arguments and promote dtypes before calling them.
"""
from . import raw
from .dispatch import defop
from .._backend import np


# ---- helpers shared by several formulas (written against F, so differentiable) --------
def reduce_backward(F, grad, dims, keepdim, sizes):
    """Gradient of a reduction over ``dims``: broadcast grad back to the input's sizes."""
    if not keepdim and sizes:
        shape = list(sizes)
        for d in (range(len(sizes)) if dims is None else dims):
            shape[d] = 1
        grad = F.reshape(grad, tuple(shape))
    return F.expand(grad, sizes)


def _numel(sizes, dims=None):
    n = 1
    for i, s in enumerate(sizes):
        if dims is None or i in dims:
            n *= s
    return n


def pow_backward(F, grad, self, exponent):
    if exponent == 0:
        return F.zeros_like(grad)
    return grad * (exponent * self ** (exponent - 1))


def pow_backward_self(F, grad, self, exponent):
    return F.where(exponent == 0.0, F.zeros_like(grad), grad * (exponent * self ** (exponent - 1)))


def pow_backward_exponent(F, grad, self, exponent, result):
    cond = (self == 0) & (exponent >= 0)
    return grad * F.where(cond, F.zeros_like(result), result * F.log(self))


def pow_backward_exponent_scalar_base(F, grad, self, result):
    if self == 0:
        return F.where(result >= 0, F.zeros_like(grad), grad * result * np.log(self))
    return grad * result * float(np.log(self))


def max_min_backward(F, grad, self, result):
    """Ties share the gradient evenly (PyTorch's evenly_distribute_backward)."""
    mask = self == result
    count = F.sum(F.cast_like(mask, grad))
    return F.where(mask, grad / count, F.zeros_like(self))


def select_dim_backward(F, grad, dim, keepdim, indices, self_sizes):
    """Gradient of max/min over a dim: the grad goes to the selected index."""
    if not self_sizes:  # a 0-d input: the op was the identity
        return F.reshape(grad, ())
    if not keepdim:
        grad = F.unsqueeze(grad, dim)
        indices = F.unsqueeze(indices, dim)
    return F.scatter_add(F.zeros(self_sizes, grad), dim, indices, grad)


def norm_backward(F, grad, self, ord, dim, keepdim, result):
    if not keepdim and dim is not None and self.ndim:
        for d in sorted(dim):
            grad = F.unsqueeze(grad, d)
            result = F.unsqueeze(result, d)
    if ord == 2:
        scale = F.where(result == 0, F.zeros_like(result), grad / result)
        return self * scale
    if ord == 1:
        return F.sign(self) * grad
    if ord == float("inf") or ord == float("-inf"):
        mask = F.abs(self) == result
        count = F.sum(F.cast_like(mask, grad), dim, True) if dim is not None else \
            F.sum(F.cast_like(mask, grad))
        return F.where(mask, F.sign(self) * grad / count, F.zeros_like(self))
    if ord == 0:
        return F.zeros_like(self)
    scale = F.where(result == 0, F.zeros_like(result), grad / result ** (ord - 1))
    return self * F.abs(self) ** (ord - 2) * scale


def split_backward(F, grads, dim, split_size, self_sizes):
    pieces = []
    for i, g in enumerate(grads):
        if g is None:
            size = min(split_size, self_sizes[dim] - i * split_size)
            shape = list(self_sizes)
            shape[dim] = size
            g = F.zeros(tuple(shape), _first_defined(grads))
        pieces.append(g)
    return F.cat(pieces, dim)


def split_with_sizes_backward(F, grads, dim, split_sizes, self_sizes):
    pieces = []
    for g, size in zip(grads, split_sizes):
        if g is None:
            shape = list(self_sizes)
            shape[dim] = size
            g = F.zeros(tuple(shape), _first_defined(grads))
        pieces.append(g)
    return F.cat(pieces, dim)


def unbind_backward(F, grads, dim, self_sizes):
    shape = list(self_sizes)
    del shape[dim]
    like = _first_defined(grads)
    return F.stack([g if g is not None else F.zeros(tuple(shape), like) for g in grads], dim)


def _first_defined(grads):
    for g in grads:
        if g is not None:
            return g


def cat_backward(F, grad, dim, tensors_sizes):
    out = []
    start = 0
    for sizes in tensors_sizes:
        n = sizes[dim] if len(sizes) else 0
        if sizes == (0,) and grad.ndim != 1:   # legacy empty tensors are skipped by cat
            out.append(F.zeros((0,), grad))
            continue
        out.append(F.narrow(grad, dim, start, n))
        start += n
    return tuple(out)


def mse_backward(F, grad, self, target, reduction):
    diff = (self - target) * 2
    if reduction == "mean":
        diff = diff / _numel(self.shape)
    return diff * grad


def _mean_divisor(F, grad, self_sizes, dim):
    return grad / _numel(self_sizes, dim)


# ---- the table -------------------------------------------------------------------------
# Elementwise binary ops: inputs (self, other); ``other`` may be a Python scalar.
ADD = defop("add", "AddBackward0", lambda a, b, alpha: a + b if alpha == 1 else a + alpha * b,
            inputs=("self", "other"), params=("alpha",),
            grads={"self": lambda F, grad: grad,
                   "other": lambda F, grad, alpha: grad if alpha == 1 else grad * alpha})
SUB = defop("sub", "SubBackward0", lambda a, b, alpha: a - b if alpha == 1 else a - alpha * b,
            inputs=("self", "other"), params=("alpha",),
            grads={"self": lambda F, grad: grad,
                   "other": lambda F, grad, alpha: -grad if alpha == 1 else grad * -alpha})
RSUB = defop("rsub", "RsubBackward1", lambda a, other, alpha: other - alpha * a
             if alpha != 1 else other - a,
             inputs=("self",), params=("other", "alpha"),
             grads={"self": lambda F, grad, alpha: -grad if alpha == 1 else grad * -alpha})
RSUB_TENSOR = defop("rsub", "RsubBackward0",
                    lambda a, b, alpha: b - a if alpha == 1 else b - alpha * a,
                    inputs=("self", "other"), params=("alpha",),
                    grads={"self": lambda F, grad, alpha: -grad if alpha == 1 else grad * -alpha,
                           "other": lambda F, grad: grad})
MUL = defop("mul", "MulBackward0", np.multiply, inputs=("self", "other"),
            grads={"self": lambda F, grad, other: grad * other,
                   "other": lambda F, grad, self: grad * self})
DIV = defop("div", "DivBackward0", np.true_divide, inputs=("self", "other"),
            grads={"self": lambda F, grad, other: grad / other,
                   "other": lambda F, grad, self, other: -grad * self / (other * other)})
POW_SCALAR = defop("pow", "PowBackward0", lambda a, e: a ** e, params=("exponent",),
                   grads={"self": pow_backward})
POW_TENSOR = defop("pow", "PowBackward1", lambda a, b: a ** b, inputs=("self", "exponent"),
                   grads={"self": pow_backward_self, "exponent": pow_backward_exponent})
POW_SCALAR_BASE = defop("pow", "PowBackward2", lambda e, base: base ** e,
                        inputs=("exponent",), params=("self",),
                        grads={"exponent": pow_backward_exponent_scalar_base})
MAXIMUM = defop("maximum", "MaximumBackward0", raw.maximum, inputs=("self", "other"),
                grads={"self": lambda F, grad, self, other: F.where(
                           self == other, grad / 2, F.masked_fill(grad, self < other, 0)),
                       "other": lambda F, grad, self, other: F.where(
                           self == other, grad / 2, F.masked_fill(grad, self > other, 0))})
MINIMUM = defop("minimum", "MinimumBackward0", raw.minimum, inputs=("self", "other"),
                grads={"self": lambda F, grad, self, other: F.where(
                           self == other, grad / 2, F.masked_fill(grad, self > other, 0)),
                       "other": lambda F, grad, self, other: F.where(
                           self == other, grad / 2, F.masked_fill(grad, self < other, 0))})
WHERE = defop("where", "WhereBackward0", lambda a, b, condition: raw.where(condition, a, b),
              inputs=("self", "other"), params=("condition",),
              grads={"self": lambda F, grad, condition: F.where(condition, grad, 0),
                     "other": lambda F, grad, condition: F.where(condition, 0, grad)})

ADD.kernel_no_alpha, SUB.kernel_no_alpha = np.add, np.subtract

# The Scalar overloads (``tensor * 2.0`` inside a backward formula, where PyTorch's C++
# calls mul.Scalar; user code wraps the number into a tensor and gets the ops above).
ADD_SCALAR = defop("add", "AddBackward1", lambda a, other, alpha: a + alpha * other,
                   params=("other", "alpha"), grads={"self": lambda F, grad: grad})
SUB_SCALAR = defop("sub", "SubBackward1", lambda a, other, alpha: a - alpha * other,
                   params=("other", "alpha"), grads={"self": lambda F, grad: grad})
MUL_SCALAR = defop("mul", "MulBackward1", lambda a, other: a * other, params=("other",),
                   grads={"self": lambda F, grad, other: grad * other})
DIV_SCALAR = defop("div", "DivBackward1", lambda a, other: a / other, params=("other",),
                   grads={"self": lambda F, grad, other: grad / other})
SCALAR_OVERLOAD = {ADD: ADD_SCALAR, SUB: SUB_SCALAR, MUL: MUL_SCALAR, DIV: DIV_SCALAR}

# Elementwise unary ops.
NEG = defop("neg", "NegBackward0", lambda a: -a, grads={"self": lambda F, grad: -grad})
EXP = defop("exp", "ExpBackward0", np.exp, grads={"self": lambda F, grad, result: grad * result})
LOG = defop("log", "LogBackward0", np.log, grads={"self": lambda F, grad, self: grad / self})
SQRT = defop("sqrt", "SqrtBackward0", np.sqrt,
             grads={"self": lambda F, grad, result: grad / (result * 2)})
ABS = defop("abs", "AbsBackward0", np.abs,
            grads={"self": lambda F, grad, self: grad * F.sgn(self)})
SIN = defop("sin", "SinBackward0", np.sin,
            grads={"self": lambda F, grad, self: grad * F.cos(self)})
COS = defop("cos", "CosBackward0", np.cos,
            grads={"self": lambda F, grad, self: -grad * F.sin(self)})
TANH = defop("tanh", "TanhBackward0", np.tanh,
             grads={"self": lambda F, grad, result: grad * (1 - result * result)})
SIGMOID = defop("sigmoid", "SigmoidBackward0", raw.sigmoid,
                grads={"self": lambda F, grad, result: grad * (result * (1 - result))})
RELU = defop("relu", "ReluBackward0", raw.relu,
             grads={"self": lambda F, grad, result: F.where(result > 0, grad, 0)})
RECIPROCAL = defop("reciprocal", "ReciprocalBackward0", lambda a: 1 / a,
                   grads={"self": lambda F, grad, result: -grad * (result * result)})
CLAMP = defop("clamp", "ClampBackward1", raw.clamp, params=("min", "max"),
              grads={"self": lambda F, grad, self, min, max: F.where(
                  ((self >= min) if min is not None else True)
                  & ((self <= max) if max is not None else True), grad, 0)})
CLAMP_TENSOR = defop(
    "clamp", "ClampBackward0", lambda a, lo, hi: raw.clamp(a, lo, hi),
    inputs=("self", "min", "max"),
    grads={"self": lambda F, grad, self, min, max: F.where(
               ((self >= min) if min is not None else True)
               & ((self <= max) if max is not None else True), grad, 0),
           "min": lambda F, grad, self, min, max: F.where(
               (self < min) & ((min < max) if max is not None else True), grad, 0),
           "max": lambda F, grad, self, min, max: F.where(self > max, grad, 0)})

ZERO_GRAD = {"self": lambda F, grad: F.zeros_like(grad)}  # piecewise-constant ops
FLOOR = defop("floor", "FloorBackward0", np.floor, grads=ZERO_GRAD)
CEIL = defop("ceil", "CeilBackward0", np.ceil, grads=ZERO_GRAD)
ROUND = defop("round", "RoundBackward0", np.round, grads=ZERO_GRAD)
SIGN = defop("sign", "SignBackward0", np.sign, grads=ZERO_GRAD)
SGN = defop("sgn", "SgnBackward0", np.sign, grads=ZERO_GRAD)  # what abs's derivative uses
RSQRT = defop("rsqrt", "RsqrtBackward0", lambda a: 1 / np.sqrt(a),
              grads={"self": lambda F, grad, result: grad * (result * result * result) * -0.5})
REMAINDER = defop("remainder", "RemainderBackward0", lambda a, b: np.mod(a, b),
                  inputs=("self",), params=("other",), grads={"self": lambda F, grad: grad})
FMOD = defop("fmod", "FmodBackward0", lambda a, b: np.fmod(a, b),
             inputs=("self",), params=("other",), grads={"self": lambda F, grad: grad})
REMAINDER_TENSOR = defop(
    "remainder", "RemainderBackward1", np.mod, inputs=("self", "other"),
    grads={"self": lambda F, grad: grad,
           "other": lambda F, grad, self, other: -grad * F.floor(self / other)})
FMOD_TENSOR = defop(
    "fmod", "FmodBackward1", np.fmod, inputs=("self", "other"),
    grads={"self": lambda F, grad: grad,
           "other": lambda F, grad, self, other: -grad * F.trunc(self / other)})
def _not_implemented(name):
    def formula(F, grad):
        raise RuntimeError(f"derivative for aten::{name} is not implemented")
    return formula


FLOOR_DIVIDE = defop("floor_divide", "torch::autograd::NotImplemented", np.floor_divide,
                     inputs=("self", "other"),
                     grads={"self": _not_implemented("floor_divide"),
                            "other": _not_implemented("floor_divide")})
FLOOR_DIVIDE_SCALAR = defop("floor_divide", "torch::autograd::NotImplemented", np.floor_divide,
                            params=("other",), grads={"self": _not_implemented("floor_divide")})
DIV_MODE = defop("div", "DivBackward2", lambda a, b, mode: np.floor_divide(a, b)
                 if mode == "floor" else np.trunc(np.true_divide(a, b)),
                 inputs=("self", "other"),
                 params=("rounding_mode",), grads={"self": lambda F, grad: F.zeros_like(grad),
                                                   "other": lambda F, grad: F.zeros_like(grad)})
DIV_MODE_SCALAR = defop("div", "DivBackward3", None, params=("other", "rounding_mode"),
                        grads={"self": lambda F, grad: F.zeros_like(grad)})
TRIL = defop("tril", "TrilBackward0", lambda a, diagonal: np.tril(a, diagonal),
             params=("diagonal",), grads={"self": lambda F, grad, diagonal: F.tril(grad, diagonal)})
TRIU = defop("triu", "TriuBackward0", lambda a, diagonal: np.triu(a, diagonal),
             params=("diagonal",), grads={"self": lambda F, grad, diagonal: F.triu(grad, diagonal)})
FLIP = defop("flip", "FlipBackward0", lambda a, dims: np.flip(a, dims).copy(), params=("dims",),
             grads={"self": lambda F, grad, dims: F.flip(grad, dims)})
CUMSUM = defop("cumsum", "CumsumBackward0", lambda a, dim: np.cumsum(a, axis=dim),
               params=("dim",),
               grads={"self": lambda F, grad, dim: F.flip(F.cumsum(F.flip(grad, (dim,)), dim),
                                                          (dim,))})


def amax_amin_backward(F, grad, self, dim, keepdim, result):
    """Ties share the gradient evenly (PyTorch's scale_grad_by_count)."""
    if not keepdim and dim is not None:
        for d in dim:
            grad = F.unsqueeze(grad, d)
            result = F.unsqueeze(result, d)
    mask = F.cast_like(self == result, grad)
    count = F.sum(mask, dim, True) if dim is not None else F.sum(mask)
    return F.expand(grad, self.shape) * mask / count


def prod_backward(F, grad, self, dim, keepdim, result):
    """d prod / d x_i = product of the others (computed without dividing by zeros)."""
    if dim is not None and not keepdim:
        grad = F.unsqueeze(grad, dim)
        result = F.unsqueeze(result, dim)
    if not (self == 0).any():
        return grad * result / self
    return grad * F.constant(_prod_others(_values(self), dim), grad)


def _values(x):
    return x._data if hasattr(x, "_data") else x


def _prod_others(x, dim):
    """For each element, the product of the other elements along dim (all if None)."""
    shape = x.shape
    a = x.reshape(-1) if dim is None else np.moveaxis(x, dim, -1)
    ones = np.ones(a.shape[:-1] + (1,), dtype=a.dtype)
    left = np.cumprod(np.concatenate([ones, a[..., :-1]], -1), -1)
    right = np.flip(np.cumprod(np.concatenate([ones, np.flip(a, -1)[..., :-1]], -1), -1), -1)
    others = left * right
    return others.reshape(shape) if dim is None else np.moveaxis(others, -1, dim)


AMAX = defop("amax", "AmaxBackward0", None, params=("dim", "keepdim"),
             grads={"self": amax_amin_backward})
AMIN = defop("amin", "AminBackward0", None, params=("dim", "keepdim"),
             grads={"self": amax_amin_backward})
PROD = defop("prod", "ProdBackward0", None, params=("dim", "keepdim"),
             grads={"self": prod_backward})
PROD_DIM = defop("prod", "ProdBackward1", None, params=("dim", "keepdim"),
                 grads={"self": prod_backward})
LOGSUMEXP = defop("logsumexp", "LogsumexpBackward0", None, params=("dim", "keepdim"),
                  grads={"self": lambda F, grad, self, dim, keepdim, result: (
                      _unsqueeze_dims(F, grad, dim, keepdim)
                      * F.exp(self - _unsqueeze_dims(F, result, dim, keepdim)))})


def _unsqueeze_dims(F, x, dims, keepdim):
    if not keepdim:
        for d in dims:
            x = F.unsqueeze(x, d)
    return x


SORT = defop("sort", "SortBackward0", None, params=("dim", "descending"),
             outputs=("values", "indices"), diff_outputs=(0,),
             grads={"self": lambda F, grads, dim, indices, self_sizes:
                    select_dim_backward(F, grads[0], dim, True, indices, self_sizes)})
TOPK = defop("topk", "TopkBackward0", None, params=("k", "dim"),
             outputs=("values", "indices"), diff_outputs=(0,),
             grads={"self": lambda F, grads, dim, indices, self_sizes:
                    select_dim_backward(F, grads[0], dim, True, indices, self_sizes)})

# Reductions.
SUM = defop("sum", "SumBackward0", lambda a: raw.sum(a),
            grads={"self": lambda F, grad, self_sizes: F.expand(grad, self_sizes)})
SUM_DIM = defop("sum", "SumBackward1", raw.sum, params=("dim", "keepdim"),
                grads={"self": lambda F, grad, dim, keepdim, self_sizes:
                       reduce_backward(F, grad, dim, keepdim, self_sizes)})
MEAN = defop("mean", "MeanBackward0", lambda a: raw.mean(a),
             grads={"self": lambda F, grad, self_sizes:
                    F.expand(grad / _numel(self_sizes), self_sizes)})
MEAN_DIM = defop("mean", "MeanBackward1", raw.mean, params=("dim", "keepdim"),
                 grads={"self": lambda F, grad, dim, keepdim, self_sizes: reduce_backward(
                     F, _mean_divisor(F, grad, self_sizes, dim), dim, keepdim, self_sizes)})
MAX = defop("max", "MaxBackward1", lambda a: raw.asarray(np.max(a)),
            grads={"self": max_min_backward})
MIN = defop("min", "MinBackward1", lambda a: raw.asarray(np.min(a)),
            grads={"self": max_min_backward})
MAX_DIM = defop("max", "MaxBackward0", None, params=("dim", "keepdim"),
                outputs=("values", "indices"), diff_outputs=(0,),
                grads={"self": lambda F, grads, dim, keepdim, indices, self_sizes:
                       select_dim_backward(F, grads[0], dim, keepdim, indices, self_sizes)})
MIN_DIM = defop("min", "MinBackward0", None, params=("dim", "keepdim"),
                outputs=("values", "indices"), diff_outputs=(0,),
                grads={"self": lambda F, grads, dim, keepdim, indices, self_sizes:
                       select_dim_backward(F, grads[0], dim, keepdim, indices, self_sizes)})
NORM = defop("norm", "LinalgVectorNormBackward0", None, params=("ord", "dim", "keepdim"),
             grads={"self": norm_backward})
SOFTMAX = defop("softmax", "SoftmaxBackward0", raw.softmax, params=("dim",),
                grads={"self": lambda F, grad, dim, result:
                       result * (grad - F.sum(grad * result, dim, True))})
LOG_SOFTMAX = defop("log_softmax", "LogSoftmaxBackward0", raw.log_softmax, params=("dim",),
                    grads={"self": lambda F, grad, dim, result:
                           grad - F.exp(result) * F.sum(grad, dim, True)})

# Linear algebra.
MM = defop("mm", "MmBackward0", raw.mm, inputs=("self", "mat2"),
           grads={"self": lambda F, grad, mat2: F.mm(grad, F.t(mat2)),
                  "mat2": lambda F, grad, self: F.mm(F.t(self), grad)})
def _mat2_grad(F, grad, mat1):
    """mat1^T @ grad, computed as (grad^T @ mat1)^T: the same numbers, laid out so that
    for linear's t(weight) the weight's gradient arrives C-contiguous (no copy later)."""
    return F.t(F.mm(F.t(grad), mat1))


def _addmm(bias, m1, m2, beta, alpha):
    if beta != 1 or alpha != 1:
        return beta * bias + alpha * (m1 @ m2)
    out = m1 @ m2
    out += bias  # in place: the product is a fresh array
    return out


ADDMM = defop("addmm", "AddmmBackward0", _addmm,
              inputs=("self", "mat1", "mat2"), params=("beta", "alpha"),
              grads={"self": lambda F, grad, beta: grad if beta == 1 else grad * beta,
                     "mat1": lambda F, grad, mat2, alpha: F.mm(grad, F.t(mat2)) * alpha
                     if alpha != 1 else F.mm(grad, F.t(mat2)),
                     "mat2": lambda F, grad, mat1, alpha: _mat2_grad(F, grad, mat1) * alpha
                     if alpha != 1 else _mat2_grad(F, grad, mat1)})
BMM = defop("bmm", "BmmBackward0", raw.matmul, inputs=("self", "mat2"),
            grads={"self": lambda F, grad, mat2: F.matmul(grad, F.transpose(mat2, 1, 2)),
                   "mat2": lambda F, grad, self: F.matmul(F.transpose(self, 1, 2), grad)})
DOT = defop("dot", "DotBackward0", lambda a, b: raw.asarray(np.dot(a, b)),
            inputs=("self", "tensor"),
            grads={"self": lambda F, grad, tensor: grad * tensor,
                   "tensor": lambda F, grad, self: grad * self})
MV = defop("mv", "MvBackward0", raw.matmul, inputs=("self", "vec"),
           grads={"self": lambda F, grad, vec: F.unsqueeze(grad, 1) * F.unsqueeze(vec, 0),
                  "vec": lambda F, grad, self: F.matmul(F.t(self), grad)})

# Copies and casts.
CLONE = defop("clone", "CloneBackward0", raw.clone, grads={"self": lambda F, grad: grad})
TO_COPY = defop("to", "ToCopyBackward0", raw.cast, params=("dtype",),
                grads={"self": lambda F, grad: grad})
UNSAFE_VIEW = defop("_unsafe_view", "UnsafeViewBackward0", raw.reshape, params=("size",),
                    grads={"self": lambda F, grad, self_sizes: F.reshape(grad, self_sizes)})

# Indexing, gathering and scattering (index tensors are parameters: not differentiable).
GATHER = defop("gather", "GatherBackward0", raw.gather, params=("dim", "index"),
               grads={"self": lambda F, grad, dim, index, self_sizes:
                      F.scatter_add(F.zeros(self_sizes, grad), dim, index, grad)})
SCATTER_ADD = defop("scatter_add", "ScatterAddBackward0",
                    lambda a, src, dim, index: raw.scatter_add(a, dim, index, src),
                    inputs=("self", "src"), params=("dim", "index"),
                    grads={"self": lambda F, grad: grad,
                           "src": lambda F, grad, dim, index: F.gather(grad, dim, index)})
INDEX_SELECT = defop("index_select", "IndexSelectBackward0", raw.index_select,
                     params=("dim", "index"),
                     grads={"self": lambda F, grad, dim, index, self_sizes:
                            F.index_add(F.zeros(self_sizes, grad), dim, index, grad)})
INDEX = defop("index", "IndexBackward0", raw.getitem, params=("indices",),
              grads={"self": lambda F, grad, indices, self_sizes:
                     F.index_backward(grad, self_sizes, indices)})
MASKED_FILL = defop("masked_fill", "MaskedFillBackward0", raw.masked_fill,
                    params=("mask", "value"),
                    grads={"self": lambda F, grad, mask: F.masked_fill(grad, mask, 0)})
MASKED_FILL_TENSOR = defop(
    "masked_fill", "MaskedFillBackward1", None, inputs=("self", "value"), params=("mask",),
    grads={"self": lambda F, grad, mask: F.masked_fill(grad, mask, 0),
           "value": lambda F, grad, mask: F.sum(F.where(mask, grad, 0))})
CAT = defop("cat", "CatBackward0", None, inputs=("tensors",), params=("dim",), variadic=True,
            backward_all=lambda F, grad, dim, tensors_sizes: cat_backward(
                F, grad, dim, tensors_sizes))
STACK = defop("stack", "StackBackward0", None, inputs=("tensors",), params=("dim",),
              variadic=True,
              backward_all=lambda F, grad, dim: tuple(
                  F.select(grad, dim, i) for i in range(grad.shape[dim])))
# The backward of indexing, as ops of their own so that double backward works.
GETITEM_BACKWARD = defop("getitem_backward", "SliceBackwardBackward0", raw.getitem_backward,
                         inputs=("grad",), params=("shape", "key"),
                         grads={"grad": lambda F, grad, key: F.getitem(grad, key)})
INDEX_BACKWARD = defop("index_backward", "IndexPutBackward0", raw.index_backward,
                       inputs=("grad",), params=("shape", "key"),
                       grads={"grad": lambda F, grad, key: F.getitem(grad, key)})
INDEX_ADD = defop("index_add", "IndexAddBackward0",
                  lambda a, src, dim, index, alpha: raw.index_add(a, dim, index, src, alpha),
                  inputs=("self", "source"), params=("dim", "index", "alpha"),
                  grads={"self": lambda F, grad: grad,
                         "source": lambda F, grad, dim, index, alpha:
                         F.index_select(grad, dim, index) * alpha
                         if alpha != 1 else F.index_select(grad, dim, index)})

# Losses.
MSE_LOSS = defop("mse_loss", "MseLossBackward0", None, inputs=("self", "target"),
                 params=("reduction",),
                 grads={"self": mse_backward,
                        "target": lambda F, grad, self, target, reduction:
                        -mse_backward(F, grad, self, target, reduction)})

def nll_loss_backward(F, grad, target, weight, reduction, ignore_index, total_weight,
                      self_sizes):
    """Gradient of nll_loss: -weight[target] * grad at each target class, zero elsewhere."""
    coef = -_class_weights(target, weight, ignore_index, self_sizes)
    if reduction == "mean":
        coef = coef / total_weight if total_weight else coef * 0
    src = F.unsqueeze(grad * F.constant(coef, grad), 1)
    index = np.expand_dims(np.where(target == ignore_index, 0, target), 1)
    return F.scatter(F.zeros(self_sizes, grad), 1, index, src)


def _class_weights(target, weight, ignore_index, sizes):
    """Each sample's weight (0 where its target is ignore_index), a constant array."""
    w = np.ones(sizes[1]) if weight is None else weight
    safe = np.where(target == ignore_index, 0, target)
    return np.where(target == ignore_index, 0.0, w[safe])


NLL_LOSS = defop("nll_loss", "NllLossBackward0", None, params=(
    "target", "weight", "reduction", "ignore_index", "total_weight"),
    grads={"self": nll_loss_backward})

# In-place-only ops (their out-of-place forms are other entries).
ZERO = defop("zero_", "ZeroBackward0", None, grads={"self": lambda F, grad: F.zeros_like(grad)})
FILL = defop("fill_", "FillBackward2", None, params=("value",),
             grads={"self": lambda F, grad: F.zeros_like(grad)})
FILL_TENSOR = defop("fill_", "FillBackward3", None, inputs=("self", "value"),
                    grads={"self": lambda F, grad: F.zeros_like(grad),
                           "value": lambda F, grad: F.sum(grad)})
COPY = defop("copy_", "torch::autograd::CopyBackwards", None, inputs=("self", "src"),
             grads={"self": lambda F, grad: F.zeros_like(grad),
                    "src": lambda F, grad: grad})

# View ops: results share storage with their input (see autograd/inplace.py).
VIEW = defop("view", "ViewBackward0", raw.reshape, params=("size",),
             grads={"self": lambda F, grad, self_sizes: F.reshape(grad, self_sizes)})
RESHAPE_ALIAS = defop("_reshape_alias", "ReshapeAliasBackward0", raw.reshape, params=("size",),
                      grads={"self": lambda F, grad, self_sizes: F.reshape(grad, self_sizes)})
ALIAS = defop("alias", "AliasBackward0", lambda a: a.view(), grads={"self": lambda F, grad: grad})
T = defop("t", "TBackward0", raw.t, grads={"self": lambda F, grad: F.t(grad)})
TRANSPOSE = defop("transpose", "TransposeBackward0", raw.transpose, params=("dim0", "dim1"),
                  grads={"self": lambda F, grad, dim0, dim1: F.transpose(grad, dim0, dim1)})
PERMUTE = defop("permute", "PermuteBackward0", raw.permute, params=("dims",),
                grads={"self": lambda F, grad, dims: F.permute(
                    grad, tuple(int(i) for i in np.argsort(dims)))})
EXPAND = defop("expand", "ExpandBackward0", raw.expand, params=("size",),
               grads={"self": lambda F, grad, self_sizes: F.sum_to(grad, self_sizes)})
SQUEEZE = defop("squeeze", "SqueezeBackward0", lambda a: np.squeeze(a),
                grads={"self": lambda F, grad, self_sizes: F.reshape(grad, self_sizes)})
SQUEEZE_DIM = defop("squeeze", "SqueezeBackward1", lambda a, dim: a.reshape(
                        a.shape[:dim] + a.shape[dim + 1:]) if a.shape[dim] == 1 else a,
                    params=("dim",),
                    grads={"self": lambda F, grad, self_sizes: F.reshape(grad, self_sizes)})
SQUEEZE_DIMS = defop("squeeze", "SqueezeBackward2", raw.squeeze, params=("dim",),
                     grads={"self": lambda F, grad, self_sizes: F.reshape(grad, self_sizes)})
SQUEEZE_INPLACE_DIM = defop("squeeze_", "SqueezeBackward4", raw.squeeze, params=("dim",),
                            grads={"self": lambda F, grad, self_sizes:
                                   F.reshape(grad, self_sizes)})
UNSQUEEZE = defop("unsqueeze", "UnsqueezeBackward0", raw.unsqueeze, params=("dim",),
                  grads={"self": lambda F, grad, dim: F.squeeze(grad, dim)})
SLICE = defop("slice", "SliceBackward0", None, params=("dim", "start", "end", "step"),
              grads={"self": lambda F, grad, dim, start, end, step, self_sizes:
                     F.getitem_backward(grad, self_sizes,
                                        (slice(None),) * dim + (slice(start, end, step),))})
SELECT = defop("select", "SelectBackward0", raw.select, params=("dim", "index"),
               grads={"self": lambda F, grad, dim, index, self_sizes:
                      F.getitem_backward(grad, self_sizes, (slice(None),) * dim + (index,))})
SPLIT = defop("split", "SplitBackward0", None, params=("split_size", "dim"), outputs=None,
              grads={"self": split_backward})
SPLIT_WITH_SIZES = defop("split_with_sizes", "SplitWithSizesBackward0", None,
                         params=("split_sizes", "dim"), outputs=None,
                         grads={"self": split_with_sizes_backward})
UNBIND = defop("unbind", "UnbindBackward0", None, params=("dim",), outputs=None,
               grads={"self": unbind_backward})
DIAGONAL = defop("diagonal", "DiagonalBackward0", None, params=("offset", "dim1", "dim2"),
                 grads={"self": lambda F, grad, offset, dim1, dim2, self_sizes:
                        F.diagonal_backward(grad, self_sizes, offset, dim1, dim2)})
AS_STRIDED = defop("as_strided", "AsStridedBackward0", None,
                   params=("size", "stride", "storage_offset", "layout"),
                   grads={"self": lambda F, grad, size, stride, storage_offset, layout:
                          F.as_strided_backward(grad, layout, size, stride, storage_offset)})
UNFOLD = defop("unfold", "UnfoldBackward0", None,
               params=("dimension", "size", "step", "out_size", "out_stride", "layout"),
               grads={"self": lambda F, grad, out_size, out_stride, layout:
                      F.as_strided_backward(grad, layout, out_size, out_stride, 0)})
# CopySlices' pieces (Note [CopySlices]), as ops so that its double backward works.
STRIDED_VIEW = defop("strided_view", "AsStridedBackward1", None, inputs=("grad",),
                     params=("layout", "size", "stride", "offset"),
                     grads={"grad": lambda F, grad, layout, size, stride, offset:
                            F.as_strided_backward(grad, layout, size, stride, offset)})
STRIDED_SCATTER = defop(
    "strided_scatter", "AsStridedScatterBackward0", None, inputs=("self", "src"),
    params=("layout", "size", "stride", "offset"),
    grads={"self": lambda F, grad, layout, size, stride, offset: F.strided_scatter(
               grad, F.zeros(size, grad), layout, size, stride, offset),
           "src": lambda F, grad, layout, size, stride, offset:
           F.strided_view(grad, layout, size, stride, offset)})
AS_STRIDED_BACKWARD = defop("as_strided_backward", "AsStridedBackwardBackward0", None,
                            inputs=("grad",), params=("layout", "size", "stride", "offset"),
                            grads={"grad": lambda F, grad, layout, size, stride, offset:
                                   F.strided_view(grad, layout, size, stride, offset)})
DIAGONAL_BACKWARD = defop("diagonal_backward", "DiagonalBackwardBackward0", None,
                          inputs=("grad",), params=("shape", "offset", "dim1", "dim2"),
                          grads={"grad": lambda F, grad, offset, dim1, dim2:
                                 F.diagonal(grad, offset, dim1, dim2)})
INDEX_PUT = defop("index_put", "IndexPutBackward0", None, inputs=("self", "values"),
                  params=("indices", "accumulate"),
                  grads={"self": lambda F, grad, indices, accumulate:
                         grad if accumulate else F.zero_at(grad, indices),
                         "values": lambda F, grad, indices: F.getitem(grad, indices)})
SCATTER = defop("scatter", "ScatterBackward0", None, inputs=("self", "src"),
                params=("dim", "index"),
                grads={"self": lambda F, grad, dim, index: F.scatter(grad, dim, index, 0),
                       "src": lambda F, grad, dim, index: F.gather(grad, dim, index)})
SCATTER_VALUE = defop("scatter", "ScatterBackward1", None, params=("dim", "index"),
                      grads={"self": lambda F, grad, dim, index: F.scatter(grad, dim, index, 0)})
