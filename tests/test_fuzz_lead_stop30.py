"""Stop 30, lead: differential checks of the classes fixed this stop (one scenario run on
both modules, compared with torch), and the fixed reproducers as regression tests."""
import pathlib

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")


def _outcomes(scenario):
    """scenario(m) on both modules: each step's value (as a list) or error (type, words)."""
    def run(m):
        out = []
        for step in scenario(m):
            try:
                r = step()
                out.append(r if isinstance(r, list) else np.asarray(
                    r.detach().resolve_conj().numpy() if hasattr(r, "numpy") else r).tolist())
            except Exception as e:  # (the error is what is compared)
                out.append((type(e).__name__, str(e)[:200]))
        return out
    return run(autotensor), run(torch)


_REPRODUCERS = ([f"pending_stop29/last_repro_{n:03d}.py" for n in (1, 2, 3, 4, 5)] +
                ["pending_stop30/s30a_repro_001.py"] +
                [f"pending_stop29/end_repro_{n:03d}.py" for n in (4, 7, 11, 12, 13, 15, 17)] +
                ["pending_stop29/fin_repro_014.py", "pending_stop29/fin_repro_016.py",
                 "pending_stop29/starte_repro_004.py"] +
                [f"pending_stop30/s30a_repro_{n:03d}.py" for n in (2, 4, 5)] +
                ["pending_stop30/s30b_repro_001.py"] +
                [f"pending_stop30/s30c_repro_{n:03d}.py" for n in (1, 2, 3)] +
                ["pending_stop30/s30d_repro_001.py"] +
                [f"pending_stop30/s30e_repro_{n:03d}.py" for n in (1, 2, 3)] +
                ["pending_stop28/end_repro_003.py"] +
                [f"pending_stop30/s30f_repro_{n:03d}.py" for n in (1, 2)] +
                [f"pending_stop30/s30g_repro_{n:03d}.py" for n in (1, 2, 3, 4)] +
                ["pending_stop30/fin_repro_001.py", "pending_stop30/fin_repro_003.py"])


@pytest.mark.parametrize("path", _REPRODUCERS)
def test_fuzzer_reproducers_of_stop_30(path):
    """Stop 29's reproducers fixed this stop agree with PyTorch
    (tests/fuzz/OPEN_FINDINGS.md, the Stop 30 section)."""
    from tests.fuzz.core import run_reproducer
    run_reproducer(pathlib.Path(__file__).parent / "fuzz" / path)


@pytest.mark.parametrize("name", ["binary_cross_entropy_with_logits", "huber_loss",
                                  "soft_margin_loss", "mse_loss"])
def test_losses_of_a_bfloat16_target_keep_its_dtype(name):
    """aten's (1 - target).mul_(input)...: bce_with_logits' loss is in a floating target's
    dtype, bfloat16 included (its NumPy kind is not 'f')."""
    def scenario(m):
        x = m.tensor([0.3, -1.7, 2.5])
        y = m.tensor([0.25, 0.75, 1.0], dtype=m.bfloat16)
        f = getattr(m.nn.functional, name)
        return [lambda: f(x, y).float(), lambda: str(f(x, y).dtype).split(".")[-1],
                lambda: str(f(y, x).dtype).split(".")[-1]]
    ours, theirs = _outcomes(scenario)
    assert ours == theirs


def test_inplace_on_a_view_of_a_detached_tensor_is_a_view_of_a_leaf():
    """A view of a detach()ed tensor is an ordinary view: given requires_grad (itself, or
    through its base) it is 'a view of a leaf Variable' in an in-place op, as make_dual's
    dual of a detached transposed tensor."""
    def scenario(m):
        fa = m.autograd.forward_ad

        def own():
            p = m.zeros(3).detach()
            v = p[0:2]
            v.requires_grad_()
            v.add_(1)

        def base():
            p = m.zeros(3).detach()
            v = p[0:2]
            p.requires_grad_()
            v.add_(1)

        def of_grad_leaf():
            p = m.zeros(3, requires_grad=True).detach()
            v = p[0:2]
            p.requires_grad_()
            v.mul_(2)

        def dual():
            with fa.dual_level():
                p = m.zeros(2, 2).t().detach()
                v = fa.make_dual(p, m.zeros(2, 2))
                v.requires_grad_()
                v.add_(1)

        def plain():
            p = m.zeros(3, requires_grad=True).detach()
            return p[0:2].add_(1)
        return [own, base, of_grad_leaf, dual, plain]
    ours, theirs = _outcomes(scenario)
    assert ours == theirs
    assert "a view of a leaf" in theirs[0][1]


@pytest.mark.parametrize("name", ["triu_", "tril_"])
def test_triu_tril_in_place_on_expanded_and_overlapping_tensors(name):
    """aten works in place where checkTrilTriuBatchContiguous allows (<= 3 dims, or batch
    dims laid out as a stack): it writes only zeros, so an expanded tensor is accepted and
    each element sharing a zeroed location reads zero; otherwise its copy_ back raises the
    overlap error."""
    def scenario(m):
        steps = []
        for shape, expanded in [((1, 1, 1, 1), (2, 2, 3, 3)), ((1, 1, 3, 3), (2, 2, 3, 3)),
                                ((1, 2, 3, 3), (2, 2, 3, 3)), ((1, 1, 1), (2, 3, 3)),
                                ((3, 1), (3, 4)), ((1, 4), (3, 4))]:
            for k in (-2, 0, 1, 3):
                n = int(np.prod(shape))
                steps.append(lambda shape=shape, e=expanded, k=k, n=n: getattr(
                    m.arange(float(n)).reshape(shape).expand(e), name)(k).clone())
        for k in (-1, 0, 1):
            def strided(k=k):
                b = m.arange(16.).reshape(4, 4)
                v = m.as_strided(b, (3, 3), (1, 1))
                getattr(v, name)(k)
                return m.cat([v.reshape(-1), b.reshape(-1)])

            def grad(k=k):
                x = m.arange(16.).reshape(4, 4).requires_grad_()
                y = x.t() * 1
                getattr(y, name)(k)
                (y * m.arange(16.).reshape(4, 4)).sum().backward()
                return x.grad
            steps += [strided, grad]
        x = m.tensor([[1.0, 2.0]], requires_grad=True)
        steps.append(lambda: getattr(m.autograd.grad(x.sum(), [x])[0], name)(1))
        return steps
    ours, theirs = _outcomes(scenario)
    assert ours == theirs


def test_fft_of_a_real_input_fills_the_other_half_by_conjugate_symmetry():
    """aten's _fft_r2c(onesided=False): the one-sided transform, the rest its conjugate
    mirror; a complex transform of the real input gives other nans around an inf."""
    inf = float("inf")

    def scenario(m):
        steps = []
        for n in (3, 5, 6, 7, 8):
            x = m.tensor(np.array([1.764, inf, 0.979, 1.0, 2.0, 3.0, 4.0, 5.0][:n],
                                  dtype="float32"))
            for norm in (None, "ortho", "forward"):
                steps.append(lambda x=x, norm=norm: m.view_as_real(m.fft.fft(x, norm=norm))
                             .isnan())
        return steps
    ours, theirs = _outcomes(scenario)
    assert ours == theirs
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 4, 5))
    for f, kw in [("fftn", {}), ("fft2", {}), ("fftn", {"dim": (0, 2)}),
                  ("fftn", {"dim": (2, 0)}), ("fft", {"dim": 1}), ("fftn", {"s": (2, 6, 3)})]:
        ours = getattr(autotensor.fft, f)(autotensor.tensor(a), **kw).numpy()
        theirs = getattr(torch.fft, f)(torch.tensor(a), **kw).numpy()
        np.testing.assert_allclose(ours, theirs, rtol=1e-13, atol=1e-13)


def test_pow_by_a_bool_tensor_exponent_refuses_its_derivative():
    """pow_backward_self computes exponent - 1: a bool exponent raises the bool
    subtraction error at backward (and at forward under forward AD)."""
    def scenario(m):
        def backward():
            x = m.tensor(1.5, requires_grad=True)
            x.pow(x.eq(x)).backward()

        def forward_ad():
            fa = m.autograd.forward_ad
            with fa.dual_level():
                x = fa.make_dual(m.tensor(1.5), m.tensor(1.0))
                return fa.unpack_dual(x.pow(m.tensor([True, False]))).tangent

        def scalar_true():
            x = m.tensor(1.5, requires_grad=True)
            m.pow(x, True).backward()
            return x.grad
        return [backward, forward_ad, scalar_true]
    ours, theirs = _outcomes(scenario)
    assert ours == theirs
    assert "Subtraction" in theirs[0][1]


def test_backward_to_an_output_itself_runs_no_formula_under_forward_ad():
    """backward(inputs=[y]) runs y's node, which computes nothing (task_should_compute_
    output): a formula without a forward rule (logit_backward) does not refuse then."""
    def scenario(m):
        fa = m.autograd.forward_ad

        def run(op, to_output):
            with fa.dual_level():
                x = fa.make_dual(m.tensor(0.3, requires_grad=True), m.tensor(1.6))
                y = op(x)
                if to_output:
                    y.backward(inputs=[y])
                    return y.grad
                y.backward()
        ops = [m.logit, m.nn.functional.silu, m.nn.functional.mish, m.sigmoid]
        return [lambda op=op, o=o: run(op, o) for op in ops for o in (True, False)]
    ours, theirs = _outcomes(scenario)
    assert ours == theirs
    assert "logit_backward" in theirs[1][1]


@pytest.mark.parametrize("reentrant", [False, True])
def test_saved_input_version_error_names_the_regenerated_view_node(reentrant):
    """A checkpoint's saved input (PyTorch's SavedVariable, saved_original) names its
    grad_fn as it is when the error is raised: a view modified in place since then reads
    as its regenerated AsStridedBackward0."""
    import warnings

    def scenario(m):
        from importlib import import_module
        checkpoint = import_module(m.__name__ + ".utils.checkpoint").checkpoint

        def run(view):
            x = m.tensor(1.764, requires_grad=True)
            v = view(x)
            y = checkpoint(lambda t: (t * t).sin() * 2, v, use_reentrant=reentrant)
            with m.no_grad():
                v.atan2_(m.tensor(1.7))
            y.backward()
        return [lambda f=f: run(f) for f in (lambda x: x.view_as(x), lambda x: x[...],
                                            lambda x: x * 1)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = _outcomes(scenario)
    assert ours == theirs
    assert "output 0 of AsStrided" in theirs[0][1]


def test_strides_of_empty_expanded_tensors():
    """An empty tensor that views a non-empty one keeps its real strides (an expanded 0-d
    gradient's zeros), which index_fill's setStorage error names."""
    def scenario(m):
        z = m.zeros

        def grad_of_sum():
            v = z(1, 0, requires_grad=True)
            return m.autograd.grad(v.sum(), [v])[0]
        steps = [lambda: z(()).expand(2, 0), lambda: z(1, 1).expand(3, 0),
                 lambda: z(3, 4)[:, 4:], lambda: z(3, 4).narrow(1, 2, 0), grad_of_sum,
                 lambda: z(2, 0, 3), lambda: z(3, 0, 2)[1]]
        out = [lambda f=f: list(f().stride()) for f in steps]
        out.append(lambda: grad_of_sum().index_fill(-1, m.tensor([0]), 2.0))
        return out
    ours, theirs = _outcomes(scenario)
    assert ours == theirs


@pytest.mark.parametrize("log_target", [False, True])
@pytest.mark.parametrize("reduction", ["sum", "batchmean", "none"])
def test_kl_div_double_backward_graph_follows_aten_evaluation_order(log_target, reduction):
    """aten's kl_div is `xlogy(t, t) - t * x` (`exp(t) * (t - x)`), whose right operand GCC
    evaluates first: the left operand's node runs first in backward, which orders the sums
    of a create_graph gradient."""
    def scenario(m):
        def names(g, depth=6):
            if g is None or depth == 0:
                return []
            return [type(g).__name__, [names(n, depth - 1) for n, _ in g.next_functions]]

        def run():
            x = m.tensor([1.764, 0.5], requires_grad=True)
            r = m.nn.functional.kl_div(x, x, reduction=reduction, log_target=log_target)
            g = m.autograd.grad(r.sum(), [x], create_graph=True)[0]
            return names(g.grad_fn)
        return [run]
    ours, theirs = _outcomes(scenario)
    assert ours == theirs


def test_glu_tangent_in_the_kernels_order():
    """glu_jvp's CPU kernel: da * sig_b + res * (db - sig_b * db): +0.0 where the textbook
    a * s * (1 - s) * db keeps a -0.0; values as PyTorch's."""
    def scenario(m):
        fa = m.autograd.forward_ad

        def run(primal, tangent):
            with fa.dual_level():
                d = fa.make_dual(m.tensor(primal), m.tensor(tangent))
                t = fa.unpack_dual(m.nn.functional.glu(d, dim=-1)).tangent
                return m.cat([t, 1 / t]) if t.numel() and not t.any() else t
        rng = np.random.default_rng(0)
        x, t = rng.standard_normal((4, 6)), rng.standard_normal((4, 6))
        return [lambda z=z: run([0.0, 0.0], z) for z in
                ([0.0, 0.0], [-0.0, -0.0], [0.0, -0.0], [-0.0, 0.0])] + [lambda: run(x, t)]
    ours, theirs = _outcomes(scenario)
    assert ours[:4] == theirs[:4]
    np.testing.assert_allclose(ours[4], theirs[4], rtol=1e-14)


def test_vmap_of_binary_ops_is_batch_first_contiguous_with_size_one_dims():
    """A batched binary op moves the batch dim to the front; an input that is then
    contiguous but for its size-1 dims gives TensorIterator's C-contiguous result, which
    matmul folds (its dtype error names m1 and m2)."""
    def scenario(m):
        def seg(t):
            return (t * t).sin() * 2
        z = m.ones(1, 1, 2)
        steps = [lambda: list(m.vmap(seg, in_dims=-1)(z).stride()),
                 lambda: list(m.vmap(lambda t: t * t, in_dims=-1)(z).stride()),
                 lambda: list(m.vmap(seg, in_dims=1)(m.ones(3, 2)).stride()),
                 lambda: list(m.vmap(seg)(m.ones(2, 3)).stride()),
                 lambda: list(m.vmap(seg, in_dims=-1, out_dims=1)(z).stride()),
                 lambda: m.vmap(seg, in_dims=-1)(z.half()).matmul(m.ones(1, 1))]
        return steps
    ours, theirs = _outcomes(scenario)
    assert ours == theirs


def test_create_graph_gradients_of_as_strided_and_unfold_are_recorded_as_pytorch():
    """Under create_graph, as_strided's gradient is FunctionsManual's composite op by op
    (AsStridedBackward0 over CopySlices, or IndexAddBackward0 where the output overlaps
    itself; no history for an empty one), unfold's is one UnfoldBackwardBackward0; values
    and second derivatives as PyTorch's."""
    def names(g, depth=5):
        if g is None or depth == 0:
            return []
        return [type(g).__name__, [names(n, depth - 1) for n, _ in g.next_functions]]

    def scenario(m):
        def run(view, n=6):
            x = m.arange(float(n)).requires_grad_()
            y = view(x)
            w = m.arange(float(y.numel())).reshape(y.shape)
            g = m.autograd.grad((y * y * w).sum(), [x], create_graph=True)[0]
            gg = m.autograd.grad((g * g).sum(), [x], allow_unused=True)[0] \
                if g.requires_grad else None
            return [g.tolist(), g.requires_grad, names(g.grad_fn),
                    None if gg is None else gg.tolist()]
        views = [lambda x: x.unfold(0, 2, 1), lambda x: x.as_strided((2, 2), (1, 2)),
                 lambda x: x.as_strided((3,), (2,)), lambda x: x.as_strided((2, 3), (0, 1), 1),
                 lambda x: x.as_strided((4, 2), (1, 1)), lambda x: x.as_strided((1, 3), (5, 2)),
                 lambda x: x[2:].as_strided((2,), (1,), 1)]
        steps = [lambda v=v: run(v) for v in views]
        steps.append(lambda: run(lambda x: x.as_strided((0, 2), (1, 1)), 6))

        def stale_empty_view():
            v0 = m.zeros(0, requires_grad=True)
            v1 = v0.neg()
            v2 = v1.unsqueeze(0)
            v1.add_(v0)
            v0.grad = None
            m.autograd.backward(v2.exp().sum(), create_graph=True)
            return [v0.grad.requires_grad, v0.grad.grad_fn is None]
        steps.append(stale_empty_view)
        return steps
    ours, theirs = _outcomes(scenario)
    assert ours == theirs


def test_as_strided_gradients_of_views_overlaps_and_offsets_before_the_input():
    """as_strided of a view, of a self-overlapping tensor, or reading before its input's
    first element (a negative relative offset): first and second derivatives as PyTorch's
    (FunctionsManual's shared offset and overlap counts)."""
    geometries = [((2, 2), (1, 2), 0), ((3,), (2,), 1), ((2, 3), (0, 1), 1), ((4, 2), (1, 1), 0),
                  ((1, 3), (5, 2), 0), ((2,), (1,), 1), ((3, 2), (2, 0), 0), ((2, 2), (2, 1), 2)]
    views = [lambda x: x, lambda x: x[2:], lambda x: x.as_strided((4, 2), (1, 1)),
             lambda x: x.expand(2, 8)[1], lambda x: x[1:].as_strided((3, 3), (1, 1))]

    def scenario(m):
        def run(view, size, stride, offset, create_graph):
            x = m.arange(8.).requires_grad_()
            y = view(x).as_strided(size, stride, offset)
            w = m.arange(float(y.numel())).reshape(y.shape) + 1
            g = m.autograd.grad((y * y * w).sum(), [x], create_graph=create_graph)[0]
            if not create_graph:
                return [g.tolist()]
            return [g.tolist(), m.autograd.grad((g * g).sum(), [x])[0].tolist()]
        return [lambda v=v, g=g, c=c: run(v, *g, c) for v in views for g in geometries
                for c in (False, True)]
    ours, theirs = _outcomes(scenario)
    assert ours == theirs


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_logaddexp_kernels_follow_pytorchs_formula(dtype):
    """PyTorch's CPU logaddexp2 is max + log1p(exp2(-|a - b|)) * (1 / ln 2) with a fused
    multiply-add: x with itself is x + 1 exactly; both agree with it to an ulp elsewhere."""
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(2000).astype(dtype), rng.standard_normal(2000).astype(dtype)
    inf = float("inf")
    special = np.array([inf, -inf, inf, 0.0, np.nan, -inf], dtype=dtype)
    special2 = np.array([inf, -inf, -inf, -inf, 1.0, 3.0], dtype=dtype)
    for name in ("logaddexp2", "logaddexp"):
        ours = getattr(autotensor, name)
        theirs = getattr(torch, name)
        same = ours(autotensor.tensor(a), autotensor.tensor(a)).numpy()
        assert np.array_equal(same, theirs(torch.tensor(a), torch.tensor(a)).numpy())
        np.testing.assert_allclose(ours(autotensor.tensor(a), autotensor.tensor(b)).numpy(),
                                   theirs(torch.tensor(a), torch.tensor(b)).numpy(),
                                   rtol=1e-14 if dtype == "float64" else 2e-6,
                                   atol=1e-15 if dtype == "float64" else 3e-7)  # (an ulp
        # of the inputs where the result cancels to near zero)
        np.testing.assert_array_equal(
            ours(autotensor.tensor(special), autotensor.tensor(special2)).numpy(),
            theirs(torch.tensor(special), torch.tensor(special2)).numpy())


def test_vmap_of_func_grad_is_batch_first_contiguous():
    """func.grad's gradients come out of batched backward formulas C-contiguous and
    batch-first whatever the input's layout: a flatten of them is a view."""
    def scenario(m):
        def seg(t):
            return (t * t).sin() * 2
        g = m.func.grad(lambda t: seg(t).sum())
        x = m.tensor([[1.764, 0.979], [0.4, 2.241]]).t()
        x3 = m.arange(24.).reshape(2, 3, 4).permute(2, 0, 1)

        def flatten_is_view():
            v = m.vmap(g)(x)
            v.flatten().add_(1)
            return v._version
        return [lambda: list(m.vmap(g)(x).stride()), lambda: list(m.vmap(g)(x3).stride()),
                lambda: list(m.vmap(g, in_dims=1)(x3).stride()),
                lambda: list(m.vmap(seg)(x3).stride()), flatten_is_view]
    ours, theirs = _outcomes(scenario)
    assert ours == theirs


def test_tangent_of_pow_zero_is_in_selfs_dtype():
    """pow_backward's exponent-0 case is zeros_like(self): a float16 input's tangent of
    another dtype (var's float32 one) gives a float16 zero."""
    import warnings

    def scenario(m):
        fa = m.autograd.forward_ad

        def run(op):
            with fa.dual_level():
                x = fa.make_dual(m.tensor(1.7637, dtype=m.float16),
                                 m.tensor(1.624, dtype=m.float16))
                t = fa.unpack_dual(op(x)).tangent
                return [str(t.dtype), t.float().tolist()]
        return [lambda: run(lambda x: x.var(0).pow(0)), lambda: run(lambda x: x.pow(0)),
                lambda: run(lambda x: x.float().pow(0))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = _outcomes(scenario)
    assert [o[0].split(".")[-1] for o in ours] == [t[0].split(".")[-1] for t in theirs]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [8, 16, 17, 32, 33])
def test_activation_gradients_at_nan_follow_pytorchs_simd_and_scalar_loops(dtype, n):
    """At a NaN input some backward kernels give NaN in PyTorch's SIMD loop (their vector
    form blends two computed branches: elu's, hardswish's, two vectors a step; hardtanh's
    mask, one) and the scalar branch's value in its scalar loop (Note [SIMD tie picks]):
    gradients and tangents, by position."""
    names = ["relu6", "hardtanh", "leaky_relu", "elu", "selu", "celu", "gelu", "silu", "mish",
             "hardswish", "hardsigmoid", "softplus", "softshrink", "hardshrink", "logsigmoid"]

    def scenario(m):
        F = m.nn.functional
        fns = [getattr(F, k) for k in names] + [lambda x: F.elu(x * 1, inplace=True),
                                                lambda x: F.gelu(x, approximate="tanh")]
        fa = m.autograd.forward_ad
        dt = getattr(m, dtype)

        def pattern(t):
            return "".join("n" if v != v else "0" if v == 0 else "1" for v in t.tolist())

        def grad(f):
            x = m.full((n,), float("nan"), dtype=dt).requires_grad_()
            return pattern(m.autograd.grad(f(x), x, m.ones(n, dtype=dt))[0])

        def tangent(f):
            with fa.dual_level():
                x = fa.make_dual(m.full((n,), float("nan"), dtype=dt), m.ones(n, dtype=dt))
                return pattern(fa.unpack_dual(f(x)).tangent)
        return [lambda f=f, k=k: k(f) for f in fns for k in (grad, tangent)]
    ours, theirs = _outcomes(scenario)
    assert ours == theirs


@pytest.mark.parametrize("exponent", [2 ** 40 + 1, 16777217, -(2 ** 40 + 1), 16777216.5, 0.1])
@pytest.mark.parametrize("n", [20, 36, 70])
def test_float32_pow_by_an_exponent_float_cannot_hold(exponent, n):
    """PyTorch's float32 pow: its SIMD loop (two vectors a step) takes the exponent in
    float (2**40 + 1 is an even 2**40 there: a negative base's power is positive), its
    scalar loop in double: signs, infinities and NaNs by position, values to an ulp."""
    base = np.resize(np.array([-7.05, 1.58, -2.25, -0.5, 0.0, -0.0, 1.0, -1.0, 3.0],
                              dtype="float32"), n)

    def scenario(m):
        def run(inplace):
            x = m.tensor(base)
            r = x.pow_(exponent) if inplace else x.pow(exponent)
            return [str(v) if v != v or abs(v) in (0.0, float("inf")) else float(np.sign(v))
                    for v in r.tolist()]
        return [lambda: run(False), lambda: run(True)]
    ours, theirs = _outcomes(scenario)
    assert ours == theirs
    np.testing.assert_allclose(autotensor.tensor(base).pow(exponent).numpy(),
                               torch.tensor(base).pow(exponent).numpy(), rtol=3e-7)


def test_float32_trigamma_is_pytorchs_bit_for_bit():
    """ATen's trigamma(float): float series constants, its three multiply-adds fused; equal
    to PyTorch's bit for bit from 0.5 up (the reflection below it shares sinf's ulps)."""
    rng = np.random.default_rng(1)
    x = np.concatenate([rng.uniform(0.5, 12, 4000), rng.uniform(12, 1e4, 1000)]).astype(
        np.float32)
    np.testing.assert_array_equal(autotensor.polygamma(1, autotensor.tensor(x)).numpy(),
                                  torch.polygamma(1, torch.tensor(x)).numpy())
    neg = rng.uniform(-5, 0.5, 1000).astype(np.float32)
    np.testing.assert_allclose(autotensor.polygamma(1, autotensor.tensor(neg)).numpy(),
                               torch.polygamma(1, torch.tensor(neg)).numpy(), rtol=5e-7)


@pytest.mark.parametrize("op", ["add_", "mul_", "copy_", "sub_", "div_", "atan2_"])
@pytest.mark.parametrize("stale", ["unbind", "no_grad", "plain"])
def test_stale_input_views_raise_before_overlap_checks(op, stale):
    """An in-place op whose input is a stale view of the written tensor: PyTorch collects
    the node's edges (the view's error) before its kernel's overlap checks."""
    def scenario(m):
        def run():
            x = m.tensor([1.5, 2.5, 3.5], requires_grad=True) * 1
            if stale == "unbind":
                v = x.unbind(0)[1]
            elif stale == "no_grad":
                with m.no_grad():
                    v = x[1]
            else:
                v = x[1]
            with m.no_grad():
                x.mul_(2)
            getattr(x[:2], op)(v)  # (v is one of the written elements: overlap)
        return [run]
    ours, theirs = _outcomes(scenario)
    assert ours == theirs


def test_saved_tensor_detached_in_place_refuses_before_its_version_check():
    """A non-leaf saved as an input, then detach_()ed: SavedVariable's "detached in-place"
    error at backward, before the version check; detached before it was saved, it is a
    leaf then, and backward runs."""
    def scenario(m):
        def after(modify):
            x = m.ones(2, requires_grad=True) * 1
            y = x * x
            if modify:
                x.mul_(2)
            x.detach_()
            y.sum().backward()

        def before():
            w = m.ones(2, requires_grad=True)
            x = m.ones(2, requires_grad=True) * 1
            x.detach_()
            (x * w).sum().backward()
            return w.grad
        return [lambda: after(False), lambda: after(True), before]
    ours, theirs = _outcomes(scenario)
    assert ours == theirs
    assert "detached in-place" in theirs[0][1]


@pytest.mark.parametrize("shape", [(0, 1), (2, 1), (3,)])
def test_copy_of_a_broadcast_src_of_another_dtype_casts_before_the_sum(shape):
    """CopyBackwards casts the gradient to src's dtype itself; the engine then sums it to
    src's shape: a create_graph gradient is SumBackward0 over ToCopyBackward0."""
    def scenario(m):
        def names(g, depth=4):
            if g is None or depth == 0:
                return []
            return [type(g).__name__, [names(n, depth - 1) for n, _ in g.next_functions]]

        def run():
            v0 = m.zeros(shape)
            v1 = m.tensor(1.764, dtype=m.float64, requires_grad=True)
            v0.copy_(v1)
            g = m.autograd.grad(v0.exp().sum(), [v1], create_graph=True)[0]
            return [g.item(), str(g.dtype), names(g.grad_fn)]
        return [run]
    ours, theirs = _outcomes(scenario)
    assert ours[0][:2] == theirs[0][:2] and ours[0][2] == theirs[0][2]


def test_fuzzer_excuses_pytorchs_own_zerotensor_mutation_in_backward():
    """PyTorch's engine sums abs's gradients of a one-element dual in place into the
    ZeroTensor tangent it made ("ZeroTensors are immutable", pytorch#69855's class): the
    fuzzer treats it as PyTorch's bug at backward lines only; an in-place op of the
    program's own on a zero tangent is still compared."""
    from tests.differential import Raised
    from tests.fuzz.core import _torch_bug
    raised = {"raised": Raised("RuntimeError", "ZeroTensors are immutable. Please materialize "
                                               "the tensor using `.clone()`, if you want a "
                                               "mutable zero tensor.")}
    assert _torch_bug(raised, "v2.backward()")
    assert _torch_bug(raised, "v5 = torch.autograd.grad(v4.sum(), [v0])[0]")
    assert not _torch_bug(raised, "v3.add_(1)")


@pytest.mark.parametrize("name", ["logaddexp", "logaddexp2"])
def test_logaddexp_with_a_bool_operand_refuses_its_derivative(name):
    """logaddexp's formulas compute other - self: a bool operand raises the bool
    subtraction error at backward and under forward AD; an integer one computes."""
    def scenario(m):
        op = getattr(m, name)
        fa = m.autograd.forward_ad

        def grad(other):
            x = m.tensor(1.5, requires_grad=True)
            op(x, other).sum().backward()
            return x.grad

        def tangent():
            with fa.dual_level():
                x = fa.make_dual(m.tensor(1.5), m.tensor(1.0))
                return fa.unpack_dual(op(x, m.tensor(True))).tangent
        return [lambda: grad(m.tensor(True)), lambda: grad(m.tensor([True, False])),
                tangent, lambda: grad(m.tensor(2))]
    ours, theirs = _outcomes(scenario)
    assert ours[:3] == theirs[:3]
    assert abs(ours[3] - theirs[3]) < 1e-6


def test_vmap_of_a_binary_function_is_batch_first_not_a_view():
    """The batched binary rule's result is batch-first and not a view (detach_() takes
    it), laid out as TensorIterator lays out the front-moved input's result."""
    def scenario(m):
        def seg(t):
            return (t * t).sin() * 2

        def detach(in_dims):
            v = m.vmap(seg, in_dims=in_dims, out_dims=0)(m.tensor([[1.76, 0.4], [0.98, 2.24]]))
            v.detach_()
            return list(v.stride())
        base = m.arange(24.).reshape(2, 3, 4)
        return [lambda: detach(-1), lambda: detach(0),
                lambda: list(m.vmap(seg, in_dims=1)(base[:, ::2]).stride()),
                lambda: list(m.vmap(seg, in_dims=1, out_dims=2)(base[:, ::2]).stride())]
    ours, theirs = _outcomes(scenario)
    assert ours == theirs


@pytest.mark.parametrize("name", ["remainder", "fmod", "mul", "add"])
def test_a_node_that_saved_nothing_runs_again(name):
    """remainder's node saves self and other only when other requires grad: with self alone
    it saved nothing, and a second backward runs (PyTorch's unset SavedVariables)."""
    def scenario(m):
        def run():
            x = m.tensor(1.764, requires_grad=True)
            y = getattr(m, name)(x, m.tensor(1.5))
            y.backward()
            y.backward()
            return x.grad
        return [run]
    ours, theirs = _outcomes(scenario)
    assert ours == theirs


def test_an_unpacked_saved_output_shares_its_version_counter():
    """A saved output unpacked under create_graph shares the output's version counter: an
    in-place change of prod's result after autograd.grad(retain_graph=False) fails the
    double backward with the version error, before the freed node is reached."""
    def scenario(m):
        def run(shape):
            v0 = m.ones(shape, requires_grad=True)
            v1 = v0.prod()
            v2 = m.autograd.grad(v1, [v0], retain_graph=False, create_graph=True)[0]
            v1.add_(1)
            v2.sum().backward()
        return [lambda: run((0,)), lambda: run((3,))]
    ours, theirs = _outcomes(scenario)
    assert ours == theirs
    assert "modified by an inplace operation" in theirs[0][1]


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_trigamma_of_half_types_is_computed_in_float(dtype):
    """trigamma of a half type is ATen's trigamma(float), rounded: at a pole float's sin(pi
    x) is not 0 (3.2e14 at -2 in bfloat16, not 1.6e32)."""
    def scenario(m):
        x = m.tensor([-2.0, -1.999, 0.5, 3.3, -0.5, -7.25], dtype=getattr(m, dtype))
        return [lambda: m.polygamma(1, x).float(), lambda: m.digamma(x).float()]
    ours, theirs = _outcomes(scenario)
    np.testing.assert_array_equal(np.array(ours), np.array(theirs))  # (NaNs equal)


def test_all_any_results_are_contiguous():
    """all/any are reductions: their results are contiguous whatever the input's layout
    (a view(-1) of them works), 0-d for a full reduction."""
    def scenario(m):
        x = m.arange(12.).reshape(2, 3, 2).transpose(0, 1)
        return [lambda f=f, d=d: list(getattr(x, f)(d).stride()) for f in ("all", "any")
                for d in (0, 1, 2, -1)] + [
            lambda: x.all(2).view(-1), lambda: list(x.any().shape),
            lambda: list(x.all(2, keepdim=True).stride())]
    ours, theirs = _outcomes(scenario)
    assert ours == theirs


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_qr_of_a_column_headed_by_a_negative_zero(dtype):
    """MKL's Householder reflects a column whose head is -0.0 as one headed by +0.0: R's
    diagonal is -|x| (gfortran's SIGN took the zero's sign)."""
    def scenario(m):
        dt = getattr(m, dtype)
        cases = [[[0.0], [1.5]], [[-0.0], [1.5]], [[-0.0], [-1.5]], [[-0.0, 1.0], [1.5, 2.0]]]
        return [lambda a=a: [t.tolist() for t in m.linalg.qr(m.tensor(a, dtype=dt))]
                for a in cases] + [lambda: m.geqrf(m.tensor([[-0.0], [1.5]], dtype=dt))[1]]
    ours, theirs = _outcomes(scenario)
    assert ours == theirs


def test_bce_with_logits_gradient_versions():
    """binary_cross_entropy_with_logits_backward writes its fresh gradient in place:
    sigmoid().sub_(target).mul_(grad) for the input, then mul_(weight), div_ for a mean and
    pos_weight's two steps, for the input and the target alike: their _version."""
    def scenario(m):
        F = m.nn.functional

        def run(reduction, weight, pos_weight, which):
            x = m.tensor([0.3, -0.2], requires_grad=which == "input")
            t = m.tensor([0.5, 0.25], requires_grad=which == "target")
            loss = F.binary_cross_entropy_with_logits(
                x, t, weight=None if weight is None else m.tensor(weight),
                pos_weight=None if pos_weight is None else m.tensor(pos_weight),
                reduction=reduction)
            g = m.autograd.grad(loss.sum(), [x if which == "input" else t])[0]
            return [g._version, g.tolist()]
        return [lambda r=r, w=w, p=p, k=k: run(r, w, p, k) for r in ("mean", "sum", "none")
                for w in (None, [2.0, 3.0]) for p in (None, [1.5, 0.5])
                for k in ("input", "target")]
    ours, theirs = _outcomes(scenario)
    assert [o[0] for o in ours] == [t[0] for t in theirs]
    np.testing.assert_allclose([o[1] for o in ours], [t[1] for t in theirs], rtol=1e-6)
