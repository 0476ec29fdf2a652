"""Stop 37 (helper half37): float16/bfloat16 layer_norm and polygamma bit for bit against
PyTorch's CPU kernels (tests/fuzz/OPEN_FINDINGS.md, Stop 37 (half layer_norm and
polygamma)): Note [Layer norm's half backward] and the reduced-type RowwiseMoments (Note
[Layer norm's moments]) in _ops/nn_ops.py, native_layer_norm_backward's jvp decomposition
under forward-over-reverse, Note [PyTorch's polygamma] in _ops/_specfun.py."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

_HALF = ("float16", "bfloat16")


@pytest.fixture(params=[1, 2], ids=["1thread", "2threads"])
def _threads(request):
    n, m = torch.get_num_threads(), autotensor.get_num_threads()
    torch.set_num_threads(request.param)
    autotensor.set_num_threads(request.param)
    yield
    torch.set_num_threads(n)
    autotensor.set_num_threads(m)


def _bits(t):
    return t.detach().float().numpy().view(np.uint32)


def _layer_norm(M, x, w, b, g, dtype, pdtype):
    X = M.from_numpy(x).to(getattr(M, dtype)).requires_grad_(True)
    W = None if w is None else M.from_numpy(w).to(getattr(M, pdtype)).requires_grad_(True)
    B = None if b is None else M.from_numpy(b).to(getattr(M, pdtype)).requires_grad_(True)
    y, mean, rstd = (M.ops.aten.native_layer_norm if M is torch else M.native_layer_norm)(
        X, [x.shape[-1]], W, B, 1e-5)
    y.backward(M.from_numpy(g).to(y.dtype))
    return [_bits(t) for t in (y, mean, rstd, X.grad) + tuple(
        t.grad for t in (W, B) if t is not None)]


# every row length 1..70 (the 2 W = 16 element vectors, their float halves, the tails),
# rows of 3 and 7 (thread blocks), no / half / float32 (mixed) affine parameters
@pytest.mark.parametrize("dtype", _HALF)
@pytest.mark.parametrize("mode", ["none", "w", "wb", "wb32"])
def test_layer_norm_half_bit_for_bit(dtype, mode, _threads):
    rng = np.random.default_rng(37)
    bad = {}
    for n in range(1, 71):
        for rows in (3, 7):
            x = rng.standard_normal((rows, n)) * rng.choice([0.5, 1, 3])
            if rng.random() < 0.3:
                x += rng.standard_normal()
            g = rng.standard_normal((rows, n))
            w = None if mode == "none" else rng.standard_normal(n)
            b = rng.standard_normal(n) if mode in ("wb", "wb32") else None
            pdt = "float32" if mode == "wb32" else dtype
            want = _layer_norm(torch, x, w, b, g, dtype, pdt)
            got = _layer_norm(autotensor, x, w, b, g, dtype, pdt)
            for k, (a, c) in enumerate(zip(want, got)):
                d = int((a != c).sum())
                if d:
                    bad[(n, rows, ("y", "mean", "rstd", "gx", "gw", "gb")[k])] = d
    assert not bad, f"differing elements: {bad}"


# longer rows: several chunks of RowwiseMoments' counter, dgamma over 40 rows (within
# _LN_EXACT_MAX elements)
@pytest.mark.parametrize("dtype", _HALF)
def test_layer_norm_half_long_rows(dtype):
    rng = np.random.default_rng(7)
    for n, mode in ((257, "wb"), (400, "wb32"), (130, "none")):
        x = rng.standard_normal((40, n)) * 2 + 1
        g = rng.standard_normal((40, n))
        w = None if mode == "none" else rng.standard_normal(n)
        b = None if mode == "none" else rng.standard_normal(n)
        pdt = "float32" if mode == "wb32" else dtype
        want = _layer_norm(torch, x, w, b, g, dtype, pdt)
        got = _layer_norm(autotensor, x, w, b, g, dtype, pdt)
        for k, (a, c) in enumerate(zip(want, got)):
            assert (a == c).all(), f"{n} {mode} output {k}: {(a != c).sum()} of {a.size}"


def _dual_grads(M, x, t, g, w, dtype):
    with M.autograd.forward_ad.dual_level():
        leaf = M.tensor(x, dtype=getattr(M, dtype), requires_grad=True)
        v = M.autograd.forward_ad.make_dual(leaf, M.tensor(t, dtype=leaf.dtype))
        ws = [] if w is None else [M.tensor(a, dtype=leaf.dtype, requires_grad=True)
                                   for a in w]
        y = M.nn.functional.layer_norm(v, (x.shape[-1],), *ws)
        y.backward(M.tensor(g, dtype=y.dtype), inputs=[v] + ws)
        outs = [v.grad] + [a.grad for a in ws]
        return [M.autograd.forward_ad.unpack_dual(o) for o in outs]


# forward-over-reverse (a dual input, then backward): PyTorch's gradients are its jvp
# decomposition's values, op by op in the dtype (the fuzzer's fin30_repro_006: [0,
# 0.002865], the kernel's [0.000785, 0.000449]), their tangents its ops' rules
@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_layer_norm_forward_over_reverse(dtype):
    rng = np.random.default_rng(3)
    for trial in range(24):
        n, rows = int(rng.integers(1, 20)), int(rng.integers(1, 4))
        x, t, g = (rng.standard_normal((rows, n)) for _ in range(3))
        w = None if trial % 2 else [rng.standard_normal(n), rng.standard_normal(n)]
        want = _dual_grads(torch, x, t, g, w, dtype)
        got = _dual_grads(autotensor, x, t, g, w, dtype)
        for a, c in zip(want, got):
            assert (_bits(a.primal) == _bits(c.primal)).all(), (n, rows, trial)
            assert (a.tangent is None) == (c.tangent is None)
            if a.tangent is not None:
                np.testing.assert_allclose(c.tangent.float().numpy(), a.tangent.float().numpy(),
                                           rtol=2e-2 if dtype != "float32" else 1e-4, atol=1e-3)


def test_layer_norm_reproducer_fin30_006():
    x = np.array([1.763671875, 0.39990234375])
    got = []
    for M in (torch, autotensor):
        with M.autograd.forward_ad.dual_level():
            v = M.autograd.forward_ad.make_dual(
                M.tensor(x, dtype=M.float16, requires_grad=True),
                M.tensor([1.624, -0.612], dtype=M.float16))
            M.nn.functional.layer_norm(v, (2,)).exp().sum().backward(inputs=[v])
            got.append(_bits(M.autograd.forward_ad.unpack_dual(v.grad).primal))
    assert (got[0] == got[1]).all()


# the zero signs of the gradient's tangent (helper zt36's open layer_norm cases): a
# 1-element dual and a zero-tensor grad_outputs
@pytest.mark.parametrize("shape", [(1,), (1, 1), (3,), (2, 3)])
def test_layer_norm_gradient_tangent_zero_signs(shape):
    def run(M):
        x = M.tensor(np.linspace(-1, 1.5, int(np.prod(shape))).reshape(shape),
                     dtype=M.float64, requires_grad=True)
        with M.autograd.forward_ad.dual_level():
            d = M.autograd.forward_ad.make_dual(x, M.ones_like(x))
            y = M.nn.functional.layer_norm(d, d.shape[-1:])
            (gx,) = M.autograd.grad(y, d, M.ones_like(y))
            return np.signbit(M.autograd.forward_ad.unpack_dual(gx).tangent.numpy())
    assert (run(torch) == run(autotensor)).all()


# polygamma for n >= 2: zeta<Half> in float, rounded to the half type before the product
@pytest.mark.parametrize("dtype", _HALF)
def test_polygamma_half_bit_for_bit(dtype):
    rng = np.random.default_rng(0)
    xs = np.concatenate([rng.uniform(-10, 10, 1500), rng.uniform(0, 100, 1000),
                         np.exp(rng.uniform(-5, 9, 1000)), -np.exp(rng.uniform(-3, 4, 500)),
                         np.arange(-5, 50, 0.25), [0, -0.0, 1, 2, 5336, 6e4, np.inf, -np.inf,
                                                   np.nan]])
    for n in (2, 3, 4, 5, 7, 10):
        want = torch.polygamma(n, torch.tensor(xs, dtype=getattr(torch, dtype)))
        got = autotensor.polygamma(n, autotensor.tensor(xs, dtype=getattr(autotensor, dtype)))
        w, g = want.float().numpy(), got.float().numpy()
        same = (w.view(np.uint32) == g.view(np.uint32)) | (np.isnan(w) & np.isnan(g))
        assert same.all(), f"n={n}: {(~same).sum()} differ, at {xs[~same][:5]}"


def test_polygamma_reproducer_e_003():
    x = torch.tensor([5336.0, 100.0], dtype=torch.float16)
    want = _bits(torch.polygamma(2, x))
    got = _bits(autotensor.polygamma(2, autotensor.tensor([5336.0, 100.0],
                                                          dtype=autotensor.float16)))
    assert (want == got).all()   # (-0.0 and -1.0097e-04)


# float64 runs the same steps in double with correctly rounded powers: only glibc's own
# misroundings of pow remain (0.07% of the values here, an ulp; the asymptotic series before
# differed on 69-100%)
def test_polygamma_float64_steps():
    rng = np.random.default_rng(0)
    xs = np.concatenate([rng.uniform(-10, 10, 1500), rng.uniform(0, 100, 1000),
                         np.exp(rng.uniform(-5, 9, 1000))])
    for n in (2, 3, 5, 10):
        want = torch.polygamma(n, torch.tensor(xs)).numpy()
        got = autotensor.polygamma(n, autotensor.tensor(xs)).numpy()
        differ = want != got
        assert differ.sum() <= 0.005 * xs.size, (n, differ.sum())
        np.testing.assert_allclose(got, want, rtol=4e-16, atol=0)


# float32: zeta<float> in double with its first term powf (float arguments), the product
# in float; only libm's misroundings of powf/pow remain (~0.03% of the values here, an ulp;
# were 6% for zeta, 7-100% for polygamma)
def test_zeta_and_polygamma_float32_steps():
    rng = np.random.default_rng(1)
    x = np.concatenate([rng.uniform(1, 12, 2000), rng.uniform(1, 3, 1000)]).astype(np.float32)
    q = np.concatenate([rng.uniform(-10, 50, 2000), rng.uniform(0.001, 3, 1000)]).astype(
        np.float32)
    want = torch.special.zeta(torch.tensor(x), torch.tensor(q)).numpy()
    got = autotensor.special.zeta(autotensor.tensor(x), autotensor.tensor(q)).numpy()
    differ = (want != got) & ~(np.isnan(want) & np.isnan(got))
    assert differ.sum() <= 3, differ.sum()
    for n in (2, 3, 5, 10):
        want = torch.polygamma(n, torch.tensor(q)).numpy()
        got = autotensor.polygamma(n, autotensor.tensor(q)).numpy()
        differ = (want != got) & ~(np.isnan(want) & np.isnan(got))
        assert differ.sum() <= 3, (n, differ.sum())


def test_zeta_infinite_q():
    for dt in ("float32", "float64"):
        args = ([2.0, 3.0], [float("inf"), float("-inf")])
        want = torch.special.zeta(*(torch.tensor(a, dtype=getattr(torch, dt)) for a in args))
        got = autotensor.special.zeta(*(autotensor.tensor(a, dtype=getattr(autotensor, dt))
                                        for a in args))
        np.testing.assert_array_equal(got.numpy(), want.numpy())
