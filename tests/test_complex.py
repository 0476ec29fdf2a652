"""Gradients of complex tensors against PyTorch (Note [Complex gradients] in
autograd/graph.py): the conjugate Wirtinger convention for holomorphic ops, element moves,
reductions and products, a complex gradient reaching a real input (its real part), abs /
sgn (complex-aware formulas), in both interpretations of the formulas (create_graph) and
in forward mode. The table samples (tests/op_db_fft.py, ``cx_*``) add gradcheck,
gradgradcheck and node names."""
import sys

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

R = np.random.default_rng(0)
Z = R.standard_normal((3, 4)) + 1j * R.standard_normal((3, 4))
W = R.standard_normal((3, 4)) + 1j * R.standard_normal((3, 4))
X = R.standard_normal((3, 4))

OPS = {
    "mul": lambda m, a, b: a * b,
    "div": lambda m, a, b: a / b,
    "add_sub": lambda m, a, b: a + 2 * b - a * (1 - 2j) * a,
    "mul_real_leaf": lambda m, a, b: a * m.tensor(X, requires_grad=False) * b,
    "exp": lambda m, a, b: m.exp(a) * b,
    "log": lambda m, a, b: m.log(a) * b,
    "sin_cos": lambda m, a, b: m.sin(a) + m.cos(b),
    "tanh_sigmoid": lambda m, a, b: m.tanh(a) * m.sigmoid(b),
    "sqrt_rsqrt": lambda m, a, b: m.sqrt(a) + m.rsqrt(b),
    "pow": lambda m, a, b: a ** 3 + a ** b,
    "reciprocal_square": lambda m, a, b: m.reciprocal(a) + m.square(b),
    "sum_mean_prod": lambda m, a, b: a.sum(0) * b.mean(0) + a.prod(1).sum(),
    "cumsum": lambda m, a, b: m.cumsum(a * b, 1),
    "matmul": lambda m, a, b: a @ b.transpose(0, 1),
    "mm_dot": lambda m, a, b: m.mm(a, b.t()).sum() + m.dot(a[0], b[1]),
    "vdot": lambda m, a, b: m.vdot(a[0] * b[2], b[1] * a[1]),
    "einsum_addmm": lambda m, a, b: m.einsum("ij,kj->ik", a, b) + m.addmm(a[:, :3], a, b.t()),
    "var_norm": lambda m, a, b: a.var(1) * b[:, 0] + (a * b).norm(),
    "reshape_index_cat": lambda m, a, b: m.cat([a.reshape(4, 3)[1:] * b[0, 1], b.flip(0)[:, :3]]),
    "expand_broadcast": lambda m, a, b: a[:1] * b,
    "where": lambda m, a, b: m.where(m.tensor(X) > 0, a * a, b),
    "abs": lambda m, a, b: (a * b).abs(),
    "sgn": lambda m, a, b: m.sgn(a * b),
    "conj": lambda m, a, b: a.conj() * b,
    "real_imag": lambda m, a, b: (a * b).real * (a - b).imag,
    "view_as_real": lambda m, a, b: m.view_as_real(a * b) ** 2,
    "fft_filter": lambda m, a, b: m.fft.ifft(m.fft.fft(a) * b).abs(),
}


def _loss(m, y):
    w = np.arange(1, y.numel() + 1, dtype=np.float64).reshape(tuple(y.shape)) / y.numel()
    if y.is_complex():
        y = m.view_as_real(y.resolve_conj())
        w = np.stack([w, -2 * w], -1)
    return (y * m.tensor(w)).sum()


def _grads(m, name, create_graph):
    a = m.tensor(Z, requires_grad=True)
    b = m.tensor(W, requires_grad=True)
    y = OPS[name](m, a, b)
    ga, gb = m.autograd.grad(_loss(m, y), (a, b), create_graph=create_graph)
    out = [ga.detach().resolve_conj().numpy(), gb.detach().resolve_conj().numpy()]
    if create_graph:  # and a second derivative through the recorded backward
        h, = m.autograd.grad(_loss(m, ga * (0.5 + 1j) + gb), a, allow_unused=True)
        out.append(None if h is None else h.resolve_conj().numpy())
    return out


# the linear-algebra family conjugates in its own formulas and refuses a recorded complex
# backward graph for now (Note [Complex gradients of products] in _ops/linalg.py)
LINALG = {"matmul", "mm_dot", "vdot", "einsum_addmm"}


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("name", list(OPS))
def test_complex_gradients_vs_torch(name, create_graph):
    if create_graph and name in LINALG:
        with pytest.raises(NotImplementedError, match="recorded backward graph"):
            _grads(autotensor, name, create_graph)
        return
    got = _grads(autotensor, name, create_graph)
    want = _grads(torch, name, create_graph)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        assert (g is None) == (w is None), i
        if g is not None:
            assert g.dtype == w.dtype, i
            np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12, err_msg=f"{name} {i}")


def test_complex_gradient_of_a_real_leaf_is_real_vs_torch():
    def run(m):
        x = m.tensor(X, requires_grad=True)
        y = m.view_as_real((x * m.tensor(Z)).exp() + x.to(m.complex128) * 1j).sum()
        g, = m.autograd.grad(y, x)
        assert g.dtype == m.float64
        return g.numpy()

    np.testing.assert_allclose(run(autotensor), run(torch), rtol=1e-12)


@pytest.mark.parametrize("name", ["abs", "sgn", "mul", "exp", "matmul", "fft_filter"])
def test_complex_forward_mode_vs_torch(name):
    def run(m):
        fw = m.autograd.forward_ad
        with fw.dual_level():
            a = fw.make_dual(m.tensor(Z), m.tensor(W * 0.5 - 1j))
            y = OPS[name](m, a, m.tensor(W))
            p, t = fw.unpack_dual(y)
            return p.resolve_conj().numpy(), t.resolve_conj().numpy()

    for g, w in zip(run(autotensor), run(torch), strict=True):
        assert g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)


def test_sgn_values_vs_torch():
    z = np.array([0j, 3 - 4j, -2j, 1e-300 + 0j, np.inf + 0j])
    np.testing.assert_allclose(autotensor.sgn(autotensor.tensor(z)).numpy(),
                               torch.sgn(torch.tensor(z)).numpy())


ERRORS = [
    "m.complex(m.tensor([1]), m.tensor([2]))",
    "m.complex(m.tensor([1.0]), m.tensor([2.0], dtype=m.float64))",
    "m.polar(m.tensor([1]), m.tensor([2]))",
    "m.complex(m.tensor([1.0, 2.0]), m.tensor([1.0, 2.0, 3.0]))",
    "m.ones(3).H", "m.ones(2, 3, 4).H", "m.ones(3).mH", "m.ones(3).adjoint()",
    "m.adjoint(m.ones(3, dtype=m.complex64))",
]


@pytest.mark.parametrize("expr", ERRORS)
def test_complex_errors_vs_torch(expr):
    def run(m):
        try:
            eval(expr)
        except Exception as e:  # noqa: BLE001  (the error is what is compared)
            return type(e).__name__, str(e).split("\n")[0]
        return None

    a, t = run(autotensor), run(torch)
    assert t is not None and a == t


@pytest.mark.parametrize("expr", [
    "m.angle(m.tensor([1.0, -2.0, 0.0, -0.0, float('nan'), float('-inf')]))",
    "m.angle(m.tensor([1, -2, 0]))",
    "m.angle(m.tensor([1 + 1j, -1 + 0j, -1 - 0j, 0j, 1j]))",
    "m.complex(m.tensor([[1.0], [2.0]]), m.tensor([3.0, -4.0, 0.5]))",
    "m.polar(m.tensor([2.0, 0.0, 1.0], dtype=m.float64), m.tensor([0.5, 1.0, -3.0], "
    "dtype=m.float64))",
    "m.tensor([[1 + 2j, 3j], [4.0, 5 - 1j]]).mH.resolve_conj()",
    "m.tensor([[1 + 2j, 3j], [4.0, 5 - 1j]]).H.resolve_conj()",
    "m.tensor([[1.0, 2.0], [3.0, 4.0]]).mH",
    "m.tensor(1 + 1j).adjoint().resolve_conj()",
])
def test_complex_functions_values_vs_torch(expr):
    a = eval(expr, {"m": autotensor})
    t = eval(expr, {"m": torch})
    assert str(a.dtype) == str(t.dtype) and a.is_conj() == t.is_conj()
    np.testing.assert_allclose(a.numpy(), t.numpy(), rtol=1e-6, atol=1e-7)


# ---- a real input combined with a complex Python number (handle_r_to_c) ---------------------
SCALAR_MIXES = {
    "mul": lambda t: t * (1 + 2j),
    "add": lambda t: t + 1j,
    "div": lambda t: t / (1 + 1j),
    "rsub": lambda t: (1 + 1j) - t,
    "pow_scalar": lambda t: t ** (1 + 1j),
    "pow_scalar_base": lambda t: (1 + 1j) ** t,
    "sub_alpha": lambda t: t.sub(1j, alpha=2),
}


@pytest.mark.parametrize("name", sorted(SCALAR_MIXES))
def test_real_input_with_a_complex_number_gets_a_real_gradient_vs_torch(name):
    def run(m):
        x = m.tensor(np.abs(X) + 0.1, requires_grad=True)
        y = SCALAR_MIXES[name](x)
        g, = m.autograd.grad(y, x, m.ones_like(y) * (0.3 - 0.7j))
        return str(g.dtype).split(".")[-1], g.detach().numpy()

    (ours_dtype, ours), (want_dtype, want) = run(autotensor), run(torch)
    assert ours_dtype == want_dtype == "float64"
    np.testing.assert_allclose(ours, want, rtol=1e-12, atol=1e-14)


def test_complex_base_scalar_pow_gradient_vs_torch():
    def run(m):
        z = m.tensor(Z, requires_grad=True)
        y = (1 + 1j) ** z
        g, = m.autograd.grad(y, z, m.ones_like(y) * (0.3 - 0.7j))
        return g.detach().numpy()

    np.testing.assert_allclose(run(autotensor), run(torch), rtol=1e-12)


# ---- gradcheck of complex functions (PyTorch's real/imaginary split) -----------------------
GRADCHECKED = {
    "z*z": (lambda t: t * t, "c"),
    "abs": (lambda t: t.abs(), "c"),
    "exp": (lambda t: t.exp(), "c"),
    "conj*z": (lambda t: t.conj() * t, "c"),
    "real->complex": (lambda t: t * (1 + 2j), "r"),
    "angle": (lambda t: t.angle(), "c"),
    "view_as_real": (lambda t: autotensor.view_as_real(t), "c"),
}


@pytest.mark.parametrize("fast_mode", [False, True])
@pytest.mark.parametrize("name", sorted(GRADCHECKED))
def test_gradcheck_of_complex_functions(name, fast_mode):
    f, kind = GRADCHECKED[name]
    x = autotensor.tensor(Z[0] if kind == "c" else X[0], requires_grad=True)
    assert autotensor.autograd.gradcheck(f, (x,), fast_mode=fast_mode)
    assert autotensor.autograd.gradgradcheck(f, (x,), fast_mode=fast_mode)


@pytest.mark.parametrize("fast_mode", [False, True])
def test_gradcheck_catches_a_missing_conjugate_with_torchs_message(fast_mode):
    def run(m):
        class Holomorphic(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, g):
                x, = ctx.saved_tensors
                return g * 2 * x  # wrong: PyTorch's convention is g * conj(2 x)

        x = m.tensor(Z[0], requires_grad=True)
        error = sys.modules[m.__name__ + ".autograd.gradcheck"].GradcheckError
        with pytest.raises(error) as info:
            m.autograd.gradcheck(Holomorphic.apply, (x,), fast_mode=fast_mode)
        return str(info.value).splitlines()[0]

    assert run(autotensor) == run(torch)
