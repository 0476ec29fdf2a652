"""One table of samples per differentiable op; ``test_ops.py`` generates the tests from it.

A :class:`Sample` is an op applied to fixed inputs: ``fn(m, *tensors, **kwargs)`` where
``m`` is the module under test (``autotensor`` or ``torch``), ``args`` are NumPy arrays
(float64 for the differentiable ones; int64 / bool for indices and masks), ``grad`` says
which of them require grad (default: the floating ones). Inputs listed in ``noncontig``
are built as transposed views (non-contiguous leaves). Values are drawn away from
non-differentiable points; ``kink=True`` marks the dedicated tie / zero samples, which
are only compared with PyTorch (gradcheck is meaningless there).
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import Callable

import numpy as np


@dataclass
class Sample:
    name: str
    fn: Callable
    args: list
    kwargs: dict = field(default_factory=dict)
    grad: tuple | None = None  # requires_grad per arg; default: floating args
    noncontig: tuple = ()  # indices of args built as non-contiguous (transposed) leaves
    ref: Callable | None = None  # NumPy reference of the forward, on the arrays
    kink: bool = False  # at a non-differentiable point: compared with torch only
    gradcheck_kwargs: dict = field(default_factory=dict)
    gradgrad: bool = True

    def requires_grad(self):
        if self.grad is not None:
            return tuple(self.grad)
        return tuple(np.asarray(a).dtype.kind == "f" for a in self.args)

    def make_inputs(self, m, dtype=np.float64):
        """The inputs as tensors of module m; floating args cast to dtype."""
        out = []
        for i, (a, rg) in enumerate(zip(self.args, self.requires_grad(), strict=True)):
            a = np.asarray(a)
            if a.dtype.kind == "f":
                a = a.astype(dtype)
            if i in self.noncontig:
                t = m.tensor(np.ascontiguousarray(a.T)).t().detach()
            else:
                t = m.tensor(a)
            if rg:
                t.requires_grad_()
            out.append(t)
        return out

    def __call__(self, m, *tensors):
        return self.fn(m, *tensors, **self.kwargs)

    def __repr__(self):
        return self.name


def _rng(name):
    return np.random.default_rng(zlib.crc32(name.encode()))


class _Gen:
    """Deterministic input arrays for one sample (seeded by the sample's name)."""

    def __init__(self, name):
        self.r = _rng(name)

    def u(self, *shape, lo=-2.0, hi=2.0):
        return self.r.uniform(lo, hi, shape)

    def away(self, *shape, lo=0.3, hi=2.0):
        """Values with |x| in [lo, hi], random signs: away from 0."""
        return self.r.uniform(lo, hi, shape) * self.r.choice([-1.0, 1.0], shape)

    def pos(self, *shape, lo=0.5, hi=2.0):
        return self.r.uniform(lo, hi, shape)

    def idx(self, high, *shape):
        return self.r.integers(0, high, shape).astype(np.int64)

    def mask(self, *shape):
        return self.r.random(shape) > 0.5


SAMPLES: list[Sample] = []


def add(name, fn, make_args, **kw):
    """Register a sample; ``make_args(g)`` builds its arrays from a seeded generator."""
    SAMPLES.append(Sample(name, fn, make_args(_Gen(name)), **kw))


# ---- elementwise binary ---------------------------------------------------------------
add("add", lambda m, x, y: m.add(x, y), lambda g: [g.u(2, 3), g.u(2, 3)],
    ref=lambda x, y: x + y)
add("add_broadcast", lambda m, x, y: x + y, lambda g: [g.u(2, 3), g.u(3)],
    ref=lambda x, y: x + y)
add("add_0d", lambda m, x, y: x + y, lambda g: [g.u(), g.u(2, 3)], ref=lambda x, y: x + y)
add("add_scalar", lambda m, x: x + 2.5, lambda g: [g.u(2, 3)], ref=lambda x: x + 2.5)
add("add_alpha", lambda m, x, y: m.add(x, y, alpha=2), lambda g: [g.u(2, 3), g.u(3)],
    ref=lambda x, y: x + 2 * y)
add("add_noncontig", lambda m, x, y: x + y, lambda g: [g.u(3, 2), g.u(3, 2)], noncontig=(0,),
    ref=lambda x, y: x + y)
add("sub", lambda m, x, y: x - y, lambda g: [g.u(2, 3), g.u(2, 3)], ref=lambda x, y: x - y)
add("sub_alpha", lambda m, x, y: m.sub(x, y, alpha=3), lambda g: [g.u(2, 3), g.u(2, 1)],
    ref=lambda x, y: x - 3 * y)
add("sub_scalar", lambda m, x: x - 1.5, lambda g: [g.u(4)], ref=lambda x: x - 1.5)
add("rsub_scalar", lambda m, x: 2.0 - x, lambda g: [g.u(2, 3)], ref=lambda x: 2.0 - x)
add("rsub_fn_scalar", lambda m, x: m.rsub(x, 2.0), lambda g: [g.u(2, 3)],
    ref=lambda x: 2.0 - x)
add("rsub_fn_tensor", lambda m, x, y: m.rsub(x, y), lambda g: [g.u(2, 3), g.u(2, 3)],
    ref=lambda x, y: y - x)
add("rsub_alpha", lambda m, x, y: m.rsub(x, y, alpha=2), lambda g: [g.u(2, 3), g.u(3)],
    ref=lambda x, y: y - 2 * x)
add("mul", lambda m, x, y: x * y, lambda g: [g.u(2, 3), g.u(2, 3)], ref=lambda x, y: x * y)
add("mul_broadcast", lambda m, x, y: m.mul(x, y), lambda g: [g.u(4, 1, 3), g.u(2, 1)],
    ref=lambda x, y: x * y)
add("mul_scalar", lambda m, x: x * 2.0, lambda g: [g.u(3)], ref=lambda x: x * 2.0)
add("mul_0d", lambda m, x, y: x * y, lambda g: [g.u(), g.u()], ref=lambda x, y: x * y)
add("mul_self", lambda m, x: x * x, lambda g: [g.u(2, 3)], ref=lambda x: x * x)
add("mul_noncontig", lambda m, x, y: x * y, lambda g: [g.u(3, 4), g.u(3, 4)],
    noncontig=(0, 1), ref=lambda x, y: x * y)
add("div", lambda m, x, y: x / y, lambda g: [g.u(2, 3), g.away(2, 3)], ref=lambda x, y: x / y)
add("div_broadcast", lambda m, x, y: m.div(x, y), lambda g: [g.u(2, 3), g.away(3)],
    ref=lambda x, y: x / y)
add("div_scalar", lambda m, x: x / 4.0, lambda g: [g.u(3)], ref=lambda x: x / 4.0)
add("rdiv_scalar", lambda m, x: 2.0 / x, lambda g: [g.away(3)], ref=lambda x: 2.0 / x)
add("neg", lambda m, x: -x, lambda g: [g.u(2, 3)], ref=lambda x: -x)
add("neg_fn", lambda m, x: m.neg(x), lambda g: [g.u()], ref=lambda x: -x)
add("pow_scalar", lambda m, x: x ** 2.5, lambda g: [g.pos(2, 3)], ref=lambda x: x ** 2.5)
add("pow_scalar_int", lambda m, x: x ** 3, lambda g: [g.u(2, 3)], ref=lambda x: x ** 3)
add("pow_scalar_2", lambda m, x: m.pow(x, 2), lambda g: [g.u(4)], ref=lambda x: x ** 2)
add("pow_scalar_neg", lambda m, x: x ** -1.5, lambda g: [g.pos(4)], ref=lambda x: x ** -1.5)
add("pow_scalar_0", lambda m, x: x ** 0, lambda g: [g.u(3)], ref=lambda x: x ** 0)
add("pow_tensor", lambda m, x, y: x ** y, lambda g: [g.pos(2, 3), g.u(2, 3)],
    ref=lambda x, y: x ** y)
add("pow_tensor_broadcast", lambda m, x, y: m.pow(x, y), lambda g: [g.pos(2, 3), g.u(3)],
    ref=lambda x, y: x ** y)
add("pow_scalar_base", lambda m, x: 2.0 ** x, lambda g: [g.u(2, 3)], ref=lambda x: 2.0 ** x)
add("pow_scalar_base_fn", lambda m, x: m.pow(1.5, x), lambda g: [g.u(3)],
    ref=lambda x: 1.5 ** x)
add("maximum", lambda m, x, y: m.maximum(x, y), lambda g: [g.u(2, 3), g.u(2, 3)],
    ref=np.maximum)
add("maximum_broadcast", lambda m, x, y: m.maximum(x, y), lambda g: [g.u(2, 3), g.u(3)],
    ref=np.maximum)
add("minimum", lambda m, x, y: m.minimum(x, y), lambda g: [g.u(2, 3), g.u(2, 1)],
    ref=np.minimum)
add("maximum_ties", lambda m, x, y: m.maximum(x, y),
    lambda g: [np.array([1.0, 2.0, 3.0]), np.array([1.0, 0.0, 3.0])], kink=True)
add("minimum_ties", lambda m, x, y: m.minimum(x, y),
    lambda g: [np.array([1.0, 2.0, 3.0]), np.array([1.0, 0.0, 3.0])], kink=True)
add("where", lambda m, c, x, y: m.where(c, x, y), lambda g: [g.mask(2, 3), g.u(2, 3), g.u(2, 3)],
    ref=np.where)
add("where_broadcast", lambda m, c, x, y: m.where(c, x, y),
    lambda g: [g.mask(2, 3), g.u(3), g.u(2, 1)], ref=np.where)
add("where_scalar", lambda m, c, x: m.where(c, x, 0.0), lambda g: [g.mask(2, 3), g.u(2, 3)],
    ref=lambda c, x: np.where(c, x, 0.0))

# ---- elementwise unary ----------------------------------------------------------------
for _name, _ref, _gen in [
        ("exp", np.exp, "u"), ("log", np.log, "pos"), ("sqrt", np.sqrt, "pos"),
        ("abs", np.abs, "away"), ("sin", np.sin, "u"), ("cos", np.cos, "u"),
        ("tanh", np.tanh, "u"), ("sigmoid", lambda x: 1 / (1 + np.exp(-x)), "u"),
        ("relu", lambda x: np.maximum(x, 0), "away"), ("reciprocal", lambda x: 1 / x, "away")]:
    add(_name, lambda m, x, _n=_name: getattr(m, _n)(x),
        lambda g, _g=_gen: [getattr(g, _g)(2, 3)], ref=_ref)
    add(_name + "_method_0d", lambda m, x, _n=_name: getattr(x, _n)(),
        lambda g, _g=_gen: [getattr(g, _g)()], ref=_ref)
add("relu_at_zero", lambda m, x: m.relu(x), lambda g: [np.array([-1.0, 0.0, 2.0])], kink=True)
add("abs_at_zero", lambda m, x: m.abs(x), lambda g: [np.array([-1.0, 0.0, 2.0])], kink=True)
add("sqrt_noncontig", lambda m, x: m.sqrt(x), lambda g: [g.pos(2, 3)], noncontig=(0,),
    ref=np.sqrt)
add("clamp", lambda m, x: m.clamp(x, -0.5, 0.5),
    lambda g: [np.array([[-1.2, -0.3, 0.1], [0.7, 0.45, -0.6]])],
    ref=lambda x: np.clip(x, -0.5, 0.5))
add("clamp_min", lambda m, x: m.clamp(x, min=0.2),
    lambda g: [np.array([-1.2, -0.3, 0.1, 0.7])], ref=lambda x: np.maximum(x, 0.2))
add("clamp_max", lambda m, x: x.clamp(max=0.2),
    lambda g: [np.array([-1.2, -0.3, 0.1, 0.7])], ref=lambda x: np.minimum(x, 0.2))
add("clamp_tensor", lambda m, x, lo, hi: m.clamp(x, lo, hi),
    lambda g: [np.array([-1.0, 0.0, 1.0, 2.0]), np.array([-0.5, 0.5, -2.0, 0.0]),
               np.array([0.5, 1.0, 0.5, 1.0])],
    ref=lambda x, lo, hi: np.minimum(np.maximum(x, lo), hi))
add("clamp_tensor_min", lambda m, x, lo: m.clamp(x, min=lo),
    lambda g: [np.array([[-1.0, 0.0, 1.0]]), np.array([-0.5, 0.5, -2.0])],
    ref=lambda x, lo: np.maximum(x, lo))
add("clamp_tensor_max", lambda m, x, hi: m.clamp(x, max=hi),
    lambda g: [np.array([[-1.0, 0.0, 1.0]]), np.array([-0.5, 0.5, -2.0])],
    ref=lambda x, hi: np.minimum(x, hi))

# ---- reductions -------------------------------------------------------------------------
add("sum", lambda m, x: m.sum(x), lambda g: [g.u(2, 3)], ref=np.sum)
add("sum_0d", lambda m, x: x.sum(), lambda g: [g.u()], ref=np.sum)
add("sum_dim", lambda m, x: m.sum(x, 1), lambda g: [g.u(2, 3, 4)], ref=lambda x: x.sum(1))
add("sum_dim_neg_keepdim", lambda m, x: x.sum(-1, keepdim=True), lambda g: [g.u(2, 3)],
    ref=lambda x: x.sum(-1, keepdims=True))
add("sum_dims_keepdim", lambda m, x: m.sum(x, (0, 2), keepdim=True), lambda g: [g.u(2, 3, 4)],
    ref=lambda x: x.sum((0, 2), keepdims=True))
add("sum_dims", lambda m, x: x.sum((0, -1)), lambda g: [g.u(2, 3, 4)],
    ref=lambda x: x.sum((0, 2)))
add("sum_noncontig", lambda m, x: x.sum(0), lambda g: [g.u(3, 2)], noncontig=(0,),
    ref=lambda x: x.sum(0))
add("mean", lambda m, x: m.mean(x), lambda g: [g.u(2, 3)], ref=np.mean)
add("mean_0d", lambda m, x: x.mean(), lambda g: [g.u()], ref=np.mean)
add("mean_dim", lambda m, x: x.mean(1), lambda g: [g.u(2, 3, 4)], ref=lambda x: x.mean(1))
add("mean_dim_keepdim", lambda m, x: m.mean(x, -2, keepdim=True), lambda g: [g.u(2, 3, 4)],
    ref=lambda x: x.mean(-2, keepdims=True))
add("mean_dims", lambda m, x: x.mean((0, 2)), lambda g: [g.u(2, 3, 4)],
    ref=lambda x: x.mean((0, 2)))
add("max", lambda m, x: m.max(x), lambda g: [g.u(2, 3)], ref=np.max)
add("max_dim", lambda m, x: m.max(x, 1), lambda g: [g.u(2, 3)])
add("max_dim_keepdim", lambda m, x: x.max(0, keepdim=True), lambda g: [g.u(2, 3, 2)])
add("max_dim_values", lambda m, x: x.max(dim=-1).values, lambda g: [g.u(3, 4)],
    ref=lambda x: x.max(-1))
add("min", lambda m, x: x.min(), lambda g: [g.u(2, 3)], ref=np.min)
add("min_dim", lambda m, x: m.min(x, 1), lambda g: [g.u(2, 3)])
add("min_dim_keepdim", lambda m, x: x.min(-1, keepdim=True), lambda g: [g.u(2, 3)])
add("max_0d", lambda m, x: x.max(), lambda g: [g.u()], ref=np.max)
add("max_ties", lambda m, x: x.max(), lambda g: [np.array([[1.0, 3.0, 3.0], [2.0, 3.0, 0.0]])],
    kink=True)
add("min_ties", lambda m, x: x.min(), lambda g: [np.array([[1.0, 0.0, 3.0], [0.0, 3.0, 0.0]])],
    kink=True)
add("max_dim_ties", lambda m, x: x.max(1),
    lambda g: [np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]])], kink=True)
add("min_dim_ties", lambda m, x: x.min(0),
    lambda g: [np.array([[1.0, 3.0, 0.0], [1.0, 2.0, 0.0]])], kink=True)
add("norm", lambda m, x: m.norm(x), lambda g: [g.u(2, 3)], ref=lambda x: np.linalg.norm(x))
add("norm_p1", lambda m, x: x.norm(p=1), lambda g: [g.away(2, 3)],
    ref=lambda x: np.abs(x).sum())
add("norm_p3", lambda m, x: x.norm(p=3), lambda g: [g.away(4)],
    ref=lambda x: (np.abs(x) ** 3).sum() ** (1 / 3))
add("norm_inf", lambda m, x: x.norm(p=float("inf")), lambda g: [g.away(2, 3)],
    ref=lambda x: np.abs(x).max())
add("norm_dim", lambda m, x: m.norm(x, dim=1), lambda g: [g.u(2, 3)],
    ref=lambda x: np.linalg.norm(x, axis=1))
add("norm_dims_keepdim", lambda m, x: x.norm(p=2, dim=(0, 2), keepdim=True),
    lambda g: [g.u(2, 3, 2)], ref=lambda x: np.sqrt((x * x).sum((0, 2), keepdims=True)))
add("norm_p1_dim", lambda m, x: x.norm(p=1, dim=0), lambda g: [g.away(2, 3)],
    ref=lambda x: np.abs(x).sum(0))
add("norm_inf_dim", lambda m, x: x.norm(p=float("inf"), dim=-1), lambda g: [g.away(2, 3)],
    ref=lambda x: np.abs(x).max(-1))
add("norm_p3_dim_keepdim", lambda m, x: x.norm(p=3, dim=1, keepdim=True),
    lambda g: [g.away(2, 3)], ref=lambda x: (np.abs(x) ** 3).sum(1, keepdims=True) ** (1 / 3))
add("softmax", lambda m, x: m.softmax(x, 1), lambda g: [g.u(2, 3)],
    ref=lambda x: np.exp(x) / np.exp(x).sum(1, keepdims=True))
add("softmax_3d", lambda m, x: x.softmax(-1), lambda g: [g.u(2, 2, 3)],
    ref=lambda x: np.exp(x) / np.exp(x).sum(-1, keepdims=True))
add("softmax_nn", lambda m, x: m.nn.functional.softmax(x, dim=0), lambda g: [g.u(3, 2)],
    ref=lambda x: np.exp(x) / np.exp(x).sum(0, keepdims=True))
add("log_softmax", lambda m, x: m.log_softmax(x, 0), lambda g: [g.u(2, 3)],
    ref=lambda x: x - np.log(np.exp(x).sum(0, keepdims=True)))
add("log_softmax_nn", lambda m, x: m.nn.functional.log_softmax(x, dim=-1),
    lambda g: [g.u(2, 2, 3)], ref=lambda x: x - np.log(np.exp(x).sum(-1, keepdims=True)))

# ---- linear algebra -----------------------------------------------------------------------
add("mm", lambda m, a, b: m.mm(a, b), lambda g: [g.u(2, 3), g.u(3, 4)], ref=np.matmul)
add("mm_noncontig", lambda m, a, b: a.mm(b), lambda g: [g.u(2, 3), g.u(3, 4)],
    noncontig=(0,), ref=np.matmul)
add("matmul_1d_1d", lambda m, a, b: m.matmul(a, b), lambda g: [g.u(3), g.u(3)], ref=np.matmul)
add("matmul_2d_1d", lambda m, a, b: a @ b, lambda g: [g.u(2, 3), g.u(3)], ref=np.matmul)
add("matmul_1d_2d", lambda m, a, b: a @ b, lambda g: [g.u(3), g.u(3, 2)], ref=np.matmul)
add("matmul_2d_2d", lambda m, a, b: a @ b, lambda g: [g.u(2, 3), g.u(3, 2)], ref=np.matmul)
add("matmul_batched", lambda m, a, b: m.matmul(a, b), lambda g: [g.u(2, 2, 3), g.u(2, 3, 2)],
    ref=np.matmul)
add("matmul_broadcast", lambda m, a, b: a @ b, lambda g: [g.u(2, 1, 2, 3), g.u(3, 3, 2)],
    ref=np.matmul)
add("matmul_3d_2d", lambda m, a, b: a @ b, lambda g: [g.u(2, 2, 3), g.u(3, 2)], ref=np.matmul)
add("matmul_2d_3d", lambda m, a, b: a @ b, lambda g: [g.u(2, 3), g.u(2, 3, 2)], ref=np.matmul)
add("matmul_3d_1d", lambda m, a, b: a @ b, lambda g: [g.u(2, 2, 3), g.u(3)], ref=np.matmul)
add("matmul_1d_3d", lambda m, a, b: a @ b, lambda g: [g.u(3), g.u(2, 3, 2)], ref=np.matmul)
add("bmm", lambda m, a, b: m.bmm(a, b), lambda g: [g.u(2, 2, 3), g.u(2, 3, 2)], ref=np.matmul)
add("dot", lambda m, a, b: m.dot(a, b), lambda g: [g.u(4), g.u(4)], ref=np.dot)
add("mv", lambda m, a, b: m.mv(a, b), lambda g: [g.u(2, 3), g.u(3)], ref=np.matmul)
add("addmm", lambda m, c, a, b: m.addmm(c, a, b), lambda g: [g.u(2, 2), g.u(2, 3), g.u(3, 2)],
    ref=lambda c, a, b: c + a @ b)
add("addmm_broadcast_bias", lambda m, c, a, b: m.addmm(c, a, b),
    lambda g: [g.u(2), g.u(3, 3), g.u(3, 2)], ref=lambda c, a, b: c + a @ b)
add("addmm_beta_alpha", lambda m, c, a, b: m.addmm(c, a, b, beta=0.5, alpha=2.0),
    lambda g: [g.u(2, 2), g.u(2, 3), g.u(3, 2)], ref=lambda c, a, b: 0.5 * c + 2.0 * (a @ b))
add("linear", lambda m, x, w, b: m.nn.functional.linear(x, w, b),
    lambda g: [g.u(2, 3), g.u(4, 3), g.u(4)], ref=lambda x, w, b: x @ w.T + b)
add("linear_no_bias", lambda m, x, w: m.nn.functional.linear(x, w),
    lambda g: [g.u(2, 3), g.u(4, 3)], ref=lambda x, w: x @ w.T)
add("linear_3d", lambda m, x, w, b: m.nn.functional.linear(x, w, b),
    lambda g: [g.u(2, 2, 3), g.u(4, 3), g.u(4)], ref=lambda x, w, b: x @ w.T + b)
add("linear_1d", lambda m, x, w, b: m.nn.functional.linear(x, w, b),
    lambda g: [g.u(3), g.u(2, 3), g.u(2)], ref=lambda x, w, b: x @ w.T + b)

# ---- views and shape ops ------------------------------------------------------------------
add("t", lambda m, x: x.t(), lambda g: [g.u(2, 3)], ref=lambda x: x.T)
add("t_fn_1d", lambda m, x: m.t(x), lambda g: [g.u(3)], ref=lambda x: x)
add("transpose", lambda m, x: m.transpose(x, 0, 2), lambda g: [g.u(2, 3, 4)],
    ref=lambda x: np.swapaxes(x, 0, 2))
add("transpose_neg", lambda m, x: x.transpose(-1, -2), lambda g: [g.u(2, 3)],
    ref=lambda x: x.T)
add("permute", lambda m, x: x.permute(2, 0, 1), lambda g: [g.u(2, 3, 4)],
    ref=lambda x: np.transpose(x, (2, 0, 1)))
add("permute_fn", lambda m, x: m.permute(x, (1, 0, 2)), lambda g: [g.u(2, 3, 4)],
    ref=lambda x: np.transpose(x, (1, 0, 2)))
add("view", lambda m, x: x.view(3, 2), lambda g: [g.u(2, 3)], ref=lambda x: x.reshape(3, 2))
add("view_infer", lambda m, x: x.view(-1), lambda g: [g.u(2, 3)], ref=lambda x: x.reshape(-1))
add("view_0d", lambda m, x: x.view(1, 1), lambda g: [g.u()], ref=lambda x: x.reshape(1, 1))
add("reshape_view", lambda m, x: x.reshape(6, -1), lambda g: [g.u(2, 3, 2)],
    ref=lambda x: x.reshape(6, -1))
add("reshape_copy", lambda m, x: m.reshape(x, (6,)), lambda g: [g.u(3, 2)], noncontig=(0,),
    ref=lambda x: x.reshape(6))
add("flatten", lambda m, x: m.flatten(x), lambda g: [g.u(2, 3, 2)], ref=lambda x: x.reshape(-1))
add("flatten_start", lambda m, x: x.flatten(1), lambda g: [g.u(2, 3, 2)],
    ref=lambda x: x.reshape(2, -1))
add("flatten_noncontig", lambda m, x: x.flatten(), lambda g: [g.u(2, 3)], noncontig=(0,),
    ref=lambda x: x.reshape(-1))
add("unflatten", lambda m, x: x.unflatten(1, (2, 2)), lambda g: [g.u(3, 4)],
    ref=lambda x: x.reshape(3, 2, 2))
add("squeeze", lambda m, x: x.squeeze(), lambda g: [g.u(1, 3, 1)], ref=np.squeeze)
add("squeeze_dim", lambda m, x: m.squeeze(x, 2), lambda g: [g.u(1, 3, 1)],
    ref=lambda x: x[:, :, 0])
add("squeeze_dim_not_1", lambda m, x: x.squeeze(1), lambda g: [g.u(1, 3, 1)],
    ref=lambda x: x)
add("squeeze_dims", lambda m, x: x.squeeze((0, 2)), lambda g: [g.u(1, 3, 1)],
    ref=lambda x: x[0, :, 0])
add("unsqueeze", lambda m, x: m.unsqueeze(x, 0), lambda g: [g.u(2, 3)],
    ref=lambda x: x[None])
add("unsqueeze_neg", lambda m, x: x.unsqueeze(-1), lambda g: [g.u(2, 3)],
    ref=lambda x: x[..., None])
add("unsqueeze_0d", lambda m, x: x.unsqueeze(0), lambda g: [g.u()], ref=lambda x: x[None])
add("expand", lambda m, x: x.expand(3, 2, 4), lambda g: [g.u(2, 1)],
    ref=lambda x: np.broadcast_to(x, (3, 2, 4)))
add("expand_neg", lambda m, x: x.expand(-1, 3), lambda g: [g.u(2, 1)],
    ref=lambda x: np.broadcast_to(x, (2, 3)))
add("expand_0d", lambda m, x: x.expand(2, 2), lambda g: [g.u()],
    ref=lambda x: np.broadcast_to(x, (2, 2)))
add("narrow", lambda m, x: m.narrow(x, 1, 1, 2), lambda g: [g.u(2, 4)],
    ref=lambda x: x[:, 1:3])
add("split_int", lambda m, x: m.split(x, 2, dim=1), lambda g: [g.u(2, 5)])
add("split_sizes", lambda m, x: x.split([1, 3], dim=1), lambda g: [g.u(2, 4)])
add("split_int_dim0", lambda m, x: x.split(1), lambda g: [g.u(2, 3)])
add("chunk", lambda m, x: m.chunk(x, 2, dim=0), lambda g: [g.u(4, 2)])
add("chunk_uneven", lambda m, x: x.chunk(3, dim=1), lambda g: [g.u(2, 5)])
add("unbind", lambda m, x: m.unbind(x, 1), lambda g: [g.u(2, 3)])
add("unbind_0", lambda m, x: x.unbind(), lambda g: [g.u(2, 3)])
add("diagonal", lambda m, x: m.diagonal(x), lambda g: [g.u(3, 3)], ref=np.diagonal)
add("diagonal_offset", lambda m, x: x.diagonal(1), lambda g: [g.u(3, 4)],
    ref=lambda x: np.diagonal(x, 1))
add("diagonal_neg_offset", lambda m, x: x.diagonal(-1), lambda g: [g.u(3, 4)],
    ref=lambda x: np.diagonal(x, -1))
add("diagonal_dims", lambda m, x: x.diagonal(0, 0, 2), lambda g: [g.u(3, 2, 3)],
    ref=lambda x: np.diagonal(x, 0, 0, 2))
add("movedim", lambda m, x: m.movedim(x, 0, 2), lambda g: [g.u(2, 3, 4)],
    ref=lambda x: np.moveaxis(x, 0, 2))
add("movedim_tuple", lambda m, x: x.movedim((0, 1), (2, 0)), lambda g: [g.u(2, 3, 4)],
    ref=lambda x: np.moveaxis(x, (0, 1), (2, 0)))
add("unfold", lambda m, x: x.unfold(1, 2, 1), lambda g: [g.u(2, 4)])
add("unfold_step", lambda m, x: x.unfold(0, 2, 2), lambda g: [g.u(5, 2)])
add("as_strided", lambda m, x: m.as_strided(x, (2, 2), (1, 2), 1), lambda g: [g.u(6)],
    ref=lambda x: np.lib.stride_tricks.as_strided(x[1:], (2, 2), (8, 16)))
add("as_strided_overlap", lambda m, x: x.as_strided((3, 2), (1, 1)), lambda g: [g.u(4)],
    ref=lambda x: np.lib.stride_tricks.as_strided(x, (3, 2), (8, 8)))

# ---- indexing ----------------------------------------------------------------------------
add("getitem_int", lambda m, x: x[1], lambda g: [g.u(3, 4)], ref=lambda x: x[1])
add("getitem_neg_int", lambda m, x: x[-1, 2], lambda g: [g.u(3, 4)], ref=lambda x: x[-1, 2])
add("getitem_slice", lambda m, x: x[:, 1:3], lambda g: [g.u(3, 4)], ref=lambda x: x[:, 1:3])
add("getitem_slice_step", lambda m, x: x[::2, 1::2], lambda g: [g.u(5, 4)],
    ref=lambda x: x[::2, 1::2])
add("getitem_none_ellipsis", lambda m, x: x[None, ..., 1], lambda g: [g.u(2, 3, 4)],
    ref=lambda x: x[None, ..., 1])
add("getitem_ellipsis", lambda m, x: x[..., 0], lambda g: [g.u(2, 3)], ref=lambda x: x[..., 0])
add("getitem_bool_mask", lambda m, x, mask: x[mask], lambda g: [g.u(3, 4), g.mask(3, 4)],
    ref=lambda x, mask: x[mask])
add("getitem_bool_rows", lambda m, x, mask: x[mask], lambda g: [g.u(3, 4), np.array(
    [True, False, True])], ref=lambda x, mask: x[mask])
add("getitem_int_tensor", lambda m, x, i: x[i], lambda g: [g.u(4, 2), np.array([0, 2, 2, 3])],
    ref=lambda x, i: x[i])
add("getitem_int_tensor_2d", lambda m, x, i: x[:, i], lambda g: [g.u(2, 4), np.array(
    [[0, 1], [3, 3]])], ref=lambda x, i: x[:, i])
add("getitem_mixed", lambda m, x, i: x[i, 1:, None], lambda g: [g.u(3, 4), np.array([2, 0])],
    ref=lambda x, i: x[i, 1:, None])
add("getitem_two_tensors", lambda m, x, i, j: x[i, j], lambda g: [g.u(3, 4), np.array(
    [0, 2, 0]), np.array([1, 3, 1])], ref=lambda x, i, j: x[i, j])
add("getitem_list", lambda m, x: x[[0, 2], 1], lambda g: [g.u(3, 4)],
    ref=lambda x: x[[0, 2], 1])
add("getitem_0d", lambda m, x: x[...], lambda g: [g.u()], ref=lambda x: x[...])
add("getitem_noncontig", lambda m, x: x[1:, 0], lambda g: [g.u(3, 4)], noncontig=(0,),
    ref=lambda x: x[1:, 0])
add("gather", lambda m, x, i: m.gather(x, 1, i), lambda g: [g.u(3, 4), g.idx(4, 3, 2)],
    ref=lambda x, i: np.take_along_axis(x, i, 1))
add("gather_dim0", lambda m, x, i: x.gather(0, i), lambda g: [g.u(3, 2), g.idx(3, 4, 2)],
    ref=lambda x, i: np.take_along_axis(x, i, 0))
add("gather_smaller_index", lambda m, x, i: x.gather(0, i),
    lambda g: [g.u(3, 3), np.array([[0, 1], [2, 0]])],
    ref=lambda x, i: np.take_along_axis(x[:, :2], i, 0))
add("scatter_add", lambda m, x, i, s: m.scatter_add(x, 1, i, s),
    lambda g: [g.u(2, 4), np.array([[0, 1, 0], [3, 3, 2]]), g.u(2, 3)])
add("scatter_add_smaller_index", lambda m, x, i, s: x.scatter_add(0, i, s),
    lambda g: [g.u(3, 3), np.array([[0, 1], [2, 0]]), g.u(2, 2)])
add("scatter_src", lambda m, x, i, s: m.scatter(x, 1, i, s),
    lambda g: [g.u(2, 4), np.array([[0, 1, 2], [3, 2, 1]]), g.u(2, 3)])
add("scatter_value", lambda m, x, i: x.scatter(0, i, 1.5),
    lambda g: [g.u(3, 2), np.array([[0, 1], [2, 0]])])
add("index_select", lambda m, x, i: m.index_select(x, 0, i),
    lambda g: [g.u(3, 2), np.array([2, 0, 2])], ref=lambda x, i: x[i])
add("index_select_dim1", lambda m, x, i: x.index_select(1, i),
    lambda g: [g.u(2, 4), np.array([3, 1])], ref=lambda x, i: x[:, i])
add("index_add", lambda m, x, i, s: m.index_add(x, 0, i, s),
    lambda g: [g.u(3, 2), np.array([2, 0, 2]), g.u(3, 2)])
add("index_add_alpha", lambda m, x, i, s: x.index_add(1, i, s, alpha=2.0),
    lambda g: [g.u(2, 3), np.array([1, 1]), g.u(2, 2)])
for _red in ("prod", "mean", "amax", "amin"):
    for _inc in (True, False):
        add(f"index_reduce_{_red}_{_inc}",
            lambda m, x, i, s, _r=_red, _i=_inc: x.index_reduce(0, i, s, _r, include_self=_i),
            lambda g: [g.away(4, 2), np.array([2, 0, 2]), g.away(3, 2)])
add("index_reduce_", lambda m, x, i, s: (x * 1).index_reduce_(1, i, s, "mean"),
    lambda g: [g.away(2, 3), np.array([1, 1]), g.away(2, 2)])
add("masked_fill", lambda m, x, mask: m.masked_fill(x, mask, 0.5),
    lambda g: [g.u(2, 3), g.mask(2, 3)], ref=lambda x, mask: np.where(mask, 0.5, x))
add("masked_fill_broadcast", lambda m, x, mask: x.masked_fill(mask, -1.0),
    lambda g: [g.u(2, 3), np.array([True, False, True])],
    ref=lambda x, mask: np.where(mask, -1.0, x))

# ---- joining ------------------------------------------------------------------------------
add("cat", lambda m, a, b: m.cat([a, b]), lambda g: [g.u(2, 3), g.u(1, 3)],
    ref=lambda a, b: np.concatenate([a, b]))
add("cat_dim1_const", lambda m, a, b, c: m.cat((a, b, c), dim=1),
    lambda g: [g.u(2, 1), g.u(2, 3), g.u(2, 2)], grad=(True, False, True),
    ref=lambda a, b, c: np.concatenate([a, b, c], 1))
add("cat_neg_dim", lambda m, a, b: m.cat([a, b], -1), lambda g: [g.u(2, 2), g.u(2, 1)],
    ref=lambda a, b: np.concatenate([a, b], -1))
add("stack", lambda m, a, b: m.stack([a, b]), lambda g: [g.u(2, 3), g.u(2, 3)],
    ref=lambda a, b: np.stack([a, b]))
add("stack_dim1", lambda m, a, b, c: m.stack((a, b, c), dim=1),
    lambda g: [g.u(2), g.u(2), g.u(2)], ref=lambda a, b, c: np.stack([a, b, c], 1))
add("stack_0d", lambda m, a, b: m.stack([a, b]), lambda g: [g.u(), g.u()],
    ref=lambda a, b: np.stack([a, b]))

# ---- copies and casts --------------------------------------------------------------------
add("clone", lambda m, x: x.clone(), lambda g: [g.u(2, 3)], ref=lambda x: x)
add("clone_fn", lambda m, x: m.clone(x), lambda g: [g.u()], ref=lambda x: x)
add("contiguous", lambda m, x: x.contiguous(), lambda g: [g.u(2, 3)], noncontig=(0,),
    ref=lambda x: x)
_CAST_TOL = {"eps": 1e-3, "atol": 1e-3, "rtol": 1e-3}
add("to_float32", lambda m, x: x.to(m.float32), lambda g: [g.u(2, 3)],
    gradcheck_kwargs=_CAST_TOL, ref=lambda x: x.astype(np.float32))
add("to_dtype_kw", lambda m, x: x.to(dtype=m.float32) * 2, lambda g: [g.u(3)],
    gradcheck_kwargs=_CAST_TOL, ref=lambda x: x.astype(np.float32) * 2)
add("float", lambda m, x: x.float(), lambda g: [g.u(2, 3)], gradcheck_kwargs=_CAST_TOL,
    ref=lambda x: x.astype(np.float32))
add("double", lambda m, x: x.float().double(), lambda g: [g.u(2, 3)],
    gradcheck_kwargs=_CAST_TOL, ref=lambda x: x.astype(np.float32).astype(np.float64))
add("to_same_dtype", lambda m, x: (x * 1).to(x.dtype), lambda g: [g.u(3)], ref=lambda x: x)

# ---- losses ------------------------------------------------------------------------------
for _red, _ref in [("mean", lambda x, y: ((x - y) ** 2).mean()),
                   ("sum", lambda x, y: ((x - y) ** 2).sum()),
                   ("none", lambda x, y: (x - y) ** 2)]:
    add("mse_loss_" + _red, lambda m, x, y, _r=_red: m.nn.functional.mse_loss(x, y, reduction=_r),
        lambda g: [g.u(2, 3), g.u(2, 3)], ref=_ref)
add("mse_loss_default_no_target_grad", lambda m, x, y: m.nn.functional.mse_loss(x, y),
    lambda g: [g.u(4), g.u(4)], grad=(True, False), ref=lambda x, y: ((x - y) ** 2).mean())
for _red in ("mean", "sum", "none"):  # (values straddling beta / delta, away from the kinks)
    add("smooth_l1_loss_" + _red,
        lambda m, x, y, _r=_red: m.nn.functional.smooth_l1_loss(x, y, reduction=_r, beta=0.7),
        lambda g: [np.array([[0.1, -1.3, 0.45], [2.2, -0.2, 0.9]]),
                   np.array([[0.3, 0.2, -0.6], [0.1, 0.15, -0.3]])])
    add("huber_loss_" + _red,
        lambda m, x, y, _r=_red: m.nn.functional.huber_loss(x, y, reduction=_r, delta=0.8),
        lambda g: [np.array([[0.1, -1.3, 0.45], [2.2, -0.2, 0.9]]),
                   np.array([[0.3, 0.2, -0.6], [0.1, 0.15, -0.3]])])
add("smooth_l1_loss_broadcast_target", lambda m, x, y: m.nn.functional.smooth_l1_loss(x, y),
    lambda g: [np.array([[0.1, -1.3, 0.45], [2.2, -0.2, 0.9]]), np.array([0.3, 0.2, -0.6])])
for _red in ("mean", "sum", "none"):  # (target: not differentiable in PyTorch)
    add("soft_margin_loss_" + _red,
        lambda m, x, y, _r=_red: m.nn.functional.soft_margin_loss(x, y, reduction=_r),
        lambda g: [g.u(2, 3), np.array([[1.0, -1.0, 1.0], [-1.0, -1.0, 1.0]])],
        grad=(True, False), ref=lambda x, y, _r=_red: {
            "mean": np.mean, "sum": np.sum, "none": lambda v: v}[_r](np.log1p(np.exp(-x * y))))
add("soft_margin_loss_broadcast_target",
    lambda m, x, y: m.nn.functional.soft_margin_loss(x, y),
    lambda g: [g.u(2, 3), np.array([1.0, -1.0, 1.0])], grad=(True, False))
add("ldexp", lambda m, x, e: m.ldexp(x, e), lambda g: [g.u(2, 3), g.u(2, 3)],
    ref=lambda x, e: x * 2.0 ** e)
add("ldexp_int_exponent", lambda m, x, e: x.ldexp(e),
    lambda g: [g.u(2, 3), np.array([[1, 2, 0], [3, 1, 2]])], ref=lambda x, e: np.ldexp(x, e))
add("ldexp_", lambda m, x, e: (x * 1).ldexp_(e), lambda g: [g.u(3), g.u(3)])
for _cmp in ("eq", "ne", "lt", "le", "gt", "ge"):  # (zero gradients, PyTorch's nodes)
    add(f"{_cmp}__tensor", lambda m, x, y, _c=_cmp: getattr(x * 1, _c + "_")(y),
        lambda g: [g.u(2, 3), g.u(3)])
    add(f"{_cmp}__scalar", lambda m, x, _c=_cmp: getattr(x * 1, _c + "_")(0.25),
        lambda g: [g.u(2, 3)])
for _name, _call in [  # (seeded: the same draws in both libraries; zero gradients)
        ("uniform_", lambda y: y.uniform_()), ("normal_", lambda y: y.normal_(1.0, 2.0)),
        ("random_", lambda y: y.random_()), ("random_to", lambda y: y.random_(5)),
        ("random_from_to", lambda y: y.random_(1, 5)), ("bernoulli_", lambda y: y.bernoulli_(0.3)),
        ("exponential_", lambda y: y.exponential_()),
        ("cauchy_", lambda y: y.cauchy_(0.5, 2.0)), ("log_normal_", lambda y: y.log_normal_(0.3)),
        ("geometric_", lambda y: y.geometric_(0.3))]:
    add(f"sampler_{_name}", lambda m, x, _c=_call: (m.manual_seed(0), _c(x * 1))[1],
        lambda g: [g.u(2, 3)])
add("sampler_bernoulli_tensor_p",
    lambda m, x, p: (m.manual_seed(0), (x * 1).bernoulli_(p))[1],
    lambda g: [g.u(2, 3), g.pos(2, 3, lo=0.2, hi=0.8)])
for _p in (2, 1, 3.5, float("inf")):
    add(f"dist_p{_p}", lambda m, x, y, _p=_p: m.dist(x, y, _p), lambda g: [g.u(2, 3), g.u(3)])
add("dist_method", lambda m, x, y: x.dist(y), lambda g: [g.u(4), g.u(4)])
for _red in ("mean", "sum", "none"):
    add("cross_entropy_" + _red,
        lambda m, x, t, _r=_red: m.nn.functional.cross_entropy(x, t, reduction=_r),
        lambda g: [g.u(3, 4), np.array([0, 3, 1])])

# ---- the catalogue: more elementwise math (issue 11) ------------------------------------
def _mid(g, *shape):
    """Values in (0.1, 0.9) with random signs: inside (-1, 1), away from 0 and +-1."""
    return g.away(*shape, lo=0.1, hi=0.9)


for _name, _gen, _ref in [
        ("log1p", "pos", np.log1p), ("expm1", "u", np.expm1), ("exp2", "u", np.exp2),
        ("log2", "pos", np.log2), ("log10", "pos", np.log10), ("tan", "_mid", np.tan),
        ("asin", "_mid", np.arcsin), ("acos", "_mid", np.arccos), ("atan", "u", np.arctan),
        ("sinh", "u", np.sinh), ("cosh", "u", np.cosh), ("asinh", "u", np.arcsinh),
        ("acosh", "acosh", np.arccosh), ("atanh", "_mid", np.arctanh), ("erf", "u", None),
        ("erfc", "u", None), ("erfinv", "_mid", None), ("lgamma", "pos", None),
        ("digamma", "pos", None), ("sinc", "u", np.sinc), ("deg2rad", "u", np.deg2rad),
        ("rad2deg", "u", np.rad2deg), ("frac", "frac", lambda x: x - np.trunc(x)),
        ("arcsinh", "u", np.arcsinh), ("arctan", "u", np.arctan)]:
    def _make(g, _g=_gen):
        if _g == "_mid":
            return [_mid(g, 2, 3)]
        if _g == "acosh":
            return [g.u(2, 3, lo=1.2, hi=3.0)]
        if _g == "frac":
            return [g.u(2, 3, lo=0.1, hi=0.9) + g.r.integers(-3, 3, (2, 3))]
        return [getattr(g, _g)(2, 3)]
    add(_name, lambda m, x, _n=_name: getattr(m, _n)(x), _make, ref=_ref)
add("log1p_method_0d", lambda m, x: x.log1p(), lambda g: [g.pos()], ref=np.log1p)
add("erfinv_method", lambda m, x: x.erfinv(), lambda g: [_mid(g, 4)])
add("log1p_", lambda m, x: (x * 1).log1p_(), lambda g: [g.pos(3)], ref=np.log1p)
add("tan_", lambda m, x: m.tan_(x * 1), lambda g: [_mid(g, 3)], ref=np.tan)
add("polygamma_1", lambda m, x: m.polygamma(1, x), lambda g: [g.pos(2, 3)])
add("polygamma_2_method", lambda m, x: x.polygamma(2), lambda g: [g.pos(4)])
add("polygamma_", lambda m, x: (x * 1).polygamma_(1), lambda g: [g.pos(4)])
add("digamma_neg", lambda m, x: m.digamma(x), lambda g: [g.u(4, lo=-2.9, hi=-2.1)])
add("lgamma_neg", lambda m, x: x.lgamma(), lambda g: [g.u(4, lo=-2.9, hi=-2.1)])
add("logit", lambda m, x: m.logit(x), lambda g: [g.u(2, 3, lo=0.1, hi=0.9)],
    ref=lambda x: np.log(x / (1 - x)))
add("logit_eps", lambda m, x: x.logit(eps=0.25), lambda g: [np.array([0.1, 0.3, 0.6, 0.9])],
    ref=lambda x: np.log(np.clip(x, 0.25, 0.75) / (1 - np.clip(x, 0.25, 0.75))))
add("trunc", lambda m, x: m.trunc(x), lambda g: [g.u(2, 3, lo=0.1, hi=0.9) * 3],
    ref=np.trunc)
add("fix_method", lambda m, x: x.fix(), lambda g: [g.away(4)], ref=np.trunc)
add("sgn", lambda m, x: m.sgn(x), lambda g: [g.away(2, 3)], ref=np.sign,
    grad=(False,), kink=True)  # (torch's gradient is a ZeroTensor: no numpy())
add("nan_to_num", lambda m, x: m.nan_to_num(x, nan=1.5, posinf=2.0),
    lambda g: [g.u(2, 3)], ref=lambda x: x)
add("nan_to_num_nonfinite", lambda m, x: x.nan_to_num(),
    lambda g: [np.array([1.0, np.nan, np.inf, -np.inf, -2.0])], kink=True)
add("atan2", lambda m, x, y: m.atan2(x, y), lambda g: [g.u(2, 3), g.away(2, 3)],
    ref=np.arctan2)
add("atan2_broadcast", lambda m, x, y: x.arctan2(y), lambda g: [g.u(2, 3), g.away(3)],
    ref=np.arctan2)
add("hypot", lambda m, x, y: m.hypot(x, y), lambda g: [g.away(2, 3), g.away(2, 1)],
    ref=np.hypot)
add("logaddexp", lambda m, x, y: m.logaddexp(x, y), lambda g: [g.u(2, 3), g.u(2, 3)],
    ref=np.logaddexp)
add("logaddexp2", lambda m, x, y: x.logaddexp2(y), lambda g: [g.u(2, 3), g.u(3)],
    ref=np.logaddexp2)
add("xlogy", lambda m, x, y: m.xlogy(x, y), lambda g: [g.u(2, 3), g.pos(2, 3)],
    ref=lambda x, y: x * np.log(y))
add("xlogy_scalar_other", lambda m, x: m.xlogy(x, 3.0), lambda g: [g.u(2, 3)],
    ref=lambda x: x * np.log(3.0))
add("xlogy_scalar_self", lambda m, y: m.xlogy(2.0, y), lambda g: [g.pos(2, 3)],
    ref=lambda y: 2.0 * np.log(y))
add("xlogy_zero", lambda m, x, y: x.xlogy(y), lambda g: [np.array([0.0, 1.0]), g.pos(2)],
    kink=True)
add("copysign", lambda m, x, y: m.copysign(x, y), lambda g: [g.away(2, 3), g.away(2, 3)],
    ref=np.copysign)
add("copysign_scalar", lambda m, x: x.copysign(-1.0), lambda g: [g.away(4)],
    ref=lambda x: np.copysign(x, -1.0))
add("fmax", lambda m, x, y: m.fmax(x, y), lambda g: [g.u(2, 3), g.u(2, 3)], ref=np.fmax)
add("fmin", lambda m, x, y: x.fmin(y), lambda g: [g.u(2, 3), g.u(3)], ref=np.fmin)
add("fmax_nan_ties", lambda m, x, y: m.fmax(x, y),
    lambda g: [np.array([1.0, np.nan, 2.0]), np.array([1.0, 3.0, np.nan])], kink=True)
add("float_power", lambda m, x, y: m.float_power(x, y), lambda g: [g.pos(2, 3), g.u(2, 3)],
    ref=np.power)
add("float_power_scalar", lambda m, x: x.float_power(2), lambda g: [g.u(4)],
    ref=lambda x: x ** 2.0)
add("float_power_scalar_base", lambda m, y: m.float_power(2, y), lambda g: [g.u(4)],
    ref=lambda y: 2.0 ** y)
add("lerp", lambda m, x, y: m.lerp(x, y, 0.3), lambda g: [g.u(2, 3), g.u(2, 3)],
    ref=lambda x, y: x + 0.3 * (y - x))
add("lerp_tensor_weight", lambda m, x, y, w: x.lerp(y, w),
    lambda g: [g.u(2, 3), g.u(3), g.u(2, 1, lo=0.0, hi=1.0)])
add("lerp_", lambda m, x, y: (x * 1).lerp_(y, 0.7), lambda g: [g.u(3), g.u(3)])
add("addcmul", lambda m, x, a, b: m.addcmul(x, a, b, value=0.5),
    lambda g: [g.u(2, 3), g.u(2, 1), g.u(3)], ref=lambda x, a, b: x + 0.5 * a * b)
add("addcdiv", lambda m, x, a, b: x.addcdiv(a, b, value=2),
    lambda g: [g.u(3), g.u(2, 3), g.away(2, 3)], ref=lambda x, a, b: x + 2 * a / b)
add("addcmul_", lambda m, x, a, b: (x * 1).addcmul_(a, b), lambda g: [g.u(3), g.u(3), g.u(3)])

# activations
_nnf = lambda name, **kw: (lambda m, x: getattr(m.nn.functional, name)(x, **kw))  # noqa: E731
for _name, _kw, _gen in [
        ("softplus", {}, "u"), ("softplus", {"beta": 2.0, "threshold": 1.0}, "u"),
        ("silu", {}, "u"), ("gelu", {}, "u"), ("gelu", {"approximate": "tanh"}, "u"),
        ("elu", {}, "away"), ("elu", {"alpha": 0.5}, "away"), ("selu", {}, "away"),
        ("celu", {"alpha": 2.0}, "away"), ("leaky_relu", {}, "away"),
        ("leaky_relu", {"negative_slope": 0.2}, "away"), ("rrelu", {}, "away"),
        ("hardtanh", {}, "hardtanh"), ("hardtanh", {"min_val": -0.5, "max_val": 1.5}, "hardtanh"),
        ("relu6", {}, "relu6"), ("hardsigmoid", {}, "three"), ("hardswish", {}, "three"),
        ("mish", {}, "u"), ("softsign", {}, "away"), ("logsigmoid", {}, "u"),
        ("tanhshrink", {}, "u"), ("softshrink", {}, "shrink"),
        ("softshrink", {"lambd": 1.0}, "shrink"), ("hardshrink", {}, "shrink"),
        ("glu", {}, "glu"), ("glu", {"dim": 0}, "glu")]:
    def _make(g, _g=_gen):
        if _g == "hardtanh":
            return [np.array([[-1.7, -0.4, 0.3], [0.8, 1.2, 2.0]])]
        if _g == "relu6":
            return [np.array([[-1.0, 0.5, 2.0], [5.5, 6.5, 3.0]])]
        if _g == "three":
            return [np.array([[-4.0, -2.5, -0.5], [0.7, 2.9, 3.5]])]
        if _g == "shrink":
            return [np.array([[-1.7, -0.7, -0.3], [0.2, 0.8, 1.2]])]
        if _g == "glu":
            return [g.u(4, 2)]
        return [getattr(g, _g)(2, 3)]
    _label = _name + "".join(f"_{k}{v}" for k, v in _kw.items())
    # PyTorch has no double backward for hardsigmoid ("derivative for
    # aten::hardsigmoid_backward is not implemented"); test_forward_ad compares the error
    add(_label, _nnf(_name, **_kw), _make, gradgrad=_name != "hardsigmoid")
add("threshold", lambda m, x: m.nn.functional.threshold(x, 0.5, -1.0),
    lambda g: [np.array([[-1.0, 0.2, 0.7], [1.5, 0.4, 2.0]])])
add("threshold_fn", lambda m, x: m.threshold(x, 0.0, 0.5), lambda g: [g.away(2, 3)])
add("selu_torch_fn", lambda m, x: m.selu(x), lambda g: [g.away(3)])
add("hardshrink_method", lambda m, x: x.hardshrink(0.3), lambda g: [g.away(4, lo=0.4)])
for _name, _kw in [("elu", {}), ("selu", {}), ("celu", {"alpha": 0.5}), ("leaky_relu", {}),
                   ("rrelu", {}), ("hardtanh", {}), ("silu", {}), ("mish", {}),
                   ("hardswish", {})]:
    add(_name + "_inplace", lambda m, x, _n=_name, _k=_kw: getattr(m.nn.functional, _n)(
        x * 1, inplace=True, **_k), lambda g: [g.away(2, 3, lo=0.2, hi=0.9)])
add("threshold_inplace", lambda m, x: m.nn.functional.threshold_(x * 1, 0.1, 0.0),
    lambda g: [g.away(2, 3, lo=0.2)])
add("leaky_relu_fn_", lambda m, x: m.nn.functional.leaky_relu_(x * 1, 0.3),
    lambda g: [g.away(4)])

# ---- the catalogue: statistics, nan-reductions, scans, order statistics (issue 11) --------
add("var", lambda m, x: m.var(x), lambda g: [g.u(2, 3)], ref=lambda x: np.var(x, ddof=1))
add("var_dim", lambda m, x: x.var(1), lambda g: [g.u(2, 3)],
    ref=lambda x: np.var(x, axis=1, ddof=1))
add("var_unbiased_false", lambda m, x: m.var(x, 0, False, True), lambda g: [g.u(3, 2)],
    ref=lambda x: np.var(x, axis=0, keepdims=True))
add("var_correction", lambda m, x: m.var(x, (0, 2), correction=2), lambda g: [g.u(2, 3, 2)],
    ref=lambda x: np.var(x, axis=(0, 2), ddof=2))
add("var_bool_positional", lambda m, x: x.var(False), lambda g: [g.u(4)],
    ref=lambda x: np.var(x))
add("std", lambda m, x: m.std(x), lambda g: [g.u(2, 3)], ref=lambda x: np.std(x, ddof=1))
add("std_dim_keepdim", lambda m, x: x.std(-1, keepdim=True), lambda g: [g.u(2, 3)],
    ref=lambda x: np.std(x, axis=-1, ddof=1, keepdims=True))
add("std_correction0", lambda m, x: m.std(x, 0, correction=0), lambda g: [g.u(3, 2)],
    ref=lambda x: np.std(x, axis=0))
add("var_mean", lambda m, x: m.var_mean(x, 1), lambda g: [g.u(2, 3)])
add("var_mean_all", lambda m, x: m.var_mean(x), lambda g: [g.u(2, 3)])
add("std_mean", lambda m, x: m.std_mean(x, 0, keepdim=True), lambda g: [g.u(3, 2)])
add("std_mean_only_mean_used", lambda m, x: m.std_mean(x)[1] * 2, lambda g: [g.u(4)])
_NAN23 = np.array([[1.0, np.nan, -0.5], [2.0, 0.3, 0.7]])
add("nansum", lambda m, x: m.nansum(x), lambda g: [_NAN23], ref=np.nansum)
add("nansum_dim", lambda m, x: x.nansum(1, keepdim=True),
    lambda g: [np.array([[1.0, np.nan, -0.5], [2.0, 0.3, 0.7]])],
    ref=lambda x: np.nansum(x, 1, keepdims=True))
add("nanmean", lambda m, x: m.nanmean(x), lambda g: [_NAN23], ref=np.nanmean)
add("nanmean_dim", lambda m, x: x.nanmean(0),
    lambda g: [np.array([[1.0, np.nan, -0.5], [2.0, 0.3, 0.7]])],
    ref=lambda x: np.nanmean(x, 0))
add("cumprod", lambda m, x: m.cumprod(x, 1), lambda g: [g.away(2, 4)],
    ref=lambda x: np.cumprod(x, 1))
add("cumprod_zero", lambda m, x: x.cumprod(0),
    lambda g: [np.array([[1.5, 0.0], [0.0, 2.0], [-1.2, 0.7]])], ref=lambda x: np.cumprod(x, 0),
    gradgrad=False)
add("cumprod_", lambda m, x: (x * 1).cumprod_(0), lambda g: [g.away(3, 2)])
add("logcumsumexp", lambda m, x: m.logcumsumexp(x, 1), lambda g: [g.u(2, 4)],
    ref=lambda x: np.logaddexp.accumulate(x, 1))
add("logcumsumexp_large", lambda m, x: x.logcumsumexp(0), lambda g: [g.u(4, 2) * 20],
    ref=lambda x: np.logaddexp.accumulate(x, 0))
add("aminmax", lambda m, x: m.aminmax(x), lambda g: [g.u(2, 3)])
add("frexp", lambda m, x: m.frexp(x * 7), lambda g: [g.u(2, 3)])
add("sum_to_size", lambda m, x: x.sum_to_size(3, 1), lambda g: [g.u(2, 3, 4)])
add("fill_diagonal_", lambda m, x: (x * 1).fill_diagonal_(2.5, wrap=True), lambda g: [g.u(7, 3)])
add("aminmax_dim", lambda m, x: x.aminmax(dim=1, keepdim=True), lambda g: [g.u(2, 3)])
add("aminmax_ties", lambda m, x: m.aminmax(x), lambda g: [np.array([1.0, 3.0, 1.0, 3.0])],
    kink=True)
add("median", lambda m, x: m.median(x), lambda g: [g.u(2, 3)])
add("median_even", lambda m, x: x.median(), lambda g: [g.u(4)])
add("median_dim", lambda m, x: x.median(1), lambda g: [g.u(2, 5)])
add("median_dim_keepdim", lambda m, x: m.median(x, 0, True), lambda g: [g.u(4, 3)])
add("nanmedian", lambda m, x: m.nanmedian(x), lambda g: [np.array([1.0, np.nan, -0.5, 2.0, 0.3])])
add("nanmedian_dim", lambda m, x: x.nanmedian(1),
    lambda g: [np.array([[1.0, np.nan, -0.5, 0.1], [2.0, 0.3, 0.7, -1.0]])])
add("kthvalue", lambda m, x: m.kthvalue(x, 2, 1), lambda g: [g.u(3, 4)])
add("kthvalue_keepdim", lambda m, x: x.kthvalue(1, 0, True), lambda g: [g.u(3, 4)])
add("cummax", lambda m, x: m.cummax(x, 1), lambda g: [g.u(2, 5)])
add("cummin", lambda m, x: x.cummin(0), lambda g: [g.u(4, 2)])
add("cummax_ties", lambda m, x: x.cummax(0), lambda g: [np.array([1.0, 3.0, 3.0, 2.0, 3.0])],
    kink=True)
add("diff", lambda m, x: m.diff(x), lambda g: [g.u(2, 5)], ref=lambda x: np.diff(x))
add("diff_n2_dim0", lambda m, x: x.diff(2, 0), lambda g: [g.u(4, 2)],
    ref=lambda x: np.diff(x, 2, 0))
add("diff_prepend", lambda m, x, p: m.diff(x, prepend=p), lambda g: [g.u(2, 3), g.u(2, 1)],
    ref=lambda x, p: np.diff(np.concatenate([p, x], -1)))

# Families grown in parallel keep their samples in their own files (they import ``add``).
import op_db_shape  # noqa: E402,F401
import op_db_linalg  # noqa: E402,F401
import op_db_nn  # noqa: E402,F401
import op_db_special  # noqa: E402,F401
import op_db_fft  # noqa: E402,F401

SAMPLES_BY_NAME = {s.name: s for s in SAMPLES}
assert len(SAMPLES_BY_NAME) == len(SAMPLES), "sample names must be unique"
