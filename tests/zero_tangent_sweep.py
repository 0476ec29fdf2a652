"""Forward-over-reverse sweep of PyTorch's ZeroTensor tangents (stop 36, helper zt36).

Each case runs ``torch.autograd.grad`` of one op's output under a dual level, on autotensor
and on PyTorch, and compares what the gradient's tangent is (each element's sign bit, NaNs
as "nan"), whether the returned tangent is a zero tensor, or the error (type and message).

The probe (the lead's, tests/test_fuzz_lead_stop36.py): the op reads ``x = w * -1.0``, so a
gradient tangent that is a stored zero comes out of MulBackward0 as -0.0 while a zero tensor
stays one (+0.0): the sign shows whether each backward formula kept or materialized it.
Variants: ``zt`` -- grad_outputs' tangent is a zero tensor (sgn of a real dual, expanded to
the output's shape: a view of a zero tensor is one at any size); ``dual`` -- the leaves are
duals themselves, grad_outputs are plain ones (zero tensors arise inside the formulas, from
sgn of saved duals: abs_backward, l1_loss...); ``dual_zt`` -- both; ``inside`` -- the
program's output is abs_()'d in place (the fuzzer's f_repro_001) and differentiated with
the default grad_outputs; ``zt_graph`` -- ``zt`` with create_graph=True (grad mode on in
the formulas: PyTorch's out-of-place branches). Binary ops differentiate both operands
(``o`` is a second leaf).

    PYTHONPATH=. python -m tests.zero_tangent_sweep [--ops SUBSTR] [--verbose] [--no-ret]

``--no-ret`` leaves out whether the returned tangent is a zero tensor (item 3 of the task).
"""
import argparse
import sys
import warnings

import numpy as np

import autotensor

SHAPES = [(), (1,), (1, 1), (3,), (2, 3)]
VARIANTS = ["zt", "dual", "dual_zt", "inside", "zt_graph"]

_F = "torch.nn.functional."
UNARY = [
    "x.exp()", "x.log()", "x.sin()", "x.cos()", "x.tanh()", "x.sigmoid()", "x.relu()",
    "x.abs()", "x.neg()", "-x", "x.sqrt()", "x.rsqrt()", "x.reciprocal()", "x.square()",
    "x.floor()", "x.ceil()", "x.round()", "x.sign()", "x.sgn()", "x.clamp(-0.5, 0.5)",
    "x.clamp(min=0.1)", "x.clamp(max=0.2)", "x.pow(2)", "x.pow(0.5)", "x.pow(0)",
    "x.pow(-1)", "x ** 3", "2 ** x", "x.log1p()", "x.expm1()", "x.exp2()", "x.log2()",
    "x.log10()", "x.tan()", "x.asin()", "x.acos()", "x.atan()", "x.sinh()", "x.cosh()",
    "x.asinh()", "x.acosh()", "x.atanh()", "x.erf()", "x.erfc()", "x.erfinv()",
    "x.lgamma()", "x.digamma()", "x.sinc()", "x.trunc()", "x.frac()", "x.deg2rad()",
    "x.rad2deg()", "x.logit()", "x.logit(0.1)", "x.i0()", "x.nan_to_num()",
    "x.polygamma(1)", "x.mvlgamma(1)", "torch.special.ndtr(x)", "torch.special.log_ndtr(x)",
    "torch.special.i1(x)", "torch.special.entr(x)", "torch.special.ndtri(x)",
    "torch.special.erfcx(x)", "torch.special.i0e(x)", "torch.special.i1e(x)",
    "torch.special.xlog1py(x, 2.0)", "torch.xlogy(x, 2.0)", "x.xlogy(x)",
    "x * 2", "x / 2", "x + 2", "x - 2", "2 - x", "2 / x", "2 * x", "x.mul(2)", "x.div(2)",
    "x.add(2, alpha=3)", "x.sub(x, alpha=2)", "x.clamp_min(0.1)", "x.clamp_max(0.2)",
    "x.clone()", "x.contiguous()", "x.float()", "x.double()", "x.to(torch.float32)",
    "x.exp_()", "x.relu_()", "x.sigmoid_()", "x.tanh_()", "x.neg_()", "x.abs_()",
    "x.sqrt_()", "x.mul_(2)", "x.div_(2)", "x.add_(2)", "x.sub_(x * 0.5)", "x.pow_(2)",
    "x.clamp_(min=0.0)", "x.log1p_()", "x.erf_()", "x.sin_()", "x.sgn_()",
    "x.lerp(torch.ones(()).double(), 0.3)", "x.lerp(torch.ones(()).double(), x)",
    "x.cumsum(0) if x.dim() else x.cumsum(0)", "x.cumprod(0)", "x.logcumsumexp(0)",
    "x.cummax(0)[0]", "x.cummin(0)[0]",
    # activations and normalizations
    _F + "gelu(x)", _F + "gelu(x, approximate='tanh')", _F + "silu(x)", _F + "softplus(x)",
    _F + "elu(x)", _F + "selu(x)", _F + "celu(x)", _F + "leaky_relu(x)",
    _F + "hardtanh(x)", _F + "hardswish(x)", _F + "hardsigmoid(x)", _F + "logsigmoid(x)",
    _F + "mish(x)", _F + "tanhshrink(x)", _F + "softsign(x)", _F + "relu6(x)",
    _F + "softshrink(x)", _F + "hardshrink(x)", _F + "normalize(x, dim=-1)",
    _F + "dropout(x, training=False)", _F + "softmin(x, dim=-1)",
    _F + "softmax(x, dim=-1)", _F + "log_softmax(x, dim=-1)", _F + "glu(x, dim=-1)",
    _F + "layer_norm(x, x.shape[-1:])", _F + "rms_norm(x, x.shape[-1:])",
    _F + "threshold(x, 0.4, 0.0)", _F + "rrelu(x, training=False)",
    _F + "softplus(x, beta=2, threshold=0.5)",
    # reductions
    "x.sum()", "x.mean()", "x.prod()", "x.amax()", "x.amin()", "x.max()", "x.min()",
    "x.norm()", "x.norm(1)", "x.norm(3)", "x.norm(float('inf'))", "x.norm(0)",
    "torch.linalg.vector_norm(x)", "torch.linalg.vector_norm(x, 1)",
    "torch.linalg.vector_norm(x, float('inf'))", "x.logsumexp(0)", "x.var()", "x.std()",
    "x.var(correction=0)", "x.std(correction=0)", "x.nansum()", "x.nanmean()",
    "x.median()", "x.nanmedian()", "x.sum(-1)", "x.mean(-1)", "x.mean(0, keepdim=True)",
    "x.prod(-1)", "x.amax(-1)", "x.max(-1)[0]", "x.min(-1)[0]", "x.var(-1)", "x.std(-1)",
    "x.logsumexp(-1)", "x.norm(dim=-1)", "sum(torch.var_mean(x))", "sum(torch.std_mean(x))",
    "torch.aminmax(x)[0]", "x.sort(-1)[0]", "x.topk(1)[0]", "x.kthvalue(1)[0]",
    "x.msort()", "x.mode(-1)[0]", "x.median(-1)[0]", "x.sum() * x.sum()", "x.trace()",
    "x.diff()", "x.dist(torch.zeros(()).double())", "x.dist(torch.zeros(()).double(), 1)",
    # shape, views, indexing
    "x.view(-1)", "x.reshape(-1)", "x.t()", "x.mT", "x.T", "x.permute(*range(x.dim()))",
    "x.expand(2, *x.shape)", "x.unsqueeze(0)", "x.squeeze()", "x.flatten()", "x.flip(0)",
    "x.roll(1)", "x.repeat(2)", "x.tile((2,))", "x.narrow(-1, 0, 1)", "x.select(-1, 0)",
    "x[0]", "x[..., None]", "x[...]", "x[None]", "x.unfold(-1, 1, 1)", "x.movedim(0, -1)",
    "x.diagonal()", "x.diag()", "x.diagflat()", "x.tril()", "x.triu()", "x.tril(-1)",
    "x.as_strided(x.shape, x.stride())", "x.unbind(-1)[0]", "x.split(1, -1)[0]",
    "x.chunk(1)[0]", "torch.cat([x, x])", "torch.stack([x, x])", "torch.cat([x])",
    "x.repeat_interleave(2)", "torch.kron(x, torch.ones(2).double())", "x.rot90()",
    "x.fliplr()", "x.index_select(-1, torch.tensor([0, 0]))",
    "x.gather(-1, torch.zeros(x.shape, dtype=torch.long))", "x.take(torch.tensor([0]))",
    "x.masked_fill(torch.tensor(True), 1.0)", "x.masked_fill(x > 0.4, 1.0)",
    "x.masked_select(x > 0.4)", "x.index_fill(-1, torch.tensor([0]), 2.0)",
    "x.scatter(-1, torch.zeros(x.shape[:-1] + (1,), dtype=torch.long), 1.5)",
    "x.scatter_add(-1, torch.zeros(x.shape, dtype=torch.long), x)",
    "torch.where(x > 0.4, x, 0.0)", "torch.where(x > 0.4, x, -x)",
    "torch.where(x > 0.4, x, torch.zeros(()).double())", "x.view_as(x)", "x.real",
    "x.clone().fill_diagonal_(1.0)",
    "x.index_put((torch.tensor([0]),), torch.tensor(1.0).double())",
    "x.new_zeros(()) + x", "x.expand_as(x)", "x.renorm(2, 0, 1.0)",
    "x.nan_to_num(posinf=1.0)",
    # matmul family, linear algebra
    "x @ x.mT", "x.mT @ x", "x.matmul(torch.ones(x.shape[-1:]).double())",
    "x.mm(torch.ones(x.shape[-1], 1).double())", "x.mv(torch.ones(x.shape[-1]).double())",
    "x.dot(x)", "x.vdot(x)", "torch.inner(x, x)", "torch.outer(x, x)",
    "torch.addmm(x, x, x)", "torch.addmv(x.sum(-1), x, x[0])",
    "x.bmm(x.mT) if x.dim() == 3 else x.unsqueeze(0).bmm(x.mT.unsqueeze(0))",
    "torch.einsum('...,...->', x, x)", "torch.tensordot(x, x, dims=x.dim())",
    "torch.linalg.det(x)", "x.inverse()", "torch.linalg.slogdet(x)[1]", "x.logdet()",
    "torch.linalg.matrix_exp(x)", "x.pinverse()", "x.matrix_power(2)",
    "torch.linalg.qr(x)[1]", "torch.linalg.svdvals(x)", "torch.linalg.svd(x)[1]",
    "torch.linalg.norm(x)", "torch.linalg.matrix_norm(x)", "torch.linalg.matrix_norm(x, 'nuc')",
    "torch.linalg.matrix_norm(x, 2)", "torch.linalg.eigvalsh(x)", "torch.linalg.cholesky(x @ x.mT)",
    "torch.linalg.solve(x, x)", "torch.linalg.inv(x)",
    "torch.linalg.cross(torch.cat([x, x, x], -1), torch.ones(3).double()) "
    "if x.shape[-1:] == (1,) else x",
    "torch.cdist(x, x) if x.dim() == 2 else x", "torch.trapezoid(x)",
    "torch.cumulative_trapezoid(x)",
    # summed twice in the engine's buffer
    "x - 2 * x", "torch.lerp(x, 2 * x, 0.3)", "(x - x).abs()", "x + x", "x * x",
    "x.exp() * x", "x.sin() + x.cos()", "x.abs() + x.abs()", "x.sgn() * x",
    "x.abs() * x.abs()", "torch.where(x > 0.4, x, 2 * x)",
]
BINARY = [
    "x + o", "x - o", "x * o", "x / o", "x ** o", "torch.maximum(x, o)",
    "torch.minimum(x, o)", "torch.remainder(x, o)", "torch.fmod(x, o)", "torch.atan2(x, o)",
    "torch.hypot(x, o)", "torch.logaddexp(x, o)", "torch.logaddexp2(x, o)",
    "torch.xlogy(x, o)", "torch.copysign(x, o)", "torch.fmax(x, o)", "torch.fmin(x, o)",
    "torch.float_power(x, o)", "torch.clamp_min(x, o)", "torch.clamp_max(x, o)",
    "torch.clamp(x, o, o + 0.1)", "torch.addcmul(x, x, o)", "torch.addcdiv(x, x, o)",
    "torch.lerp(x, o, 0.3)", "torch.lerp(x, o, o)", "x.add(o, alpha=2)", "x.sub(o, alpha=2)",
    "x.clone().add_(o)", "x.clone().mul_(o)", "x.clone().div_(o)", "x.clone().sub_(o)",
    "x.clone().copy_(o)", "x.clone().lerp_(o, 0.3)", "x.clone().addcmul_(x, o)",
    "torch.where(x > o, x, o)", "torch.cat([x, o])", "torch.stack([x, o])",
    "torch.special.xlog1py(x, o)", "torch.special.zeta(x + 1, o)", "torch.dist(x, o)",
    "torch.polar(x, o).abs()", "torch.complex(x, o).abs()", "torch.complex(x, o).real",
    "torch.complex(x, o).angle()", "torch.view_as_complex(torch.stack([x, o], -1)).abs()",
    "x @ o.mT", "torch.dot(x.flatten(), o.flatten())", "torch.outer(x.flatten(), o.flatten())",
    "torch.kron(x, o)", "torch.cdist(x, o) if x.dim() == 2 else x * o",
    _F + "mse_loss(x, o)", _F + "l1_loss(x, o)", _F + "smooth_l1_loss(x, o)",
    _F + "smooth_l1_loss(x, o, beta=0.0)", _F + "huber_loss(x, o)",
    _F + "binary_cross_entropy_with_logits(x, o)",
    _F + "binary_cross_entropy_with_logits(x, o, pos_weight=o)",
    _F + "binary_cross_entropy_with_logits(x, o, weight=torch.full(x.shape, 2.0).double())",
    _F + "binary_cross_entropy_with_logits(x, o, weight=torch.full(x.shape, 2.0).double(), "
    "reduction='sum')",
    _F + "binary_cross_entropy(x, o)",
    _F + "binary_cross_entropy(x, o, weight=torch.full(x.shape, 2.0).double(), reduction='sum')",
    _F + "binary_cross_entropy(x, o, reduction='sum')", _F + "kl_div(x, o)",
    _F + "kl_div(x, o, log_target=True)",
    _F + "soft_margin_loss(x, o)", _F + "cosine_similarity(x, o, dim=-1)",
    _F + "pairwise_distance(x, o)", _F + "prelu(x, o.flatten()[:1])",
    _F + "poisson_nll_loss(x, o)", _F + "poisson_nll_loss(x, o, log_input=False)",
    _F + "gaussian_nll_loss(x, o, o)", _F + "hinge_embedding_loss(x, o)",
    _F + "margin_ranking_loss(x, o, torch.ones_like(x))",
    _F + "multilabel_soft_margin_loss(x, o)", _F + "mse_loss(x, o, reduction='sum')",
    _F + "l1_loss(x, o, reduction='sum')", _F + "mse_loss(x, o, reduction='none')",
    _F + "l1_loss(x, o, reduction='none')", _F + "huber_loss(x, o, reduction='sum')",
    _F + "cosine_embedding_loss(x, o, torch.ones(x.shape[:1]))",
    _F + "triplet_margin_loss(x, o, x * 2)", _F + "linear(x, o)",
    _F + "bilinear(x, x, o.unsqueeze(0))", _F + "cross_entropy(x, o.softmax(-1))",
    _F + "cross_entropy(x, torch.zeros(x.shape[:1], dtype=torch.long))",
    _F + "nll_loss(x, torch.zeros(x.shape[:1], dtype=torch.long))",
    _F + "multi_margin_loss(x, torch.zeros(x.shape[:1], dtype=torch.long))",
]


def _values(shape, start, step):
    n = int(np.prod(shape)) if shape else 1
    return -(start + step * np.arange(n)).reshape(shape)


def probe(mod, expr, shape, variant, binary):
    """What the gradient's tangents are: per input, the sign bits ('nan' for NaN) and
    whether the tangent is a zero tensor; or (error type, message)."""
    fw = mod.autograd.forward_ad
    f64 = mod.float64
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with fw.dual_level():
            try:
                leaves = [mod.tensor(_values(shape, 0.5, 0.1), dtype=f64, requires_grad=True)]
                if binary:
                    leaves.append(mod.tensor(_values(shape, 0.3, 0.05), dtype=f64,
                                             requires_grad=True))
                wrt = leaves
                if variant in ("dual", "dual_zt", "inside"):
                    wrt = [fw.make_dual(w, mod.full(shape, 0.7 - 0.4 * i, dtype=f64))
                           for i, w in enumerate(leaves)]
                minus = mod.tensor(-1.0, dtype=f64)
                ns = {"torch": mod, "x": wrt[0] * minus}
                if binary:
                    ns["o"] = wrt[1] * minus
                y = eval(expr, ns)  # noqa: S307 -- our own expressions
            except Exception as e:  # noqa: BLE001
                return ("setup", type(e).__name__, str(e).split("\nException raised")[0])
            try:
                if isinstance(y, (tuple, list)):
                    y = y[0]
                if variant == "inside":
                    y = y.abs_() if y.numel() == 1 else y
                    go = mod.ones_like(fw.unpack_dual(y).primal)
                elif variant in ("zt", "dual_zt", "zt_graph"):
                    z = fw.make_dual(mod.zeros((), dtype=y.dtype), mod.ones((), dtype=y.dtype))
                    go = (z.sgn() * 1).expand(y.shape)
                else:
                    go = mod.ones(y.shape, dtype=y.dtype)
                grads = mod.autograd.grad(y, wrt, go, allow_unused=True,
                                          create_graph=variant == "zt_graph")
                out = []
                for g in grads:
                    t = None if g is None else fw.unpack_dual(g).tangent
                    if t is None:
                        out.append(None)
                        continue
                    a = t.clone().detach()
                    a = a.real if a.is_complex() else a
                    a = np.asarray(a.double().numpy())
                    bits = np.where(np.isnan(a), "nan", np.where(np.signbit(a), "-", "+"))
                    out.append(("".join(bits.ravel().tolist()), bool(t._is_zerotensor())))
                return tuple(out)
            except Exception as e:  # noqa: BLE001
                return (type(e).__name__, str(e).split("\nException raised")[0])


def cases(filt=None):
    for binary, exprs in ((False, UNARY), (True, BINARY)):
        for expr in exprs:
            if filt and filt not in expr:
                continue
            for shape in SHAPES:
                for variant in VARIANTS:
                    yield expr, shape, variant, binary


def _strip_ret(r):
    if isinstance(r, tuple) and r and (r[0] is None or isinstance(r[0], tuple)):
        return tuple(None if g is None else g[0] for g in r)
    return r


def sweep(filt=None, ret=True, verbose=False):
    import torch
    n = differ = 0
    by_expr = {}
    for expr, shape, variant, binary in cases(filt):
        got = probe(autotensor, expr, shape, variant, binary)
        want = probe(torch, expr, shape, variant, binary)
        if want and want[0] == "setup":  # (PyTorch refuses the op itself: not a case)
            continue
        n += 1
        if not ret:
            got, want = _strip_ret(got), _strip_ret(want)
        if got != want:
            differ += 1
            by_expr.setdefault(expr, []).append((shape, variant, got, want))
    for expr, rows in by_expr.items():
        print(f"{expr}: {len(rows)}")
        for shape, variant, got, want in (rows if verbose else rows[:2]):
            print(f"    {shape} {variant}: autotensor {got}\n{' ' * 20}torch {want}")
    print(f"{n} cases, {differ} differ")
    return n, differ


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--ops")
    p.add_argument("--verbose", action="store_true")
    p.add_argument("--no-ret", action="store_true")
    a = p.parse_args(argv)
    sweep(a.ops, not a.no_ret, a.verbose)


if __name__ == "__main__":
    sys.exit(main())
