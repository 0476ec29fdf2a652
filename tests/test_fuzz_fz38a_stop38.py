"""Stop 38 (helper fz38a): the fuzzer's reproducers of seed 10381 and the class behind them,
convolution's forward-mode rule, each run on autotensor and PyTorch (tests/fuzz/
OPEN_FINDINGS.md, Stop 38)."""
import pathlib

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

_REPRODUCERS = ["pending_stop38/fz38a_repro_001.py", "pending_stop38/fz38a_repro_002.py"]


@pytest.mark.parametrize("path", _REPRODUCERS)
def test_fuzzer_reproducers_of_fz38a(path):
    """The reproducers fixed this stop agree with PyTorch."""
    from tests.fuzz.core import run_reproducer
    run_reproducer(pathlib.Path(__file__).parent / "fuzz" / path)


# (name, input shape, weight shape, bias size or None, keyword arguments)
_CONVS = [("conv1d", (1, 0, 0), (1, 0, 0), None, {}),
          ("conv1d", (0, 2, 3), (1, 2, 2), 1, {}),
          ("conv1d", (2, 4, 9), (6, 2, 3), 6, {"groups": 2}),
          ("conv2d", (1, 3, 5, 5), (2, 3, 3, 3), None, {"padding": 1}),
          ("conv_transpose1d", (2, 4, 5), (4, 3, 3), 3, {"stride": 2}),
          ("conv3d", (1, 2, 3, 3, 3), (3, 2, 2, 2, 2), 3, {})]


def _conv_tangent(mod, case, tangents, requires_grad):
    """The tangent of a convolution whose inputs have the given tangents (input, weight,
    bias) and primals that require grad: PyTorch's convolution_jvp is
    convolution(input_t, weight_p) + convolution(input_p, weight_t, bias_t), a missing
    tangent a zero tensor, so each term records while its primal requires grad."""
    name, si, sw, nb, kw = case
    fw = mod.autograd.forward_ad
    rng = np.random.default_rng(38)
    shapes = (si, sw, (nb,) if nb else None)
    primals = [None if s is None else mod.tensor(rng.standard_normal(s), requires_grad=rg)
               for s, rg in zip(shapes, requires_grad)]
    with fw.dual_level():
        args = [p if p is None or not t else fw.make_dual(p, mod.tensor(
            rng.standard_normal(p.shape))) for p, t in zip(primals, tangents)]
        r = getattr(mod.nn.functional, name)(*args, **kw)
        tangent = fw.unpack_dual(r)[1]
        fn = tangent.grad_fn
        return (tangent.detach().numpy(), tangent.requires_grad, fn and fn.name(),
                fn and [n and n.name() for n, _ in fn.next_functions], tangent.stride())


_TANGENTS = [(True, False, False), (False, True, False), (True, True, False),
             (False, False, True), (True, True, True)]
_REQUIRES_GRAD = [(True, False, False), (False, True, False), (True, True, True)]


@pytest.mark.parametrize("case,tangents,requires_grad", [
    pytest.param(c, t, rg, id=f"{c[0]}{c[1]}-t{t}-rg{rg}".replace(" ", ""))
    for c in _CONVS for t in _TANGENTS for rg in _REQUIRES_GRAD if c[3] or not t[2]])
def test_convolution_tangent_graph(case, tangents, requires_grad):
    """The tangent is AddBackward0 of the two terms (ConvolutionBackward0 where a primal
    requires grad) however few inputs have tangents, empty inputs too; ours was the
    transposed backward's graph, or none at all where only the other input had one."""
    got = _conv_tangent(autotensor, case, tangents, requires_grad)
    want = _conv_tangent(torch, case, tangents, requires_grad)
    assert got[1:] == want[1:]
    # (the convolution kernels' sums are not PyTorch's GEMMs' order: within 1e-12)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12, atol=1e-12)


def _conv_zero_term(mod, which):
    """A missing tangent is a zero tensor that the convolution materializes: an inf in
    the other input's primal makes NaN there (0 * inf), a bias without tangent adds 0."""
    fw = mod.autograd.forward_ad
    inf = float("inf")
    with fw.dual_level():
        if which == "weight_inf":
            r = mod.nn.functional.conv1d(mod.ones(1, 1, 3, requires_grad=True), fw.make_dual(
                mod.tensor([[[inf, 1.0]]]), mod.ones(1, 1, 2)))
        elif which == "input_inf":
            r = mod.nn.functional.conv1d(fw.make_dual(mod.tensor([[[inf, 1.0, 2.0]]]),
                                                      mod.ones(1, 1, 3)), mod.ones(1, 1, 2))
        else:
            r = mod.nn.functional.conv1d(mod.tensor([[[inf, 1.0, 2.0]]]), mod.ones(1, 1, 2),
                                         fw.make_dual(mod.ones(1), mod.ones(1)))
        tangent = fw.unpack_dual(r)[1]
        return tangent.detach().numpy(), tangent.requires_grad, tangent.dtype.is_complex


@pytest.mark.parametrize("which", ["weight_inf", "input_inf", "bias_only"])
def test_convolution_tangent_of_a_missing_tangent_is_dense_zeros(which):
    got = _conv_zero_term(autotensor, which)
    want = _conv_zero_term(torch, which)
    np.testing.assert_array_equal(got[0], want[0])
    assert got[1:] == want[1:]
