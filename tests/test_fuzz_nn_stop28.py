"""Stop 28, helper nn28: nn.functional under forward AD and with mixed dtypes, against
PyTorch 2.13 (the end-of-stop-27 reproducers 001, 004, 008, 015, 020, 025 and their
classes; tests/fuzz/OPEN_FINDINGS.md "Stop 28 (nn.functional)").

Each case runs one program on torch and on autotensor and compares the outcome: the
exception (type and message), or the value, dtype, and the tangent (dtype, values, signs
of zeros) or the gradients."""

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import autotensor  # noqa: E402


def _summary(x):
    return (str(x.dtype).split(".")[-1], np.array(x.detach().tolist(), dtype=np.float64))


def _fw_outcome(lib, f):
    """('ok', primal dtype, primal values, tangent summary or None) or ('raised', ...)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            with lib.autograd.forward_ad.dual_level():
                r = f(lib)
                p, t = lib.autograd.forward_ad.unpack_dual(r)
                return ("ok",) + _summary(p) + (None if t is None else _summary(t),)
        except Exception as e:  # noqa: BLE001 (the outcome compared)
            return ("raised", type(e).__name__, str(e))


def _bw_outcome(lib, f):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return ("ok",) + tuple(None if o is None else _summary(o) for o in f(lib))
        except Exception as e:  # noqa: BLE001
            return ("raised", type(e).__name__, str(e))


_RTOL = {"float64": 1e-6, "float32": 2e-6, "float16": 1e-3, "bfloat16": 8e-3}


def _same_arrays(a, b, signs=False):
    """Same dtype, shape, values (float64 to 1e-6 relative, float32 to 2e-6 of the largest
    magnitude, as the fuzzer's comparison) and, with ``signs``, signs of zeros."""
    if a[0] != b[0] or a[1].shape != b[1].shape:
        return False
    rtol = _RTOL.get(a[0], 1e-6)
    scale = float(np.nanmax(np.abs(np.where(np.isinf(b[1]), 0, b[1])), initial=1.0))
    atol = 1e-9 if a[0] == "float64" else rtol * max(1.0, scale)
    if not np.allclose(a[1], b[1], rtol=rtol, atol=atol, equal_nan=True):
        return False
    return not signs or (np.signbit(a[1]) == np.signbit(b[1])).all()


def _assert_fw_same(f, signs=False):
    a, t = _fw_outcome(autotensor, f), _fw_outcome(torch, f)
    assert a[0] == t[0], (a, t)
    if a[0] == "raised":
        assert a[1:] == t[1:], (a, t)
        return
    assert _same_arrays(a[1:3], t[1:3]), (a, t)
    assert (a[3] is None) == (t[3] is None), (a, t)
    if a[3] is not None:
        assert _same_arrays(a[3], t[3], signs), (a, t)


def _assert_bw_same(f):
    a, t = _bw_outcome(autotensor, f), _bw_outcome(torch, f)
    assert a[0] == t[0] and len(a) == len(t), (a, t)
    if a[0] == "raised":
        assert a[1:] == t[1:], (a, t)
        return
    for x, y in zip(a[1:], t[1:]):
        assert (x is None) == (y is None), (a, t)
        if x is not None:
            assert _same_arrays(x, y), (a, t)


def _dual(L, x, dual):
    return L.autograd.forward_ad.make_dual(x, L.ones_like(x)) if dual else x


# ---- every loss under forward AD: a dual input, a dual target (or weight), both ----------
_X = [0.13, -1.2, 0.8, 2.1]
_T = [-0.4, 0.9, 1.7, -0.25]
_LOSSES = {
    "mse": lambda F, x, t, r: F.mse_loss(x, t, reduction=r),
    "l1": lambda F, x, t, r: F.l1_loss(x, t, reduction=r),
    "huber": lambda F, x, t, r: F.huber_loss(x, t, reduction=r),
    "smooth_l1": lambda F, x, t, r: F.smooth_l1_loss(x, t, reduction=r),
    "smooth_l1_beta0": lambda F, x, t, r: F.smooth_l1_loss(x, t, beta=0.0, reduction=r),
    "soft_margin": lambda F, x, t, r: F.soft_margin_loss(x, t, reduction=r),
    "bce": lambda F, x, t, r: F.binary_cross_entropy(x.sigmoid(), t.sigmoid(), reduction=r),
    "bce_weight": lambda F, x, t, r: F.binary_cross_entropy(
        x.sigmoid(), x.detach().sigmoid(), weight=t.sigmoid(), reduction=r),
    "bcewl": lambda F, x, t, r: F.binary_cross_entropy_with_logits(x, t, reduction=r),
    "bcewl_weight": lambda F, x, t, r: F.binary_cross_entropy_with_logits(
        x, x.detach(), weight=t, reduction=r),
    "bcewl_pos_weight": lambda F, x, t, r: F.binary_cross_entropy_with_logits(
        x, x.detach(), pos_weight=t, reduction=r),
    "kl_div": lambda F, x, t, r: F.kl_div(x, t, reduction=r),
    "poisson": lambda F, x, t, r: F.poisson_nll_loss(x, t, reduction=r),
    "gaussian": lambda F, x, t, r: F.gaussian_nll_loss(x, x.detach(), t.abs(), reduction=r),
    "hinge": lambda F, x, t, r: F.hinge_embedding_loss(x, t.sign(), reduction=r),
    "multilabel_soft_margin": lambda F, x, t, r: F.multilabel_soft_margin_loss(
        x.view(1, 4), t.view(1, 4), reduction=r),
    "multi_margin": lambda F, x, t, r: F.multi_margin_loss(
        x.view(1, 4), (t.detach() > 0).long().sum().view(1), reduction=r),
    "multi_margin_weight": lambda F, x, t, r: F.multi_margin_loss(
        x.detach().view(1, 4), (x.detach() > 0).long().sum().view(1), weight=t, reduction=r),
    "multilabel_margin": lambda F, x, t, r: F.multilabel_margin_loss(
        x.view(1, 4), (x.detach() * 0).long().view(1, 4) + 1, reduction=r),
    "nll_weight": lambda F, x, t, r: F.nll_loss(
        x.view(1, 4), (x.detach() * 0).long()[:1] + 1, weight=t, reduction=r),
    "cross_entropy_probs": lambda F, x, t, r: F.cross_entropy(
        x.view(1, 4), t.softmax(0).view(1, 4), reduction=r),
    "margin_ranking": lambda F, x, t, r: F.margin_ranking_loss(x, t, t.detach().sign(),
                                                               reduction=r),
    "triplet": lambda F, x, t, r: F.triplet_margin_loss(x.view(1, 4), t.view(1, 4),
                                                        t.view(1, 4) * 2, reduction=r),
    "mse_weight": lambda F, x, t, r: F.mse_loss(x, x.detach() * 0.5, weight=t.abs(),
                                                reduction=r),
    "huber_weight": lambda F, x, t, r: F.huber_loss(x, x.detach() * 0.5, weight=t.abs(),
                                                    reduction=r),
}


@pytest.mark.parametrize("duals", ["input", "target", "both"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("name", sorted(_LOSSES))
def test_losses_under_forward_ad_match_torch(name, reduction, duals):
    """soft_margin_loss with a dual target and input: NotImplementedError naming
    soft_margin_loss_backward (004/025); a dual weight of bce / bcewl with a dual input:
    "Setting a forward grad that itself has a forward gradient"; multi_margin_loss refuses
    a dual weight."""
    def f(L):
        x = _dual(L, L.tensor(_X, dtype=L.float64), duals != "target")
        t = _dual(L, L.tensor(_T, dtype=L.float64), duals != "input")
        return _LOSSES[name](L.nn.functional, x, t, reduction)
    _assert_fw_same(f)


# ---- mixed dtypes: forward AD (001) and backward ------------------------------------------
_POINTWISE = ["mse_loss", "l1_loss", "huber_loss", "smooth_l1_loss", "soft_margin_loss",
              "binary_cross_entropy_with_logits", "kl_div", "poisson_nll_loss",
              "hinge_embedding_loss"]
_DTYPES = [("float64", "bool"), ("float32", "int64"), ("float32", "bool"),
           ("float64", "float32"), ("float32", "float64"), ("float16", "float32"),
           ("float32", "float16"), ("int64", "float64"), ("bool", "float32"),
           ("float32", "int32")]


def _mixed_cases(patterns):
    out = []
    for name in _POINTWISE:
        for xd, td in _DTYPES:
            for which in patterns:
                if which in ("target", "both") and td in ("bool", "int64", "int32"):
                    continue
                if which in ("input", "both") and xd in ("bool", "int64", "int32"):
                    continue
                out.append((name, xd, td, which))
    return out


@pytest.mark.parametrize("reduction", ["mean", "none"])
@pytest.mark.parametrize("name,xd,td,duals", _mixed_cases(("input", "target", "both")))
def test_losses_of_mixed_dtypes_under_forward_ad_match_torch(name, xd, td, duals, reduction):
    """PyTorch's forward rules of mse/smooth_l1/huber call the backward op on the target's
    term first with a zero tangent: a bool/integral target raises the cast error ("result
    type Float can't be cast to the desired output type Bool", 001), huber of two dtypes
    "Found dtype Float but expected Double"; soft_margin's tangent has input's dtype;
    binary_cross_entropy_with_logits computed in aten's steps and dtypes (020)."""
    def f(L):
        x = _dual(L, L.tensor([0.5, -1.2, 2.0], dtype=getattr(L, xd)), duals != "target")
        t = _dual(L, L.tensor([1, 0, 1], dtype=getattr(L, td)), duals != "input")
        return getattr(L.nn.functional, name)(x, t, reduction=reduction)
    _assert_fw_same(f)


@pytest.mark.parametrize("reduction", ["mean", "none"])
@pytest.mark.parametrize("name,xd,td,grads", _mixed_cases(("input", "target", "both")))
def test_losses_of_mixed_dtypes_backward_match_torch(name, xd, td, grads, reduction):
    """Gradients in each input's dtype (mse/smooth_l1/soft_margin write into self's dtype;
    an integral target no longer widens float32 to float64), huber_loss_backward's "Found
    dtype Long but expected Float", soft_margin's bool-target negation error."""
    if name == "soft_margin_loss" and grads != "input":
        pytest.skip("soft_margin_loss refuses a target that requires grad (tested in stop 27)")

    def f(L):
        x = L.tensor([0.5, -1.2, 2.0], dtype=getattr(L, xd), requires_grad=grads != "target")
        t = L.tensor([1, 0, 1], dtype=getattr(L, td), requires_grad=grads != "input")
        out = getattr(L.nn.functional, name)(x, t, reduction=reduction)
        ins = [v for v in (x, t) if v.requires_grad]
        return (out,) + tuple(L.autograd.grad(out.sum(), ins))
    _assert_bw_same(f)


def test_bcewl_half_input_float_target_value():
    """020: log_sigmoid of a float16 input rounded to float16 first, then the float32 loss."""
    x = np.array(-0.347900390625, dtype=np.float16)
    t = np.array(1.7640000581741333, dtype=np.float32)
    for L in (torch, autotensor):
        r = L.nn.functional.binary_cross_entropy_with_logits(L.tensor(x), L.tensor(t))
        if L is torch:
            want = r.item()
        else:
            assert str(r.dtype) == "autotensor.float32" or r.dtype == autotensor.float32
            assert r.item() == want


# ---- signed zeros of the pointwise losses' tangents ----------------------------------------
@pytest.mark.parametrize("duals", ["input", "target", "both"])
@pytest.mark.parametrize("dt", ["float64", "float32", "float16"])
@pytest.mark.parametrize("reduction", ["none", "sum", "mean"])
@pytest.mark.parametrize("name", ["mse_loss", "huber_loss", "smooth_l1_loss", "l1_loss",
                                  "soft_margin_loss"])
def test_loss_tangents_signed_zeros_match_torch(name, reduction, dt, duals):
    if name == "soft_margin_loss" and duals != "input":
        pytest.skip("a dual target raises (tested above)")
    x0 = [0.5, -0.5, 2.0, 0.0, -0.0, 1.0]
    t0 = [0.5, -0.5, -2.0, -0.0, 0.0, 3.0]

    def f(L):
        d = getattr(L, dt)
        x, t = L.tensor(x0, dtype=d), L.tensor(t0, dtype=d)
        if duals != "target":
            x = L.autograd.forward_ad.make_dual(x, L.tensor([0.0, -0.0, 1.0, -0.0, 0.0, -1.5],
                                                            dtype=d))
        if duals != "input":
            t = L.autograd.forward_ad.make_dual(t, L.tensor([-0.0, 0.0, -0.0, 0.0, -0.0, 2.0],
                                                            dtype=d))
        return getattr(L.nn.functional, name)(x, t, reduction=reduction)
    _assert_fw_same(f, signs=True)


# ---- multi_margin_loss / multilabel_margin_loss: 0-d inputs, the unreduced shape ---------
_MARGIN = [((3,), [1]), ((3,), 1), ((2, 3), [1, 2]), ((1, 3), [2]), ((1, 3), 2), ((), 0),
           ((), [0])]


@pytest.mark.parametrize("extra", [{}, {"p": 2}, {"weight": "w"}, {"margin": 0.5}])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("shape,target", _MARGIN)
def test_multi_margin_loss_shapes_match_torch(shape, target, reduction, extra):
    """A 0-d input is one sample of one class (loss 0, as PyTorch's); the unreduced loss has
    the target's shape ((1,) for a (1,) target of a 1-d input, () for a 0-d one)."""
    def f(L):
        n = int(np.prod(shape))
        x = L.tensor(np.linspace(-1, 1, n).reshape(shape), dtype=L.float64,
                     requires_grad=True)
        kw = dict(extra)
        if "weight" in kw:
            kw["weight"] = L.tensor([2.0, 1.0, 3.0][:(shape[-1] if shape else 1)],
                                    dtype=L.float64)
        out = L.nn.functional.multi_margin_loss(x, L.tensor(target), reduction=reduction,
                                                **kw)
        return (out,) + tuple(L.autograd.grad(out.sum(), [x]))
    _assert_bw_same(f)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("target", [0, [0], -1])
def test_multilabel_margin_loss_of_0d_input_matches_torch(target, reduction):
    def f(L):
        x = L.tensor(0.7, dtype=L.float64, requires_grad=True)
        out = L.nn.functional.multilabel_margin_loss(x, L.tensor(target), reduction=reduction)
        return (out,) + tuple(L.autograd.grad(out.sum(), [x]))
    _assert_bw_same(f)


def test_gaussian_nll_loss_int_var_error_matches_torch():
    def f(L):
        return (L.nn.functional.gaussian_nll_loss(L.ones(2), L.ones(2), 1),)
    _assert_bw_same(f)


# ---- elu / celu / selu: tangents of the gradient (forward over reverse, 008) --------------
_ACTS = {
    "elu": lambda F, x: F.elu(x),
    "elu_alpha": lambda F, x: F.elu(x, alpha=0.5),
    "elu_negative_alpha": lambda F, x: F.elu(x, alpha=-1.5),
    "elu_zero_alpha": lambda F, x: F.elu(x, alpha=0.0),
    "elu_inplace": lambda F, x: F.elu(x * 1, inplace=True),
    "celu": lambda F, x: F.celu(x, alpha=2.0),
    "celu_negative_alpha": lambda F, x: F.celu(x, alpha=-0.7),
    "celu_inplace": lambda F, x: F.celu(x * 1, inplace=True),
    "selu": lambda F, x: F.selu(x),
    "selu_inplace": lambda F, x: F.selu(x * 1, inplace=True),
    "leaky_relu": lambda F, x: F.leaky_relu(x, 0.2),
    "leaky_relu_negative_slope": lambda F, x: F.leaky_relu(x, -0.3),
    "hardtanh": lambda F, x: F.hardtanh(x),
    "relu": lambda F, x: F.relu(x),
    "threshold": lambda F, x: F.threshold(x, 0.5, -1.0),
    "hardsigmoid": lambda F, x: F.hardsigmoid(x),
    "softshrink": lambda F, x: F.softshrink(x, 0.5),
    "hardshrink": lambda F, x: F.hardshrink(x, 0.5),
    "logsigmoid": lambda F, x: F.logsigmoid(x),
    "silu": lambda F, x: F.silu(x),
    "mish": lambda F, x: F.mish(x),
    "softplus": lambda F, x: F.softplus(x),
    "softplus_negative_beta": lambda F, x: F.softplus(x, beta=-2.0, threshold=1.0),
    "hardswish": lambda F, x: F.hardswish(x),
    "tanh": lambda F, x: F.tanh(x),
    "sigmoid": lambda F, x: F.sigmoid(x),
    "tanhshrink": lambda F, x: F.tanhshrink(x),
    "gelu": lambda F, x: F.gelu(x),
    "gelu_tanh": lambda F, x: F.gelu(x, approximate="tanh"),
}


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("duals", ["input", "grad_output", "both"])
@pytest.mark.parametrize("dt", ["float64", "float32"])
@pytest.mark.parametrize("name", sorted(_ACTS))
def test_activation_gradient_tangents_match_torch(name, dt, duals, create_graph):
    """The forward rules of elu_backward, softplus_backward, hardswish_backward,
    tanh_backward and sigmoid_backward add PyTorch's materialized zero terms (a -0.0
    tangent of the gradient is 0.0 in PyTorch: 008); gelu_backward is an op of its own now
    (GeluBackwardBackward0), with PyTorch's gelu_double_backward."""
    def f(L):
        d = getattr(L, dt)
        x = L.tensor([1.6, -0.7, 0.0, -0.0, 2.0, -3.0], dtype=d, requires_grad=True)
        if duals != "grad_output":
            x = L.autograd.forward_ad.make_dual(
                x, L.tensor([-0.4, 0.3, -0.0, 0.0, 0.0, -0.0], dtype=d))
        go = L.tensor([1.0, -2.0, 0.5, -1.0, -0.0, 0.0], dtype=d)
        if duals != "input":
            go = L.autograd.forward_ad.make_dual(
                go, L.tensor([0.0, -0.0, 0.3, -0.2, 1.0, -0.0], dtype=d))
        y = _ACTS[name](L.nn.functional, x)
        return L.autograd.grad(y, [x], go, create_graph=create_graph)[0]
    _assert_fw_same(f, signs=True)


# ---- glu under forward AD: no half-precision kernel (015) ---------------------------------
@pytest.mark.parametrize("mode", ["forward", "gradient_of_dual_grad_output",
                                  "gradient_of_dual_input"])
@pytest.mark.parametrize("shape", [(0,), (2, 0), (0, 4), (4,), (2, 4)])
@pytest.mark.parametrize("dt", ["float16", "bfloat16", "float32", "float64"])
def test_glu_forward_ad_matches_torch(dt, shape, mode):
    def f(L):
        x = L.zeros(shape, dtype=getattr(L, dt)) + 0.5
        if mode == "forward":
            return L.nn.functional.glu(_dual(L, x, True), dim=-1)
        x.requires_grad_(True)
        x = _dual(L, x, mode == "gradient_of_dual_input")
        y = L.nn.functional.glu(x, dim=-1)
        go = _dual(L, L.ones_like(y), mode == "gradient_of_dual_grad_output")
        return L.autograd.grad(y, x, go)[0]
    _assert_fw_same(f)


# ---- the margin losses' backward ops: no derivative, no forward rule ----------------------
@pytest.mark.parametrize("mode", ["edges", "double_backward", "dual_grad_output", "values"])
@pytest.mark.parametrize("grad_requires_grad", [False, True])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("name,p", [("multi_margin_loss", 1), ("multi_margin_loss", 2),
                                    ("multilabel_margin_loss", None)])
def test_margin_loss_backward_ops_match_torch(name, p, reduction, grad_requires_grad, mode):
    """Under create_graph the gradient has PyTorch's torch::autograd::NotImplemented node
    ("derivative for aten::multi_margin_loss_backward is not implemented" on a second
    backward: ours had a graph of its formula, or none); a dual incoming gradient is the
    autograd fallback's refusal; p == 2's zeros are +0.0 (aten's loop), not -0.0."""
    def f(L):
        x = L.tensor([[0.3, -0.2, 0.9], [0.1, 0.1, -0.5]], dtype=L.float64,
                     requires_grad=True)
        if name == "multi_margin_loss":
            loss = L.nn.functional.multi_margin_loss(x, L.tensor([0, 1]), p=p,
                                                     reduction=reduction)
        else:
            loss = L.nn.functional.multilabel_margin_loss(
                x, L.tensor([[0, -1, 1], [1, 2, -1]]), reduction=reduction)
        go = L.ones_like(loss) * -1.5
        if grad_requires_grad:
            go.requires_grad_(True)
        if mode == "dual_grad_output":
            with L.autograd.forward_ad.dual_level():
                go = L.autograd.forward_ad.make_dual(go, L.ones_like(go))
                return L.autograd.grad(loss, x, go)
        g, = L.autograd.grad(loss, x, go, create_graph=True)
        if mode == "edges":
            assert g.grad_fn.name() == "torch::autograd::NotImplemented"
            return (L.tensor([float(len(g.grad_fn.next_functions))]),)
        if mode == "double_backward":
            return L.autograd.grad(g.sum(), x)
        return (g,)
    _assert_bw_same(f)
    if mode == "values":
        a = _bw_outcome(autotensor, f)[1][1]
        t = _bw_outcome(torch, f)[1][1]
        assert (np.signbit(a) == np.signbit(t)).all()


# ---- batch_norm / instance_norm in evaluation with dual running statistics ----------------
@pytest.mark.parametrize("dual_weight", [False, True])
@pytest.mark.parametrize("dual_stats", [False, True])
@pytest.mark.parametrize("dual_input", [False, True])
@pytest.mark.parametrize("training", [False, True])
@pytest.mark.parametrize("fname", ["batch_norm", "instance_norm"])
def test_norms_with_dual_running_stats_match_torch(fname, training, dual_input, dual_stats,
                                                   dual_weight):
    """"batch_norm is not differentiable wrt running_mean and running_var, they cannot have
    forward grad defined" (evaluation mode, once the rule runs)."""
    x0 = np.random.default_rng(1).standard_normal((2, 3, 4))

    def f(L):
        def d(x, on):
            return L.autograd.forward_ad.make_dual(x, L.ones_like(x) * 0.5) if on else x
        x = d(L.tensor(x0), dual_input)
        rm = d(L.zeros(3, dtype=L.float64) + 0.1, dual_stats)
        rv = L.ones(3, dtype=L.float64) * 1.5
        w = d(L.ones(3, dtype=L.float64) * 0.7, dual_weight)
        if fname == "batch_norm":
            return L.nn.functional.batch_norm(x, rm, rv, w, L.zeros(3, dtype=L.float64),
                                              training=training)
        return L.nn.functional.instance_norm(x, rm, rv, w, use_input_stats=training)
    _assert_fw_same(f)


@pytest.mark.parametrize("dt", ["float64", "float32"])
@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu_double_backward_matches_torch(approximate, dt):
    """GeluBackwardBackward0 (was MulBackward0: the formula's graph) and PyTorch's
    gelu_double_backward values."""
    def f(L):
        x = L.tensor([0.5, -1.0, 2.0, 0.0, -3.5], dtype=getattr(L, dt), requires_grad=True)
        y = L.nn.functional.gelu(x, approximate=approximate)
        g, = L.autograd.grad(y.sum(), x, create_graph=True)
        assert g.grad_fn.name() == "GeluBackwardBackward0"
        gg, = L.autograd.grad((g * g).sum(), x, create_graph=True)
        return (g, gg) + L.autograd.grad(gg.sum(), x)
    _assert_bw_same(f)


def test_ctc_loss_backward_refuses_a_dual_gradient_as_torch():
    """aten::_ctc_loss_backward has no derivatives.yaml entry: the autograd fallback's
    message (ours had the "not been implemented yet" wording of a missing formula)."""
    def f(L):
        lp = L.tensor(np.linspace(-2, 0, 40).reshape(5, 2, 4), dtype=L.float64)
        lp = lp.log_softmax(2).detach().requires_grad_(True)
        loss = L.nn.functional.ctc_loss(lp, L.tensor([[1, 2], [1, 1]]), [5, 5], [2, 2],
                                        reduction="none")
        with L.autograd.forward_ad.dual_level():
            go = L.autograd.forward_ad.make_dual(L.ones(2, dtype=L.float64),
                                                 L.ones(2, dtype=L.float64))
            return L.autograd.grad(loss, lp, go)
    _assert_bw_same(f)
