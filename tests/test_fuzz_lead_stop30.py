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
                out.append(np.asarray(r.detach().resolve_conj().numpy() if hasattr(r, "numpy")
                                      else r).tolist())
            except Exception as e:  # (the error is what is compared)
                out.append((type(e).__name__, str(e)[:90]))
        return out
    return run(autotensor), run(torch)


_REPRODUCERS = [f"pending_stop29/last_repro_{n:03d}.py" for n in (1, 2, 3, 4, 5)]


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
