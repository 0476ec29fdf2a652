"""PyTorch's tensor ``repr``, reimplemented for NumPy arrays (a port of torch/_tensor_str.py).

The output is meant to be byte-identical to ``repr(torch_tensor)`` for the same values,
dtype, print options and autograd state.
"""
import contextlib
import math

from . import _dtypes
from ._backend import np

__all__ = ["tensor_repr", "tensor_str", "set_printoptions", "get_printoptions", "printoptions"]


class _PrinterOptions:
    __slots__ = ("precision", "threshold", "edgeitems", "linewidth", "sci_mode")

    def __init__(self):
        self.precision = 4
        self.threshold = 1000
        self.edgeitems = 3
        self.linewidth = 80
        self.sci_mode = None


PRINT_OPTS = _PrinterOptions()


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     profile=None, sci_mode=None):
    """Set options for printing (same semantics as ``torch.set_printoptions``).

    Args:
        precision: digits after the decimal point for floating point output (default 4).
        threshold: element count above which the output is summarised (default 1000).
        edgeitems: items shown at the start and end of each summarised dimension (default 3).
        linewidth: characters per line used for line breaks (default 80).
        profile: ``'default'``, ``'short'`` or ``'full'``; the other arguments override it.
        sci_mode: True/False forces scientific notation on/off; None (the default, and what
            every call that omits it restores) chooses automatically.
    """
    if profile is not None:
        if profile == "default":
            PRINT_OPTS.precision = 4
            PRINT_OPTS.threshold = 1000
            PRINT_OPTS.edgeitems = 3
            PRINT_OPTS.linewidth = 80
        elif profile == "short":
            PRINT_OPTS.precision = 2
            PRINT_OPTS.threshold = 1000
            PRINT_OPTS.edgeitems = 2
            PRINT_OPTS.linewidth = 80
        elif profile == "full":
            PRINT_OPTS.precision = 4
            PRINT_OPTS.threshold = math.inf
            PRINT_OPTS.edgeitems = 3
            PRINT_OPTS.linewidth = 80

    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions():
    """The current print options as a dict that can be passed to ``set_printoptions``."""
    return {
        "precision": PRINT_OPTS.precision,
        "threshold": PRINT_OPTS.threshold,
        "edgeitems": PRINT_OPTS.edgeitems,
        "linewidth": PRINT_OPTS.linewidth,
        "sci_mode": PRINT_OPTS.sci_mode,
    }


@contextlib.contextmanager
def printoptions(**kwargs):
    """Context manager that temporarily changes the print options."""
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


def _isfinite_float(v):
    return not (math.isinf(v) or math.isnan(v))


class _Formatter:
    """Port of torch's ``_Formatter``; the widths are computed from a few extreme values
    instead of formatting every element (the string length is monotone in |value| per sign).
    """

    __slots__ = ("floating_dtype", "int_mode", "sci_mode", "max_width", "_prec")

    def __init__(self, a, floating):
        self.floating_dtype = floating
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        self._prec = PRINT_OPTS.precision

        if a.size == 0:
            return
        if not floating:
            lo = a.min().item()
            hi = a.max().item()
            self.max_width = max(1, len(f"{lo}"), len(f"{hi}"))
            return

        v = a.reshape(-1)
        nz = v[np.isfinite(v) & (v != 0)]
        if nz.size == 0:
            return
        nz64 = nz.astype(np.float64)
        absv = np.abs(nz64)
        nz_min = float(absv.min())
        nz_max = float(absv.max())

        self.int_mode = not bool((nz != np.ceil(nz)).any())

        if PRINT_OPTS.sci_mode is None:
            self.sci_mode = nz_max / nz_min > 1000.0 or nz_max > 1.0e8 or nz_min < 1.0e-4
        else:
            self.sci_mode = PRINT_OPTS.sci_mode

        prec = self._prec
        if self.sci_mode:
            # the width depends on the sign and the exponent's digit count: check the
            # largest and smallest magnitudes of each sign.
            pos = nz64[nz64 > 0]
            neg = nz64[nz64 < 0]
            cands = []
            if pos.size:
                cands += [pos.min(), pos.max()]
            if neg.size:
                cands += [neg.min(), neg.max()]
            spec = f".{prec}e"
            width = max(len(format(float(c), spec)) for c in cands)
        else:
            cands = (float(nz64.min()), float(nz64.max()))
            if self.int_mode:
                width = max(len(f"{c:.0f}") for c in cands) + 1
            else:
                spec = f".{prec}f"
                width = max(len(format(c, spec)) for c in cands)
        self.max_width = max(self.max_width, width)

    def width(self):
        return self.max_width

    def format(self, value):
        if self.floating_dtype:
            if self.sci_mode:
                ret = format(value, f"{self.max_width}.{self._prec}e")
            elif self.int_mode:
                ret = f"{value:.0f}"
                if _isfinite_float(value):
                    ret += "."
            else:
                ret = format(value, f".{self._prec}f")
        else:
            ret = f"{value}"
        return (self.max_width - len(ret)) * " " + ret


def _complex_str(val, formatter1, formatter2):
    real_str = formatter1.format(val.real)
    imag_str = (formatter2.format(val.imag) + "j").lstrip()
    # handles negative numbers, +0.0, -0.0
    if imag_str[0] == "+" or imag_str[0] == "-":
        return real_str + imag_str
    return real_str + "+" + imag_str


def _scalar_str(a, formatter1, formatter2=None):
    val = a.item()
    if formatter2 is not None:
        return _complex_str(complex(val), formatter1, formatter2)
    return formatter1.format(val)


def _vector_str(a, indent, summarize, formatter1, formatter2=None):
    # length includes spaces and comma between elements
    element_length = formatter1.width() + 2
    if formatter2 is not None:
        # width for imag_formatter + an extra j for complex
        element_length += formatter2.width() + 1

    elements_per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / element_length))

    if formatter2 is not None:
        def fmt(vals):
            return [_complex_str(v, formatter1, formatter2) for v in vals]
    else:
        f1 = formatter1.format

        def fmt(vals):
            return [f1(v) for v in vals]

    edgeitems = PRINT_OPTS.edgeitems
    if summarize and not edgeitems:
        data = ["..."]
    elif summarize and a.shape[0] > 2 * edgeitems:
        data = fmt(a[:edgeitems].tolist()) + [" ..."] + fmt(a[-edgeitems:].tolist())
    else:
        data = fmt(a.tolist())

    lines = [", ".join(data[i:i + elements_per_line])
             for i in range(0, len(data), elements_per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_str_with_formatter(a, indent, summarize, formatter1, formatter2=None):
    dim = a.ndim
    if dim == 0:
        return _scalar_str(a, formatter1, formatter2)
    if dim == 1:
        return _vector_str(a, indent, summarize, formatter1, formatter2)

    n = a.shape[0]
    edgeitems = PRINT_OPTS.edgeitems
    if summarize and n > 2 * edgeitems:
        slices = (
            [_tensor_str_with_formatter(a[i], indent + 1, summarize, formatter1, formatter2)
             for i in range(edgeitems)]
            + ["..."]
            + [_tensor_str_with_formatter(a[i], indent + 1, summarize, formatter1, formatter2)
               for i in range(n - edgeitems, n)]
        )
    else:
        slices = [_tensor_str_with_formatter(a[i], indent + 1, summarize, formatter1, formatter2)
                  for i in range(n)]

    return "[" + ("," + "\n" * (dim - 1) + " " * (indent + 1)).join(slices) + "]"


def _summarized_data(a):
    """The values torch's ``get_summarized_data`` keeps (flattened; only values matter)."""
    dim = a.ndim
    if dim == 0:
        return a
    edgeitems = PRINT_OPTS.edgeitems
    n = a.shape[0]
    if dim == 1:
        if n > 2 * edgeitems:
            return np.concatenate((a[:edgeitems], a[-edgeitems:]))
        return a
    if not edgeitems:
        return a.reshape(-1)[:0]
    if n > 2 * edgeitems:
        idx = list(range(edgeitems)) + list(range(n - edgeitems, n))
    else:
        idx = range(n)
    return np.concatenate([_summarized_data(a[i]).reshape(-1) for i in idx])


def tensor_str(array, dtype, indent=7):
    """The data part of the repr (``[1., 2.]``) with continuation lines indented by
    ``indent`` (the length of the prefix before it, 7 for ``tensor(``)."""
    if array.size == 0:
        return "[]"

    summarize = array.size > PRINT_OPTS.threshold

    if dtype.is_complex:
        real = array.real
        imag = array.imag
        real_formatter = _Formatter(_summarized_data(real) if summarize else real, True)
        imag_formatter = _Formatter(_summarized_data(imag) if summarize else imag, True)
        return _tensor_str_with_formatter(array, indent, summarize, real_formatter,
                                          imag_formatter)
    formatter = _Formatter(_summarized_data(array) if summarize else array,
                           dtype.is_floating_point)
    return _tensor_str_with_formatter(array, indent, summarize, formatter)


def _add_suffixes(tensor_str, suffixes, indent, force_newline):
    tensor_strs = [tensor_str]
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    linewidth = PRINT_OPTS.linewidth
    for suffix in suffixes:
        suffix_len = len(suffix)
        if force_newline or last_line_len + suffix_len + 2 > linewidth:
            tensor_strs.append(",\n" + " " * indent + suffix)
            last_line_len = indent + suffix_len
            force_newline = False
        else:
            tensor_strs.append(", " + suffix)
            last_line_len += suffix_len + 2
    tensor_strs.append(")")
    return "".join(tensor_strs)


def tensor_repr(array, dtype, *, grad_fn_name=None, requires_grad=False, is_leaf=True,
                extra=(), prefix="tensor("):
    """``repr`` of a tensor holding ``array`` (any NumPy array, views included; it is only
    read) with our ``dtype``.

    ``grad_fn_name`` (e.g. ``'MulBackward0'``) prints ``grad_fn=<MulBackward0>``; otherwise
    ``requires_grad=True`` prints ``requires_grad=True``.  ``is_leaf`` is accepted for
    convenience and does not change the output (torch prints whatever grad_fn there is).
    ``extra`` strings are appended as further suffixes, after the autograd one.
    ``prefix`` replaces ``tensor(`` (torch uses ``ClassName(`` for subclasses).
    """
    indent = len(prefix)
    suffixes = []
    default_float = _dtypes.default_float

    if array.size == 0:
        # Explicitly print the shape if it is not (0,), to match NumPy behavior
        if array.ndim != 1:
            suffixes.append("size=" + str(tuple(array.shape)))
        # In an empty tensor, there are no elements to infer if the dtype
        # should be int64, so it must be shown explicitly.
        if dtype is not default_float:
            suffixes.append("dtype=" + str(dtype))
        data = "[]"
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append("size=" + str(tuple(array.shape)))
        if not (dtype is default_float or dtype is _dtypes.default_complex
                or dtype is _dtypes.int64 or dtype is _dtypes.bool):
            suffixes.append("dtype=" + str(dtype))
        data = tensor_str(array, dtype, indent)

    if grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    if extra:
        suffixes.extend(extra)

    return _add_suffixes(prefix + data, suffixes, indent, False)
