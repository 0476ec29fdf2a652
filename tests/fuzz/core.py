"""Differential program fuzzing: programs are data, rendered to Python lines, run on both libraries.

A *program* is ``(inputs, steps)``: ``inputs`` a list of leaf specs, ``steps`` a list of
tuples (``("unary", ref, op, no_grad)``, ...) whose tensor references are plain integers,
resolved modulo the number of variables defined so far.  :func:`render_and_run_torch`
renders each step to one concrete source line (``v3 = v1.transpose(0, 1)``), choosing
dims and shapes from the tensors PyTorch produced so far, and runs it on PyTorch; the very
same lines then run on autotensor (:func:`run_lines`).  Each line's outcome (its new
variable, or the exception it raised as ``(type, message)``) and, at the end, every
variable's value, ``grad``, ``grad_fn``, ``_version`` and ``is_leaf`` are compared with
``differential.assert_same``.  A failing program is therefore a list of source lines: the
reproducer is straight-line code.
"""
from __future__ import annotations

import math
import re
import os
import sys
import warnings

import numpy as np

_TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

from differential import assert_same, normalize  # noqa: E402

RTOL, ATOL = 1e-4, 1e-5
# Per dtype (rtol, atol scaled by the values' magnitude): float64 must agree to double
# precision, float32 to a few ulps, half types to theirs.
TOLERANCES = {"float64": (1e-12, 1e-12), "complex128": (1e-12, 1e-12),
              "float32": (2e-6, 1e-6), "complex64": (2e-6, 1e-6),
              "float16": (2e-3, 1e-3), "bfloat16": (1.6e-2, 1e-2)}
# float64 values computed from float32 ones (see low_precision)
LOW_TOLERANCES = dict(TOLERANCES, float64=TOLERANCES["float32"],
                      complex128=TOLERANCES["complex64"])

UNARY = ["exp", "log", "sin", "cos", "tanh", "sigmoid", "relu", "abs", "neg", "sqrt",
         "rsqrt", "reciprocal", "square", "floor", "ceil", "round", "sign",
         "clamp(min=-0.5, max=0.5)", "clamp(min=0.1)", "clamp(max=0.2)", "logical_not",
         "isnan", "clone", "detach", "contiguous", "double", "float", "long", "bool",
         "pow(2)", "pow(0.5)", "pow(0)", "pow(-1)", "__neg__", "__abs__", "t", "mT",
         "tril", "triu", "sum", "mean", "prod", "amax", "amin", "max", "min", "norm",
         "all", "any", "argmax", "logsumexp(0)", "flatten", "exp_", "relu_", "sigmoid_",
         "tanh_", "neg_", "abs_", "sqrt_", "zero_", "fill_(1.5)", "fill_(2)",
         "clamp_(min=0.0)", "requires_grad_", "detach_", "retain_grad",
         "register_hook(lambda g: g * 2)", "register_hook(lambda g: None)",
         "register_hook(lambda g: g.sum())"]
BINARY = ["add", "sub", "mul", "div", "pow", "maximum", "minimum", "eq", "ne", "lt", "le",
          "gt", "ge", "remainder", "fmod", "floor_divide", "logical_and", "add_alpha",
          "op+", "op-", "op*", "op/", "op**", "op//", "op%", "op@", "rop+", "rop-",
          "rop*", "rop/", "rop**", "add_", "sub_", "mul_", "div_", "pow_", "copy_",
          "iop+=", "iop*=", "iop-=", "iop/=", "where", "cat", "stack", "matmul", "dot",
          "masked_fill"]
SCALARS = [0, 1, 2, -3, 0.5, -1.5, 2.0, True, False, 1e-3, float("inf"), 0.1, -0.0, 1e-310,
           2 ** 40 + 1, -7, float("nan"), 3.0]
DIM_OPS = ["sum", "mean", "prod", "amax", "amin", "max", "min", "logsumexp", "softmax",
           "log_softmax", "cumsum", "argmax", "all", "any", "norm", "unsqueeze", "squeeze",
           "select", "narrow", "split", "chunk", "unbind", "flip", "transpose", "movedim",
           "diagonal", "cat_self", "stack_self", "rfft_irfft", "fft_view_as_real", "fftshift"]
VIEW_OPS = ["view-1", "reshape", "permute", "expand", "unflatten", "squeeze()", "view_as",
            "getitem_int", "getitem_slice", "getitem_none", "getitem_ellipsis",
            "getitem_mask", "getitem_long", "getitem_oob", "setitem_scalar", "setitem_var",
            "index_select", "gather", "mm_const", "mv_const", "bmm_const", "outer_const",
            "addmm_const", "matmul_const", "as_leaf_f32", "as_leaf_f64"]

# The op catalogue (issue 11; tests/test_catalogue_audit.py): the standalone fuzzer draws
# these with the ops above (``programs(catalogue=True)``); CI's fixed derandomized budget
# keeps the base pool, so that the open classes of OPEN_FINDINGS.md found through them
# do not fail it
CATALOGUE_UNARY = ["log1p", "expm1", "exp2", "log2", "log10", "tan", "asin", "acos", "atan", "sinh",
          "cosh", "asinh", "acosh", "atanh", "erf", "erfc", "erfinv", "lgamma", "digamma",
          "sinc", "trunc", "frac", "sgn", "deg2rad", "rad2deg", "logit", "logit(0.1)", "i0",
          "nan_to_num", "signbit", "isposinf", "isneginf", "clamp_min(0.1)", "clamp_max(0.2)",
          "var()", "std()", "nansum()", "nanmean()", "median()", "nanmedian()",
          "count_nonzero()", "msort()", "repeat(2)", "tile((2,))", "roll(1)", "fliplr()",
          "flipud()", "rot90()", "diff()", "trace()", "diag()", "diagflat()", "kron(torch.ones(2))",
          "log1p_()", "expm1_()", "trunc_()", "frac_()", "erf_()", "rsqrt_()", "round_()",
          "clamp_min_(0.0)", "clamp_max_(0.5)", "cumsum_(0)", "cumprod_(0)", "sinh_()",
          "xlogy_(2.0)", "nan_to_num_()", "lerp(torch.ones(()), 0.3)", "polygamma(1)",
          "mvlgamma(1)", "special.ndtr", "special.log_ndtr", "special.i1",
          "special.entr", "special.bessel_j0", "special.spherical_bessel_j0",
          # nn.functional's activations and normalizations (stop 27)
          "nn.functional.gelu", "nn.functional.silu", "nn.functional.softplus",
          "nn.functional.elu", "nn.functional.selu", "nn.functional.celu",
          "nn.functional.leaky_relu", "nn.functional.hardtanh", "nn.functional.hardswish",
          "nn.functional.hardsigmoid", "nn.functional.logsigmoid", "nn.functional.mish",
          "nn.functional.tanhshrink", "nn.functional.softsign", "nn.functional.relu6",
          "nn.functional.softshrink", "nn.functional.hardshrink", "nn.functional.normalize",
          "nn.functional.dropout(training=False)", "layer_norm_last", "rms_norm_last",
          "nn.functional.gelu(approximate='tanh')", "nn.functional.softmin(dim=-1)",
          "nn.functional.log_softmax(dim=0)", "nn.functional.glu(dim=-1)",
          # sorting, scans, indexing with constant indices and linear algebra (stop 27)
          "sort(-1)[0]", "sort(-1, descending=True)[1]", "topk(1)[0]", "kthvalue(1)[0]",
          "argsort()", "cumsum(-1)", "logcumsumexp(-1)", "cummax(-1)[0]", "cummin(0)[1]",
          "renorm(2, 0, 1.0)", "nan_to_num(posinf=1.0)", "clamp(-1, 1)",
          "index_fill(-1, torch.tensor([0]), 2.0)", "index_select(-1, torch.tensor([0, 0]))",
          "scatter(-1, torch.tensor([0]), 1.5)", "scatter_add(0, torch.tensor([0]), "
          "torch.ones(1))", "masked_fill(torch.tensor(True), 1.0)", "take(torch.tensor([0]))",
          "det()", "inverse()", "matrix_exp()", "slogdet()[1]", "logdet()", "pinverse()",
          "matrix_power(2)", "qr()[1]", "svd()[1]", "trace()", "triu_(1)", "tril_(-1)",
          "unfold(-1, 1, 1)", "narrow(-1, 0, 1)", "movedim(0, -1)", "swapaxes(0, -1)",
          "amax(-1)", "aminmax()[0]", "logsumexp(-1)", "softmax(-1)", "var(-1)", "std(0)",
          # nn.functional's pools, pads, interpolation and normalizations (stop 36)
          "nn.functional.max_pool1d(kernel_size=2)", "nn.functional.avg_pool1d(kernel_size=2)",
          "nn.functional.adaptive_avg_pool1d(output_size=2)",
          "nn.functional.adaptive_max_pool1d(output_size=1)",
          "nn.functional.lp_pool1d(norm_type=2.0, kernel_size=2)",
          "nn.functional.max_pool2d(kernel_size=1)", "nn.functional.avg_pool2d(kernel_size=(1, 2))",
          "nn.functional.adaptive_avg_pool2d(output_size=1)", "nn.functional.pad(pad=(1, 0))",
          "nn.functional.pad(pad=(1, 1), mode='reflect')",
          "nn.functional.pad(pad=(1, 1), mode='replicate')",
          "nn.functional.pad(pad=(1, 1), mode='circular')",
          "nn.functional.interpolate(scale_factor=2.0)",
          "nn.functional.interpolate(size=3, mode='linear')",
          "nn.functional.interpolate(scale_factor=1.5, mode='linear', align_corners=True)",
          "nn.functional.local_response_norm(size=2)", "nn.functional.instance_norm()",
          "nn.functional.group_norm(num_groups=1)",
          "nn.functional.batch_norm(None, None, training=True)", "nn.functional.softmax(dim=0)",
          "nn.functional.unfold(kernel_size=1)", "nn.functional.channel_shuffle(groups=1)",
          "nn.functional.threshold(threshold=0.1, value=2.0)",
          "nn.functional.rrelu(training=False)",
          "nn.functional.alpha_dropout(training=False)"]
CATALOGUE_BINARY = ["atan2", "hypot", "logaddexp", "logaddexp2", "xlogy", "copysign", "fmax",
           "fmin",
           "float_power", "nextafter", "heaviside", "igamma", "igammac", "clamp_min",
           "clamp_max", "bitwise_and", "bitwise_xor", "logical_xor", "atan2_", "hypot_",
           "xlogy_", "copysign_", "clamp_min_", "clamp_max_", "logical_or_", "igamma_",
           "vdot", "inner", "outer", "kron",
           # (stop 27) ternary pointwise ops and nn.functional's losses
           "addcmul", "addcdiv", "lerp", "addcmul_", "lerp_", "F.mse_loss", "F.l1_loss",
           "F.smooth_l1_loss", "F.huber_loss", "F.binary_cross_entropy_with_logits",
           "F.kl_div", "F.soft_margin_loss", "F.cosine_similarity", "F.pairwise_distance",
           "F.prelu",
           # (stop 36) losses and layers taking a second tensor
           "F.linear", "F.binary_cross_entropy", "F.poisson_nll_loss", "F.hinge_embedding_loss",
           "F.multilabel_soft_margin_loss", "F.conv1d", "F.conv_transpose1d", "F.cross_entropy",
           "F.nll_loss", "F.gaussian_nll_loss", "F.margin_ranking_loss", "F.triplet_margin_loss",
           "F.cosine_embedding_loss"]
_F_THREE_TENSORS = ("F.gaussian_nll_loss", "F.margin_ranking_loss", "F.triplet_margin_loss",
                    "F.cosine_embedding_loss")
CATALOGUE_DIM_OPS = ["var", "std", "nansum", "nanmean", "median", "nanmedian", "mode", "cumprod",
            "logcumsumexp", "cummax", "cummin", "diff", "roll", "tensor_split", "msort_dim",
            "count_nonzero", "repeat_interleave", "gradient"]

# Steps with custom Functions, checkpointed segments and logging hooks (PRELUDE defines
# the helpers in every program's namespace; hooks append what they see to _log, which the
# final state compares as a list)
EXTRA_OPS = ["fn_sq", "fn_dirty", "fn_view", "ckpt", "ckpt_reentrant", "hook_log",
             "hook_log_scale", "retain_view", "prehook_log", "posthook_log"]
# torch.func transforms of the same segment (stop 26; standalone runs only, as the catalogue)
CATALOGUE_EXTRA_OPS = ["vmap_seg", "vmap_seg_out1", "func_grad", "func_jvp", "vmap_grad",
                       "func_vjp", "jacrev"]
PRELUDE = """
class _Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * a

    @staticmethod
    def backward(ctx, g):
        a, = ctx.saved_tensors
        return g * 2 * a


class _Dirty(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        a.mul_(2)
        ctx.mark_dirty(a)
        return a

    @staticmethod
    def backward(ctx, g):
        return g * 2


class _View(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a.view_as(a)

    @staticmethod
    def backward(ctx, g):
        return g * 3


def _seg(t):
    return (t * t).sin() * 2


def _ckpt(t, reentrant):
    from importlib import import_module
    checkpoint = import_module(torch.__name__ + ".utils.checkpoint").checkpoint
    return checkpoint(_seg, t, use_reentrant=reentrant)


def _c(gs):
    return tuple(None if g is None else g.clone() for g in gs)
"""


# --------------------------------------------------------------------------------------
# rendering


def fmt_array(arr: np.ndarray) -> str:
    """A source expression for ``arr`` (``np.array([...], dtype='float32')``)."""
    def f(x):
        if isinstance(x, list):
            return "[" + ", ".join(f(y) for y in x) + "]"
        if isinstance(x, bool):
            return repr(x)
        if isinstance(x, float):
            if math.isnan(x):
                return "nan"
            if math.isinf(x):
                return "inf" if x > 0 else "-inf"
            return repr(x)
        return repr(x)
    body = f(arr.tolist())
    return f"np.array({body}, dtype='{arr.dtype.name}').reshape({tuple(arr.shape)})"


SPECIAL = [np.nan, np.inf, -np.inf, 0.0, 1.0, -0.0, 1e-310, 1e-40, 0.1, 1e30, -2.5e-8]
BIG_INTS = [2 ** 62 + 1, -2 ** 63, 2 ** 53 + 1, 2 ** 40 - 3, -(2 ** 31)]


def make_array(shape, dtype: str, seed: int, special: int) -> np.ndarray:
    rng = np.random.RandomState(seed)
    shape = tuple(shape)
    if dtype == "bool":
        return np.asarray(rng.rand(*shape) > 0.5)
    if dtype in ("int64", "int32", "uint8"):
        a = rng.randint(-4 if dtype != "uint8" else 0, 5, size=shape).astype(dtype)
        if a.size and special and dtype == "int64":
            a.reshape(-1)[special % a.size] = BIG_INTS[special % len(BIG_INTS)]
        return a
    # 3 decimals (the float64 values are not float32's: precision shows); bfloat16 leaves
    # are float32 arrays given dtype=torch.bfloat16 (Renderer.r_leaf)
    a = np.round(rng.randn(*shape), 3).astype(dtype if dtype != "bfloat16" else "float32")
    if a.size and special:
        flat = a.reshape(-1)
        flat[special % a.size] = SPECIAL[special % len(SPECIAL)]
    return np.asarray(a)


def fmt_list(arr: np.ndarray) -> str:
    """A Python-list source expression for ``arr``'s values (exact: repr round-trips)."""
    def f(x):
        if isinstance(x, list):
            return "[" + ", ".join(f(y) for y in x) + "]"
        if isinstance(x, float):
            if math.isnan(x):
                return "nan"
            if math.isinf(x):
                return "inf" if x > 0 else "-inf"
        return repr(x)
    return f(arr.tolist())


def scalar_src(s) -> str:
    if isinstance(s, float) and math.isinf(s):
        return "float('inf')"
    return repr(s)


class Renderer:
    """Turns structured steps into source lines, looking at PyTorch's tensors for shapes."""

    def __init__(self, torch_ns: dict):
        self.ns = torch_ns
        self.names: list[str] = []
        self.counter = 0
        self.pending_duals: set = set()  # leaves whose make_dual runs before the next line

    def var(self, ref: int) -> str | None:
        if not self.names:
            return None
        return self.names[ref % len(self.names)]

    def shape(self, name):
        return tuple(self.ns[name].shape)

    def new(self) -> str:
        name = f"v{self.counter}"
        self.counter += 1
        return name

    def render(self, step) -> tuple[str, str | None]:
        """``(source, name of the variable it defines or None)``."""
        kind = step[0]
        no_grad = step[-1]
        src, out = getattr(self, "r_" + kind)(*step[1:-1])
        if src is None:
            return None, None
        if no_grad:
            src = "with torch.no_grad():\n    " + src
        return src, out

    # -- leaves
    def r_leaf(self, shape, dtype, seed, special, requires_grad, layout):
        arr = make_array(shape, dtype, seed, special)
        out = self.new()
        rg = ", requires_grad=True" if requires_grad else ""
        if dtype == "bfloat16":  # (NumPy has no bfloat16: from float32, rounded)
            rg = ", dtype=torch.bfloat16" + rg
        src = f"{out} = torch.tensor({fmt_array(arr)}{rg})"
        if layout == 1 and arr.ndim >= 2:  # a non-contiguous leaf
            arr = np.ascontiguousarray(np.swapaxes(arr, 0, 1))
            bf = ", dtype=torch.bfloat16" if dtype == "bfloat16" else ""
            src = (f"{out} = torch.tensor({fmt_array(arr)}{bf}).transpose(0, 1).detach()"
                   f"{'.requires_grad_()' if requires_grad else ''}")
        elif layout == 2 and arr.ndim >= 1:  # a non-leaf made from a leaf
            src = f"{out} = torch.tensor({fmt_array(arr)}{rg}) * 1"
        elif layout == 3 and dtype != "float16":
            # from Python numbers with an explicit dtype (Note [Python data to a tensor])
            src = f"{out} = torch.tensor({fmt_list(arr)}, dtype=torch.{dtype}{rg})"
        return src, out

    def r_unary(self, a, op):
        x = self.var(a)
        if x is None:
            return None, None
        out = self.new()
        if op.startswith("register_hook") or op in ("retain_grad",):
            return f"{x}.{op if '(' in op else op + '()'}", None
        if op.startswith("__"):
            sym = {"__neg__": "-", "__abs__": "abs"}[op]
            return (f"{out} = -{x}" if sym == "-" else f"{out} = abs({x})"), out
        if op.startswith("special.") or op.startswith("nn.functional."):
            if "(" in op:  # (keyword arguments: nn.functional.glu(dim=-1))
                name, args = op.split("(", 1)
                return f"{out} = torch.{name}({x}, {args}", out
            return f"{out} = torch.{op}({x})", out
        if op in ("layer_norm_last", "rms_norm_last"):
            fn = op[:-5]
            return f"{out} = torch.nn.functional.{fn}({x}, {x}.shape[-1:])", out
        call = op if "(" in op else op + "()"
        if op == "signbit" and self._has_nan(x):  # Note [The sign of a NaN]
            return f"{out} = {x}.signbit() & ~{x}.isnan()", out
        if op in ("t", "mT"):
            call = op + ("()" if op == "t" else "")
        return f"{out} = {x}.{call}", out

    def r_binary(self, a, b, op, scalar_idx, swap):
        x, y = self.var(a), self.var(b)
        if x is None:
            return None, None
        s = scalar_src(SCALARS[scalar_idx % len(SCALARS)])
        if s == "1e-310" and ("pow" in op or "**" in op) and getattr(
                self.ns.get(x), "numel", lambda: 0)() >= 16:
            # PyTorch's float32 pow: its SIMD loop (chunks of 32 on AVX-512) takes the number
            # as a float32 (a denormal double becomes 0), its scalar loop for the rest as a
            # double; no one formula matches both (README "Numerics")
            s = "1e-3"
        if scalar_idx % 3 == 0 or op in ("copy_", "where", "cat", "stack", "matmul", "dot",
                                           "masked_fill", "op@"):
            other = y
        else:
            other = s
        out = self.new()
        if swap and op[:2] != "io" and not op.endswith("_") and other == y:
            x, other = other, x
        if op.startswith("rop"):
            return f"{out} = {s} {op[3:]} {x}", out
        if op.startswith("op"):
            return f"{out} = {x} {op[2:]} {other}", out
        if op.startswith("iop"):
            return f"{x} {op[3:]} {other}", None
        if op == "add_alpha":
            return f"{out} = {x}.add({other}, alpha={s})", out
        if op == "where":
            return f"{out} = torch.where({x} > 0, {x}, {y})", out
        if op == "masked_fill":
            return f"{out} = {x}.masked_fill({y} > 0, {s})", out
        if op in ("cat", "stack"):
            return f"{out} = torch.{op}([{x}, {y}], dim={scalar_idx % 3 - 1})", out
        if op == "logical_or_":
            t = self.ns.get(x)
            if getattr(t, "requires_grad", False) and (
                    t._is_view() or x in self.pending_duals):  # (a dual of a leaf is a view)
                # PyTorch (2.13) segfaults in a later ``register_hook`` on the view after
                # an in-place logical_or_/logical_and_ on a view of a tensor requiring grad
                # (leaf or not, dual or not) unless its grad_fn was read in between: the
                # second crash in register_hook of a 30-minute run, traced with seed 101.
                # Not drawn: the out-of-place op instead.
                return f"{out} = {x}.logical_or({other})", out
        if op.startswith("copysign") and other in self.names and self._has_nan(other):
            other = f"{other}.nan_to_num(1.0)"  # Note [The sign of a NaN]
        if op in _F_THREE_TENSORS:  # (input, the other, and the input again)
            return f"{out} = torch.nn.functional.{op[2:]}({x}, {y}, {x})", out
        if op.startswith("F."):
            return f"{out} = torch.nn.functional.{op[2:]}({x}, {other})", out
        if op in ("addcmul", "addcdiv", "addcmul_"):
            value = s if s not in ("True", "False") else "0.5"
            call = f"{x}.{op}({other}, {y}, value={value})"
            return (call, None) if op.endswith("_") else (f"{out} = {call}", out)
        if op in ("lerp", "lerp_"):
            call = f"{x}.{op}({other}, {s if other == y else y})"
            return (call, None) if op.endswith("_") else (f"{out} = {call}", out)
        if op.endswith("_"):
            return f"{x}.{op}({other})", None
        return f"{out} = {x}.{op}({other})", out

    def _has_nan(self, name):
        """Whether PyTorch's value of ``name`` holds a NaN.

        Note [The sign of a NaN]: IEEE 754 leaves the sign of a NaN result unspecified, and
        PyTorch's depends on its kernel library (log, log2, sqrt or pow of a negative number
        give +NaN there, -NaN in NumPy; neg and sigmoid carry it on). Only signbit and
        copysign read it: their programs compare them where the value is not NaN."""
        t = self.ns.get(name)
        try:
            return bool(t.isnan().any()) if t.is_floating_point() else False
        except Exception:  # noqa: BLE001 -- not a tensor, or one PyTorch refuses to read
            return False

    def r_dim(self, a, op, d, k, keepdim):
        x = self.var(a)
        if x is None:
            return None, None
        shape = self.shape(x)
        nd = len(shape)
        # mostly valid dims, sometimes out of range (errors are compared too)
        dim = (d % max(nd, 1)) - (nd if d % 2 else 0) if d < 40 else d % 7 - 3
        out = self.new()
        kd = f", keepdim={keepdim}"
        if op in ("sum", "mean", "prod", "amax", "amin", "logsumexp", "all", "any",
                  "argmax", "norm", "var", "std", "nansum", "nanmean"):
            if op == "norm":
                return f"{out} = {x}.norm(dim={dim}{kd})", out
            return f"{out} = {x}.{op}({dim}{kd})", out
        if op in ("max", "min", "median", "nanmedian", "mode"):
            if op in ("median", "nanmedian") and 0 in getattr(self.ns.get(x), "stride",
                                                             lambda: ())():
                # PyTorch's (2.13) median/nanmedian along a dim read uninitialised memory
                # where the input has a 0 stride (an expanded tensor, autograd.grad's
                # gradient of a sum): `ones(1).expand(5).median(0)` gives 0 or a denormal
                # that changes from run to run. Not PyTorch's value to match: drawn on a
                # contiguous copy (stop 20's end_repro_001, stop 21's repro_015).
                x = f"{x}.contiguous()"
            return f"{out} = {x}.{op}({dim}{kd})[{k % 2}]", out
        if op in ("cummax", "cummin"):
            return f"{out} = {x}.{op}({dim})[{k % 2}]", out
        if op == "diff":
            return f"{out} = {x}.diff({k % 3}, {dim})", out
        if op == "roll":
            return f"{out} = {x}.roll({k % 5 - 2}, {dim})", out
        if op == "tensor_split":
            return f"{out} = {x}.tensor_split({k % 3 + 1}, {dim})[{k % 2 * -1}]", out
        if op == "msort_dim":
            return f"{out} = {x}.sort(stable=True, dim={dim})[{k % 2}]", out
        if op == "count_nonzero":
            return f"{out} = {x}.count_nonzero({dim})", out
        if op == "repeat_interleave":
            return f"{out} = {x}.repeat_interleave({k % 3}, {dim})", out
        if op == "gradient":  # (stop 24: aten's composite of slices, Scalar ops and cat)
            spacing = ("", ", spacing=2.0", ", spacing=[0.5]")[k % 3]
            return (f"{out} = torch.gradient({x}, dim={dim}{spacing}, "
                    f"edge_order={k % 2 + 1})[0]"), out
        if op in ("softmax", "log_softmax", "cumsum", "unsqueeze", "squeeze", "cumprod",
                  "logcumsumexp"):
            if op == "unsqueeze":
                dim = d % (nd + 1) - (nd + 1 if d % 2 else 0) if d < 40 else d % 7 - 3
            return f"{out} = {x}.{op}({dim})", out
        size = shape[dim] if -nd <= dim < nd and nd else 1
        if op == "select":
            idx = (k % max(size, 1)) - (size if k % 2 else 0) if k < 40 else k % 9 - 4
            return f"{out} = {x}.select({dim}, {idx})", out
        if op == "narrow":
            start = k % (size + 1)
            length = (k // 3) % (size - start + 1)
            return f"{out} = {x}.narrow({dim}, {start}, {length})", out
        if op in ("split", "chunk"):
            n = k % 3 + 1
            return f"{out} = {x}.{op}({n}, {dim})[{k % 2 * -1}]", out
        if op == "unbind":
            return f"{out} = {x}.unbind({dim})[{k % max(size, 1)}]", out
        if op == "flip":
            return f"{out} = {x}.flip({dim})", out
        if op in ("transpose", "movedim"):
            other = k % max(nd, 1)
            return f"{out} = {x}.{op}({dim}, {other})", out
        if op == "diagonal":
            other = k % max(nd, 1)
            return f"{out} = {x}.diagonal({k % 3 - 1}, {dim}, {other})", out
        if op == "cat_self":
            return f"{out} = torch.cat([{x}, {x}[:1] if {x}.dim() else {x}], {dim})", out
        if op == "stack_self":
            return f"{out} = torch.stack([{x}, {x} * 2], {dim})", out
        if op == "rfft_irfft":  # torch.fft: r2c then c2r (the round trip's graph)
            return (f"{out} = torch.fft.irfft(torch.fft.rfft({x}, dim={dim}), n={size}, "
                    f"dim={dim})"), out
        if op == "fft_view_as_real":
            return (f"{out} = torch.view_as_real(torch.fft.fft({x}, dim={dim}, "
                    f"norm='ortho'))"), out
        if op == "fftshift":
            return f"{out} = torch.fft.fftshift({x}, dim={dim})", out
        raise AssertionError(op)

    def r_view(self, a, b, op, k, seed):
        x, y = self.var(a), self.var(b)
        if x is None:
            return None, None
        shape = self.shape(x)
        nd = len(shape)
        out = self.new()
        rng = np.random.RandomState(seed)
        if op == "view-1":
            return f"{out} = {x}.view(-1)", out
        if op == "reshape":
            n = int(np.prod(shape))
            factors = [f for f in (1, 2, 3, 4) if n % f == 0] if n else [1]
            f = factors[k % len(factors)]
            return f"{out} = {x}.reshape({f}, -1)", out
        if op == "permute":
            return f"{out} = {x}.permute({tuple(int(i) for i in rng.permutation(nd))})", out
        if op == "expand":
            if k % 2:
                return f"{out} = {x}.expand({k % 3 + 1}, *{x}.shape)", out
            new = tuple((k % 3 + 1) if s == 1 else -1 for s in shape)
            return f"{out} = {x}.expand({new})", out
        if op == "unflatten":
            return f"{out} = {x}.unflatten(0, (1, -1))", out
        if op == "squeeze()":
            return f"{out} = {x}.squeeze()", out
        if op == "view_as":
            return f"{out} = {x}.view_as({y})", out
        if op.startswith("getitem"):
            size0 = shape[0] if nd else 0
            if op == "getitem_int":
                idx = (k % max(size0, 1)) - (size0 if k % 2 else 0)
                return f"{out} = {x}[{idx}]", out
            if op == "getitem_slice":
                start, step = k % 3 - 1, k % 2 + 1
                inner = ", 1:" if nd >= 2 and k % 4 == 0 else ""
                return f"{out} = {x}[{start}::{step}{inner}]", out
            if op == "getitem_none":
                return f"{out} = {x}[None, ..., None]", out
            if op == "getitem_ellipsis":
                return f"{out} = {x}[..., {k % max(shape[-1], 1)}]" if nd else \
                    f"{out} = {x}[...]", out
            if op == "getitem_mask":
                return f"{out} = {x}[{x} > 0]", out
            if op == "getitem_long":
                idx = [int(i) for i in rng.randint(-size0, max(size0, 1), size=k % 4)] \
                    if size0 else []
                return f"{out} = {x}[torch.tensor({idx}, dtype=torch.int64)]", out
            if op == "getitem_oob":
                return f"{out} = {x}[{size0 + k % 3}]", out
        if op == "setitem_scalar":
            idx = "..." if not nd else (f"{k % shape[0]}" if shape[0] else ":")
            return f"{x}[{idx}] = {scalar_src(SCALARS[k % len(SCALARS)])}", None
        if op == "setitem_var":
            return f"{x}[{'0' if nd and k % 2 else '...'}] = {y}", None
        if op == "index_select":
            size = shape[0] if nd else 1
            idx = [int(i) for i in rng.randint(0, max(size, 1), size=k % 3 + 1)]
            return f"{out} = {x}.index_select(0, torch.tensor({idx}))", out
        if op == "gather":
            if not nd:
                return f"{out} = {x}.gather(0, torch.tensor(0))", out
            idx = rng.randint(0, max(shape[-1], 1), size=shape).astype(np.int64)
            return f"{out} = {x}.gather({nd - 1}, torch.tensor({fmt_array(idx)}))", out
        # matmul family against a fresh constant of a compatible shape
        dt = self.ns[x].dtype
        dts = str(dt).rsplit(".", 1)[-1]
        if dts not in ("float32", "float64"):
            dts = "float32"
        n = k % 3 + 1
        if op == "mm_const":
            c = make_array((shape[-1] if nd else 1, n), dts, seed, 0)
            return f"{out} = {x}.mm(torch.tensor({fmt_array(c)}))", out
        if op == "mv_const":
            c = make_array((shape[-1] if nd else 1,), dts, seed, 0)
            return f"{out} = {x}.mv(torch.tensor({fmt_array(c)}))", out
        if op == "bmm_const":
            c = make_array(((shape[0] if nd else 1), (shape[-1] if nd else 1), n), dts,
                           seed, 0)
            return f"{out} = {x}.bmm(torch.tensor({fmt_array(c)}))", out
        if op == "outer_const":
            c = make_array((n,), dts, seed, 0)
            return f"{out} = {x}.outer(torch.tensor({fmt_array(c)}))", out
        if op == "addmm_const":
            c = make_array((shape[-1] if nd else 1, n), dts, seed, 0)
            bias = make_array((n,), dts, seed + 1, 0)
            return (f"{out} = torch.addmm(torch.tensor({fmt_array(bias)}), {x}, "
                    f"torch.tensor({fmt_array(c)}))"), out
        if op == "matmul_const":
            cshape = (shape[-1],) if nd and k % 2 else ((shape[-1] if nd else 1), n)
            if nd >= 3 and k % 4 == 2:
                cshape = (1,) + cshape if len(cshape) == 2 else cshape
            c = make_array(cshape, dts, seed, 0)
            return f"{out} = {x}.matmul(torch.tensor({fmt_array(c)}))", out
        if op in ("as_leaf_f32", "as_leaf_f64"):
            dt = "float32" if op.endswith("32") else "float64"
            return f"{out} = {x}.detach().to(torch.{dt}).requires_grad_()", out
        raise AssertionError(op)

    def r_extra(self, a, op):
        x = self.var(a)
        if x is None:
            return None, None
        out = self.new()
        if op.startswith("fn_"):
            t = self.ns.get(x)
            if op == "fn_dirty" and (getattr(t, "_is_view", lambda: False)() and
                                     t._base.is_leaf and t._base.requires_grad or
                                     x in self.pending_duals and t.requires_grad):
                # PyTorch (2.13) raises here ("a view of a leaf Variable that requires grad
                # is being used in an in-place operation") after the Function's forward
                # wrote into it, and its autograd state is then broken: a later backward,
                # grad and register_hook on a view of it segfault (exit 139; the crash at
                # the end of a 4-minute standalone run). Not drawn (nor on a leaf whose
                # make_dual, pending, runs between this rendering and the line).
                op = "fn_sq"
            cls = {"fn_sq": "_Sq", "fn_dirty": "_Dirty", "fn_view": "_View"}[op]
            return f"{out} = {cls}.apply({x})", out
        if op.startswith("ckpt"):
            return f"{out} = _ckpt({x}, {op == 'ckpt_reentrant'})", out
        if op in CATALOGUE_EXTRA_OPS:
            t = self.ns.get(x)
            if op == "jacrev" and t is not None and t.numel() > 64:
                op = "vmap_seg"  # (a Jacobian has numel**2 elements: jacrev of jacrev of
                #                  a (3, 4) tensor took 15 GB and the fuzzer's process)
            if getattr(t, "requires_grad", False):
                # a transform of a tensor an outer backward differentiates: autotensor's
                # graph is the ordinary engine's (Note [Transforms on the autograd graph],
                # Note [vmap as a loop]), not PyTorch's per-level one, so the nodes, saved
                # tensors and gradient versions behind it differ by design; the transform
                # is fuzzed on the detached tensor
                x = f"{x}.detach()"
            return f"{out} = " + {
                "vmap_seg": f"torch.vmap(_seg)({x})",
                "vmap_seg_out1": f"torch.vmap(_seg, in_dims=-1, out_dims=0)({x})",
                "func_grad": f"torch.func.grad(lambda t: _seg(t).sum())({x})",
                "func_jvp": f"torch.func.jvp(_seg, ({x},), (torch.ones_like({x}) * 0.5,))[1]",
                "vmap_grad": f"torch.vmap(torch.func.grad(lambda t: _seg(t).sum()))({x})",
                "func_vjp": f"torch.func.vjp(_seg, {x})[1](torch.ones_like({x}))[0]",
                "jacrev": f"torch.func.jacrev(_seg)({x})"}[op], out
        if op == "hook_log":
            return f"{x}.register_hook(lambda g: _log.append(('{x}', _c([g]))))", None
        if op == "hook_log_scale":
            return (f"{x}.register_hook(lambda g: _log.append(('{x} * 3', _c([g]))) "
                    f"or g * 3)"), None
        if op == "retain_view":
            return f"{out} = {x}.view_as({x}); {out}.retain_grad()", out
        if op == "prehook_log":
            return (f"{x}.grad_fn.register_prehook(lambda go: _log.append(('pre {x}', "
                    f"_c(go))))"), None
        if op == "posthook_log":
            return (f"{x}.grad_fn.register_hook(lambda gi, go: _log.append(('post {x}', "
                    f"_c(gi), _c(go))))"), None
        raise AssertionError(op)

    def r_backward(self, a, grad_kind, retain, create, inputs_refs):
        x = self.var(a)
        if x is None:
            return None, None
        shape = self.shape(x)
        args = []
        if grad_kind == 1 or (grad_kind == 0 and shape != ()):
            # reduce to a scalar first, then backward
            target = f"{x}.sum()" if grad_kind == 0 else x
        else:
            target = x
        if grad_kind == 2:
            args.append(f"torch.ones({shape}, dtype={x}.dtype) * 0.5")
        if retain:
            args.append("retain_graph=True")
        if create:
            args.append("create_graph=True")
        if inputs_refs:
            names = sorted({self.var(r) for r in inputs_refs})
            args.append(f"inputs=[{', '.join(names)}]")
        return f"{target}.backward({', '.join(args)})", None

    def r_grad(self, a, inputs_refs, retain, create, allow_unused, grad_kind):
        x = self.var(a)
        if x is None:
            return None, None
        names = sorted({self.var(r) for r in inputs_refs}) or [x]
        out = self.new()
        shape = self.shape(x)
        target = f"{x}.sum()" if shape != () and grad_kind == 0 else x
        extra = ""
        if grad_kind == 1:
            extra = f", grad_outputs=torch.ones({shape}, dtype={x}.dtype) * 2"
        src = (f"{out} = torch.autograd.grad({target}, [{', '.join(names)}]{extra}, "
               f"retain_graph={retain}, create_graph={create}, "
               f"allow_unused={allow_unused})[0]")
        return src, out


# --------------------------------------------------------------------------------------
# running


_TRACE = os.environ.get("FUZZ_TRACE")


class ProgramTooBig(BaseException):
    """A line ran out of memory under the fuzzer's address-space limit (``memory_limit``): the
    program is skipped, not compared (a BaseException: no line's ``except`` takes it)."""


_ALLOC_FAILURES = ("not enough memory", "can't allocate memory", "Unable to allocate")


def memory_limit(gib):
    """Cap this process's address space (the standalone fuzzer's guard: a generated program
    asking for tens of GB fails with MemoryError instead of waking the OOM killer)."""
    try:
        import resource
        limit = int(gib * 2**30)
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard == resource.RLIM_INFINITY or hard > limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, ValueError, OSError):
        pass


def _exec(src: str, ns: dict):
    if _TRACE:  # (debugging a crash of either library: the last lines run, flushed)
        with open(_TRACE, "a") as f:
            f.write(f"{ns['torch'].__name__}: {src!r}\n")
    try:
        exec(src, ns)  # noqa: S102 -- the program is our own generated code
        return None
    except Exception as e:  # noqa: BLE001 -- every exception is a result to compare
        if isinstance(e, MemoryError) or (isinstance(e, RuntimeError) and
                                          any(m in str(e) for m in _ALLOC_FAILURES)):
            raise ProgramTooBig(f"{type(e).__name__}: {str(e)[:120]}") from None
        return e


def _snapshot(ns: dict, name: str | None, module):
    """What one line produced: its output variable (tensor or other value)."""
    if name is None or name not in ns:
        return None
    return _safe(lambda: normalize(ns[name], module))


def _safe(fn):
    try:
        return fn()
    except Exception as e:  # noqa: BLE001
        return normalize(e, None)


FW = "torch.autograd.forward_ad"


def _final_state(ns: dict, names: list[str], module, dual=False):
    state = {}
    for name in names:
        if name not in ns:
            state[name] = "undefined"
            continue
        t = ns[name]
        if not isinstance(t, module.Tensor):
            state[name] = _safe(lambda t=t: normalize(t, module))
            continue
        state[name] = {
            "value": _safe(lambda t=t: normalize(t, module)),
            "grad": _safe(lambda t=t: normalize(t.grad, module)),
            "version": _safe(lambda t=t: t._version),
            "is_leaf": _safe(lambda t=t: t.is_leaf),
            "grad_fn": _safe(lambda t=t: type(t.grad_fn).__name__ if t.grad_fn else None),
            "next": _safe(lambda t=t: [type(n).__name__ if n is not None else None
                                       for n, _ in t.grad_fn.next_functions]
                          if t.grad_fn is not None else None),
        }
        if dual:  # values and differentiability (the nodes are the formulas' own)
            state[name]["tangent"] = _safe(lambda t=t: _tangent_summary(t, module))
    return state


def _tangent_summary(t, module):
    tangent = module.autograd.forward_ad.unpack_dual(t).tangent
    if tangent is None:
        return None
    # values (as float64: some dtypes with Python-number operands follow from how
    # PyTorch's formulas use zero tangents) and whether the tangent is differentiable (its
    # nodes are the formulas' own)
    value = normalize(tangent.detach().double(), module)
    half = str(tangent.dtype).rsplit(".", 1)[-1]
    if half in ("float16", "bfloat16"):  # (compared at the half type's tolerance)
        value = value._replace(dtype=half)
    return {"value": value, "requires_grad": tangent.requires_grad}


def _close_level(module):
    """Leave the program's forward-AD level, whatever state the program left it in."""
    fw = module.autograd.forward_ad
    try:
        fw.exit_dual_level()
    except RuntimeError:
        pass


def new_namespace(module) -> dict:
    ns = {"torch": module, "np": np, "nan": float("nan"), "inf": float("inf"), "_log": []}
    exec(PRELUDE, ns)  # noqa: S102 -- our own helpers
    return ns


def _hook_log(ns, module):
    return _safe(lambda: normalize(ns["_log"], module))


def _dual(lines):
    return bool(lines) and lines[0][0] == f"{FW}.enter_dual_level()"


def run_lines(lines: list[tuple[str, str | None]], module):
    """Run rendered lines on ``module``; return per-line results and the final state
    (with every variable's tangent when the program runs under a dual level)."""
    ns = new_namespace(module)
    results = []
    dual = _dual(lines)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            for src, out in lines:
                err = _exec(src, ns)
                if err is not None:
                    if out:
                        ns.pop(out, None)
                    results.append({"raised": normalize(err, module)})
                else:
                    results.append({"ok": _snapshot(ns, out, module)})
            final = _final_state(ns, [o for _, o in lines if o], module, dual)
            final["__hook_log__"] = _hook_log(ns, module)
        finally:
            if dual:
                _close_level(module)
    final["__low_precision__"] = low_precision(lines, ns, module)
    return results, final


_VAR = re.compile(r"\bv\d+\b")
_LOW = ("float32", "float16", "bfloat16", "complex64")
# Note [Values made from half types]: a float32 (or float64) value computed from a float16
# or bfloat16 operand (bce_with_logits of a float16 input and a float32 target, and its
# tangent) goes through steps PyTorch may take in the half type or in float32 by its own
# choice (its in-place decomposition under no_grad, its opmath elsewhere): such a value is
# compared at the half type's tolerance.
_HALF = ("float16", "bfloat16")
# BLAS products and MKL's DFT (PyTorch's CPU FFT; e.g. the imaginary part of bin 1 of an
# all-zero length-3 rfft is -0.0 there), and the iterative decompositions (a zero singular
# value or eigenvalue is -0.0 in MKL's or OpenBLAS's sweeps as they go: of 6,000 random
# 1..4 x 1..4 matrices with zeros, PyTorch's svdvals had a -0.0 in 314, ours in 398, 127
# differing): the sign of a zero is the library's
_BLAS = re.compile(r"matmul|\bmm\(|\bmv\(|bmm|addmm|outer|\bdot\(| @ |linear|torch\.fft\.|"
                   r"svd|pinv|eigh|eigvalsh")
# ops whose result or gradient jumps where their input crosses a tie or threshold
_DISCONTINUOUS = re.compile(
    r"maximum|minimum|\.max\(|\.min\(|amax|amin|clamp|sort|topk|median|kthvalue|mode\(|"
    r"cummax|cummin|relu|abs|sign|hardtanh|where|floor|ceil|round|trunc|\b[gl][te]\(|"
    r"\beq\(|\bne\(|[<>]|==|!=|%|remainder|fmod|heaviside|hardshrink|softshrink|threshold|"
    # (and what a value's zero-ness or truncation decides: bool() of irfft(rfft(x))'s
    # residue, 0 in MKL's round trip where pocketfft's is 1e-17, stop 33's s33c_repro_001)
    r"\.bool\(|\.long\(|logical_|\.all\(|\.any\(|argm|//|count_nonzero")


def low_precision(lines, ns, module):
    """Which variables carry values computed in a low-precision dtype (float32, ...).

    A float64 result made from float32 values agrees with PyTorch only to float32 precision
    when a float32 kernel differs by an ulp; it is compared at float32's tolerance. Every
    other float64 result must agree to double precision (TOLERANCES)."""
    def low_dtype(t):
        return isinstance(t, module.Tensor) and str(t.dtype).rsplit(".", 1)[-1] in _LOW

    def half_dtype(t):
        return isinstance(t, module.Tensor) and str(t.dtype).rsplit(".", 1)[-1] in _HALF
    low = {}
    for src, out in lines:
        refs = set(_VAR.findall(src)) - {out}
        flag = any(low.get(r, False) or low_dtype(ns.get(r)) for r in refs)
        halves = [low.get(("half", r)) or (str(ns[r].dtype).rsplit(".", 1)[-1]
                                          if half_dtype(ns.get(r)) else None) for r in refs]
        if out and any(halves):  # (Note [Values made from half types])
            low[("half", out)] = "bfloat16" if "bfloat16" in halves else "float16"
        if _BLAS.search(src):  # BLAS products, DFTs: the sign of a zero is the library's
            for r in refs | {out}:
                low[("blas", r)] = True
        if any(low.get(("blas", r)) for r in refs) and out:
            low[("blas", out)] = True
        if out:
            low[out] = flag or low_dtype(ns.get(out))
        elif flag:  # an in-place line: its targets now hold such values
            for r in refs:
                low[r] = True
    return low


def render_and_run_torch(program, torch_module, dual=False):
    """Render ``program`` to lines (PyTorch supplies the shapes) and run it on PyTorch.

    ``dual``: the program runs inside a forward-AD level, its floating leaves made dual
    with random tangents, and the final state compares tangents too."""
    inputs, steps = program
    ns = new_namespace(torch_module)
    r = Renderer(ns)
    lines = []
    results = []
    pending = [(f"{FW}.enter_dual_level()", None)] if dual else []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            for step in list(inputs) + list(steps):
                r.pending_duals = {o for _, o in pending if o}
                src, out = r.render(step)
                if src is None:
                    continue
                todo = pending + [(src, out)]
                pending = []
                for k, (src, out) in enumerate(todo):
                    err = _exec(src, ns)
                    lines.append((src, out))
                    if err is not None:
                        if out:
                            ns.pop(out, None)
                        results.append({"raised": normalize(err, torch_module)})
                        continue
                    if out and isinstance(ns.get(out), torch_module.Tensor):
                        if out not in r.names:
                            r.names.append(out)
                        t = ns[out]
                        if dual and step[0] == "leaf" and k == len(todo) - 1 and \
                                t.is_floating_point():
                            arr = make_array(tuple(t.shape), "float64", step[3] + 1, 0)
                            pending.append((f"{out} = {FW}.make_dual({out}, torch.tensor("
                                            f"{fmt_array(arr)}, dtype={out}.dtype))", out))
                    results.append({"ok": _snapshot(ns, out, torch_module)})
            for src, out in pending:
                err = _exec(src, ns)
                lines.append((src, out))
                results.append({"raised": normalize(err, torch_module)} if err is not None
                               else {"ok": _snapshot(ns, out, torch_module)})
            final = _final_state(ns, [o for _, o in lines if o], torch_module, dual)
            final["__hook_log__"] = _hook_log(ns, torch_module)
        finally:
            if dual:
                _close_level(torch_module)
    final["__low_precision__"] = low_precision(lines, ns, torch_module)
    return lines, results, final


class Mismatch(AssertionError):
    def __init__(self, message, lines, index):
        super().__init__(message)
        self.lines = lines
        self.index = index  # the first differing line, or None for the final state


def compare_lines(lines, expected, expected_final, module):
    """Run ``lines`` on ``module`` and raise :class:`Mismatch` at the first difference."""
    actual, actual_final = run_lines(lines, module)
    expected_final = dict(expected_final)
    low = expected_final.pop("__low_precision__", {})
    actual_final.pop("__low_precision__", None)
    any_low = any(v for k, v in low.items() if not isinstance(k, tuple))
    any_blas = any(v for k, v in low.items() if isinstance(k, tuple) and k[0] == "blas")

    def half_tolerances(tol, names):
        """``tol`` relaxed to a half type's for values made from one (Note [Values made
        from half types])."""
        halves = [low.get(("half", n)) for n in names]
        if not any(halves):
            return tol
        half = TOLERANCES["bfloat16" if "bfloat16" in halves else "float16"]
        return dict(tol, **{k: half for k in ("float32", "float64", "complex64", "complex128")})
    # (a tie or threshold that a BLAS/DFT ulp decides: maximum(x, irfft(rfft(x))) is a tie in
    # NumPy's exact round trip and not in MKL's; the final gradients are not compared)
    blas_ties = any_blas and any(
        _DISCONTINUOUS.search(src) and any(low.get(("blas", r)) for r in _VAR.findall(src))
        for src, _ in lines)
    amplified = set()  # Note [Amplified float32 differences]
    # Note [vmap as a loop] (autotensor/func/_vmap.py): a vmap result is made by stacking
    # per-entry results, PyTorch's by the batched op itself: their grad_fn names differ by
    # design (StackBackward0 for MulBackward0); everything else about them is compared
    vmapped = {out for src, out in lines if out is not None and "torch.vmap(" in src}
    # (and a node made from a vmap result names the stack among its next functions)
    vmap_users = {out for src, out in lines
                  if out is not None and set(_VAR.findall(src)) & vmapped} - vmapped
    # (and inside a transform the forward-AD rules see PyTorch's physical batched tensors:
    # a logically 0-d entry is a 1-d tensor there, so it does not promote as a 0-d one, and
    # a tangent made there, or from one, may have another floating dtype; its values are
    # compared at the lower precision's tolerance)
    transformed = set()
    for src, out in lines:
        if out is not None and ("torch.vmap(" in src or "torch.func." in src or
                                set(_VAR.findall(src)) & transformed):
            transformed.add(out)
    for i, ((src, out), a, e) in enumerate(zip(lines, actual, expected, strict=True)):
        if _torch_bug(e, src, a):
            # PyTorch's own bug (an internal assertion, "please report a bug to PyTorch";
            # e.g. `True ** v0` of a dual v0 in 2.13: "unknown ivalue tag 4" in Scalar.cpp;
            # or _torch_bug's vmap case):
            # nothing to match from here on, so the program is compared only before it
            return
        refs = set(_VAR.findall(src))
        tol = half_tolerances(LOW_TOLERANCES if any(low.get(r) for r in refs) else
                              TOLERANCES, refs | {out})
        if any(low.get(("blas", r)) for r in refs):
            tol = dict(tol, signed_zeros=False)
        if refs & amplified:  # (a value made from an excused one: Note [Amplified float32
            # differences]; its dtype, shape, nodes and errors are still compared)
            tol = dict(tol, signed_zeros=False, **{k: (math.inf, math.inf) for k in TOLERANCES})
        if out in vmapped:
            tol = dict(tol, grad_fn=False)
        if out in transformed:
            tol = dict(tol, tangent_dtype=False)
        try:
            assert_same(a, e, rtol=RTOL, atol=ATOL, path=f"line {i}", tolerances=tol)
        except AssertionError as exc:
            if _numerically_singular_lu(lines, i, module):
                return  # (Note [Numerically singular LU]: nothing to match from here on)
            if not (((any(low.get(r) for r in refs - {out}) or _float64_line(a, e) or
                      _DISCONTINUOUS.search(src)) and
                     _same_from_our_inputs(lines, i, a, tol, module)) or
                    _linalg_rounding(lines, i, module)):
                raise Mismatch(f"line {i}: {src}\n{exc}\n  autotensor: {str(a)[:400]}\n"
                               f"  torch:      {str(e)[:400]}", lines, i) from None
            if _raised(a) != _raised(e):
                return  # (an excused line one side refused, an SVD of a non-finite matrix:
                # a variable the other never defined, so nothing to match from here on)
            amplified.add(out)
        if refs & amplified:  # (values made from amplified ones, in place too)
            amplified |= refs | {out}
    amplified.discard(None)
    cumprod_reruns = []  # (PyTorch's run with create_graph=True, made once if needed)
    for name in expected_final:
        # (the _version of every variable is compared, autograd.grad's gradients' too: it
        # tells which of PyTorch's C++ formulas write in place, engine.py _GRAD_VERSIONS)
        # (gradients may have flowed through any float32 computation of the program)
        tol = half_tolerances(LOW_TOLERANCES if low.get(name) or any_low else TOLERANCES,
                              (name,))
        if amplified:  # (values and gradients: compared line by line above)
            tol = {k: (math.inf, math.inf) for k in tol}
        if any_blas:
            tol = dict(tol, signed_zeros=False)
        actual_state, expected_state = actual_final.get(name), expected_final[name]
        if name in transformed:
            tol = dict(tol, tangent_dtype=False)
        if name in vmapped or name in vmap_users:
            skip = ("next", "grad_fn") if name in vmapped else ("next",)
            tol = dict(tol, grad_fn=name not in vmapped)
            if isinstance(actual_state, dict) and isinstance(expected_state, dict):
                actual_state, expected_state = (
                    {k: v for k, v in st.items() if k not in skip}
                    for st in (actual_state, expected_state))
        try:
            assert_same(actual_state, expected_state, rtol=RTOL, atol=ATOL,
                        path=f"final {name}", tolerances=tol)
        except AssertionError as exc:
            if blas_ties:
                continue
            rerun_excuses = low.get(name) or _float64_state(expected_state)
            if not ((rerun_excuses and _final_from_our_inputs(
                    lines, name, actual_final.get(name), expected_final[name], tol, module)) or
                    _final_linalg_rounding(lines, name, actual_state, expected_state, tol,
                                           module) or
                    _cumprod_tangent_at_zeros(lines, name, actual_state, expected_state, tol,
                                              cumprod_reruns)):
                raise Mismatch(f"final state of {name}:\n{exc}", lines, None) from None


# Note [cumprod's gradient at zeros]
# PyTorch's cumprod backward of an input holding a zero takes, with grad mode off (a backward
# without create_graph), an O(n) formula whose derivative "is _not_ the second derivative of
# cumprod" (FunctionsManual.cpp): the tangent of such a gradient (forward over reverse) is
# not the derivative of the gradient (d/dx of grad(cumprod([x0, 0]).sum())[0] = 1 + x1 is
# tangent t1 in ours and with create_graph=True in PyTorch, 0 in PyTorch without it). Ours
# is the derivative by design, whatever create_graph says: a final tangent that differs is
# excused when PyTorch, running the same program with create_graph=True in its
# autograd.grad calls (its differentiable O(n^2) formula), gives ours; every other entry
# of that state is still compared with PyTorch's own run.
def _cumprod_tangent_at_zeros(lines, name, actual, expected, tol, reruns):
    """Whether ``name``'s final state differs from PyTorch's only in a tangent that
    PyTorch computes as ours with create_graph=True (Note [cumprod's gradient at zeros])."""
    if not (_dual(lines) and any("cumprod" in s for s, _ in lines) and
            isinstance(actual, dict) and isinstance(expected, dict) and "tangent" in expected):
        return False
    if not reruns:
        import torch
        graphed = [(s.replace("create_graph=False", "create_graph=True"), o) for s, o in lines]
        try:
            reruns.append(run_lines(graphed, torch)[1] if graphed != lines else None)
        except Exception:  # noqa: BLE001 -- no excuse where the rerun cannot be made
            reruns.append(None)
    rerun = reruns[0].get(name) if reruns[0] is not None else None
    if not (isinstance(rerun, dict) and isinstance(rerun.get("tangent"), dict) and
            isinstance(expected["tangent"], dict)):
        return False
    # (its values only: with create_graph=True the tangent is differentiable there)
    tangent = dict(expected["tangent"], value=rerun["tangent"]["value"])
    try:
        assert_same(actual, dict(expected, tangent=tangent), rtol=RTOL, atol=ATOL,
                    path=f"final {name}", tolerances=tol)
    except AssertionError:
        return False
    return True


# Note [Amplified float32 differences]
# PyTorch's float32 exp, sin, sqrt... are MKL's VML, SLEEF's or glibc's, chosen by the CPU's
# vector width and the tensor's length: not one formula, and within an ulp of the float64
# result rounded, as NumPy's are. An ulp in an input is amplified by a well-defined op with a
# large condition number (sin(exp(exp(x))): exp(5.8357) is 342.31586 in PyTorch, 342.31589
# in NumPy, and sin of either differs by 3e-4 relative, stop 20's repro_005). A float32 line
# whose value differs is therefore run once more on PyTorch, from autotensor's own input
# values: if PyTorch then computes autotensor's value (at float32 tolerance), the op is
# right and the difference is its inputs' ulps, amplified. The program goes on; the final
# values and gradients, made from such values, are no longer compared (their lines were).
# A float64 line is excused the same way, at float64 tolerance: its inputs agreed with
# PyTorch's to 1e-12 (their own lines were compared), so the difference is an ulp of a
# float64 kernel README's "Numerics" lists (NumPy's sinh, asinh...) amplified by an
# ill-conditioned op (sin of (sinh(16.24)^2 = 3e13), stop 26's end_repro_002), and so is a
# float64 final state (a tangent of func.grad of sin(t * t) after pow_(-1.5): NumPy's
# pow an ulp from glibc's, times t * t = 1687, stop 36's fin30_repro_004); a float64
# value computed through float32 fails its own line first. A discontinuous op (eq, sign,
# floor...; _DISCONTINUOUS) is excused the same way whatever its result's dtype: its
# float64 inputs agreed to 1e-12, and an ulp of theirs decides its tie (eq of a
# logaddexp2 and an add, one SLEEF ulp apart, stop 30's s30b_repro_001).
def _float64_line(actual, expected):
    """Whether both results are float64 or complex128 tensors (summaries)."""
    def wide(r):
        v = r.get("ok") if isinstance(r, dict) else None
        return getattr(v, "dtype", None) in ("float64", "complex128")
    return wide(actual) and wide(expected)


def _float64_state(state):
    """Whether a final state is a float64 or complex128 tensor's: its value and tangent
    may hold a float64 kernel's ulp amplified (Note [Amplified float32 differences]; the
    rerun from autotensor's inputs compares at float64's tolerance)."""
    value = state.get("value") if isinstance(state, dict) else None
    return getattr(value, "dtype", None) in ("float64", "complex128")


def _same_from_our_inputs(lines, i, actual, tol, module):
    """Whether PyTorch, given autotensor's values of line ``i``'s inputs, computes
    autotensor's result of line ``i`` (Note [Amplified float32 differences])."""
    import torch
    src, out = lines[i]
    if out is None or not isinstance(actual, dict) or "ok" not in actual:
        return False
    ours = new_namespace(module)
    dual = _dual(lines)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for s, _ in lines[:i]:
                _exec(s, ours)
            theirs = new_namespace(torch)
            for r in set(_VAR.findall(src)) - {out}:
                t = ours.get(r)
                if not isinstance(t, module.Tensor):
                    return False
                dtype = getattr(torch, str(t.dtype).rsplit(".", 1)[-1])
                theirs[r] = torch.tensor(t.detach().tolist(), dtype=dtype)
                if t.requires_grad:
                    if not (dtype.is_floating_point or dtype.is_complex):
                        return False  # (an integral tensor that requires grad: no leaf of it)
                    theirs[r].requires_grad_()
                if t.requires_grad and not t.is_leaf:  # (a non-leaf, as ours: an in-place
                    theirs[r] = theirs[r].clone()  # line on it is no leaf's error)
            if _exec(src, theirs) is not None:
                return False
            assert_same(actual, {"ok": _snapshot(theirs, out, torch)}, rtol=RTOL, atol=ATOL,
                        tolerances=tol)
            return True
    except AssertionError:
        return False
    finally:
        if dual:
            _close_level(module)


def _writers(lines, name):
    """The lines that may write variable ``name``: its definitions, and the in-place lines
    naming it, except those whose receiver is another variable (``v0.add_(v5)`` writes v0,
    not v5; a view's aliasing is not tracked, as it was not before) or that do not write
    (_NOT_A_WRITE)."""
    found = []
    for i, (src, out) in enumerate(lines):
        if out == name:
            found.append(i)
        elif out is None and name in _VAR.findall(src) and not _NOT_A_WRITE.search(src):
            receiver = _VAR.match(src.split("\n")[-1].strip())
            if receiver is None or receiver.group() == name:
                found.append(i)
    return found


def _inputs_agree(lines, reads, ours, module, dual, tol):
    """Whether PyTorch, running ``lines``, has the values and tangents of ``reads`` that
    ``ours`` (autotensor's namespace after those lines) has, within ``tol``."""
    import torch
    theirs = new_namespace(torch)
    try:
        for s, _ in lines:
            _exec(s, theirs)
        for r in reads:
            a, e = ours.get(r), theirs.get(r)
            if not isinstance(e, torch.Tensor):
                return False
            assert_same(normalize(a, module), normalize(e, torch), rtol=RTOL, atol=ATOL,
                        tolerances=tol)
            if dual:
                assert_same(_tangent_summary(a, module), _tangent_summary(e, torch),
                            rtol=RTOL, atol=ATOL, tolerances=tol)
        return True
    except AssertionError:
        return False
    finally:
        if dual:
            _close_level(torch)


def _final_from_our_inputs(lines, name, actual, expected, tol, module):
    """Whether the final state of float32 variable ``name`` agrees with PyTorch's once its
    value and tangent are PyTorch's from autotensor's values and tangents of its inputs
    (Note [Amplified float32 differences]: a tangent through a float32 BLAS product, then
    var's cancellation, stop 22's start_repro_006). The line that wrote it last is rerun,
    an in-place one too (``v0.add_(v5)`` of a v5 amplified inside its func.grad line: stop
    33's s33f_repro_001), from our values of everything it reads; its other entries
    (gradient, version, nodes) stay PyTorch's own."""
    import torch
    writers = _writers(lines, name)
    if not writers or not isinstance(actual, dict) or not isinstance(expected, dict) \
            or "value" not in expected:
        return False
    i = writers[-1]
    src, out = lines[i]
    reads = set(_VAR.findall(src.split("\n")[-1].split(" = ", 1)[1] if out == name else src))
    dual = _dual(lines)
    fw = torch.autograd.forward_ad
    ours = new_namespace(module)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for s, _ in lines[:i]:
                _exec(s, ours)
            if len(writers) > 1 and not _inputs_agree(lines[:i], reads & {name}, ours,
                                                      module, dual, tol):
                # (an earlier write's difference is not amplification; the other inputs'
                # own final states are compared, and excused, on their own)
                return False
            theirs = new_namespace(torch)
            if dual:
                fw.enter_dual_level()
            for r in reads:
                t = ours.get(r)
                if not isinstance(t, module.Tensor):
                    return False
                dtype = getattr(torch, str(t.dtype).rsplit(".", 1)[-1])
                theirs[r] = torch.tensor(t.detach().tolist(), dtype=dtype)
                if t.requires_grad:
                    if not (dtype.is_floating_point or dtype.is_complex):
                        return False  # (an integral tensor that requires grad: no leaf of it)
                    theirs[r].requires_grad_()
                if t.requires_grad and not t.is_leaf:  # (written in place: not a leaf)
                    theirs[r] = theirs[r].clone()
                tangent = module.autograd.forward_ad.unpack_dual(t).tangent if dual else None
                if tangent is not None:
                    theirs[r] = fw.make_dual(theirs[r], torch.tensor(
                        tangent.detach().tolist(), dtype=dtype))
            if _exec(src, theirs) is not None:
                return False
            rerun = _final_state(theirs, [name], torch, dual)[name]
            rebuilt = dict(expected, value=rerun["value"])
            if dual:
                rebuilt["tangent"] = rerun["tangent"]
            assert_same(actual, rebuilt, rtol=RTOL, atol=ATOL, tolerances=tol)
            return True
    except AssertionError:
        return False
    finally:
        if dual:
            _close_level(torch)
            _close_level(module)


# Note [float32 linear algebra's rounding]
# PyTorch's float32 linear algebra is MKL's LAPACK and BLAS in single precision (svd: sgesdd,
# then products of its factors), NumPy's OpenBLAS rounds in its own order: two correct
# float32 results of a matrix with condition number kappa differ by up to ~kappa * eps, and
# for a numerically singular matrix both are rounding residues (pinverse of the rank-1
# 1.5 * ones(3, 2): entries 2.4e6 in PyTorch, 2.5e6 here, 0.07 exactly; the tangent of
# the inverse of outer(v, v), whose products cancel to powers of two). Measured on 3,000
# random float32 matrices 1..4 x 1..4 (random, exp of random, kappa up to 1e4): pinverse's
# values differ normwise by up to 5 kappa eps, its forward-AD tangents up to 30 kappa eps
# (173 values, 526 tangents beyond the float32 tolerance), and given PyTorch's own pinverse
# value our pinv_jvp gives PyTorch's tangent to 1e-6: the SVDs' ulps, amplified. (The LU
# family is computed as MKL's steps, autotensor/_ops/linalg.py Note [float32 LU as MKL's],
# and needs no excuse for matrices up to 16 x 16.) So a float32 line calling one of these
# ops whose value or tangent differs is computed once more by PyTorch from autotensor's
# inputs, in float32 and in float64 (its constants too: the default dtype double): when
# autotensor's result is at most 4 times as far from the float64 one as PyTorch's float32
# result is, or within 32 kappa eps of it (kappa: the 2-norm condition number of the line's
# matrix; a backward-stable algorithm's forward error, measured up to 30 kappa eps), plus
# the float32 tolerance, both are equally good roundings of one answer and the difference
# is excused (a value: the line counts as amplified; a tangent: the variable's value and
# tangent are not compared, its other entries are). Measured on 1,500 random float32
# matrices 2..4 x 2..4: of the values and tangents of pinverse, svdvals, qr's R and lstsq
# beyond the float32 tolerance (1,721), all but 5 are excused (by PyTorch's float32 error
# alone, without kappa: 1,606); those 5 are far off (two values 10^7 and 10^10 times
# PyTorch's error: qr's R and lstsq of nearly rank-deficient matrices computed otherwise),
# left to fail. A wrong formula (a pinverse tangent 0.1% off at kappa 94) still fails. A
# matrix singular in float32 (kappa eps >= 1: stack([r, r], -1), fill_(1.5)) has no
# determined digit: its values and tangents are excused whatever they are (the float64
# answer may take another branch: pinverse's rcond cuts a 1e-17 singular value there).
_LINALG_ROUNDING = re.compile(
    r"\.(?:pinverse|pinv|inverse|inv|inv_ex|det|slogdet|logdet|svd|svdvals|qr|solve|lstsq|"
    r"matrix_power|matrix_rank|cond|eigh|eigvalsh|matrix_norm)\(")


# (the iterative decompositions: of a matrix holding an infinity or a NaN, which entries
# of the factors, values and tangents come out NaN is MKL's or OpenBLAS's sweep order; the
# refusals PyTorch makes there are matched where a rule is known, Note [Non-finite inputs
# of LAPACK] and Note [SVD as PyTorch's gesdd] in linalg.py. Whether MKL's gesdd refuses
# a matrix with an infinity and both dims >= 3 ("failed to converge ... (error code: k)")
# is decided by where its infinities are (measured: 900 patterns, each with 4 random
# finite parts, never disagreed), but not by which entries of the bidiagonal they make
# NaN (28 of 81 such bidiagonal patterns both refused and computed): not emulated; such
# a line is excused, and where one side refused it the program is not compared past it.)
_ITERATIVE_LAPACK = re.compile(
    r"\.(?:pinverse|pinv|svd|svdvals|qr|lstsq|matrix_rank|cond|eigh|eigvalsh|matrix_norm)\(")


# Note [Numerically singular LU]: PyTorch factors a float64 matrix with MKL's dgetrf, whose
# steps (the pivot column scaled by 1 / pivot, or divided by it in its small kernel's
# next-to-last column; fused updates) are not NumPy's OpenBLAS route: for a matrix that is
# singular to float64's precision (kappa eps >= 1: duplicated rows, a rank-1 product),
# whether a pivot comes out exactly zero, so whether inv/solve raise "singular" or return
# ~1e16 entries, and det's ~1e-17 and slogdet's -37 are rounding residues of that order.
# Such a line of the LU family, on such a matrix, is excused whatever each side gives,
# and the program is not compared past it (a variable one side never defined).
_LU_FAMILY = re.compile(r"\.(?:inverse|inv|inv_ex|det|slogdet|logdet|solve|solve_ex|"
                        r"matrix_power|lu_factor|lu_factor_ex)\(")


def _raised(result):
    """Whether a line's result is a refusal."""
    return isinstance(result, dict) and "raised" in result


def _numerically_singular_lu(lines, i, module):
    """Whether line ``i`` is an LU-family op of a float64 (complex128) matrix singular to
    its precision (Note [Numerically singular LU])."""
    src, _ = lines[i]
    if not _LU_FAMILY.search(src):
        return False
    ours = new_namespace(module)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for s, _ in lines[:i]:
                _exec(s, ours)
            mats = [t for t in (ours.get(r) for r in set(_VAR.findall(src)))
                    if isinstance(t, module.Tensor) and t.dim() >= 2]
            if not mats or str(mats[0].dtype).rsplit(".", 1)[-1] not in ("float64",
                                                                        "complex128"):
                return False
            return _condition_number(mats[:1]) * float(np.finfo(np.float64).eps) >= 1
    except Exception:  # noqa: BLE001 -- no excuse where it cannot be decided
        return False
    finally:
        if _dual(lines):
            _close_level(module)


def _linalg_rounding(lines, i, module, any_op=False):
    """Whether line ``i``, a float32/complex64 linear-algebra op, computes a value and
    tangent as close to PyTorch's float64 result as PyTorch's float32 result is, all from
    autotensor's inputs (Note [float32 linear algebra's rounding]). ``any_op``: any line
    (Note [float32 rounding inside a line]: without a condition number)."""
    import torch
    src, out = lines[i]
    if out is None or not (any_op or _LINALG_ROUNDING.search(src)):
        return False
    dual = _dual(lines)
    fw = torch.autograd.forward_ad
    ours = new_namespace(module)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for s, _ in lines[:i]:
                _exec(s, ours)
            inputs = {r: ours.get(r) for r in set(_VAR.findall(src)) - {out}}
            if any(not isinstance(t, module.Tensor) for t in inputs.values()) or \
                    _exec(src, ours) is not None:
                return False
            mine = _value_and_tangent(ours.get(out), module)
            if mine is None:
                return False
            if _ITERATIVE_LAPACK.search(src) and any(
                    t.dim() >= 2 and not np.isfinite(np.asarray(t.detach().tolist())).all()
                    for t in inputs.values()):
                return True  # (the NaNs an SVD of a non-finite matrix gives are its
                # library's, in float64 too: which of U's entries stay finite, and so which
                # singular values' tangents)
            if mine[0].dtype not in (np.float32, np.complex64):
                return False
            results = []
            for wide in (False, True):
                theirs = new_namespace(torch)
                if dual:
                    fw.enter_dual_level()
                try:
                    for r, t in inputs.items():
                        dtype = str(t.dtype).rsplit(".", 1)[-1]
                        if wide:
                            dtype = {"float32": "float64", "complex64": "complex128"}.get(
                                dtype, dtype)
                        dtype = getattr(torch, dtype)
                        theirs[r] = torch.tensor(t.detach().tolist(), dtype=dtype)
                        tangent = module.autograd.forward_ad.unpack_dual(t).tangent if dual \
                            else None
                        if tangent is not None:
                            theirs[r] = fw.make_dual(theirs[r], torch.tensor(
                                tangent.detach().tolist(), dtype=dtype))
                    default = torch.get_default_dtype()
                    if wide:  # (the line's own constants, torch.ones(...), in double too)
                        torch.set_default_dtype(torch.float64)
                    try:
                        if _exec(src, theirs) is not None:
                            return False
                    finally:
                        torch.set_default_dtype(default)
                    results.append(_value_and_tangent(theirs.get(out), torch))
                finally:
                    if dual:
                        _close_level(torch)
            single, double = results
            if single is None or double is None:
                return False
            kappa = _condition_number(inputs.values())
            return all(_as_close(m, t, d, kappa) for m, t, d in zip(mine, single, double))
    except Exception:  # noqa: BLE001 -- no excuse where the rerun cannot be made
        return False
    finally:
        if dual:
            _close_level(module)


def _value_and_tangent(t, module):
    """(value, tangent or None) of a tensor as NumPy arrays, or None."""
    if not isinstance(t, module.Tensor):
        return None
    tangent = module.autograd.forward_ad.unpack_dual(t).tangent
    value = np.asarray(t.detach().cpu().numpy() if hasattr(t, "cpu") else t.detach().numpy())
    return (value, None if tangent is None else np.asarray(tangent.detach().numpy()))


def _condition_number(tensors):
    """The 2-norm condition number of the line's first matrix input (the largest of a
    batch's; inf for a singular one, 0 where there is none or it is not finite)."""
    for t in tensors:
        a = np.asarray(t.detach().tolist())
        if a.ndim >= 2 and a.size and a.dtype.kind in "fc":
            if not np.isfinite(a).all():
                return 0.0
            s = np.linalg.svd(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64),
                              compute_uv=False)
            with np.errstate(divide="ignore", invalid="ignore"):
                k = s[..., 0] / s[..., -1]
            return float(np.nan_to_num(k, nan=np.inf).max())
    return 0.0


def _as_close(mine, single, double, kappa=0.0):
    """Whether ``mine`` is as close to ``double`` as ``single`` is: at most 4 times as far,
    or within 32 kappa eps(float32) of its largest magnitude (a backward-stable algorithm's
    forward error; measured up to 30 kappa eps for pinverse's tangents), plus the float32
    tolerance; anything for a matrix singular in float32 (kappa eps >= 1: NaNs too, an
    exact zero pivot in one library, a residue in the other: the tangent of R of a float32
    QR of a rank-1 matrix); elsewhere NaNs and infinities in the same places as
    ``single``'s."""
    if mine is None or single is None or double is None:
        return mine is None and single is None
    if mine.shape != single.shape or mine.shape != double.shape:
        return False
    if kappa * float(np.finfo(np.float32).eps) >= 1:
        return True
    if not np.array_equal(np.isnan(mine), np.isnan(single)):
        return False
    ok = np.isfinite(mine) & np.isfinite(single)
    if not np.array_equal(ok, ~np.isnan(mine) & np.isfinite(mine)) or \
            (mine[~ok & ~np.isnan(mine)] != single[~ok & ~np.isnan(mine)]).any():
        return False  # (infinities where PyTorch's are, equal)
    m, t, d = (np.asarray(x, np.complex128 if np.iscomplexobj(x) else np.float64)[ok]
               for x in (mine, single, double))
    if not m.size:
        return True
    if not np.isfinite(d).all():
        return False
    rtol, atol = TOLERANCES["float32"]
    scale = float(np.abs(d).max())
    floor = atol * max(1.0, scale) + rtol * scale
    eps = float(np.finfo(np.float32).eps)
    if kappa * eps >= 1:  # (numerically singular in float32: no digit is determined, and
        return True       # the float64 answer may even take another branch, rcond's cut)
    rounding = 32 * kappa * eps * scale
    return float(np.abs(m - d).max()) <= max(4 * float(np.abs(t - d).max()), rounding) + floor


# (lines that name a variable without writing its value: a backward writes .grad, a hook
# or retain_grad registers)
_NOT_A_WRITE = re.compile(r"\.backward\(|\.register_hook\(|\.retain_grad\(|"
                          r"register_post_accumulate_grad_hook\(")


_CARRIES_ON = re.compile(r"v\d+\.(?:add|sub|mul|div|neg|abs|clamp|clamp_min|clamp_max)_\(")


def _final_linalg_rounding(lines, name, actual, expected, tol, module):
    """Whether the final state of ``name`` differs only in its value and tangent, and the
    one line that wrote it is a linear-algebra op excused by
    Note [float32 linear algebra's rounding], or any line by Note [float32 rounding inside
    a line]."""
    writers = _writers(lines, name)
    if not writers or lines[writers[0]][1] != name or not isinstance(actual, dict) \
            or not isinstance(expected, dict):
        return False
    # (later in-place elementwise writes of an excused linear-algebra result carry its
    # difference on, scaled by their derivative: ``v2 = v0.pinverse(); v2.add_(v0)``,
    # stop 35; only that op's excuse, not a line's own rounding, any_op below)
    later = [lines[w][0].split("\n")[-1].strip() for w in writers[1:]]
    if later and not (_LINALG_ROUNDING.search(lines[writers[0]][0]) and all(
            _CARRIES_ON.match(src) and _VAR.match(src).group() == name for src in later)):
        return False
    rest = ("value", "tangent")
    try:
        assert_same({k: v for k, v in actual.items() if k not in rest},
                    {k: v for k, v in expected.items() if k not in rest},
                    rtol=RTOL, atol=ATOL, path=f"final {name}", tolerances=tol)
    except AssertionError:
        return False
    return _linalg_rounding(lines, writers[0], module) or \
        (not later and _linalg_rounding(lines, writers[0], module, any_op=True))


# Note [float32 rounding inside a line]: a float32 line whose kernels round otherwise than
# PyTorch's (sin/cos of a 0-d tensor an ulp apart) can amplify that ulp within the line
# itself (func.grad of 2 sin(t^2): a tangent 4 cos(x) - 8 x sin(x) that cancels 16-fold):
# rerunning PyTorch from our inputs does not remove it. Its final value and tangent are
# excused when they are as close to PyTorch's float64 answer, from our inputs, as PyTorch's
# own float32 result is (within 4 times its error plus the float32 tolerance: _as_close
# without a condition number); a wrong formula is far outside that.


_ZERO_DIM_INDEX = re.compile(r"index (-?\d+) is out of bounds for dimension 0 with size 0$")


def _torch_bug(result, src="", ours=None):
    raised = result.get("raised") if isinstance(result, dict) else None
    if raised is None:
        # (2.13's float16/bfloat16 matrix_exp of a matrix larger than 1 x 1 is inf/NaN on
        # CPU whatever the input, 0.01 * N(0, 1) too; a 1 x 1 one's tangent is such an exp
        # of the 2 x 2 block [[A, A_t], [0, A]])
        ok = result.get("ok") if isinstance(result, dict) else None
        return "matrix_exp" in src and getattr(ok, "dtype", None) in ("float16", "bfloat16")
    # (2.13's vmap of a 0-d entry times a Python number over an empty batch: "select():
    # index 0 out of range for tensor of size [0]"; the same op on 1-d entries computes)
    # (PyTorch's engine or a backward formula writing in place into a ZeroTensor it made
    # itself under a forward-AD level: "ZeroTensors are immutable" from a backward of a
    # valid program, pytorch/pytorch#69855's class, fixed formula by formula upstream: e.g.
    # abs's gradients of a one-element dual summed in place, l1_loss(v, v); also through
    # torch.func's vjp/grad/jacrev, whose backward under no_grad runs without create_graph:
    # the engine sums (t * t)'s two gradients of a dual with a ZeroTensor tangent, sgn's,
    # in place, stop 31's s31a_repro_002)
    if str(raised.message).startswith("ZeroTensors are immutable") and any(
            k in src for k in (".backward(", "autograd.grad(", "torch.func.vjp(",
                               "torch.func.grad(", "torch.func.jacrev(")):
        return True
    if "INTERNAL ASSERT FAILED" in str(raised.message) or (
            "torch.vmap(" in src and raised.type_name == "IndexError" and
            str(raised.message).startswith("select(): index 0 out of range for tensor of "
                                           "size [0]")):
        return True
    # (Python indexing of a 0-d tensor reads sizes()[0] out of bounds: for a reduction's
    # result squeezed in place (x.max(0)[0] of a (1,) x) it finds the stale size 1, "index
    # 1 is out of bounds for dimension 0 with size 1", and index -1 passes on to select().
    # Undefined behaviour in PyTorch; ours reports size 0 as for any 0-d tensor)
    ours = ours.get("raised") if isinstance(ours, dict) else None
    match = ours is not None and _ZERO_DIM_INDEX.match(str(ours.message))
    return bool(match) and raised.type_name == "IndexError" and (
        str(raised.message) == "select() cannot be applied to a 0-dim tensor." or
        re.fullmatch(rf"index {match.group(1)} is out of bounds for dimension 0 with size "
                     r"[1-9]\d*", str(raised.message)) is not None)


def check_program(program, torch_module, autotensor_module, dual=False):
    lines, expected, expected_final = render_and_run_torch(program, torch_module, dual)
    compare_lines(lines, expected, expected_final, autotensor_module)
    return lines


def run_and_compare(sources: list[str]):
    """Entry point of a reproducer file: run ``sources`` on both libraries, compare."""
    import torch

    import autotensor
    lines = [(s, _defined(s)) for s in sources]
    expected, expected_final = run_lines(lines, torch)
    compare_lines(lines, expected, expected_final, autotensor)
    print("no mismatch")


def run_reproducer(path):
    """Run a reproducer file's LINES (a regression test of a fixed finding), closing the
    dual level a mismatch leaves open."""
    import ast
    import pathlib

    import autotensor
    source = pathlib.Path(path).read_text()
    lines = next(ast.literal_eval(node.value) for node in ast.parse(source).body
                 if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") ==
                 "LINES")
    try:
        run_and_compare(lines)
    finally:
        if autotensor.autograd.forward_ad._current[0] >= 0:
            autotensor.autograd.forward_ad.exit_dual_level()


def _defined(src: str) -> str | None:
    body = src.split("\n")[-1].strip()
    head = body.split(" = ", 1)[0]
    return head if head.isidentifier() and " = " in body else None


def straight_line(lines) -> str:
    return "\n".join(src for src, _ in lines)
