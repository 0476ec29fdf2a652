"""Forward mode with a tangent whose dtype differs from its primal's (stop 36, helper mix36):
tangent dtype, values and errors as PyTorch's, found by tests/tangent_dtype_sweep.py."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

PAIRS = (("float16", "float32"), ("bfloat16", "float64"), ("float32", "float64"),
         ("float64", "float32"), ("float32", "float16"), ("float64", "bfloat16"))


def _outcome(m, f):
    """(tangent dtype, its bits as float64) per output, or (error type, message)."""
    try:
        y = f()
    except Exception as e:  # (the type and message are what is compared)
        return type(e).__name__, str(e).split("\n")[0]
    outs = y if isinstance(y, (tuple, list)) else (y,)
    res = []
    for v in outs:
        t = m.autograd.forward_ad.unpack_dual(v).tangent
        res.append(None if t is None else
                   (str(t.dtype).split(".")[-1], t.detach().double().numpy().tobytes()))
    return res


def _run(m, case, primal, tangent, no_grad, shape=(2, 3), seed=0):
    fa = m.autograd.forward_ad
    r = np.random.default_rng(seed)
    x = m.tensor(r.uniform(0.2, 0.9, shape)).to(getattr(m, primal))
    t = m.tensor(r.integers(-8, 9, shape) / 4.0).to(getattr(m, tangent))
    with fa.dual_level():
        x = fa.make_dual(x, t)
        if no_grad:
            with m.no_grad():
                return _outcome(m, lambda: case(m, x, primal, tangent))
        return _outcome(m, lambda: case(m, x, primal, tangent))


def _check(case, shape=(2, 3), pairs=PAIRS):
    for primal, tangent in pairs:
        for no_grad in (False, True):
            got = _run(autotensor, case, primal, tangent, no_grad, shape)
            want = _run(torch, case, primal, tangent, no_grad, shape)
            assert got == want, (primal, tangent, no_grad, got, want)


_F = lambda m: m.nn.functional  # noqa: E731
_LINEAR = {
    "max_pool1d": ((1, 2, 6), lambda m, x, p, t: _F(m).max_pool1d(x, 2)),
    "max_pool2d": ((1, 2, 4, 4), lambda m, x, p, t: _F(m).max_pool2d(x, 2)),
    "max_pool3d": ((1, 1, 4, 4, 2), lambda m, x, p, t: _F(m).max_pool3d(x, 2)),
    "max_pool2d indices": ((1, 2, 4, 4), lambda m, x, p, t: _F(m).max_pool2d(
        x, 2, return_indices=True)),
    "avg_pool1d": ((1, 2, 6), lambda m, x, p, t: _F(m).avg_pool1d(x, 2)),
    "avg_pool2d": ((1, 2, 4, 4), lambda m, x, p, t: _F(m).avg_pool2d(x, 2)),
    "avg_pool3d": ((1, 1, 4, 4, 2), lambda m, x, p, t: _F(m).avg_pool3d(x, 2)),
    "adaptive_max_pool2d": ((1, 2, 4, 4), lambda m, x, p, t: _F(m).adaptive_max_pool2d(x, 1)),
    "lp_pool1d": ((1, 2, 6), lambda m, x, p, t: _F(m).lp_pool1d(x, 2, 2)),
    "interpolate area": ((1, 2, 4), lambda m, x, p, t: _F(m).interpolate(
        x, scale_factor=0.5, mode="area")),
    "interpolate bilinear": ((1, 1, 2, 3), lambda m, x, p, t: _F(m).interpolate(
        x, scale_factor=2, mode="bilinear")),
    "adaptive_avg_pool3d": ((1, 1, 4, 4, 2), lambda m, x, p, t: _F(m).adaptive_avg_pool3d(
        x, (2, 2, 1))),
    "reflection pad": ((1, 2, 4), lambda m, x, p, t: _F(m).pad(x, (2, 1), mode="reflect")),
    "fold": ((1, 4, 4), lambda m, x, p, t: _F(m).fold(x, (3, 3), 2)),
    "max_unpool1d": ((1, 2, 6), lambda m, x, p, t: _F(m).max_unpool1d(
        *_F(m).max_pool1d(x, 2, return_indices=True), 2)),
    "embedding": ((4, 3), lambda m, x, p, t: _F(m).embedding(m.tensor([2, 0, 2]), x)),
}


def test_antialiased_upsampling_refuses_a_half_tangent():
    """_upsample_bilinear2d_aa(self_t): its kernel refuses a half tangent."""
    _check(lambda m, x, p, t: _F(m).interpolate(x, size=(3, 3), mode="bilinear",
                                                 antialias=True),
           (1, 1, 4, 4), pairs=(("float32", "float16"), ("float64", "bfloat16")))


@pytest.mark.parametrize("name", sorted(_LINEAR))
def test_linear_rules_keep_the_tangents_dtype(name):
    """Pools, upsampling, pads, fold, unpool and embedding apply the op (or a gather) to the
    tangent in PyTorch, so the tangent keeps its own dtype (a float16 primal's float32
    tangent pools to float32) and meets the kernel's checks (avg_pool3d and anti-aliased
    upsampling refuse a half tangent); ours kept the primal's dtype."""
    shape, f = _LINEAR[name]
    _check(f, shape)


_CONV = {
    "conv1d self weight": ((1, 2, 3), lambda m, x, p, t: _F(m).conv1d(x, x[:1])),
    "conv1d plain weight": ((1, 2, 5), lambda m, x, p, t: _F(m).conv1d(
        x, m.ones(3, 2, 2, dtype=getattr(m, p)))),
    "conv2d plain input": ((3, 2, 2, 2), lambda m, x, p, t: _F(m).conv2d(
        m.ones(1, 2, 4, 4, dtype=getattr(m, p)), x)),
    "conv_transpose1d": ((1, 2, 5), lambda m, x, p, t: _F(m).conv_transpose1d(
        x, m.ones(2, 3, 2, dtype=getattr(m, p)))),
    "conv1d bias tangent": ((3,), lambda m, x, p, t: _F(m).conv1d(
        m.ones(1, 2, 5, dtype=getattr(m, p)), m.ones(3, 2, 2, dtype=getattr(m, p)), x)),
}


@pytest.mark.parametrize("name", sorted(_CONV))
def test_convolution_refuses_tangents_of_another_dtype(name):
    """_convolution_jvp convolves input_p with weight_t, then input_t with weight_p (and
    bias_t, whose dtype is not checked): a tangent of another dtype than the other primal
    is the convolution's refusal (mkldnn's words for a bfloat16 input); ours computed."""
    shape, f = _CONV[name]
    _check(f, shape)


_LINALG = {
    "det": ((3, 3), lambda m, x, p, t: m.linalg.det(x)),
    "det batched": ((2, 2, 2), lambda m, x, p, t: x.det()),
    "slogdet": ((3, 3), lambda m, x, p, t: m.linalg.slogdet(x)),
    "eigh": ((3, 3), lambda m, x, p, t: m.linalg.eigh(x + x.mT)),
    "eigvalsh batched": ((2, 3, 3), lambda m, x, p, t: m.linalg.eigvalsh(x + x.mT)),
    "lu": ((3, 3), lambda m, x, p, t: m.linalg.lu(x)),
    "lu_factor": ((3, 2), lambda m, x, p, t: m.linalg.lu_factor(x)[0]),
    "cholesky_inverse": ((3, 3), lambda m, x, p, t: m.cholesky_inverse(x.tril())),
    "householder_product": ((3, 2), lambda m, x, p, t: m.linalg.householder_product(
        x, m.ones(2, dtype=x.dtype))),
    "lstsq": ((4, 3), lambda m, x, p, t: m.linalg.lstsq(x, m.ones(4, 2, dtype=x.dtype))[0]),
    "triangular_solve": ((3, 3), lambda m, x, p, t: m.triangular_solve(
        m.ones(3, 2, dtype=x.dtype), x.triu())),
}


@pytest.mark.parametrize("name", sorted(_LINALG))
def test_linear_algebra_refuses_tangents_of_another_dtype(name):
    """PyTorch's rules multiply or solve the tangent with the primal's factors (eigh_jvp's
    V^H A_t V, linalg_det_jvp's lu_solve(LU, pivots, A_t)), whose kernels refuse two dtypes,
    primal or tangent first as the formula has them; ours promoted, cast or refused in
    another order."""
    shape, f = _LINALG[name]
    _check(f, shape, pairs=(("float32", "float64"), ("float64", "float32"),
                            ("float32", "float16"), ("float64", "bfloat16")))


_RULES = {
    "angle": ((2, 3), lambda m, x, p, t: m.angle(x - 0.5)),
    "dist": ((2, 3), lambda m, x, p, t: m.dist(x, x.flip(0))),
    "dist p=1": ((2, 3), lambda m, x, p, t: m.dist(x, x.flip(1), 1)),
    "dist p=3": ((2, 3), lambda m, x, p, t: m.dist(x, x.flip(1), 3)),
    "dist other plain": ((2, 3), lambda m, x, p, t: m.dist(
        x, m.ones(2, 3, dtype=getattr(m, t)) * 0.5)),
    "bce": ((2, 3), lambda m, x, p, t: _F(m).binary_cross_entropy(x, x * 0 + 0.5)),
    "index_copy_ plain source": ((2, 3), lambda m, x, p, t: x.clone().index_copy_(
        0, m.tensor([1]), m.ones(1, 3, dtype=getattr(m, p)))),
    "masked_scatter_ plain source": ((2, 3), lambda m, x, p, t: x.clone().masked_scatter_(
        x > 0.5, m.ones(2, 3, dtype=getattr(m, p)))),
    "put_ plain source": ((2, 3), lambda m, x, p, t: x.clone().put_(
        m.tensor([1, 4]), m.ones(2, dtype=getattr(m, p)))),
    "logit": ((2, 3), lambda m, x, p, t: x.logit()),
    "logdet": ((3, 3), lambda m, x, p, t: m.logdet(x.tril() + x.tril().mT)),
    "logit eps": ((2, 3), lambda m, x, p, t: x.logit(0.3)),
    "maximum plain other": ((2, 3), lambda m, x, p, t: m.maximum(
        x, m.full((2, 3), 0.5, dtype=getattr(m, t)))),
    "minimum plain other": ((2, 3), lambda m, x, p, t: m.minimum(
        x, m.full((3,), 0.5, dtype=getattr(m, t)))),
    "fmod plain other": ((2, 3), lambda m, x, p, t: m.fmod(
        x, m.full((2, 3), 0.3, dtype=getattr(m, t)))),
    "ldexp int exponent": ((2, 3), lambda m, x, p, t: m.ldexp(x, m.tensor([1, -2, 3]))),
    "xlogy plain other": ((2, 3), lambda m, x, p, t: m.xlogy(
        x, m.full((2, 3), 0.3, dtype=getattr(m, t)))),
}


@pytest.mark.parametrize("name", sorted(_RULES))
def test_rules_with_a_tangent_of_another_dtype(name):
    """angle of a real tensor: zeros of self's dtype; dist: norm_jvp of the promoted
    difference (p=1 in the primals' dtype); bce: binary_cross_entropy_backward(self_t,
    self_p) refuses two dtypes, the target's term is written into self's dtype;
    index_copy_/masked_scatter_/put_ refuse as the op does; tanh/sigmoid (and logit under
    no_grad) run their backward kernels in the common dtype; maximum's weight (the result's
    dtype) and fmod/xlogy/ldexp's other_t * primals term promote a missing tangent's zero
    tensor, under no_grad too."""
    shape, f = _RULES[name]
    _check(f, shape)


def test_triangular_solve_refuses_a_wider_b_tangent():
    """triangular_solve_jvp solves dB with A: a dB of a wider dtype than A is refused (ours
    solved it; a narrower one is solved, as ours, an ulp off as with same-dtype tangents)."""
    _check(lambda m, x, p, t: m.triangular_solve(x, m.tensor(
        [[1.0, 0.5, 0.25], [0.0, 2.0, 0.5], [0.0, 0.0, 1.5]], dtype=x.dtype))[0],
        (3, 2), pairs=(("float32", "float64"), ("bfloat16", "float32")))


def test_tanh_of_a_float64_tangent_computes_in_float64():
    """tanh_backward(self_t, result) of a float64 tangent and a float32 result computes in
    float64 (ours in float32, 1e-7 off); a half result's float32 tangent likewise. (Float64
    primals are left out: their same-dtype tangents already differ by an ulp.)"""
    _check(lambda m, x, p, t: x.tanh(),
           pairs=(("float32", "float64"), ("float16", "float32"), ("float16", "float64")))


def test_bce_target_term_is_written_into_selfs_dtype():
    """binary_cross_entropy_target_backward writes into logit(self)'s buffer: a float32
    self's float64 target tangent gives a float32 tangent (ours float64). The values are
    float32 logit's, an ulp off PyTorch's already with a float32 tangent (left open)."""
    f = lambda m, x, p, t: _F(m).binary_cross_entropy(  # noqa: E731
        m.ones(2, 3, dtype=getattr(m, p)) * 0.4, x, reduction="none")
    for no_grad in (False, True):
        got = _run(autotensor, f, "float32", "float64", no_grad)
        want = _run(torch, f, "float32", "float64", no_grad)
        assert got[0][0] == want[0][0] == "float32"
        np.testing.assert_allclose(np.frombuffer(got[0][1]), np.frombuffer(want[0][1]),
                                   rtol=2.0 ** -22)
