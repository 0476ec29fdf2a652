"""torch.poisson (aten's sample_poisson on our Mersenne Twister: the same draws as PyTorch's
for a seed) and torch.bernoulli(probs)'s BernoulliBackward0."""
import numpy as np
import pytest

import autotensor

RATES = [0., 0.5, 3., 9.99, 10., 25., 1000., 1e6, 1e-300, 7.3, 11.5, 40., 1e15, 1e8, 123456.7,
         5e12, 2e17]
# (Not compared: rates whose samples leave int64 (>~ 2**63, inf). aten's (int64_t) cast of
# such a k is undefined behaviour, and the compiled sampler's draws then follow its
# optimiser, not the source.)
CASES = [
    "torch.poisson(torch.tensor(RATES * 3, dtype=torch.float32))",
    "torch.poisson(torch.tensor(RATES * 3, dtype=torch.float64))",
    "torch.poisson(torch.tensor(RATES, dtype=torch.float16))",
    "torch.poisson(torch.tensor([[1., 2., 30.]]).t())",
    "torch.poisson(torch.full((50,), 12.5), generator=torch.Generator().manual_seed(5))",
    "torch.poisson(torch.tensor([1, 2]))", "torch.poisson(torch.tensor([1., -2.]))",
    "torch.poisson(torch.tensor([float('nan'), 1.]))",
    "torch.poisson(torch.zeros(0, 3))",
]


def _scenario(torch, code):
    torch.manual_seed(0)
    try:
        r = eval(code, None, {"torch": torch, "RATES": RATES})
    except Exception as e:  # (the error is part of the behaviour compared)
        return type(e).__name__, str(e)
    stride = r.stride() if r.numel() else None  # (empty tensors: OPEN_FINDINGS, stop 23)
    return str(r.dtype), tuple(r.shape), stride, r.tolist(), torch.rand(3).tolist()


@pytest.mark.parametrize("code", CASES)
def test_poisson_matches_torch(code):
    torch = pytest.importorskip("torch")
    assert _scenario(autotensor, code) == _scenario(torch, code)


def test_poisson_moments_and_graph():
    torch = autotensor
    torch.manual_seed(1)
    for rate in (0.7, 4.0, 15.0, 300.0):  # (both samplers: Knuth's below 10, rejection above)
        s = torch.poisson(torch.full((20000,), rate, dtype=torch.float64)).numpy()
        assert np.all(s == np.round(s)) and s.min() >= 0
        assert abs(s.mean() - rate) < 5 * np.sqrt(rate / s.size)
        assert abs(s.var() / rate - 1) < 0.05
    x = torch.rand(3, 4, dtype=torch.float64, requires_grad=True)
    y = torch.poisson(x * 20)
    assert type(y.grad_fn).__name__ == "PoissonBackward0"
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.zeros((3, 4)))
    b = torch.bernoulli(x)
    assert type(b.grad_fn).__name__ == "BernoulliBackward0"


def test_sampling_methods_match_torch():
    """Tensor.multinomial / Tensor.bernoulli (the methods were missing)."""
    torch_ = pytest.importorskip("torch")

    def run(torch):
        torch.manual_seed(0)
        p = torch.tensor([[0.1, 0.5, 0.4], [0.3, 0.3, 0.4]])
        return [t.tolist() for t in (
            p.multinomial(2), p.multinomial(5, replacement=True),
            p.multinomial(num_samples=1, replacement=False), p.bernoulli(), p.bernoulli(0.3),
            p.bernoulli(p=0.7, generator=torch.Generator().manual_seed(1)), torch.rand(2))]
    assert run(autotensor) == run(torch_)
