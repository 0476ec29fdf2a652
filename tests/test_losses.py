"""Losses against torch: values and gradients (cross_entropy incl. label smoothing)."""
import numpy as np
import pytest

import autotensor

RNG = np.random.default_rng(7)
LOGITS = RNG.standard_normal((4, 5)).astype(np.float32)
TARGET = np.array([1, 0, 4, -100])
WEIGHT = np.arange(1, 6).astype(np.float32)


def _run(m, reduction, weighted, smoothing):
    x = m.tensor(LOGITS, requires_grad=True)
    loss = m.nn.functional.cross_entropy(
        x, m.tensor(TARGET), weight=m.tensor(WEIGHT) if weighted else None,
        reduction=reduction, label_smoothing=smoothing)
    loss.sum().backward()
    return loss.detach().numpy(), x.grad.numpy()


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("smoothing", [0.0, 0.1])
def test_cross_entropy_matches_torch(reduction, weighted, smoothing):
    torch = pytest.importorskip("torch")
    ours = _run(autotensor, reduction, weighted, smoothing)
    theirs = _run(torch, reduction, weighted, smoothing)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-5, atol=1e-6)


def test_cross_entropy_gradient_is_the_finite_difference():
    x = autotensor.tensor(LOGITS.astype(np.float64), requires_grad=True)
    t = autotensor.tensor(np.array([1, 0, 4, 2]))
    f = lambda z: autotensor.nn.functional.cross_entropy(z, t, label_smoothing=0.2)  # noqa: E731
    assert autotensor.autograd.gradcheck(f, (x,))


def test_label_smoothing_out_of_range():
    x = autotensor.zeros(2, 3)
    with pytest.raises(RuntimeError, match="label_smoothing must be between 0.0 and 1.0"):
        autotensor.nn.functional.cross_entropy(x, autotensor.tensor([0, 1]),
                                               label_smoothing=1.5)
