"""Stop 37 (lead): the fuzzer's reproducers of stop 36's end and this stop, and the classes
behind them, each run on autotensor and PyTorch (tests/fuzz/OPEN_FINDINGS.md, Stop 37)."""
import pathlib

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

_REPRODUCERS = ["pending_stop36/fin30_repro_004.py", "pending_stop36/fin30_repro_007.py",
                "pending_stop37/a_repro_001.py", "pending_stop37/b_repro_001.py",
                "pending_stop37/b_repro_002.py", "pending_stop37/c_repro_001.py",
                "pending_stop37/d_repro_002.py", "pending_stop37/e_repro_001.py",
                "pending_stop37/fin30_repro_001.py", "pending_stop37/fin30_repro_003.py",
                "pending_stop37/fin30b_repro_001.py", "pending_stop37/fin30_repro_002.py"]


@pytest.mark.parametrize("path", _REPRODUCERS)
def test_fuzzer_reproducers_of_stop_37(path):
    """The reproducers fixed this stop agree with PyTorch."""
    from tests.fuzz.core import run_reproducer
    run_reproducer(pathlib.Path(__file__).parent / "fuzz" / path)


def _group_norm_dual(mod, shape, groups, requires_grad, affine):
    """group_norm of a dual input (empty ones too): group_norm_jvp's views, (1, 0, 1) for
    N == 0, carry the primal's history into the tangent when the primal requires grad."""
    fw = mod.autograd.forward_ad
    rng = np.random.default_rng(37)
    x = mod.tensor(rng.standard_normal(shape), requires_grad=requires_grad)
    t = mod.tensor(rng.standard_normal(shape))
    c = shape[1]
    w = mod.tensor(rng.standard_normal(c)) if affine else None
    b = mod.tensor(rng.standard_normal(c)) if affine else None
    with fw.dual_level():
        r = mod.nn.functional.group_norm(fw.make_dual(x, t), groups, w, b)
        p, tangent = fw.unpack_dual(r)
        return (p.detach().numpy().tolist(), tuple(p.shape),
                None if tangent is None else (tangent.detach().numpy().tolist(),
                                              tangent.requires_grad,
                                              tangent.grad_fn and tangent.grad_fn.name(),
                                              tangent.stride()))


@pytest.mark.parametrize("affine", [False, True])
@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("shape,groups", [((0, 0), 1), ((0, 3), 3), ((0, 2, 4), 1),
                                          ((2, 0), 1), ((2, 2, 0), 2), ((3, 4, 5), 2)])
def test_group_norm_tangent_of_empty_inputs(shape, groups, requires_grad, affine):
    got = _group_norm_dual(autotensor, shape, groups, requires_grad, affine)
    want = _group_norm_dual(torch, shape, groups, requires_grad, affine)
    np.testing.assert_allclose(np.array(got[0]), np.array(want[0]), rtol=1e-12, atol=1e-12)
    assert got[1] == want[1]
    # (whether the tangent is differentiable; its nodes are the formulas' own, compared
    # where the formula is group_norm_jvp's view alone: without weight)
    assert got[2][1] == want[2][1] and got[2][3] == want[2][3]
    if not affine:
        assert got[2][2] == want[2][2]
    np.testing.assert_allclose(np.array(got[2][0]), np.array(want[2][0]), rtol=1e-12,
                               atol=1e-12)


def _adaptive_pool_tangent(mod, nd, shape, out, dtypes, requires_grad):
    """adaptive_avg_pool{1,2,3}d of a dual: auto_linear, the pool of the tangent in its own
    dtype (an empty batch pools to an empty tangent; the backward refuses empty dims)."""
    fw = mod.autograd.forward_ad
    rng = np.random.default_rng(37)
    pdt, tdt = (getattr(mod, d) for d in dtypes)
    x = mod.tensor(rng.standard_normal(shape), dtype=pdt, requires_grad=requires_grad)
    t = mod.tensor(rng.standard_normal(shape), dtype=tdt, requires_grad=requires_grad)
    pool = getattr(mod.nn.functional, f"adaptive_avg_pool{nd}d")
    with fw.dual_level():
        tangent = fw.unpack_dual(pool(fw.make_dual(x, t), out))[1]
        return (tangent.detach().double().numpy().tobytes(), str(tangent.dtype).split(".")[-1],
                tangent.requires_grad, tangent.grad_fn and tangent.grad_fn.name(),
                tangent.stride())


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("float32", "float64"),
                                    ("float16", "float32"), ("float64", "float64")])
@pytest.mark.parametrize("nd,shape,out", [(1, (0, 0, 1), 2), (1, (2, 3, 7), 3),
                                          (2, (2, 3, 7, 5), (3, 2)), (2, (0, 3, 4, 4), 2),
                                          (3, (2, 2, 5, 4, 3), 2), (3, (0, 2, 5, 4, 3), 2)])
def test_adaptive_avg_pool_tangent_is_the_pool_of_the_tangent(nd, shape, out, dtypes,
                                                              requires_grad):
    assert _adaptive_pool_tangent(autotensor, nd, shape, out, dtypes, requires_grad) == \
        _adaptive_pool_tangent(torch, nd, shape, out, dtypes, requires_grad)


# check_no_requires_grad (VariableType): arguments without a derivative formula refuse
# requires_grad in grad mode, before a stale view's error and before the kernels' checks
_NO_GRAD_ARGUMENT_CALLS = [
    "F.soft_margin_loss(x, r(3, 4))", "F.binary_cross_entropy(x, r(3, 4), weight=r(3, 4))",
    "F.binary_cross_entropy(x, r(3, 4), weight=r(4))",
    "F.binary_cross_entropy(x, r(3, 4).double(), weight=r(3, 4))",
    "F.nll_loss(x, tgt, weight=r(4))", "F.nll_loss(x, tgt[None], weight=r(4))",
    "F.nll_loss(x, tgt.double(), weight=r(4))", "F.nll_loss(x, tgt, weight=r(5))",
    "F.nll_loss(x.int(), tgt, weight=r(4))",
    "F.nll_loss(r(2, 3, 4, 5), torch.zeros(2, 4, 5).long(), weight=r(3))",
    "F.nll_loss(r(2, 3, 4), torch.zeros(2, 4).long(), weight=r(3))",
    "F.nll_loss(x.detach(), tgt, weight=r(4))", "F.cross_entropy(x, tgt, weight=r(4))",
    "F.cross_entropy(x, tgt, weight=r(4), label_smoothing=0.1)",
    "F.cross_entropy(x, r(3, 4).softmax(1), weight=r(4))",
    "F.multi_margin_loss(x, tgt, weight=r(4))", "F.multi_margin_loss(x, tgt[:2], weight=r(4))",
    "F.multi_margin_loss(x.int(), tgt, weight=r(4))",
    "F.batch_norm(x, r(4), r(4))", "F.batch_norm(x, r(4), r(4), training=True)",
    "F.batch_norm(x, r(5), r(4))", "F.batch_norm(x.int(), r(4), r(4))",
    "F.batch_norm(x, r(4).double(), r(4))", "F.batch_norm(x, r(4), None, training=True)",
    "F.batch_norm(x.detach(), r(4), r(4))",
    "F.instance_norm(r(2, 3, 4), r(3), r(3), use_input_stats=True)",
    "F.binary_cross_entropy_with_logits(x, r(3, 4), weight=r(3, 4), pos_weight=r(4))"]


def _no_grad_argument(mod, call, grad_mode, stale_view):
    F = mod.nn.functional
    x = mod.rand(3, 4, requires_grad=True)
    tgt = mod.tensor([0, 1, 2])

    def r(*shape):
        t = mod.rand(*shape, requires_grad=True)
        if stale_view:  # (a no_grad view of a tensor modified in place since)
            t = t * 1
            with mod.no_grad():
                v = t.view(shape)
            t.add_(1)
            return v
        return t
    env = {"F": F, "x": x, "tgt": tgt, "r": r, "torch": mod}
    with mod.set_grad_enabled(grad_mode):
        try:
            out = eval(call, env)
        except Exception as e:  # noqa: BLE001 -- the error is what is compared
            return type(e).__name__, str(e)
    return "ok", tuple(out.shape)


@pytest.mark.parametrize("stale_view", [False, True])
@pytest.mark.parametrize("grad_mode", [True, False])
@pytest.mark.parametrize("call", _NO_GRAD_ARGUMENT_CALLS)
def test_arguments_without_a_derivative_refuse_requires_grad(call, grad_mode, stale_view):
    got = _no_grad_argument(autotensor, call, grad_mode, stale_view)
    want = _no_grad_argument(torch, call, grad_mode, stale_view)
    assert got == want


_GROUP_NORM_LAYOUTS = {
    "channels_last": ((2, 4, 3, 3), lambda m, x: x.contiguous(memory_format=m.channels_last)),
    "channels_last_3d": ((2, 4, 2, 3, 2),
                         lambda m, x: x.contiguous(memory_format=m.channels_last_3d)),
    "permuted": ((2, 4, 3, 3), lambda m, x: x.permute(0, 1, 3, 2)),
    "channels_last_1x1": ((2, 4, 1, 1),
                          lambda m, x: x.contiguous(memory_format=m.channels_last)),
    "contiguous": ((2, 4, 3), lambda m, x: x),
    "transposed": ((2, 4), lambda m, x: x.t().reshape(4, 2).t()),
    "expanded": ((2, 4, 3), lambda m, x: x[:, :, :1].expand(2, 4, 3))}


def _group_norm_layout(mod, layout, weight):
    """group_norm's CPU composite: input.contiguous(suggest_memory_format()),
    weight/bias.contiguous() (a CloneBackward0 for strided ones), then the kernel."""
    shape, make = _GROUP_NORM_LAYOUTS[layout]
    rng = np.random.default_rng(37)
    x = mod.tensor(rng.standard_normal(shape), requires_grad=True)
    w = mod.tensor(rng.standard_normal(8), requires_grad=True)
    wt = {"none": None, "contiguous": w[:4] * 1, "strided": (w * 1)[::2]}[weight]
    r = mod.nn.functional.group_norm(make(mod, x * 1), 2, wt, wt)
    r.sum().backward()
    return ([n and n.name() for n, _ in r.grad_fn.next_functions], r.stride(),
            r.detach().numpy(), x.grad.stride(), x.grad.numpy())


@pytest.mark.parametrize("weight", ["none", "contiguous", "strided"])
@pytest.mark.parametrize("layout", list(_GROUP_NORM_LAYOUTS))
def test_group_norm_makes_its_input_contiguous_as_pytorch(layout, weight):
    got = _group_norm_layout(autotensor, layout, weight)
    want = _group_norm_layout(torch, layout, weight)
    assert got[0] == want[0] and got[1] == want[1] and got[3] == want[3]
    np.testing.assert_allclose(got[2], want[2], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got[4], want[4], rtol=1e-12, atol=1e-12)


def _affine_grid(mod, size, align_corners, dtype):
    """affine_grid_generator is one op (AffineGridGeneratorBackward0), its backward aten's
    base_grid^T bmm grad, its tangent the op of the tangent (auto_linear)."""
    fw = mod.autograd.forward_ad
    rng = np.random.default_rng(37)
    nd = len(size) - 2
    dt = getattr(mod, dtype)
    th = mod.tensor(rng.standard_normal((size[0], nd, nd + 1)), dtype=dt, requires_grad=True)
    r = mod.nn.functional.affine_grid(th * 1, size, align_corners=align_corners)
    g = mod.tensor(rng.standard_normal(tuple(r.shape)), dtype=dt, requires_grad=True)
    gt, = mod.autograd.grad(r, th, g, create_graph=True)
    gg, = mod.autograd.grad(gt.sum(), g)
    with fw.dual_level():
        t = mod.tensor(rng.standard_normal(tuple(th.shape)), dtype=dt)
        tangent = fw.unpack_dual(mod.nn.functional.affine_grid(
            fw.make_dual(th.detach(), t), size, align_corners=align_corners))[1]
    return (r.grad_fn.name(), [n and n.name() for n, _ in r.grad_fn.next_functions],
            r.stride(), r.detach().numpy().tobytes(), gt.detach().numpy().tobytes(),
            gg.numpy().tobytes(), tangent.numpy().tobytes())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("size", [(2, 1, 3, 4), (1, 2, 1, 5), (2, 1, 2, 3, 4), (3, 2, 5, 1)])
def test_affine_grid_generator_is_one_op(size, align_corners, dtype):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (unit-size grids with align_corners warn)
        assert _affine_grid(autotensor, size, align_corners, dtype) == \
            _affine_grid(torch, size, align_corners, dtype)


def _chain(fn, k=4):
    names = []
    while fn is not None and k:
        names.append(fn.name())
        nexts = [n for n, _ in fn.next_functions if n is not None]
        fn, k = (nexts[0] if nexts else None), k - 1
    return names


_STRIDED = {"permuted5": lambda x: x.permute(0, 1, 4, 3, 2),
            "transposed3": lambda x: x[:, :, 0, 0, :].transpose(0, 1).contiguous().transpose(0, 1),
            "contiguous3": lambda x: x[:, :, 0, 0, :] * 1,
            "expanded3": lambda x: x[:, :, 0, 0, :1].expand(2, 3, 4),
            "empty5": lambda x: x[:0] * 1}


@pytest.mark.parametrize("loss", ["nll_loss", "cross_entropy"])
@pytest.mark.parametrize("reduction", ["mean", "none"])
@pytest.mark.parametrize("layout", list(_STRIDED))
def test_nll_loss_nd_views_a_contiguous_input(layout, reduction, loss):
    """nll_loss_nd of a 3-d or 5-d input: input.contiguous().view(N, C, 1, -1)."""
    def run(mod):
        x = mod.tensor(np.random.default_rng(37).standard_normal((2, 3, 2, 2, 2)),
                       requires_grad=True)
        y = _STRIDED[layout](x)
        t = mod.zeros((y.shape[0],) + tuple(y.shape[2:]), dtype=mod.long)
        r = getattr(mod.nn.functional, loss)(y, t, reduction=reduction)
        return _chain(r.grad_fn), r.stride()
    assert run(autotensor) == run(torch)


@pytest.mark.parametrize("call", ["F.pdist(x.t())", "F.pdist(x[:, ::2])", "F.pdist(x * 1)",
                                  "F.pdist(x.int(), -1)", "F.pdist(x.t().int(), -1)",
                                  "F.pdist(x[0], -1)", "F.pdist(x, -1)",
                                  "F.pdist(x[:, :1].expand(4, 3))"])
def test_pdist_of_a_contiguous_input(call):
    """pdist: its checks (rank, floating dtype, p), then _pdist_forward(self.contiguous())."""
    def run(mod):
        x = mod.tensor(np.random.default_rng(37).standard_normal((4, 3)), requires_grad=True)
        try:
            r = eval(call, {"F": mod.nn.functional, "x": x})
        except RuntimeError as e:
            return str(e)
        r.sum().backward()
        return (_chain(r.grad_fn), np.round(r.detach().numpy(), 12).tolist(),
                np.round(x.grad.numpy(), 12).tolist())
    assert run(autotensor) == run(torch)


@pytest.mark.parametrize("loss", ["nll_loss", "cross_entropy"])
@pytest.mark.parametrize("target", ["torch.tensor(1)", "torch.tensor(1.5)",
                                    "torch.zeros(0).long()"])
@pytest.mark.parametrize("shape", [(0,), (3,), (0, 0), (2, 3), (0, 0, 0), (2, 3, 4), (1, 3, 4),
                                   (0, 2, 3, 4), (2, 3, 4, 5), (0, 0, 0, 0, 0), (1, 2, 1, 1, 1)])
def test_class_index_losses_of_0d_and_empty_targets(shape, target, loss):
    """nll_loss_nd's and nll_loss_forward's checks in aten's order for 0-d and empty
    targets (target.sizes().slice(1) and target.size(0) of a 0-d target raise)."""
    def run(mod):
        try:
            r = getattr(mod.nn.functional, loss)(mod.zeros(shape), eval(target, {"torch": mod}))
        except (RuntimeError, IndexError, ValueError) as e:
            return type(e).__name__, str(e)
        return "ok", tuple(r.shape)
    assert run(autotensor) == run(torch)


# Note [Warning locations] (autotensor/_warn.py): a warning points at the user's line
_WARNING_CALLS = [
    "torch.tensor(x)", "x.detach().add_(1, 2)",
    "F.grid_sample(torch.ones(1, 1, 2, 2), torch.zeros(1, 1, 1, 2))",
    "F.affine_grid(torch.eye(2, 3)[None], (1, 1, 2, 2))", "F.softmax(x)", "float(x.sum())",
    "torch.ones(2, 3, 4).T", "torch.std(torch.ones(1))", "torch.var(torch.ones(1))",
    "torch.ones(1).std(0)", "torch.cov(torch.ones(1, 1))", "torch.ones(2).new_tensor(x)",
    "torch.sum(x.detach(), 0, out=torch.ones(5))", "torch.range(0, 2)"]


def _warning_sites(mod, call, once_flags):
    import warnings
    for flag in once_flags:  # (TORCH_WARN_ONCE: reset so that each case sees its warning)
        flag.clear()
    env = {"torch": mod, "F": mod.nn.functional, "x": mod.ones(2, 3, requires_grad=True)}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        eval(compile(call, "<user line>", "eval"), env)
    return [(w.category.__name__, str(w.message).split(" (Triggered internally")[0],
             w.filename, w.lineno) for w in caught]


@pytest.mark.parametrize("call", _WARNING_CALLS)
def test_warnings_point_at_the_users_line(call):
    from autotensor._ops import shape
    from autotensor import _tensor
    from autotensor import _argparse
    got = _warning_sites(autotensor, call, [shape._T_WARNED, _tensor._scalar_warned,
                                            _argparse._DEPRECATED_WARNED])
    want = _warning_sites(torch, call, [])
    if not want and call in ("torch.ones(2, 3, 4).T", "float(x.sum())",
                             "x.detach().add_(1, 2)"):
        # (TORCH_WARN_ONCE: torch's flag may be spent by an earlier test in this process;
        # its warning is then the one a fresh process shows at the user's line)
        want = [(c, m, "<user line>", 1) for c, m, *_ in got]
    assert got == want


def test_range_is_torch_range():
    import warnings
    calls = ["torch.range(0, 2)", "torch.range(0, 1, 0.1)",
             "torch.range(1, 4, 0.3, dtype=torch.float64)",
             "torch.range(0, 10, 3, dtype=torch.int64)",
             "torch.range(0, -10, -3, dtype=torch.int64)", "torch.range(0, 2, 0)",
             "torch.range(2, 0)", "torch.range(0, float('inf'))",
             "torch.range(0.5, 2.7, 0.7, dtype=torch.float16)",
             "torch.range(0, 2, requires_grad=True)", "torch.range(-1.1, 1.1, 0.1)"]

    def run(mod):
        out = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for c in calls:
                try:
                    r = eval(c, {"torch": mod})
                    out.append((str(r.dtype).split(".")[-1], r.tolist(), r.requires_grad))
                except RuntimeError as e:
                    out.append(str(e))
        return out
    assert run(autotensor) == run(torch)


_ODD_STRIDES = {  # (1, 2, 1) with strides (1, 1, 1): C-contiguous, size-1 dims odd
    "odd": lambda m: m.tensor(np.array([[[1.76]], [[0.4]]], dtype="float32")).transpose(0, 1),
    "permuted": lambda m: m.tensor(np.arange(24, dtype="float32").reshape(2, 3, 4)).permute(
        2, 0, 1),
    "transposed": lambda m: m.tensor(np.arange(12, dtype="float32").reshape(3, 4)).t()}


@pytest.mark.parametrize("op", ["nan_to_num", "deg2rad", "rad2deg", "exp", "abs", "clone",
                                "float", "double", "neg", "sigmoid", "frac", "sign"])
@pytest.mark.parametrize("layout", list(_ODD_STRIDES))
def test_unary_result_strides(layout, op):
    """nan_to_num / deg2rad / rad2deg are empty_like(self) then their out= kernel (the
    input's strides, size-1 dims' too); the others TensorIterator's."""
    def run(mod):
        return getattr(_ODD_STRIDES[layout](mod), op)().stride()
    assert run(autotensor) == run(torch)


def _dirty_function(mod, two):
    class Dirty(mod.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            a.mul_(2)
            ctx.mark_dirty(a)
            return (a, a * 1) if two else a

        @staticmethod
        def backward(ctx, *g):
            return g[0] * 2
    return Dirty


@pytest.mark.parametrize("two", [False, True])
@pytest.mark.parametrize("case", ["split", "slice", "plain", "nograd_view"])
def test_mark_dirty_resets_grad_before_the_view_checks(case, two):
    """set_history: the leaf and several-outputs checks, then .grad reset, then
    rebase_history's view checks (a multi-output view's error leaves .grad None)."""
    def run(mod):
        v0 = mod.ones(2, requires_grad=True) * 1
        if case == "split":
            v1 = v0.split(1, 0)[0]
        elif case == "slice":
            v1 = v0[:1]
        elif case == "plain":
            v1 = v0 * 1
        else:
            with mod.no_grad():
                v1 = v0[:1]
        if case == "nograd_view":
            v1.grad = mod.ones(1)
        else:
            v1.sum().backward(inputs=[v1], retain_graph=True)
        try:
            _dirty_function(mod, two).apply(v1)
            err = None
        except RuntimeError as e:
            err = str(e)
        return err, None if v1.grad is None else v1.grad.tolist()
    assert run(autotensor) == run(torch)


_CONV_DTYPES = ["float32", "float64", "long", "half", "bool", "complex64", "bfloat16", "int32"]


@pytest.mark.parametrize("bias", [None, "same", "float64"])
@pytest.mark.parametrize("fn,xs,ws", [
    ("conv1d", (1, 0, 3), (2, 0, 1)), ("conv1d", (0, 2, 3), (2, 2, 1)),
    ("conv2d", (1, 0, 3, 3), (2, 0, 1, 1)), ("conv2d", (0, 2, 3, 3), (2, 2, 1, 1)),
    ("conv_transpose1d", (1, 0, 3), (0, 2, 1)), ("conv_transpose1d", (0, 2, 3), (2, 2, 1)),
    ("conv_transpose2d", (0, 2, 3, 3), (2, 2, 1, 1)), ("conv3d", (0, 2, 2, 2, 2), (2, 2, 1, 1, 1))])
def test_empty_convolution_dtypes(fn, xs, ws, bias):
    """The Empty backend checks no dtypes: its result is input.view(-1) * weight_view (no
    input channels) or input * weight_view[0] (a 0-d operand), then add_(bias[0])."""
    def run(mod, xd, wd):
        x = mod.zeros(xs, dtype=getattr(mod, xd))
        w = mod.zeros(ws, dtype=getattr(mod, wd))
        nb = ws[1] if "transpose" in fn else ws[0]
        b = None if bias is None else mod.zeros(
            nb, dtype=x.dtype if bias == "same" else mod.float64)
        try:
            r = getattr(mod.nn.functional, fn)(x, w, b)
        except (RuntimeError, NotImplementedError, TypeError) as e:
            return type(e).__name__, str(e)
        return str(r.dtype).split(".")[-1], tuple(r.shape)
    for xd in _CONV_DTYPES:
        for wd in _CONV_DTYPES:
            if {xd, wd} == {"half", "complex64"}:
                continue  # (PyTorch's complex32: not a dtype here)
            assert run(autotensor, xd, wd) == run(torch, xd, wd), (xd, wd)


@pytest.mark.parametrize("loss", ["nll_loss", "cross_entropy"])
@pytest.mark.parametrize("dtype", ["long", "int32", "bool"])
@pytest.mark.parametrize("shape,tshape", [((2, 3), (2,)), ((3,), ()), ((2, 3, 4, 5), (2, 4, 5)),
                                          ((2, 0, 0), (2, 0)), ((2, 3, 4), (2, 4)),
                                          ((2, 0), (2,))])
def test_class_index_losses_refuse_integer_inputs(shape, tshape, dtype, loss):
    """The kernels' dtype dispatch: nll_loss_out_frame, nll_loss2d_forward_out_frame."""
    def run(mod):
        try:
            getattr(mod.nn.functional, loss)(mod.zeros(shape, dtype=getattr(mod, dtype)),
                                             mod.zeros(tshape, dtype=mod.long))
        except (RuntimeError, NotImplementedError, IndexError, ValueError) as e:
            return type(e).__name__, str(e)
        return "ok"
    assert run(autotensor) == run(torch)


@pytest.mark.parametrize("stride", [1, 2])
@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
@pytest.mark.parametrize("fn,xs,ws", [
    ("conv_transpose1d", (1, 1), (1, 0, 0)), ("conv_transpose1d", (1, 1, 1), (1, 0, 0)),
    ("conv_transpose1d", (2, 1, 5), (1, 2, 0)), ("conv1d", (1, 1, 3), (1, 1, 0)),
    ("conv1d", (1, 3), (1, 1, 0)), ("conv1d", (16, 1, 3), (1, 1, 0)),
    ("conv2d", (1, 1, 3, 3), (1, 1, 0, 2)), ("conv2d", (2, 1, 3, 3), (1, 1, 2, 0)),
    ("conv_transpose2d", (1, 1, 3, 3), (1, 1, 0, 2)), ("conv1d", (1, 2, 30), (4, 2, 0)),
    ("conv1d", (1, 1, 3), (2, 1, 0)), ("conv3d", (1, 1, 2, 2, 2), (1, 1, 0, 1, 1))])
def test_empty_kernel_refusals(fn, xs, ws, dtype, stride):
    """An empty kernel: mkldnn's primitive error where use_mkldnn picks it, else the slow
    kernels' size checks (slow_conv3d's own wording)."""
    def run(mod):
        dt = getattr(mod, dtype)
        try:
            getattr(mod.nn.functional, fn)(mod.ones(xs, dtype=dt), mod.ones(ws, dtype=dt),
                                           stride=stride)
        except RuntimeError as e:
            return str(e)
        return "ok"
    assert run(autotensor) == run(torch)
def _stale_view_hooks(mod, case):
    """A view's hook dict lives on the node it had when its first hook was registered:
    later hooks join that dict while the view is stale (its base modified in place), and
    the lazy rebase (a grad_fn read) gives it a new node and, at the next register_hook, a
    new dict."""
    log = []
    a = mod.ones(3, requires_grad=True)
    b = a * 1

    def hook(k):
        return lambda g: log.append((k, g.tolist()))
    v = b[:2]
    if case == "first_after":
        b.mul_(2)
        v.register_hook(hook(1))
    else:
        v.register_hook(hook(1))
        if case.startswith("nograd"):
            with mod.no_grad():
                (v if case == "nograd_self" else b).mul_(2)
        else:
            (v if case == "grad_self" else b).mul_(2)
        if case == "read":
            v.grad_fn  # noqa: B018  (the lazy rebase)
        if case == "retain":
            v.retain_grad()
        v.register_hook(hook(2))
    (v.sum() * 2 + b.sum()).backward()
    return log, a.grad.tolist()


@pytest.mark.parametrize("case", ["nograd_base", "grad_base", "grad_self", "nograd_self", "read",
                                  "retain"])
def test_hooks_of_a_stale_view(case):
    assert _stale_view_hooks(autotensor, case) == _stale_view_hooks(torch, case)
