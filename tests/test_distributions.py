"""torch.distributions (Normal, Uniform, Bernoulli, Categorical, kl_divergence): values,
gradients, samples for a seed (the same draws as PyTorch's), validation errors and reprs,
run as one program on both modules."""
import numpy as np
import pytest

import autotensor

CASES = [  # (in order: the samples read the generator the earlier cases left)
    'repr(n)',
    'n.batch_shape',
    'n.event_shape',
    'repr(Normal(0., 1.))',
    'n.sample()',
    'n.sample((3,))',
    'n.rsample((2,))',
    'n.log_prob(torch.tensor([0.5, -1.], dtype=torch.float64))',
    'n.entropy()',
    'n.cdf(torch.tensor([0.5, -1.], dtype=torch.float64))',
    'n.icdf(torch.tensor([0.3, 0.9], dtype=torch.float64))',
    'n.mean',
    'n.stddev',
    'n.variance',
    'n.mode',
    'Normal(torch.tensor([0.]), torch.tensor([-1.]))',
    "n.log_prob(torch.tensor([float('nan'), 1.], dtype=torch.float64))",
    'n.log_prob(torch.tensor([1., 2., 3.], dtype=torch.float64))',
    'n.log_prob(1.0)',
    'Normal(0., 1.).log_prob(torch.tensor(0.5))',
    'Normal(torch.tensor([0.]), 2.).scale',
    "Normal(0., 1., validate_args=False).log_prob(torch.tensor(float('nan')))",
    'torch.autograd.grad(n.rsample((4,)).sum() + n.log_prob(torch.tensor([0.5, -1.], '
    'dtype=torch.float64)).sum(), [loc, scale])',
    'kl_divergence(n, Normal(torch.tensor([1., 0.], dtype=torch.float64), torch.tensor([0.5, '
    '1.], dtype=torch.float64)))',
    'Bernoulli(torch.tensor([0.5, 1.5]))',
    'Bernoulli(probs=0.5, logits=0.)',
    'repr(Bernoulli(logits=torch.tensor([0.3])))',
    'Bernoulli(logits=torch.tensor([0.3])).probs',
    'repr(Bernoulli(torch.tensor([0.2, 0.3])))',
    'Bernoulli(torch.tensor([0.2, 0.5, 0.9])).sample((2,))',
    'Bernoulli(torch.tensor([0.2, 0.5, 0.9])).log_prob(torch.tensor([1., 0., 1.]))',
    'Bernoulli(torch.tensor([0.2, 0.5, 0.9])).entropy()',
    'Bernoulli(torch.tensor([0.2, 0.5, 0.9])).mode',
    'Bernoulli(torch.tensor([0.2, 0.5])).logits',
    'Bernoulli(torch.tensor([0.2, 0.5])).log_prob(torch.tensor([2., 0.]))',
    'kl_divergence(Bernoulli(torch.tensor([0.2, 0., 1.])), Bernoulli(torch.tensor([0.5, 0.3, '
    '0.])))',
    'repr(Categorical(torch.tensor([[0.2, 0.8], [0.5, 0.5]])))',
    'Categorical(torch.tensor([[0.2, 0.8], [0.5, 0.5]])).logits',
    'Categorical(torch.tensor([[0.2, 0.8], [0.5, 0.5]])).batch_shape',
    'Categorical(torch.tensor([0.2, -0.1]))',
    'Categorical(torch.tensor([1., 2., 3.])).sample((5,))',
    'Categorical(logits=torch.tensor([[0., 1., 2.], [1., 1., 1.]])).sample((2,))',
    'Categorical(logits=torch.tensor([0., 1.])).log_prob(torch.tensor([2]))',
    'repr(Categorical(logits=torch.tensor([0., 1.])).support)',
    'Categorical(logits=torch.tensor([[0., 1., 2.], [1., 1., 1.]])).log_prob(torch.tensor([2, 0]))',
    'Categorical(logits=torch.tensor([[0., 1., 2.], [1., 1., 1.]])).entropy()',
    'Categorical(torch.tensor([0.2, 0.8])).mean',
    'Categorical(torch.tensor([0.2, 0., 0.8])).mode',
    'Categorical(torch.tensor(1.))',
    'kl_divergence(Categorical(torch.tensor([0.2, 0.8, 0.])), Categorical(torch.tensor([0.5, '
    '0.25, 0.25])))',
    'repr(Uniform(0., 2.))',
    'Uniform(2., 1.)',
    'Uniform(0., 2.).log_prob(torch.tensor(3.))',
    'Uniform(0., 2.).log_prob(torch.tensor(1.5))',
    'Uniform(torch.tensor([0., 1.]), torch.tensor([1., 3.])).sample((2,))',
    'Uniform(torch.tensor([0., 1.]), torch.tensor([1., 3.])).entropy()',
    'Uniform(torch.tensor([0., 1.]), torch.tensor([1., 3.])).cdf(torch.tensor([0.5, 4.]))',
    'Uniform(0., 2.).stddev',
    'kl_divergence(Uniform(0., 1.), Uniform(-1., 2.))',
    'kl_divergence(Uniform(0., 1.), Uniform(0.5, 2.))',
    'kl_divergence(Normal(0., 1.), Uniform(0., 1.))',
    'repr(constraints.positive)',
    'repr(constraints.unit_interval)',
    'repr(constraints.simplex)',
    'repr(Categorical.arg_constraints)',
    'torch.rand(2)',
]


def _run(torch):
    D = torch.distributions
    ns = {"torch": torch, "Normal": D.Normal, "Bernoulli": D.Bernoulli,
          "Categorical": D.Categorical, "Uniform": D.Uniform,
          "kl_divergence": D.kl_divergence, "constraints": D.constraints}
    torch.manual_seed(0)
    ns["loc"] = torch.tensor([0., 1.], dtype=torch.float64, requires_grad=True)
    ns["scale"] = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
    ns["n"] = D.Normal(ns["loc"], ns["scale"])
    out = []
    for code in CASES:
        try:
            r = eval(code, ns)
        except Exception as e:  # (the error is part of the behaviour compared)
            r = f"{type(e).__name__}: {e}"
        if isinstance(r, tuple) and r and all(isinstance(x, torch.Tensor) for x in r):
            r = [x.detach().numpy() for x in r]
        elif isinstance(r, torch.Tensor):
            r = (str(r.dtype).split(".")[-1], r.detach().numpy())
        else:
            r = str(r).replace("autotensor", "torch")
        out.append((code, r))
    return out


def test_distributions_match_torch():
    torch = pytest.importorskip("torch")
    for (code, ours), (_, theirs) in zip(_run(autotensor), _run(torch)):
        if isinstance(theirs, tuple):  # (a tensor: dtype, then values)
            assert ours[0] == theirs[0], code
            tol = 1e-12 if theirs[0] == "float64" else 1e-6  # (float32 logsumexp: ulps)
            np.testing.assert_allclose(ours[1], theirs[1], rtol=tol, atol=tol, err_msg=code)
            assert ours[1].shape == theirs[1].shape, code
        elif isinstance(theirs, list):
            for a, b in zip(ours, theirs):
                np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12, err_msg=code)
        else:
            assert ours == theirs, code


def test_normal_gradients_by_finite_differences():
    """log_prob's and the KL's gradients in float64 against central differences."""
    torch = autotensor
    D = torch.distributions
    x = torch.tensor([0.3, -1.2], dtype=torch.float64)

    def f(loc, scale):
        p = D.Normal(loc, scale)
        q = D.Normal(torch.zeros(2, dtype=torch.float64), torch.ones(2, dtype=torch.float64))
        return (p.log_prob(x) + D.kl_divergence(p, q) + p.entropy()).sum()

    loc = torch.tensor([0.1, 0.5], dtype=torch.float64, requires_grad=True)
    scale = torch.tensor([0.7, 1.9], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(f, (loc, scale))
