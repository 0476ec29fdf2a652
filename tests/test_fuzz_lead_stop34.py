"""Stop 34 (lead): the fuzzer's reproducers of stop 33's end and this stop, and the classes
behind them, each run on autotensor and PyTorch (tests/fuzz/OPEN_FINDINGS.md, Stop 34)."""
import pathlib

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

_REPRODUCERS = ["pending_stop33/fin2_repro_002.py", "pending_stop33/fin2_repro_003.py",
                "pending_stop33/fin2_repro_004.py", "pending_stop34/a_repro_001.py",
                "pending_stop34/b_repro_001.py", "pending_stop34/c_repro_001.py",
                "pending_stop34/fin_repro_001.py", "pending_stop34/fin_repro_002.py",
                "pending_stop34/fin_repro_003.py", "pending_stop34/fin_repro_004.py",
                "pending_stop34/fz6_repro_001.py", "pending_stop34/fz6_repro_002.py"]


@pytest.mark.parametrize("path", _REPRODUCERS)
def test_fuzzer_reproducers_of_stop_34(path):
    """The reproducers fixed (or excused by a note) this stop agree with PyTorch."""
    from tests.fuzz.core import run_reproducer
    run_reproducer(pathlib.Path(__file__).parent / "fuzz" / path)


def _both(scenario):
    return scenario(autotensor), scenario(torch)


def _outcome(fn):
    try:
        return ("ok", fn())
    except Exception as e:  # (the type and message are what is compared)
        return (type(e).__name__, str(e)[:70])


_NO_RULE = {  # backward formulas that are one aten op without a forward rule
    "silu": lambda m, x: m.nn.functional.silu(x),
    "hardsigmoid": lambda m, x: m.nn.functional.hardsigmoid(x),
    "mish": lambda m, x: m.nn.functional.mish(x),
    "logit": lambda m, x: m.logit(x * 0.25),
    "huber": lambda m, x: m.nn.functional.huber_loss(x, m.zeros_like(x)),
}


@pytest.mark.parametrize("name", sorted(_NO_RULE))
@pytest.mark.parametrize("how", ["no_grad_view", "direct", "view"])
def test_backward_op_without_forward_rule_refuses_only_if_it_runs(name, how):
    """Inside a forward-AD level the backward of a dual input refuses (the formula's aten
    op has no forward rule) only when the formula runs: a no_grad view of a tensor that
    requires grad requires grad but has no gradient edge, so its node computes nothing."""
    def scenario(m):
        fw = m.autograd.forward_ad
        with fw.dual_level():
            x = m.tensor([0.5, -1.25], dtype=m.float64, requires_grad=True)
            x = fw.make_dual(x, m.tensor([1.0, 2.0], dtype=m.float64))
            if how == "no_grad_view":
                with m.no_grad():
                    v = x.unsqueeze(0)
            else:
                v = x.unsqueeze(0) if how == "view" else x
            y = _NO_RULE[name](m, v)
            nxt = [f is None for f, _ in y.grad_fn.next_functions]
            return nxt, v.requires_grad, _outcome(lambda: y.sum().backward())
    ours, theirs = _both(scenario)
    assert ours == theirs


@pytest.mark.parametrize("op", ["copysign_", "nextafter_"])
@pytest.mark.parametrize("dual_self", [False, True])
def test_inplace_through_a_view_keeps_fn_gradient_versions(op, dual_self):
    """CopySlices passes its wrapped node's other gradients on at the versions that node's
    formula made them (copysign's other: zeros_like filled in place, version 1)."""
    def scenario(m):
        fw = m.autograd.forward_ad
        with fw.dual_level():
            other = m.tensor([1.764, -0.5], requires_grad=True, dtype=m.float64)
            other = fw.make_dual(other, m.tensor([1.6, 0.2], dtype=m.float64))
            base = m.tensor([1.5, 2.5, -3.0], dtype=m.float64)
            if dual_self:
                base = fw.make_dual(base, m.tensor([1.0, 1.0, 1.0], dtype=m.float64))
            v = base[:2]
            getattr(v, op)(other)
            g = m.autograd.grad(v.sum(), [other])[0]
            return type(v.grad_fn).__name__, g._version, g.tolist()
    ours, theirs = _both(scenario)
    assert ours == theirs


@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "float32", "float64"])
def test_mean_tangent_of_negative_zeros(dtype):
    """a_001: the tangent of a mean runs the mean on the tangent: float16/bfloat16 in float32
    as ATen's mean_out (NumPy's bfloat16 mean of [-0.0] is -0.0, PyTorch's +0.0)."""
    def scenario(m):
        fw = m.autograd.forward_ad
        dt = getattr(m, dtype)
        with fw.dual_level():
            x = fw.make_dual(m.tensor([-0.0, -0.0], dtype=dt), m.tensor([-0.0, -0.0], dtype=dt))
            outs = [x.mean(), x.mean(0), x[:1].mean(0), x.sum(), x.nansum(0)]
            return [repr(fw.unpack_dual(r).tangent.item()) for r in outs]
    ours, theirs = _both(scenario)
    assert ours == theirs


_GATHERS = ["F.pad(x, (1, 1, 1, 1))", "F.pad(x, (1, 1, 1, 1), value=-0.0)",
            "F.pad(x, (1, 1, 1, 1), value=2.5)", "F.pad(x, (1, 1, 1, 1), mode='circular')",
            "F.pad(x, (1, 1, 1, 1), mode='reflect')", "F.pixel_shuffle(x.expand(1, 4, 2, 2), 2)",
            "F.pixel_unshuffle(x, 2)", "F.interpolate(x, scale_factor=2)",
            "F.interpolate(x, scale_factor=2, mode='nearest-exact')", "F.unfold(x, 2, padding=1)",
            "F.channel_shuffle(x.expand(1, 4, 2, 2), 2)"]


@pytest.mark.parametrize("call", _GATHERS)
@pytest.mark.parametrize("dtype", ["bfloat16", "float64"])
def test_gather_op_tangents_keep_negative_zeros(call, dtype):
    """Padding, shuffles, nearest upsampling and im2col apply themselves to the tangent
    (PyTorch's auto_linear), padded with zeros whatever the fill value: a tangent's -0.0
    stays -0.0 (the transposed backward's index_add into zeros gave +0.0)."""
    def scenario(m):
        fw = m.autograd.forward_ad
        F = m.nn.functional
        dt = getattr(m, dtype)
        with fw.dual_level():
            x = fw.make_dual(m.tensor([[[[-0.0, 1.0], [2.0, -0.0]]]], dtype=dt),
                             m.tensor([[[[-0.0, -0.0], [1.5, -0.0]]]], dtype=dt))
            r = eval(call, {"F": F, "x": x})
            t = fw.unpack_dual(r).tangent
            return [repr(v) for v in t.float().flatten().tolist()], str(t.dtype)[-8:]
    ours, theirs = _both(scenario)
    assert ours == theirs


_SAVING = {"atan2": "x.atan2(y)", "mul": "x * y", "pow": "x.pow(y)", "hypot": "x.hypot(y)",
           "xlogy": "x.xlogy(y)", "maximum": "m.maximum(x, y)", "fmin": "m.fmin(x, y)",
           "lerp": "x.lerp(y, w)", "addcmul": "x.addcmul(y, w)", "addcdiv": "x.addcdiv(y, w)",
           "fmod": "x.fmod(y)", "remainder": "x.remainder(y)", "linear": "m.nn.functional.linear(x2, W, b)",
           "addmm": "b.addmm(x2, W.t())", "dot": "x2[0].dot(W[0])", "mv": "W.mv(x2[0])",
           "conv1d": "m.nn.functional.conv1d(x3, K, b[:2])", "dist": "x.dist(y)",
           "complex": "m.complex(x, y)", "logaddexp": "x.logaddexp(y)",
           "clamp": "x.clamp(min=y, max=w + 5)", "mse": "m.nn.functional.mse_loss(x, y.expand(3))"}


@pytest.mark.parametrize("name", sorted(_SAVING))
def test_saved_tensors_pack_and_unpack_in_pytorchs_order(name):
    """PyTorch's generated nodes save (pack hooks), unpack and version-check their inputs
    sorted by name, then their outputs: atan2 packs ``other`` before ``self``, lerp ``end``
    before ``self`` and ``weight``. (40 of 80 ops' hook sequences differed; 14 remain,
    composites and index tensors: OPEN_FINDINGS Stop 34.)"""
    def scenario(m):
        def mk(v, shape):
            n = int(np.prod(shape))
            return (m.arange(n, dtype=m.float64).reshape(shape) * 0.01 + v).requires_grad_()
        x, y, w = mk(1.5, (3,)), mk(2.5, (1,)), mk(3.5, (1,))
        x2, W, b = mk(0.5, (2, 3)), mk(-0.5, (4, 3)), mk(0.25, (4,))
        x3, K = mk(0.125, (2, 2, 3)), mk(-0.125, (2, 2, 2))
        seq = []

        def pack(t):
            seq.append(("pack", tuple(t.shape), round(float(t.detach().flatten()[0]), 9)))
            return t

        def unpack(t):
            seq.append(("unpack", tuple(t.shape)))
            return t
        with m.autograd.graph.saved_tensors_hooks(pack, unpack):
            z = eval(_SAVING[name], {"m": m, "x": x, "y": y, "w": w, "x2": x2, "W": W,
                                     "b": b, "x3": x3, "K": K})
        (z.real if z.is_complex() else z).sum().backward()
        return seq
    ours, theirs = _both(scenario)
    assert ours == theirs


@pytest.mark.parametrize("op", ["atan2", "mul", "div", "pow", "hypot", "xlogy", "copysign",
                                "maximum", "fmod", "remainder", "lerp", "addcmul", "where"])
def test_version_error_names_the_first_saved_tensor_in_pytorchs_order(op):
    """b_001: both saved tensors modified in place: the error names the one PyTorch's node
    unpacks first (inputs sorted by name: atan2's [1]-shaped ``other``, not ``self``)."""
    def scenario(m):
        a = m.tensor([1.0, 2.0], requires_grad=True)
        x, y = a.exp(), a[:1].sin().exp()
        if op == "lerp":
            z = x.lerp(y, y)
        elif op == "addcmul":
            z = x.addcmul(y, y * 1)
        elif op == "where":
            z = m.where(x > 2, x, y)
        else:
            z = getattr(x, op)(y)
        x.mul_(2)
        y.mul_(2)
        try:
            z.sum().backward()
        except RuntimeError as e:
            return str(e).split(", is at")[0]
        return None
    ours, theirs = _both(scenario)
    assert ours == theirs and ours is not None


_LOSSES = ["F.mse_loss(x, y, reduction='sum')", "F.smooth_l1_loss(x, y)",
           "F.huber_loss(x, y, reduction='none')", "F.binary_cross_entropy_with_logits(x, y)",
           "F.soft_margin_loss(x, y)", "F.nll_loss(x[None], m.tensor([1]))",
           "F.nll_loss(x[None], m.tensor([1]), ignore_index=3, reduction='sum')",
           "F.multi_margin_loss(x[None], m.tensor([1]))",
           "F.multilabel_margin_loss(x[None], m.tensor([[1, -1]]))"]


@pytest.mark.parametrize("call", _LOSSES)
def test_loss_nodes_saved_reduction_and_ignore_index(call):
    """A loss node's ``_saved_reduction`` is at::Reduction's value (1 for 'mean'), and
    nll_loss's ``_saved_ignore_index`` shows as PyTorch's accessor does (a negative SymInt
    as an unsigned 64-bit integer)."""
    def scenario(m):
        F = m.nn.functional
        x = m.tensor([0.2, 0.7], requires_grad=True)
        y = m.tensor([0.0, 1.0])
        g = eval(call, {"m": m, "F": F, "x": x, "y": y}).grad_fn
        return {a: repr(getattr(g, a)) for a in ("_saved_reduction", "_saved_ignore_index")
                if hasattr(g, a)}
    ours, theirs = _both(scenario)
    assert ours == theirs and "_saved_reduction" in ours


_INDEXED = ["x.gather(1, i)", "x.index_select(1, i[:, 0])", "m.where(c, x, 2.0)",
            "x.masked_fill(c, 1.0)", "x.masked_select(c)", "x.take(i)",
            "x.scatter(1, i, 2.0)", "x.scatter_add(1, i, x[:, :1])",
            "x.index_add(1, i[:, 0], x[:, :2])", "x.index_fill(1, i[:, 0], 0.5)",
            "x.index_copy(1, i[:, 0], x[:, :2] * 2)", "x.masked_scatter(c, x * 3)",
            "x.put(i[:, 0], x[0, :2])", "x.scatter_reduce(1, i, x[:, :1], 'amax')",
            "m.nn.functional.nll_loss(x, i[:, 0])", "m.nn.functional.embedding(i, x.t())"]


@pytest.mark.parametrize("call", _INDEXED)
@pytest.mark.parametrize("change", ["add_", "none"])
def test_saved_index_tensors_are_version_checked(call, change):
    """Note [Saved index tensors]: an index, mask or target modified in place before
    backward raises PyTorch's error (autotensor scattered the gradient to the new places:
    a wrong gradient); unchanged, the gradient is PyTorch's."""
    ours, theirs = _both(lambda m: _indexed_backward(m, call, change == "add_", False))
    assert ours == theirs


def _indexed_backward(m, call, change, inplace):
    """``call`` on x (or, ``inplace``, on y = x * 1), its index i and mask c written in
    place if ``change``, then backward: the gradient, or the version error's start."""
    x = m.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], dtype=m.float64, requires_grad=True)
    y = x * 1
    i = m.tensor([[0], [1]])
    c = m.tensor([[True, False, True]])
    r = eval(call, {"m": m, "x": x, "y": y, "i": i, "c": c})
    if change:
        i.add_(1).remainder_(2)
        c.logical_not_()
    try:
        (y if inplace else r).sum().backward()
    except RuntimeError as e:
        return str(e).split("expected")[0]
    return x.grad.tolist()


def test_saved_index_tensors_reach_pack_hooks_and_accessors():
    """The index is a saved tensor: ``_saved_index`` is a tensor, pack hooks see it."""
    def scenario(m):
        x = m.ones(2, 3, dtype=m.float64, requires_grad=True)
        i = m.tensor([[0], [1]])
        seen = []
        with m.autograd.graph.saved_tensors_hooks(lambda t: seen.append(str(t.dtype)) or t,
                                                  lambda t: t):
            y = x.gather(1, i)
        y.sum().backward()
        g = x.gather(1, i).grad_fn
        return sorted(seen), type(g._saved_index).__name__, g._saved_index.tolist()
    ours, theirs = _both(scenario)
    assert ours == theirs


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("shape,dim", [((0,), 0), ((0,), None), ((0, 3), 0), ((0, 3), 1),
                                       ((3, 0), 1), ((), None), ((), 0), ((2, 0, 2), 1)])
def test_half_prod_of_empty_and_zero_d(dtype, shape, dim):
    """c_001: the half-type product kernel (Note [Half products]) is for non-empty rows; an
    empty product is 1, a 0-d one the value itself."""
    def scenario(m):
        x = m.ones(shape, dtype=getattr(m, dtype)) * 1.5
        r = x.prod() if dim is None else x.prod(dim)
        k = None if dim is None else tuple(x.prod(dim, keepdim=True).shape)
        return r.float().tolist(), tuple(r.shape), k
    ours, theirs = _both(scenario)
    assert ours == theirs


_INDEXED_INPLACE = ["y.scatter_(1, i, 2.0)", "y.index_add_(1, i[:, 0], x[:, :2])",
                    "y.masked_fill_(c, 1.0)", "y.index_fill_(1, i[:, 0], 0.5)",
                    "y[:, :2].scatter_(1, i, 2.0)", "y.masked_scatter_(c, x * 3)",
                    "y.put_(i[:, 0], x[0, :2])", "y.scatter_add_(1, i, x[:, :1])",
                    "y[:, 1:].index_copy_(1, i[:, 0], x[:, :2])"]


@pytest.mark.parametrize("call", _INDEXED_INPLACE)
@pytest.mark.parametrize("change", [True, False])
def test_saved_index_tensors_of_inplace_ops_are_version_checked(call, change):
    """The in-place forms too, directly and through a view (CopySlices' fn saved it)."""
    ours, theirs = _both(lambda m: _indexed_backward(m, call, change, True))
    assert ours == theirs


@pytest.mark.parametrize("op", ["logical_xor", "logical_and", "logical_or"])
def test_logical_ops_compare_in_the_promoted_dtype(op):
    """fin_002: logical ops cast both operands to the common dtype first (TensorIterator):
    a 0-d int64 -2**63 next to an int32 tensor is int32 0, False; 256 next to uint8 is 0."""
    def scenario(m):
        pairs = [(m.tensor(-9223372036854775808), m.tensor([1], dtype=m.int32)),
                 (m.tensor(256), m.tensor([1], dtype=m.uint8)),
                 (m.tensor(2 ** 40), m.tensor([3], dtype=m.int16)),
                 (m.tensor(0.3), m.tensor([1], dtype=m.int8)),
                 (m.tensor([0.5]), m.tensor([True]))]
        return [getattr(a, op)(b).tolist() + getattr(b, op)(a).tolist() for a, b in pairs]
    ours, theirs = _both(scenario)
    assert ours == theirs


def test_small_bmm_accumulates_in_order():
    """fin_001: aten's bmm of contraction x rows x cols < 400 is its own loop, each product
    rounded and summed in order from 0 (baddbmm_cpu_kernel); OpenBLAS's sgemm rounded
    (1, 2, 3) @ (1, 3, 2)'s first entry otherwise (then cos(x * x) amplified it)."""
    rng = np.random.default_rng(34)

    def scenario(m, arrays):
        return [m.bmm(m.tensor(a), m.tensor(b)).numpy().tobytes().hex() for a, b in arrays]
    arrays = []
    for shape in [(1, 2, 3, 2), (4, 3, 5, 2), (2, 7, 7, 7), (3, 1, 9, 4), (2, 8, 6, 8),
                  (2, 1, 40, 3), (3, 2, 33, 2), (1, 1, 399, 1)]:
        n, i, k, j = shape
        for dt in (np.float32, np.float64):
            arrays.append(((rng.standard_normal((n, i, k)) * 3).astype(dt),
                           (rng.standard_normal((n, k, j)) * 3).astype(dt)))
    assert scenario(autotensor, arrays) == scenario(torch, arrays)


def test_slicing_a_stale_zero_d_view_names_the_view_error_first():
    """fin_003: ``v[-1::1]`` of a 0-d custom-Function view whose base was written: the
    slice op's node collects its edges (the view error) before its 0-d check."""
    def scenario(m):
        class View(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x.view_as(x)

            @staticmethod
            def backward(ctx, g):
                return g
        v0 = m.tensor(1.764, requires_grad=True)
        v4 = View.apply(v0)
        with m.no_grad():
            v0.exp_()
        try:
            v4[-1::1]
        except (RuntimeError, IndexError) as e:
            return type(e).__name__, str(e)[:60]
    ours, theirs = _both(scenario)
    assert ours == theirs


def test_post_hook_of_a_custom_function_sees_every_gradient_it_computed():
    """fin_004: with ``inputs=`` leaving out a custom Function's input, PyTorch still runs
    its backward (a PyNode computes all outputs) and its post hook sees the gradients it
    returned; a generated node computes, and shows, None."""
    def scenario(m):
        class Sq(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, g):
                x, = ctx.saved_tensors
                return 2 * x * g
        out = []
        for custom in (True, False):
            v0 = m.tensor(1.764, requires_grad=True)
            v1 = Sq.apply(v0) if custom else v0 * v0
            log = []
            v1.grad_fn.register_hook(lambda gi, go: log.append(
                [None if g is None else g.item() for g in gi]))
            v1.backward(inputs=[v1])
            out.append((log, v0.grad, v1.grad.item()))
        return out
    ours, theirs = _both(scenario)
    assert ours == theirs


@pytest.mark.parametrize("transform", ["grad", "vjp"])
def test_transform_results_keep_a_tangent_with_history(transform):
    """fz6_001: torch.func transforms of a dual whose tangent has history (computed with
    grad mode on from a tensor requiring grad) return a tangent that requires grad, as
    PyTorch's; a tangent without history stays without."""
    def scenario(m):
        fw = m.autograd.forward_ad

        def seg(t):
            return (t * t).sin() * 2
        out = []
        with fw.dual_level():
            v0 = fw.make_dual(m.tensor(1.764, dtype=m.float64, requires_grad=True),
                              m.tensor(1.624, dtype=m.float64))
            v1 = v0.exp()
            with m.no_grad():
                plain = v1.remainder(1)  # (its tangent is v1's: with history)
                fresh = v1 * 1           # (computed under no_grad: none)
            for x in (plain, fresh):
                if transform == "grad":
                    r = m.func.grad(lambda t: seg(t).sum())(x)
                elif transform == "vjp":
                    r = m.func.vjp(seg, x)[1](m.ones_like(x))[0]
                else:
                    r = m.func.jvp(seg, (x,), (m.ones_like(x),))[1]
                t = fw.unpack_dual(r).tangent
                out.append(None if t is None else (t.requires_grad, round(t.item(), 9)))
        return out
    ours, theirs = _both(scenario)
    assert ours == theirs


@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16"])
@pytest.mark.parametrize("value", [-7, 300, 2])
def test_integer_gradient_terms_times_an_out_of_range_value(dtype, value):
    """fz6_002: addcmul's gradient ``grad * (tensor2 * value)`` with a uint8 tensor2 and
    value=-7: PyTorch casts -7 into uint8 (wrapping); NumPy refused the Python int."""
    def scenario(m):
        v0 = m.tensor(1.764, requires_grad=True)
        v2 = m.tensor(4, dtype=getattr(m, dtype))
        v2.addcmul(v0, v2, value=value).backward()
        return v0.grad.item()
    ours, theirs = _both(scenario)
    assert ours == theirs
