"""Fuzz stop 24 (helper fz9a): the graph a ``create_graph=True`` backward records must be
PyTorch's formula (derivatives.yaml / FunctionsManual.cpp) node for node: the same ops in
the same order, numbers as ATen's C++ operators treat them (``1 - x`` is
``empty_like(x).fill_(1).sub_(x)``: SubBackward0; ``x * 2.0`` in a formula is mul.Scalar:
MulBackward1; a Python number the user gave a Tensor overload was wrapped into a tensor:
MulBackward0), and the gradient's ``_version`` as PyTorch's in-place buffers leave it.

Each reproducer (tests/fuzz/pending_stop24), then a differential sweep of the fuzzer's
unary / binary / reduction pool over shapes 0-d, (3,), (2, 3) and an empty one: the
gradient's graph (names, next_functions, AccumulateGrad leaves, six levels), ``_version``
and values, and the values of a second backward through it."""
import math

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.filterwarnings("ignore")  # (std/var without degrees of freedom)

LEVEL = "torch.autograd.forward_ad.enter_dual_level()"
LEAF = "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), " \
       "requires_grad=True)"
DUAL = "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, " \
       "dtype='float64').reshape(()), dtype=v0.dtype))"
EMPTY = "v0 = torch.tensor(np.array([], dtype='float32').reshape((0, 2)), requires_grad=True)"
EMPTY_DUAL = "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], " \
             "dtype='float64').reshape((0, 2)), dtype=v0.dtype))"

FINDINGS = {
    # atanh's grad * 1 / (1 - self.pow(2)): 1 - t is fill_ then sub_ in C++ (SubBackward0)
    "autograd.grad of atanh with create_graph (s24 start_repro_001)":
        [LEVEL, LEAF, DUAL, "v5 = v0.atanh()",
         "v6 = torch.autograd.grad(v5, [v0], create_graph=True)[0]"],
    # std_backward's (grad / (result * 2)).masked_fill_(result == 0, 0); a 0-d input is
    # var_backward's all-elements case
    "autograd.grad of std(0) of a 0-d tensor with create_graph (s24 start_repro_002)":
        [LEVEL, LEAF, DUAL, "v2 = v0.floor_divide(v0)", "v3 = v0.std(0, keepdim=False)",
         "v4 = torch.autograd.grad(v3, [v0], create_graph=True)[0]"],
    # the two gradients of atan2(v0, v0) are summed in place into an empty buffer too
    "gradient of atan2(v0, v0) for an empty v0: version 1 (s24 start_repro_003)":
        [LEVEL, EMPTY, EMPTY_DUAL, "v1 = v0.atan2(v0)",
         "v2 = torch.autograd.grad(v1.sum(), [v0])[0]"],
}


@pytest.mark.parametrize("name", sorted(FINDINGS))
def test_fuzz_finding(name):
    from tests.fuzz.core import run_and_compare
    try:
        run_and_compare(FINDINGS[name])
    finally:
        if autotensor.autograd.forward_ad._current[0] >= 0:
            autotensor.autograd.forward_ad.exit_dual_level()


# ---- the sweep ------------------------------------------------------------------------------
SHAPES = [(), (3,), (2, 3), (0, 2)]
DEPTH = 6

# expressions of x (unary) ...
UNARY = [
    "x.exp()", "x.log()", "x.sin()", "x.cos()", "x.tanh()", "x.sigmoid()", "x.relu()",
    "x.abs()", "x.neg()", "x.sqrt()", "x.rsqrt()", "x.reciprocal()", "x.square()", "x.floor()",
    "x.round()", "x.sign()", "x.clamp(min=-0.5, max=0.5)", "x.clamp(min=0.1)",
    "x.clamp(max=0.2)", "x.pow(2)", "x.pow(0.5)", "x.pow(0)", "x.pow(-1)", "x.pow(3)",
    "x.pow(-2.5)", "x.t()", "x.tril()", "x.sum()", "x.mean()", "x.prod()", "x.amax()",
    "x.amin()", "x.max()", "x.min()", "x.norm()", "x.logsumexp(0)", "x.flatten()",
    "x.log1p()", "x.expm1()", "x.exp2()", "x.log2()", "x.log10()", "x.tan()", "x.asin()",
    "x.acos()", "x.atan()", "x.sinh()", "x.cosh()", "x.asinh()", "x.acosh()", "x.atanh()",
    "x.erf()", "x.erfc()", "x.erfinv()", "x.lgamma()", "x.digamma()", "x.sinc()",
    "x.trunc()", "x.frac()", "x.deg2rad()", "x.rad2deg()", "x.logit()", "x.logit(0.1)",
    "x.i0()", "x.nan_to_num()", "x.clamp_min(0.1)", "x.clamp_max(0.2)", "x.var()",
    "x.std()", "x.nansum()", "x.nanmean()", "x.median()", "x.nanmedian()", "x.roll(1)",
    "x.fliplr()", "x.polygamma(1)", "x.mvlgamma(1)", "x.lerp(L.ones((), dtype=L.float64), 0.3)",
    "L.special.ndtr(x)", "L.special.log_ndtr(x)", "L.special.i1(x)", "L.special.i1e(x)",
    "L.special.i0e(x)", "L.special.entr(x)", "L.special.erfcx(x)", "L.special.ndtri(x)",
    "L.nn.functional.silu(x)", "L.nn.functional.mish(x)", "L.nn.functional.leaky_relu(x)",
    "L.nn.functional.hardtanh(x)", "L.nn.functional.relu6(x)",
    "L.nn.functional.hardsigmoid(x)", "L.nn.functional.tanhshrink(x)",
    "x + 2.0", "2.0 + x", "x - 2.0", "2.0 - x", "x * 2.0", "2.0 * x", "x / 2.0", "2.0 / x",
    "x ** 2.0", "2.0 ** x", "x % 2.0", "x.fmod(1.5)", "x.remainder(1.5)", "x.xlogy(2.0)",
    "L.where(x > 0, x, 2 * x)", "L.where(x > 0, x, 0.0)", "x.masked_fill(x > 0, 2.0)",
    "x.sum(0)", "x.mean(0)", "x.sum(0, True)", "x.mean(0, True)", "x.prod(0)",
    "x.logsumexp(0, True)", "x.softmax(0)", "x.log_softmax(0)", "x.norm(dim=0)", "x.var(0)",
    "x.std(0)", "x.std(0, keepdim=True)", "x.nansum(0)", "x.nanmean(0)",
    "x.std_mean()[0]", "x.var_mean(0)[1]", "x.norm(1)", "x.norm(float('inf'))", "x.norm(3)",
    "x.logcumsumexp(0)", "x.repeat(2)", "x.tile((2,))", "x.trace()", "x.cumsum(0)",
    "x.amax(0)", "x.amin(0)", "x.max(0)[0]", "x.min(0)[0]", "x.median(0)[0]",
    "x.nanmedian(0)[0]", "x.mode(0)[0]", "x.msort()", "x.sort(0)[0]", "x.kthvalue(1, 0)[0]",
    "x.diff()", "x.diff(dim=0)", "x.squeeze()", "x.squeeze(0)", "x.unsqueeze(0).squeeze(0)",
    "x.unsqueeze(-1).squeeze()", "x.unsqueeze(0).squeeze((0, -1))", "x[0]", "x[..., 0]",
    "x.select(0, -1)", "x[x > 0]", "x.masked_select(x > 0)", "x[L.tensor([0, 0])]",
    "L.nn.functional.elu(x)", "L.nn.functional.selu(x)", "L.nn.functional.celu(x, 2.0)",
    "L.nn.functional.elu(x * 1, 0.5, inplace=True)", "L.nn.functional.selu(x * 1, inplace=True)",
    "L.nn.functional.celu(x * 1, 2.0, inplace=True)", "L.nn.functional.hardswish(x)",
    "L.nn.functional.softplus(x)", "L.nn.functional.softplus(x, 2.0, 0.5)",
    "L.nn.functional.logsigmoid(x)",
]
# ... and of x, y (binary; also with y = x)
BINARY = [
    "x + y", "x - y", "x * y", "x / y", "x ** y", "L.maximum(x, y)", "L.minimum(x, y)",
    "L.remainder(x, y)", "L.fmod(x, y)", "L.atan2(x, y)", "L.hypot(x, y)", "L.logaddexp(x, y)",
    "L.logaddexp2(x, y)", "L.xlogy(x, y)", "L.copysign(x, y)", "L.fmax(x, y)",
    "L.fmin(x, y)", "L.float_power(x, y)", "L.nextafter(x, y)", "L.clamp_min(x, y)",
    "L.clamp_max(x, y)", "L.add(x, y, alpha=2)", "L.sub(x, y, alpha=2)", "L.rsub(x, y)",
    "L.rsub(x, y, alpha=2)", "L.where(x > 0, x, y)", "L.cat([x, y])", "L.stack([x, y])",
    "L.lerp(x, y, 0.3)", "L.lerp(x, y, y)", "L.addcmul(x, x, y)",
    "L.addcdiv(x, x, y, value=0.5)", "L.clamp(x, y, y + 1)", "L.outer(x, y)",
]


def _vals(shape, k):
    n = int(np.prod(shape)) if shape else 1
    return ((np.arange(n, dtype=float) * 0.37 + 0.11 * (k + 1)) % 1.7 - 0.6).reshape(shape)


def _weights(shape):
    n = int(np.prod(shape)) if shape else 1
    return (np.arange(n, dtype=float) % 5 - 1.7).reshape(shape)


def _graph(fn, depth=0):
    if fn is None:
        return None
    name = fn.name()
    if depth == DEPTH or name.endswith("AccumulateGrad"):
        return name
    return (name, tuple((_graph(n, depth + 1), nr) for n, nr in fn.next_functions))


def _r(t):
    if getattr(t, "_is_zerotensor", None) is not None and t._is_zerotensor():
        return [0.0] * t.numel()  # (PyTorch's ZeroTensor: no storage to read)
    return [float(f"{v:.11g}") for v in np.asarray(t.detach().tolist(), float).ravel()]


def _run(L, expr, shape, variant, same):
    x = L.tensor(_vals(shape, 0), requires_grad=True)
    y = x if same else L.tensor(_vals(shape, 1), requires_grad=True)
    ins = [x] if same or "y" not in expr else [x, y]
    z = eval(expr, {"L": L, "x": x, "y": y})
    # a gradient that does not require grad (lin), or that does (sq)
    loss = (z * L.tensor(_weights(tuple(z.shape)))).sum() if variant == "lin" else (z * z).sum()
    gs = L.autograd.grad(loss, ins, create_graph=True, allow_unused=True)
    out = [None if g is None else (_graph(g.grad_fn), g._version, _r(g)) for g in gs]
    req = [g.sum() for g in gs if g is not None and g.requires_grad]
    if req:
        out.append([None if h is None else _r(h)
                    for h in L.autograd.grad(sum(req), ins, allow_unused=True)])
    return out


def _both(fn):
    out = []
    for L in (autotensor, torch):
        try:
            out.append(fn(L))
        except Exception as e:  # noqa: BLE001
            out.append(type(e).__name__)
    return out


def _close(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b)) or math.isclose(
            a, b, rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    return a == b


def _check(expr, same):
    bad = []
    for shape in SHAPES:
        for variant in ("lin", "sq"):
            ours, theirs = _both(lambda L, s=shape, v=variant: _run(L, expr, s, v, same))
            if not _close(ours, theirs):
                bad.append((shape, variant, ours, theirs))
    assert not bad, bad[0]


@pytest.mark.parametrize("expr", UNARY)
def test_unary_double_backward_graph_as_torch(expr):
    _check(expr, False)


@pytest.mark.parametrize("same", [False, True], ids=["x_y", "x_x"])
@pytest.mark.parametrize("expr", BINARY)
def test_binary_double_backward_graph_as_torch(expr, same):
    _check(expr, same)


# ---- scatter / scatter_add / gather of 0-d tensors (the backward of a 0-d max(dim)) -------
ZERO_D = {
    "scatter_1d_index": lambda L, z, g: L.scatter(z, 0, L.tensor([0]), g.unsqueeze(0)),
    "scatter_0d_index": lambda L, z, g: L.scatter(z, 0, L.tensor(0), g),
    "scatter_value": lambda L, z, g: L.scatter(z, 0, L.tensor([0]), 3.5),
    "scatter_add_0d_index": lambda L, z, g: L.scatter_add(z, 0, L.tensor(0), g),
    "scatter_add_twice": lambda L, z, g: L.scatter_add(z, 0, L.tensor([0, 0]), g.expand(2)),
    "scatter_add_empty_index": lambda L, z, g: L.scatter_add(
        z, 0, L.tensor([], dtype=L.int64), g.expand(0)),
    "gather_1d_index": lambda L, z, g: L.gather(g, 0, L.tensor([0, 0])),
    "gather_0d_index": lambda L, z, g: L.gather(g, 0, L.tensor(0)),
}


@pytest.mark.parametrize("case", sorted(ZERO_D))
def test_zero_dim_scatter_gather_as_torch(case):
    """A 0-d tensor is one element along dim 0 for scatter/scatter_add/gather (ours raised
    IndexError): values, graph, and the gradient of the 0-d input."""
    def run(L):
        z = L.zeros((), dtype=L.float64)
        g = L.tensor(2.0, dtype=L.float64, requires_grad=True)
        r = ZERO_D[case](L, z, g)
        gr, = L.autograd.grad(r.sum(), [g], allow_unused=True)
        return r.tolist(), list(r.shape), _graph(r.grad_fn), None if gr is None else gr.tolist()
    ours, theirs = _both(run)
    assert ours == theirs


# ---- the op database's samples of the same families (tests/op_db*.py) -------------------
_FAMILIES = (
    r"(matmul|mv$|bmm$|mm$|mm_|dot$|squeeze|getitem|select$|diff|unsqueeze|t$|t_fn|transpose|"
    r"permute|view|reshape|flatten|expand|narrow|split|chunk|unbind|diagonal|movedim|repeat|"
    r"tile|trace|cumsum|std|var|nansum|nanmean|mean|sum|max|min|amax|amin|median|nanmedian|"
    r"mode|sort|msort|kthvalue|softmax|log_softmax|norm|prod|where|clamp|cat|stack|"
    r"index_select|gather|masked_fill|atan2|hypot|logaddexp|xlogy|copysign|fmax|fmin|"
    r"float_power|lerp|addcmul|addcdiv|add|sub|rsub|mul|div|rdiv|neg|pow|maximum|minimum|exp|"
    r"log|sqrt|abs|sin|cos|tanh|sigmoid|relu|reciprocal|log1p|expm1|exp2|log2|log10|tan|asin|"
    r"acos|atan|sinh|cosh|asinh|acosh|atanh|erf|erfc|erfinv|lgamma|digamma|sinc|deg2rad|"
    r"rad2deg|frac|logit|trunc|sgn|nan_to_num|polygamma)")
# samples of these families that still differ (tests/fuzz/OPEN_FINDINGS.md, stop 24, fz9a)
OPEN_SAMPLES = {
    # in-place ops on a clone (CopySlices / CloneBackward0 chains)
    "log1p_", "polygamma_", "addmv_", "addbmm_", "diagonal_scatter", "diagonal_scatter_offset",
    # aminmax's gradients' versions
    "aminmax", "aminmax_dim", "aminmax_ties",
    # nn ops matched by name (their *BackwardBackward0 ops)
    "max_unpool2d", "multi_margin_loss", "multi_margin_loss_p2_weighted",
    "multilabel_margin_loss", "multi_margin_loss_1d", "multilabel_margin_loss_1d",
    "max_pool3d", "max_unpool3d", "fractional_max_pool2d", "fractional_max_pool3d",
}


def _op_db_samples():
    import re
    import sys
    import os
    here = os.path.dirname(__file__)
    if here not in sys.path:
        sys.path.insert(0, here)
    import op_db
    return [s for s in op_db.SAMPLES if re.match(_FAMILIES, s.name) and
            not s.name.startswith("sampler_") and s.name not in OPEN_SAMPLES]


def _outputs(y):
    if isinstance(y, (tuple, list)):
        return [o for v in y for o in _outputs(v)]
    if getattr(y, "requires_grad", False) and y.is_floating_point():
        return [y]
    return []


def _run_sample(L, sample, variant):
    inputs = sample.make_inputs(L)
    ins = [t for t in inputs if t.requires_grad]
    outs = _outputs(sample(L, *inputs))
    if not outs:
        return None
    loss = sum((o * L.tensor(_weights(tuple(o.shape)))).sum() if variant == "lin"
               else (o * o).sum() for o in outs)
    gs = L.autograd.grad(loss, ins, create_graph=True, allow_unused=True)
    return [None if g is None else (_graph(g.grad_fn), g._version, _r(g)) for g in gs]


@pytest.mark.parametrize("sample", _op_db_samples(), ids=repr)
def test_op_db_double_backward_graph_as_torch(sample):
    for variant in ("lin", "sq"):
        ours, theirs = _both(lambda L, v=variant: _run_sample(L, sample, v))
        assert _close(ours, theirs), (variant, ours, theirs)
