"""aten's argument and shape checks of the pooling ops, in aten's order and wording.

PyTorch's F.max_pool2d & co. are thin Python over C++ ops whose checks run in a fixed
order: the argument lists' lengths, the input's rank, ``pooling_output_shape``'s own checks
(stride zero, negative padding, padding past half the effective kernel), then Pool.h's
``pool2d_shape_check`` / ``pool3d_shape_check`` (kernel, stride and dilation positive, the
rank and empty dims, padding past half the kernel, an output of no element), and only then
the kernel's dtype dispatch (its "not implemented for" error). The 1-d ops are composites
in Pooling.cpp / MaxPooling.cpp with their own checks before the 2-d op's. Each function
here raises the first error PyTorch 2.13 raises and returns the sizes the kernel needs.
"""

from .. import _argparse, _dtypes
from .._ops._common import _size_dim

_FLOATS = ("float64", "float32", "float16", "bfloat16")


def sizes(shape):
    """'[1, 2, 3]': how aten prints ``input.sizes()``."""
    return "[" + ", ".join(str(s) for s in shape) + "]"


def size_at(shape, dim):
    """``input.size(dim)`` with aten's IndexError for a dim out of range."""
    return shape[_size_dim(dim, len(shape))]


def int_list(v, n):
    """The C++ argument parser's ``int[n]``: an int repeated n times, a sequence as given,
    None as the empty list (a stride's default)."""
    if v is None:
        return []
    if isinstance(v, (list, tuple)):  # (a float or bool refused: Note [Argument errors on the
        return _argparse.int_list(v)  # exception path] in _argparse.py)
    return [v if v.__class__ is int else _argparse.index(v)] * n


def refuse(kernel, dtype):
    raise NotImplementedError(f"\"{kernel}\" not implemented for "
                              f"'{_dtypes.scalar_name(dtype)}'")


def refuse_unless(kernel, dtype, allowed):
    """The kernel's AT_DISPATCH over ``allowed`` (dtype names)."""
    if str(dtype).rsplit(".", 1)[-1] not in allowed:
        refuse(kernel, dtype)


def _check_dim_range(op, ndim, lo, hi):
    """aten's checkDimRange(op, self, lo, hi + 1)."""
    if not lo <= ndim <= hi:
        raise RuntimeError(f"Expected {lo} to {hi} dimensions, but got {ndim}-dimensional "
                           f"tensor for argument #1 'self' (while checking arguments for {op})")


def check1d(op, arg, v):
    if len(v) != 1:
        raise RuntimeError(f"{op}() argument '{arg}' should contain one int (got {len(v)})")


def _cdiv(a, b):
    """C++'s integer division (toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def pooling_output_shape(size, k, pad, stride, dilation, ceil_mode):
    if stride == 0:
        raise RuntimeError("stride should not be zero")
    if pad < 0:
        raise RuntimeError(f"pad must be non-negative, but got pad: {pad}")
    if pad > _cdiv((k - 1) * dilation + 1, 2):
        raise RuntimeError(f"pad should be at most half of effective kernel size, but got "
                           f"pad={pad}, kernel_size={k} and dilation={dilation}")
    out = (size + 2 * pad - dilation * (k - 1) - 1 + (stride - 1 if ceil_mode else 0)) \
        // stride + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return out


def _pool2d_shape_check(shape, kh, kw, dh, dw, ph, pw, dilh, dilw, oh, ow, channels_last):
    if not (kw > 0 and kh > 0):
        raise RuntimeError(f"kernel size should be greater than zero, but got kH: {kh} kW: {kw}")
    if not (dw > 0 and dh > 0):
        raise RuntimeError(f"stride should be greater than zero, but got dH: {dh} dW: {dw}")
    if not (dilh > 0 and dilw > 0):
        raise RuntimeError(f"dilation should be greater than zero, but got dilationH: {dilh} "
                           f"dilationW: {dilw}")
    ndim = len(shape)
    valid = size_at(shape, 1) != 0 and size_at(shape, 2) != 0
    if channels_last:
        if not (ndim == 4 and valid and shape[3] != 0):
            raise RuntimeError(f"Expected 4D (batch mode) tensor expected for input with "
                               f"channels_last layout with optional 0 dim batch size for "
                               f"input, but got: {sizes(shape)}")
    elif not ((ndim == 3 and shape[0] != 0 and valid) or
              (ndim == 4 and valid and shape[3] != 0)):
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with optional 0 dim batch "
                           f"size for input, but got:{sizes(shape)}")
    if not (_cdiv(kw, 2) >= pw and _cdiv(kh, 2) >= ph):
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but "
                           f"got padW = {pw}, padH = {ph}, kW = {kw}, kH = {kh}")
    if not (ow >= 1 and oh >= 1):
        c, h, w = shape[-3:]
        raise RuntimeError(f"Given input size: ({c}x{h}x{w}). Calculated output size: "
                           f"({c}x{oh}x{ow}). Output size is too small")


def _two(name, op, v, allow_empty=False):
    if not (len(v) in (1, 2) or (allow_empty and not v)):
        how = ("must either be omitted, a single int, or a tuple of two ints"
               if allow_empty else "must either be a single int, or a tuple of two ints")
        if name == "dilation":
            how = "must be either a single int, or a tuple of two ints"
        raise RuntimeError(f"{op}: {name} {how}")


def max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, channels_last):
    """TORCH_META_FUNC(max_pool2d_with_indices): ((kH, kW), (dH, dW), (padH, padW),
    (dilationH, dilationW)) once every check passed."""
    k, s, p, d = (int_list(kernel_size, 2), int_list(stride, 2), int_list(padding, 2),
                  int_list(dilation, 2))
    _two("kernel_size", "max_pool2d", k)
    kh, kw = k[0], k[-1]
    _two("stride", "max_pool2d", s, allow_empty=True)
    dh, dw = (kh, kw) if not s else (s[0], s[-1])
    _two("padding", "max_pool2d", p)
    ph, pw = p[0], p[-1]
    _two("dilation", "max_pool2d", d)
    dilh, dilw = d[0], d[-1]
    shape = tuple(input.shape)
    if channels_last and len(shape) != 4:
        raise RuntimeError("non-empty 4D (batch mode) tensor expected for input with "
                           "channels_last layout")
    if len(shape) not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    oh = pooling_output_shape(shape[-2], kh, ph, dh, dilh, ceil_mode)
    ow = pooling_output_shape(shape[-1], kw, pw, dw, dilw, ceil_mode)
    _pool2d_shape_check(shape, kh, kw, dh, dw, ph, pw, dilh, dilw, oh, ow, channels_last)
    return (kh, kw), (dh, dw), (ph, pw), (dilh, dilw)


def avg_pool2d(input, kernel_size, stride, padding, ceil_mode, divisor_override,
               channels_last):
    """TORCH_META_FUNC(avg_pool2d)."""
    k, s, p = int_list(kernel_size, 2), int_list(stride, 2), int_list(padding, 2)
    _two("kernel_size", "avg_pool2d", k)
    kh, kw = k[0], k[-1]
    _two("stride", "avg_pool2d", s, allow_empty=True)
    dh, dw = (kh, kw) if not s else (s[0], s[-1])
    _two("padding", "avg_pool2d", p)
    ph, pw = p[0], p[-1]
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    shape = tuple(input.shape)
    size_at(shape, -3)
    oh = pooling_output_shape(shape[-2], kh, ph, dh, 1, ceil_mode)
    ow = pooling_output_shape(shape[-1], kw, pw, dw, 1, ceil_mode)
    _pool2d_shape_check(shape, kh, kw, dh, dw, ph, pw, 1, 1, oh, ow, channels_last)
    return (kh, kw), (dh, dw), (ph, pw)


def _three(op, name, v, allow_empty=False):
    if len(v) in (1, 3) or (allow_empty and not v):
        return (v[0], v[-2], v[-1]) if v else None
    if op == "max_pool3d":
        how = {"kernel_size": "must either be a single int, or a tuple of three ints",
               "stride": "must either be omitted, a single int, or a tuple of three ints",
               "padding": "must either be a single int, or a tuple of three ints",
               "dilation": "must be either a single int, or a tuple of three ints"}[name]
    else:
        how = {"kernel_size": "must be a single int, or a tuple of three ints",
               "stride": "must be omitted, a single int, or a tuple of three ints",
               "padding": "must be a single int, or a tuple of three ints"}[name]
    raise RuntimeError(f"{op}: {name} {how}")


def pool3d(op, input, kernel_size, stride, padding, dilation, ceil_mode, divisor_override=None):
    """max_pool3d_with_indices_out_cpu_template / TORCH_META_FUNC(avg_pool3d): (k, s, p, d)
    triples once every check passed."""
    avg = op == "avg_pool3d"
    k = _three(op, "kernel_size", int_list(kernel_size, 3))
    s = _three(op, "stride", int_list(stride, 3), allow_empty=True) or k
    if len(int_list(stride, 3)) == 1:
        s = (s[0],) * 3
    p = _three(op, "padding", int_list(padding, 3))
    d = (1, 1, 1) if avg else _three(op, "dilation", int_list(dilation, 3))
    shape = tuple(input.shape)
    if len(shape) not in (4, 5):
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    if avg and divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    ins = shape[-3:]
    outs = tuple(pooling_output_shape(ins[i], k[i], p[i], s[i], d[i], ceil_mode)
                 for i in range(3))
    fn_name = "avg_pool3d()" if avg else "max_pool3d_with_indices_out_cpu_template()"
    if not all(v > 0 for v in k):
        raise RuntimeError(f"kernel size should be greater than zero, but got kT: {k[0]} "
                           f"kH: {k[1]} kW: {k[2]}")
    if not all(v > 0 for v in s):
        raise RuntimeError(f"stride should be greater than zero, but got dT: {s[0]} dH: {s[1]} "
                           f"dW: {s[2]}")
    if not all(v > 0 for v in d):
        raise RuntimeError(f"dilation should be greater than zero, but got dilationT: {d[0]} "
                           f"dilationH: {d[1]} dilationW: {d[2]}")
    for i, n in enumerate(shape):
        if len(shape) == 5 and i == 0:
            continue
        if n <= 0:
            raise RuntimeError(f"{fn_name}: Expected input's non-batch dimensions to have "
                               f"positive length, but input has a shape of {sizes(shape)} and "
                               f"non-batch dimension {n} has length zero!")
    if avg and not all(ins[i] >= k[i] for i in range(3)):
        raise RuntimeError(f"input image (T: {ins[0]} H: {ins[1]} W: {ins[2]}) smaller than "
                           f"kernel size (kT: {k[0]} kH: {k[1]} kW: {k[2]})")
    if not all(_cdiv(k[i], 2) >= p[i] for i in range(3)):
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but "
                           f"got kT: {k[0]} kW: {k[2]} kH: {k[1]} padT: {p[0]} padW: {p[2]} "
                           f"padH: {p[1]}")
    if not all(v >= 1 for v in outs):
        c = shape[-4]
        raise RuntimeError(f"Given input size: ({c}x{ins[0]}x{ins[1]}x{ins[2]}). Calculated "
                           f"output size: ({c}x{outs[0]}x{outs[1]}x{outs[2]}). Output size "
                           f"is too small")
    return k, s, p, d


def max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode):
    """aten::max_pool1d (MaxPooling.cpp): its rank / empty check, then check_max_pool1d."""
    shape = tuple(input.shape)
    ndim = len(shape)
    if not ((ndim == 2 and shape[0] != 0 and shape[1] != 0) or
            (ndim == 3 and shape[1] != 0 and shape[2] != 0)):
        raise RuntimeError(f"max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 "
                           f"dim batch size for input, but got:{sizes(shape)}")
    k, s, p, d = (int_list(kernel_size, 1), int_list(stride, 1), int_list(padding, 1),
                  int_list(dilation, 1))
    if len(k) != 1:
        raise RuntimeError(f"max_pool1d() kernel_size must be an int, list of ints or tuple of "
                           f"ints of size 1 but got size {len(k)}")
    if len(s) not in (0, 1):
        raise RuntimeError(f"max_pool1d() stride must be None, an int, list of ints, or tuple "
                           f"of ints of size 1 but got size {len(s)}")
    if len(p) != 1:
        raise RuntimeError(f"max_pool1d() padding must be an int, list of ints, or tuple of "
                           f"ints of size 1 but got size {len(p)}")
    if len(d) != 1:
        raise RuntimeError(f"max_pool1d() dilation must be an int, list of ints or tuple of "
                           f"ints of size 1 but got size {len(d)}")
    s = s or k
    if k[0] <= 0:
        raise RuntimeError(f"max_pool1d() kernel_size must be greater than zero, but got {k[0]}")
    if s[0] <= 0:
        raise RuntimeError(f"max_pool1d() stride must be greater than zero, but got {s[0]}")
    if p[0] < 0:
        raise RuntimeError(f"max_pool1d() padding must be non-negative, but got {p[0]}")
    if p[0] > _cdiv(k[0], 2):
        raise RuntimeError(f"max_pool1d() padding should be at most half of kernel size, but "
                           f"got padding={p[0]} and kernel_size={k[0]}")
    if d[0] <= 0:
        raise RuntimeError(f"max_pool1d() dilation must be greater than zero, but got {d[0]}")
    ow = pooling_output_shape(shape[-1], k[0], p[0], s[0], d[0], ceil_mode)
    if ow <= 0:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {ow}")


def pool1d_args(op, input, args):
    """The 1-d composites of Pooling.cpp (max_pool1d_with_indices, avg_pool1d): the rank
    check, then one int per argument; ``args``: (name, value) with the stride defaulting
    to the kernel."""
    _check_dim_range(op, input.dim(), 2, 3)
    lists = []
    for name, v in args:
        v = int_list(v, 1)
        if name == "stride" and not v:
            v = [lists[0]]
        check1d(op, name, v)
        lists.append(v[0])
    return lists


def parse_ints(op, name, pos, v):
    """The C++ argument parser's ``int[1]``: an int or a sequence of ints."""
    if isinstance(v, bool) or not isinstance(v, (int, list, tuple)):
        raise TypeError(f"{op}(): argument '{name}' (position {pos}) must be tuple of ints, "
                        f"not {type(v).__name__}")
    if isinstance(v, (list, tuple)):
        for i, e in enumerate(v):
            if isinstance(e, bool) or not isinstance(e, int):
                raise TypeError(f"{op}(): argument '{name}' (position {pos}) must be tuple of "
                                f"ints, but found element of type {type(e).__name__} at pos {i}")


def adaptive_size(output_size, shape, nd):
    """Python's ``_list_with_default``: None entries take the input's sizes."""
    if not isinstance(output_size, (list, tuple)):
        return output_size
    if len(shape) <= len(output_size):
        raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
    tail = shape[len(shape) - len(output_size):]
    return [d if v is None else v for v, d in zip(output_size, tail)]


def adaptive_avg(nd, output_size):
    """aten::adaptive_avg_pool2d/3d's own checks (before its mean shortcut)."""
    size = int_list(output_size, nd)
    if len(size) != nd:
        raise RuntimeError(f"adaptive_avg_pool{nd}d: output_size must be {nd}")
    if any(v < 0 for v in size):
        got = (f"{size[0]}, {size[1]}" if nd == 2 else f"{size[0]}, {size[1]},{size[2]}")
        raise RuntimeError(f"adaptive_avg_pool{nd}d: elements of output_size must be greater "
                           f"than or equal to 0 but received {{{got}}}")
    return tuple(size)


def adaptive_avg_kernel(nd, input, size):
    """_adaptive_avg_pool2d/3d's CPU template: rank, empty dims, then the dispatch (none
    for an empty result)."""
    shape = tuple(input.shape)
    ndim = len(shape)
    name = f"adaptive_avg_pool{nd}d"
    if nd == 2:
        if ndim not in (3, 4):
            raise RuntimeError(f"{name}(): Expected 3D or 4D tensor, but got {sizes(shape)}")
        dims = (ndim - 2, ndim - 1)
    else:
        dims = range(1, ndim)
    for i in dims:
        if shape[i] <= 0:
            raise RuntimeError(f"{name}(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but input has sizes {sizes(shape)} with dimension "
                               f"{i} being empty")
    if nd == 3 and ndim not in (4, 5):
        raise RuntimeError(f"{name}(): Expected 4D or 5D tensor, but got {sizes(shape)}")
    n = 1
    for v in shape[:ndim - nd] + tuple(size):
        n *= v
    if n:
        refuse_unless(name if nd == 2 else "adaptive_avg_pool3d_cpu", input.dtype, _FLOATS)


def adaptive_max(nd, input, output_size):
    """TORCH_META_FUNC(adaptive_max_pool2d/3d), then the result's allocation and the
    kernel's dispatch."""
    name = f"adaptive_max_pool{nd}d"
    parse_ints(name, "output_size", 2, output_size)
    shape = tuple(input.shape)
    ndim = len(shape)
    if ndim not in (nd + 1, nd + 2):
        raise RuntimeError(f"{name}(): Expected {nd + 1}D or {nd + 2}D tensor, but got: "
                           f"{sizes(shape)}")
    for i in range(1, ndim):
        if shape[i] <= 0:
            raise RuntimeError(f"{name}(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but input has sizes {sizes(shape)} with dimension "
                               f"{i} being empty")
    size = int_list(output_size, nd)
    if len(size) != nd:
        raise RuntimeError(f"{name}(): internal error: output_size.size() must be {nd}")
    out = shape[:ndim - nd] + tuple(size)
    for v in out:
        if v < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {v}: "
                               f"{sizes(out)}")
    refuse_unless(name if nd == 2 else "adaptive_max_pool3d_cpu", input.dtype, _FLOATS)
    return tuple(size)


# ---- im2col / col2im (F.unfold / F.fold): Im2Col.cpp, Col2Im.cpp, im2col_shape_check.h --
_IM2COL_TYPES = _FLOATS + ("complex64", "complex128", "bool")


def _pairs(args):
    """The op's ``It is expected <name> equals to 2`` checks, in its argument order."""
    out = []
    for name, v in args:
        v = int_list(v, 2)
        if len(v) != 2:
            raise RuntimeError(f"It is expected {name} equals to 2, but got size {len(v)}")
        out.append(tuple(v))
    return out


def _window_params(k, d, p, s):
    if not (k[1] > 0 and k[0] > 0):
        raise RuntimeError(f"kernel size should be greater than zero, but got kernel_height: "
                           f"{k[0]} kernel_width: {k[1]}")
    if not (d[1] > 0 and d[0] > 0):
        raise RuntimeError(f"dilation should be greater than zero, but got dilation_height: "
                           f"{d[0]} dilation_width: {d[1]}")
    if not (p[1] >= 0 and p[0] >= 0):
        raise RuntimeError(f"padding should be non-negative, but got pad_height: {p[0]} "
                           f"pad_width: {p[1]}")
    if not (s[1] > 0 and s[0] > 0):
        raise RuntimeError(f"stride should be greater than zero, but got stride_height: {s[0]} "
                           f"stride_width: {s[1]}")


def _blocks(size, k, d, p, s):
    return tuple((size[i] + 2 * p[i] - (d[i] * (k[i] - 1) + 1)) // s[i] + 1 for i in range(2))


def im2col(input, kernel_size, dilation, padding, stride):
    """aten::im2col's checks: ((kh, kw), (dh, dw), (ph, pw), (sh, sw))."""
    k, d, p, s = _pairs((("kernel_size", kernel_size), ("dilation", dilation),
                         ("padding", padding), ("stride", stride)))
    _window_params(k, d, p, s)
    shape = tuple(input.shape)
    from ..autograd.grad_mode import state
    if input.requires_grad and state.enabled:  # (Im2ColBackward0 saves self.size(-1) and
        size_at(shape, -1)                     # size(-2) before the kernel's checks)
        size_at(shape, -2)
    ndim = len(shape)
    valid = size_at(shape, 1) != 0 and size_at(shape, 2) != 0  # (im2col_shape_check's first
    # reads: input.size(1), input.size(2))
    if not ((ndim == 3 and shape[0] and valid) or (ndim == 4 and valid and shape[3] != 0)):
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with possibly 0 batch size "
                           f"and other non-zero dimensions for input, but got: {sizes(shape)}")
    h, w = shape[-2:]
    oh, ow = _blocks((h, w), k, d, p, s)
    if oh < 1 or ow < 1:
        raise RuntimeError(f"Given input with spatial size ({h}, {w}), kernel_size=({k[0]}, "
                           f"{k[1]}), dilation=({d[0]}, {d[1]}), padding=({p[0]}, {p[1]}), "
                           f"calculated shape of the array of sliding blocks as ({oh}, {ow}), "
                           f"but its components must be at least one.")
    refuse_unless("im2col_out_cpu", input.dtype, _IM2COL_TYPES)
    return k, d, p, s


def col2im(input, output_size, kernel_size, dilation, padding, stride):
    """aten::col2im's checks: ((oh, ow), k, d, p, s)."""
    o, k, d, p, s = _pairs((("output_size", output_size), ("kernel_size", kernel_size),
                            ("dilation", dilation), ("padding", padding), ("stride", stride)))
    _window_params(k, d, p, s)
    shape = tuple(input.shape)
    ndim = len(shape)
    if not ((ndim == 2 and shape[0] != 0 and shape[1] != 0) or
            (ndim == 3 and shape[1] != 0 and shape[2] != 0)):
        raise RuntimeError(f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 "
                           f"batch size and non-zero dimensions for input, but got: "
                           f"{sizes(shape)}")
    planes, length = shape[-2:]
    if planes % (k[0] * k[1]):
        raise RuntimeError(f"Expected size of input's dimension 1 to be divisible by the "
                           f"product of kernel_size, but got input.size(1)={planes} and "
                           f"kernel_size=({k[0]}, {k[1]}).")
    bh, bw = _blocks(o, k, d, p, s)
    head = (f"Given output_size=({o[0]}, {o[1]}), kernel_size=({k[0]}, {k[1]}), dilation=("
            f"{d[0]}, {d[1]}), padding=({p[0]}, {p[1]}), stride=({s[0]}, {s[1]}), ")
    if length != bh * bw:
        raise RuntimeError(f"{head}expected size of input's dimension 2 to match the "
                           f"calculated number of sliding blocks {bh} * {bw} = {bh * bw}, but "
                           f"got input.size(2)={length}.")
    if bh < 1 or bw < 1:
        raise RuntimeError(f"{head}calculated shape of the array of sliding blocks as ({bh}, "
                           f"{bw}), which is too small (non-positive).")
    refuse_unless("col2im_out_cpu", input.dtype, _IM2COL_TYPES)
    return o, k, d, p, s


# ---- max_unpool2d / max_unpool3d (MaxUnpooling.cpp) -----------------------------------------
def max_unpool(nd, input, indices, output_size, stride=None):
    """max_unpooling{2,3}d_forward_out_cpu's checks, then (for a result with elements) the
    kernel's dispatch and its invalid-index error (the last invalid index in memory order:
    aten's serial loop; a parallel run may report another)."""
    from .._backend import np
    if indices.dtype != _dtypes.int64:
        raise RuntimeError("elements in indices should be type int64" + (
            f" but got: {_dtypes.scalar_name(indices.dtype)}" if nd == 2 else ""))
    shape, ishape = tuple(input.shape), tuple(indices.shape)
    if len(shape) not in (nd + 1, nd + 2):
        raise RuntimeError(f"Input to max_unpooling{nd}d should be a {nd + 1}d or {nd + 2}d "
                           f"Tensor, but got a tensor with {len(shape)} dimensions.")
    if shape != ishape:
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor "
                           f"({sizes(shape)}) but got indices tensor with shape: "
                           f"{sizes(ishape)}")
    for i in range(1, len(shape)):
        if shape[i] <= 0:
            raise RuntimeError(f"max_unpooling{nd}d_forward_out_cpu(): Expected input to have "
                               f"non-zero size for non-batch dimensions, but got "
                               f"{sizes(shape)} with dimension {i} being empty.")
    if nd == 3 and not all(v > 0 for v in stride):
        raise RuntimeError(f"strides should be greater than zero, but got stride: "
                           f"{sizes(stride)}")
    size = tuple(int(v) for v in output_size)
    n = 1
    for v in shape[:len(shape) - nd] + size:
        n *= v
    if not n:
        return size
    refuse_unless(f"max_unpool{nd}d", input.dtype, _FLOATS)
    plane = 1
    for v in size:
        plane *= v
    idx = indices._data.reshape(-1)
    bad = np.flatnonzero((idx < 0) | (idx >= plane))
    if bad.size:
        raise RuntimeError(f"Found an invalid max index: {int(idx[bad[-1]])} (output volumes "
                           f"are of size {'x'.join(str(v) for v in size)})")
    return size


# ---- fractional_max_pool2d / 3d (FractionalMaxPool2d.cpp, FractionalMaxPool3d.cpp) ---------
def fractional(nd, input, kernel_size, output_size, samples):
    """The meta function's checks (argument lengths, rank, empty dims, windows past the
    input, the result's allocation), then the CPU template's checks of _random_samples and
    its dispatch; returns (kernel, output size)."""
    name = f"fractional_max_pool{nd}d"
    where = name + "()" if nd == 2 else name + "_out()"
    of = "Ints" if nd == 2 else "three Ints"
    k, o = int_list(kernel_size, nd), int_list(output_size, nd)
    for arg, v in (("kernel_size", k), ("output_size", o)):
        if len(v) not in (1, nd):
            raise RuntimeError(f"{name}: {arg} must either be a single Int or tuple of {of}")
    k, o = tuple(k) * (nd // len(k)), tuple(o) * (nd // len(o))
    shape = tuple(input.shape)
    ndim = len(shape)
    if ndim not in (nd + 1, nd + 2):
        raise RuntimeError(f"{where}: Expected {nd + 1}D or {nd + 2}D tensor, but got: "
                           f"{sizes(shape)}")
    for i in range(1, ndim):
        if shape[i] <= 0:
            raise RuntimeError(f"{where}: Expected input to have non-zero size for non-batch "
                               f"dimensions, but got{sizes(shape)} with dimension {i} being "
                               f"empty.")
    labels = ("height", "width") if nd == 2 else ("time", "height", "width")
    for i in range(nd):   # (the 3-d op's check is strict: a window may not end at the edge)
        if o[i] + k[i] - 1 > shape[-nd + i] - (nd == 3):
            raise RuntimeError(f"{where}: pool {labels[i]} {k[i]} too large relative to input "
                               f"{labels[i]} {shape[-nd + i]}")
    out = shape[:ndim - nd] + o
    for v in out:
        if v < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {v}: "
                               f"{sizes(out)}")
    if samples.dtype != input.dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    if samples.dim() != 3:
        raise RuntimeError(f"Expect _random_samples to have 3 dimensions, got {samples.dim()}")
    n, c, d = samples.shape
    if n < (shape[0] if ndim == nd + 2 else 1):
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    if c != shape[-nd - 1]:
        raise RuntimeError("Expect _random_samples.size(1) equals to input channel size.")
    if d != nd:
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {nd}; got {d}.")
    refuse_unless(f"{name}_out_frame", input.dtype, _FLOATS)
    return k, o
