"""torch.distributions beyond the first four: Exponential, Laplace, Cauchy, Geometric, Poisson,
OneHotCategorical, LogNormal, HalfNormal, HalfCauchy, Gumbel, Independent,
TransformedDistribution with the transforms, MultivariateNormal, MixtureSameFamily, expand,
enumerate_support, ExponentialFamily's entropy and the KL registry: values, gradients, samples
for a seed, validation errors and reprs, run as one program on both modules."""
from types import SimpleNamespace

import numpy as np
import pytest

import autotensor

F64 = "dtype=torch.float64"
CASES = [  # (in order: the samples read the generator the earlier cases left)
    # Exponential
    'E.Exponential(torch.tensor([0.5, 2.0])).sample((3,))',
    f'E.Exponential(torch.tensor([0.5, 2.0], {F64})).rsample()',
    f'E.Exponential(torch.tensor([0.5, 2.0], {F64})).log_prob(torch.tensor([1.0, 0.3], {F64}))',
    f'E.Exponential(torch.tensor([0.5, 2.0], {F64})).cdf(torch.tensor([1.0, 0.3], {F64}))',
    f'E.Exponential(torch.tensor([0.5, 2.0], {F64})).icdf(torch.tensor([0.1, 0.9], {F64}))',
    f'E.Exponential(torch.tensor([0.5, 2.0], {F64})).entropy()',
    'E.Exponential(torch.tensor([0.5, 2.0])).variance',
    'E.Exponential(torch.tensor([0.5, -2.0]))',
    'E.Exponential(torch.tensor([0.5])).log_prob(torch.tensor([-1.0]))',
    'repr(E.Exponential(torch.tensor([0.5])))',
    'E.Exponential(2.0).batch_shape',
    # Laplace, Cauchy
    'E.Laplace(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5])).sample((2,))',
    f'E.Laplace(torch.tensor([0.0, 1.0], {F64}), torch.tensor([1.0, 0.5], {F64})).rsample((2,))',
    f'E.Laplace(torch.tensor(0.5, {F64}), 2.0).log_prob(torch.tensor([0.3, -4.0], {F64}))',
    f'E.Laplace(torch.tensor(0.5, {F64}), 2.0).cdf(torch.tensor([0.3, -4.0], {F64}))',
    f'E.Laplace(torch.tensor(0.5, {F64}), 2.0).icdf(torch.tensor([0.3, 0.8], {F64}))',
    f'E.Laplace(torch.tensor(0.5, {F64}), 2.0).entropy()',
    'E.Laplace(0.0, 1.0).stddev',
    'E.Cauchy(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5])).sample((2,))',
    f'E.Cauchy(torch.tensor([0.0, 1.0], {F64}), 2.0).log_prob(torch.tensor([0.3, 5.0], {F64}))',
    f'E.Cauchy(torch.tensor([0.0, 1.0], {F64}), 2.0).cdf(torch.tensor([0.3, 5.0], {F64}))',
    f'E.Cauchy(torch.tensor([0.0, 1.0], {F64}), 2.0).icdf(torch.tensor([0.3, 0.6], {F64}))',
    'E.Cauchy(torch.tensor([0.0, 1.0]), 2.0).mean',
    'E.Cauchy(torch.tensor([0.0, 1.0]), 2.0).variance',
    'E.Cauchy(torch.tensor([0.0, 1.0]), 2.0).entropy()',
    # Geometric, Poisson
    'E.Geometric(torch.tensor([0.3, 0.9])).sample((4,))',
    f'E.Geometric(torch.tensor([0.3, 0.9], {F64})).log_prob(torch.tensor([2.0, 0.0], {F64}))',
    f'E.Geometric(torch.tensor([0.3, 1.0], {F64})).log_prob(torch.tensor([2.0, 0.0], {F64}))',
    f'E.Geometric(logits=torch.tensor([0.3, -1.0], {F64})).entropy()',
    f'E.Geometric(logits=torch.tensor([0.3, -1.0], {F64})).mean',
    'E.Geometric(torch.tensor([0.0, 0.5]))',
    'E.Geometric(torch.tensor([0.5])).log_prob(torch.tensor([1.5]))',
    'E.Poisson(torch.tensor([0.5, 4.0, 30.0])).sample((2,))',
    f'E.Poisson(torch.tensor([0.5, 4.0], {F64})).log_prob(torch.tensor([1.0, 6.0], {F64}))',
    f'E.Poisson(torch.tensor([0.5, 4.0], {F64})).entropy()',
    'E.Poisson(torch.tensor([0.5, 4.0])).mode',
    'E.Poisson(torch.tensor([-0.5]))',
    # OneHotCategorical
    'E.OneHotCategorical(torch.tensor([0.2, 0.3, 0.5])).sample((4,))',
    'E.OneHotCategorical(torch.tensor([[0.2, 0.8], [0.6, 0.4]])).log_prob(torch.tensor([[0., 1.], [1., 0.]]))',  # noqa: E501
    'E.OneHotCategorical(torch.tensor([[0.2, 0.8], [0.6, 0.4]])).enumerate_support()',
    'E.OneHotCategorical(torch.tensor([[0.2, 0.8], [0.6, 0.4]])).mode',
    'E.OneHotCategorical(torch.tensor([0.2, 0.8])).log_prob(torch.tensor([0.5, 0.5]))',
    'E.OneHotCategorical(torch.tensor([0.2, 0.8])).event_shape',
    'E.OneHotCategoricalStraightThrough(torch.tensor([0.2, 0.8])).rsample((3,))',
    'E.Categorical(torch.tensor([[0.2, 0.8], [0.6, 0.4]])).enumerate_support()',
    'E.Categorical(torch.tensor([[0.2, 0.8], [0.6, 0.4]])).enumerate_support(False)',
    'E.Bernoulli(torch.tensor([0.2, 0.8])).enumerate_support()',
    # ExponentialFamily's entropy by autograd
    f'E.ExponentialFamily.entropy(E.Normal(torch.tensor([0.3], {F64}), torch.tensor([2.0], {F64})))',  # noqa: E501
    f'E.ExponentialFamily.entropy(E.Bernoulli(torch.tensor([0.3, 0.6], {F64})))',
    f'E.ExponentialFamily.entropy(E.Poisson(torch.tensor([1.5], {F64})))',
    f'E.ExponentialFamily.entropy(E.Exponential(torch.tensor([1.5], {F64})))',
    # transformed families
    'E.LogNormal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5])).sample((2,))',
    f'E.LogNormal(torch.tensor([0.0, 1.0], {F64}), 0.5).log_prob(torch.tensor([0.5, 3.0], {F64}))',  # noqa: E501
    f'E.LogNormal(torch.tensor([0.0, 1.0], {F64}), 0.5).cdf(torch.tensor([0.5, 3.0], {F64}))',
    f'E.LogNormal(torch.tensor([0.0, 1.0], {F64}), 0.5).icdf(torch.tensor([0.2, 0.7], {F64}))',
    f'E.LogNormal(torch.tensor([0.0, 1.0], {F64}), 0.5).mean',
    f'E.LogNormal(torch.tensor([0.0, 1.0], {F64}), 0.5).variance',
    f'E.LogNormal(torch.tensor([0.0, 1.0], {F64}), 0.5).entropy()',
    'E.LogNormal(0.0, 1.0).log_prob(torch.tensor(-1.0))',
    'repr(E.LogNormal(0.0, 1.0).support)',
    'E.HalfNormal(torch.tensor([1.0, 2.0])).sample((2,))',
    f'E.HalfNormal(torch.tensor([1.0, 2.0], {F64})).log_prob(torch.tensor([0.5, 3.0], {F64}))',
    f'E.HalfNormal(torch.tensor([1.0, 2.0], {F64})).cdf(torch.tensor([0.5, 3.0], {F64}))',
    f'E.HalfNormal(torch.tensor([1.0, 2.0], {F64})).entropy()',
    f'E.HalfNormal(torch.tensor([1.0, 2.0], {F64})).mean',
    'E.HalfCauchy(torch.tensor([1.0, 2.0])).sample((2,))',
    f'E.HalfCauchy(torch.tensor([1.0, 2.0], {F64})).log_prob(torch.tensor([0.5, 3.0], {F64}))',
    f'E.HalfCauchy(torch.tensor([1.0, 2.0], {F64})).icdf(torch.tensor([0.5, 0.3], {F64}))',
    'E.Gumbel(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0])).sample((3,))',
    f'E.Gumbel(torch.tensor([0.0, 1.0], {F64}), 2.0).log_prob(torch.tensor([0.5, 3.0], {F64}))',
    f'E.Gumbel(torch.tensor([0.0, 1.0], {F64}), 2.0).cdf(torch.tensor([0.5, 3.0], {F64}))',
    f'E.Gumbel(torch.tensor([0.0, 1.0], {F64}), 2.0).entropy()',
    f'E.Gumbel(torch.tensor([0.0, 1.0], {F64}), 2.0).mean',
    'E.Gumbel(0.0, 1.0).sample((2,))',
    # TransformedDistribution and transforms
    f'E.TransformedDistribution(E.Normal(torch.zeros(2, {F64}), 1.0), [T.SigmoidTransform()]).log_prob(torch.tensor([0.2, 0.9], {F64}))',  # noqa: E501
    f'E.TransformedDistribution(E.Normal(torch.zeros(2, {F64}), 1.0), [T.TanhTransform(), T.AffineTransform(1.0, 2.0)]).log_prob(torch.tensor([0.2, 2.9], {F64}))',  # noqa: E501
    f'E.TransformedDistribution(E.Normal(torch.zeros(3, {F64}), 1.0), T.StickBreakingTransform()).log_prob(torch.tensor([0.2, 0.3, 0.1, 0.4], {F64}))',  # noqa: E501
    f'E.TransformedDistribution(E.Normal(torch.zeros(3, {F64}), 1.0), T.StickBreakingTransform()).event_shape',  # noqa: E501
    'E.TransformedDistribution(E.Normal(torch.zeros(2), 1.0), [T.ExpTransform(), T.PowerTransform(torch.tensor(2.0))]).sample((2,))',  # noqa: E501
    f'E.TransformedDistribution(E.Uniform(torch.zeros(2, {F64}), 1.0), [T.AffineTransform(0.0, -1.0)]).cdf(torch.tensor([-0.3, -0.9], {F64}))',  # noqa: E501
    'E.TransformedDistribution(E.Normal(0.0, 1.0), 3)',
    'repr(T.ComposeTransform([T.ExpTransform(), T.AffineTransform(0.0, 2.0)]))',
    'repr(T.ExpTransform().inv)',
    'T.ExpTransform() == T.ExpTransform()',
    'T.ExpTransform().inv.inv == T.ExpTransform()',
    f'T.SoftmaxTransform()(torch.tensor([0.5, 1.0, -1.0], {F64}))',
    f'T.SoftplusTransform().inv(torch.tensor([0.5, 1.0], {F64}))',
    f'T.LowerCholeskyTransform()(torch.tensor([[0.5, 1.0], [2.0, -1.0]], {F64}))',
    f'T.PositiveDefiniteTransform()(torch.tensor([[0.5, 1.0], [2.0, -1.0]], {F64}))',
    f'T.CorrCholeskyTransform()(torch.tensor([0.5, -1.0, 0.3], {F64}))',
    f'T.CorrCholeskyTransform().inv(T.CorrCholeskyTransform()(torch.tensor([0.5, -1.0, 0.3], {F64})))',  # noqa: E501
    f'T.StickBreakingTransform().inv(torch.tensor([0.2, 0.3, 0.5], {F64}))',
    f'T.ReshapeTransform((2, 2), (4,))(torch.arange(8, {F64}).reshape(2, 2, 2))',
    f'T.IndependentTransform(T.ExpTransform(), 1).log_abs_det_jacobian(torch.tensor([0.5, 1.0], {F64}), None)',  # noqa: E501
    'T.ComposeTransform([T.ExpTransform(), T.AffineTransform(0.0, 2.0)]).codomain',
    'T.identity_transform(torch.tensor([1.0]))',
    # Independent
    f'E.Independent(E.Normal(torch.zeros(2, 3, {F64}), 1.0), 1).log_prob(torch.ones(2, 3, {F64}))',  # noqa: E501
    f'E.Independent(E.Normal(torch.zeros(2, 3, {F64}), 1.0), 2).entropy()',
    'E.Independent(E.Normal(torch.zeros(2, 3), 1.0), 1).batch_shape',
    'E.Independent(E.Normal(torch.zeros(2, 3), 1.0), 1).event_shape',
    'E.Independent(E.Normal(torch.zeros(2, 3), 1.0), 3)',
    'repr(E.Independent(E.Normal(torch.zeros(2, 3), 1.0), 1))',
    'E.Independent(E.Normal(torch.zeros(2, 3), 1.0), 1).sample()',
    'repr(E.Independent(E.Normal(torch.zeros(2, 3), 1.0), 1).support)',
    # MultivariateNormal
    'E.MultivariateNormal(torch.zeros(2), torch.tensor([[2.0, 0.5], [0.5, 1.0]])).sample((3,))',
    'mvn.rsample((2,))',
    f'mvn.log_prob(torch.tensor([[0.3, -1.0], [2.0, 0.5]], {F64}))',
    'mvn.entropy()',
    'mvn.variance',
    'mvn.precision_matrix',
    'mvn.scale_tril',
    f'E.MultivariateNormal(torch.zeros(2, {F64}), precision_matrix=torch.tensor([[2.0, 0.5], [0.5, 1.0]], {F64})).covariance_matrix',  # noqa: E501
    f'E.MultivariateNormal(torch.zeros(3, 2, {F64}), scale_tril=torch.tensor([[2.0, 0.0], [0.5, 1.0]], {F64})).log_prob(torch.ones(4, 3, 2, {F64}))',  # noqa: E501
    'E.MultivariateNormal(torch.zeros(2), torch.tensor([[1.0, 2.0], [2.0, 1.0]]))',
    'E.MultivariateNormal(torch.zeros(2))',
    'E.MultivariateNormal(torch.tensor(0.0), torch.eye(2))',
    'E.MultivariateNormal(torch.zeros(2), torch.ones(2))',
    'torch.autograd.grad(mvn.log_prob(torch.tensor([0.3, -1.0], dtype=torch.float64)), [mloc, mcov])',  # noqa: E501
    # MixtureSameFamily
    f'mix.log_prob(torch.tensor([0.3, -1.0, 2.5], {F64}))',
    'mix.mean',
    'mix.variance',
    f'mix.cdf(torch.tensor([0.3, -1.0], {F64}))',
    'mix.sample((4,))',
    'mix.batch_shape',
    'repr(mix)',
    'E.MixtureSameFamily(E.Categorical(torch.ones(3)), E.Normal(torch.zeros(2), 1.0))',
    'E.MixtureSameFamily(E.Normal(0.0, 1.0), E.Normal(torch.zeros(2), 1.0))',
    # expand
    'E.Normal(torch.tensor([0.0]), 1.0).expand((3, 1)).batch_shape',
    'E.Normal(torch.tensor([0.0]), 1.0).expand((3, 2)).sample()',
    'E.Categorical(torch.tensor([0.2, 0.8])).expand((3,)).sample()',
    'E.Bernoulli(torch.tensor([0.2, 0.8])).expand((2, 2)).probs',
    'E.LogNormal(torch.tensor([0.0]), 1.0).expand((2,)).batch_shape',
    'E.Gumbel(torch.tensor([0.0]), 1.0).expand((3,)).sample()',
    'E.MultivariateNormal(torch.zeros(2), torch.eye(2)).expand((3,)).sample()',
    'E.Independent(E.Normal(torch.zeros(2, 3), 1.0), 1).expand((4, 2)).batch_shape',
    'E.Uniform(torch.tensor([0.0]), 1.0).expand((2,)).low',
    # KL
    f'D.kl_divergence(E.Exponential(torch.tensor([0.5, 2.0], {F64})), E.Exponential(torch.tensor([1.0, 1.0], {F64})))',  # noqa: E501
    f'D.kl_divergence(E.Laplace(torch.tensor([0.5], {F64}), 2.0), E.Laplace(torch.tensor([0.0], {F64}), 1.0))',  # noqa: E501
    f'D.kl_divergence(E.Cauchy(torch.tensor([0.5], {F64}), 2.0), E.Cauchy(torch.tensor([0.0], {F64}), 1.0))',  # noqa: E501
    f'D.kl_divergence(E.Poisson(torch.tensor([0.5], {F64})), E.Poisson(torch.tensor([3.0], {F64})))',  # noqa: E501
    f'D.kl_divergence(E.Geometric(torch.tensor([0.5], {F64})), E.Geometric(torch.tensor([0.3], {F64})))',  # noqa: E501
    f'D.kl_divergence(E.Gumbel(torch.tensor([0.5], {F64}), 2.0), E.Gumbel(torch.tensor([0.0], {F64}), 1.0))',  # noqa: E501
    f'D.kl_divergence(E.HalfNormal(torch.tensor([0.5], {F64})), E.HalfNormal(torch.tensor([2.0], {F64})))',  # noqa: E501
    f'D.kl_divergence(E.LogNormal(torch.tensor([0.5], {F64}), 1.0), E.LogNormal(torch.tensor([0.0], {F64}), 2.0))',  # noqa: E501
    f'D.kl_divergence(mvn, E.MultivariateNormal(torch.ones(2, {F64}), torch.eye(2, {F64})))',
    f'D.kl_divergence(E.Independent(E.Normal(torch.zeros(2, 3, {F64}), 1.0), 1), E.Independent(E.Normal(torch.ones(2, 3, {F64}), 2.0), 1))',  # noqa: E501
    f'D.kl_divergence(E.OneHotCategorical(torch.tensor([0.2, 0.8], {F64})), E.OneHotCategorical(torch.tensor([0.5, 0.5], {F64})))',  # noqa: E501
    f'D.kl_divergence(E.Normal(torch.tensor([0.5], {F64}), 2.0), E.Laplace(torch.tensor([0.0], {F64}), 1.0))',  # noqa: E501
    f'D.kl_divergence(E.Normal(torch.tensor([0.5], {F64}), 2.0), E.Gumbel(torch.tensor([0.0], {F64}), 1.0))',  # noqa: E501
    f'D.kl_divergence(E.Uniform(torch.tensor([0.5], {F64}), 2.0), E.Normal(torch.tensor([0.0], {F64}), 1.0))',  # noqa: E501
    f'D.kl_divergence(E.Uniform(torch.tensor([0.5], {F64}), 2.0), E.Exponential(torch.tensor([2.0], {F64})))',  # noqa: E501
    f'D.kl_divergence(E.Uniform(torch.tensor([0.5], {F64}), 2.0), E.Gumbel(torch.tensor([0.0], {F64}), 1.0))',  # noqa: E501
    f'D.kl_divergence(E.Exponential(torch.tensor([0.5], {F64})), E.Normal(torch.tensor([0.0], {F64}), 1.0))',  # noqa: E501
    f'D.kl_divergence(E.Exponential(torch.tensor([0.5], {F64})), E.Gumbel(torch.tensor([0.0], {F64}), 1.0))',  # noqa: E501
    f'D.kl_divergence(E.Laplace(torch.tensor([0.5], {F64}), 2.0), E.Normal(torch.tensor([0.0], {F64}), 1.0))',  # noqa: E501
    f'D.kl_divergence(E.Gumbel(torch.tensor([0.5], {F64}), 2.0), E.Normal(torch.tensor([0.0], {F64}), 1.0))',  # noqa: E501
    f'D.kl_divergence(E.Bernoulli(torch.tensor([0.3], {F64})), E.Poisson(torch.tensor([2.0], {F64})))',  # noqa: E501
    'D.kl_divergence(E.Normal(torch.tensor([0.5]), 2.0), E.Exponential(torch.tensor([1.0])))',
    'D.kl_divergence(E.Poisson(torch.tensor([0.5])), E.Bernoulli(torch.tensor([0.3])))',
    'D.kl_divergence(E.Poisson(torch.tensor([0.5])), E.Normal(torch.tensor([0.3]), 1.0))',
    'D.kl_divergence(E.Bernoulli(torch.tensor([0.5])), E.Geometric(torch.tensor([0.3])))',
    # the Gamma family
    'E.Gamma(torch.tensor([0.5, 2.0, 9.0]), torch.tensor([1.0, 0.5, 3.0])).sample((3,))',
    f'E.Gamma(torch.tensor([0.5, 2.0], {F64}), 2.0).rsample((2,))',
    f'E.Gamma(torch.tensor([0.5, 2.0], {F64}), 2.0).log_prob(torch.tensor([0.3, 4.0], {F64}))',
    f'E.Gamma(torch.tensor([0.5, 2.0], {F64}), 2.0).cdf(torch.tensor([0.3, 4.0], {F64}))',
    f'E.Gamma(torch.tensor([0.5, 2.0], {F64}), 2.0).entropy()',
    f'E.Gamma(torch.tensor([0.5, 2.0], {F64}), 2.0).mode',
    f'E.ExponentialFamily.entropy(E.Gamma(torch.tensor([0.5, 2.0], {F64}), 2.0))',
    'E.Gamma(torch.tensor([0.5, -2.0]), 1.0)',
    'E.Gamma(1.0, 1.0).log_prob(torch.tensor(-1.0))',
    'E.Gamma(torch.tensor([0.5]), 1.0).expand((2, 1)).sample()',
    'E.Chi2(torch.tensor([1.0, 4.0])).sample((2,))',
    f'E.Chi2(torch.tensor([1.0, 4.0], {F64})).log_prob(torch.tensor([0.5, 3.0], {F64}))',
    'E.Chi2(torch.tensor([1.0, 4.0])).df',
    'repr(E.Chi2(torch.tensor([1.0, 4.0])))',
    'E.StudentT(torch.tensor([1.0, 3.0, 30.0])).sample((2,))',
    f'E.StudentT(torch.tensor([1.0, 3.0], {F64}), 0.5, 2.0).rsample()',
    f'E.StudentT(torch.tensor([1.0, 3.0], {F64}), 0.5, 2.0).log_prob(torch.tensor([0.3, 4.0], {F64}))',  # noqa: E501
    f'E.StudentT(torch.tensor([1.0, 3.0], {F64}), 0.5, 2.0).entropy()',
    f'E.StudentT(torch.tensor([0.5, 1.5, 3.0], {F64})).variance',
    f'E.StudentT(torch.tensor([0.5, 1.5, 3.0], {F64})).mean',
    'E.StudentT(torch.tensor([2.0])).expand((3,)).sample()',
    'torch.autograd.grad(E.Gamma(gconc, grate).rsample((3,)).sum(), [gconc, grate])',
    'torch.autograd.grad(E.StudentT(gconc, 0.5, grate).rsample((2,)).sum(), [gconc, grate])',
    f'D.kl_divergence(E.Gamma(torch.tensor([0.5], {F64}), 2.0), E.Gamma(torch.tensor([3.0], {F64}), 1.0))',  # noqa: E501
    f'D.kl_divergence(E.Gamma(torch.tensor([0.5], {F64}), 2.0), E.Normal(torch.tensor([3.0], {F64}), 1.0))',  # noqa: E501
    f'D.kl_divergence(E.Gamma(torch.tensor([0.5], {F64}), 2.0), E.Gumbel(torch.tensor([3.0], {F64}), 1.0))',  # noqa: E501
    f'D.kl_divergence(E.Gamma(torch.tensor([0.5], {F64}), 2.0), E.Exponential(torch.tensor([3.0], {F64})))',  # noqa: E501
    f'D.kl_divergence(E.Exponential(torch.tensor([3.0], {F64})), E.Gamma(torch.tensor([0.5], {F64}), 2.0))',  # noqa: E501
    f'D.kl_divergence(E.Uniform(torch.tensor([0.5], {F64}), 2.0), E.Gamma(torch.tensor([3.0], {F64}), 1.0))',  # noqa: E501
    f'D.kl_divergence(E.Chi2(torch.tensor([3.0], {F64})), E.Chi2(torch.tensor([1.5], {F64})))',
    'D.kl_divergence(E.Normal(torch.tensor([0.5]), 1.0), E.Gamma(torch.tensor([3.0]), 1.0))',
    'D.kl_divergence(E.Gamma(torch.tensor([0.5]), 1.0), E.Uniform(torch.tensor([3.0]), 4.0))',
    # Dirichlet, Beta
    'E.Dirichlet(torch.tensor([[0.5, 1.0, 2.0], [3.0, 0.2, 1.0]])).sample((2,))',
    f'E.Dirichlet(torch.tensor([0.5, 1.0, 2.0], {F64})).rsample()',
    f'E.Dirichlet(torch.tensor([0.5, 1.0, 2.0], {F64})).log_prob(torch.tensor([0.2, 0.3, 0.5], {F64}))',  # noqa: E501
    f'E.Dirichlet(torch.tensor([0.5, 1.0, 2.0], {F64})).entropy()',
    f'E.Dirichlet(torch.tensor([[0.5, 1.0, 2.0], [0.5, 0.2, 0.9]], {F64})).mode',
    f'E.Dirichlet(torch.tensor([0.5, 1.0, 2.0], {F64})).variance',
    'E.Dirichlet(torch.tensor(1.0))',
    'E.Dirichlet(torch.tensor([1.0, -1.0]))',
    'E.Dirichlet(torch.tensor([1.0, 2.0])).log_prob(torch.tensor([0.5, 0.6]))',
    'E.Dirichlet(torch.tensor([1.0, 2.0])).expand((3,)).sample()',
    'torch.autograd.grad(E.Dirichlet(dconc).rsample((4,)).pow(2).sum(), [dconc])',
    'torch.autograd.grad(E.Dirichlet(dconc.float()).rsample((4,)).pow(2).sum(), [dconc])',
    'E.Beta(torch.tensor([0.5, 2.0, 9.0]), torch.tensor([1.0, 0.5, 8.0])).sample((3,))',
    'E.Beta(2.0, 3.0).sample((2,))',
    'E.Beta(2.0, 3.0).batch_shape',
    f'E.Beta(torch.tensor([0.5, 2.0], {F64}), 2.0).log_prob(torch.tensor([0.3, 0.9], {F64}))',
    f'E.Beta(torch.tensor([0.5, 2.0], {F64}), 2.0).entropy()',
    f'E.Beta(torch.tensor([0.5, 2.0], {F64}), 2.0).mean',
    f'E.Beta(torch.tensor([0.5, 2.0], {F64}), 2.0).variance',
    f'E.Beta(torch.tensor([0.5, 2.0], {F64}), 2.0).mode',
    f'E.ExponentialFamily.entropy(E.Beta(torch.tensor([0.5, 2.0], {F64}), 2.0))',
    'repr(E.Beta(torch.tensor([0.5, 2.0]), 2.0))',
    'torch.autograd.grad(E.Beta(gconc, grate).rsample((3,)).sum(), [gconc, grate])',
    'torch.autograd.grad(E.Beta(gconc.float(), 7.0).rsample((3,)).sum(), [gconc])',
    f'D.kl_divergence(E.Beta(torch.tensor([0.5, 2.0], {F64}), 2.0), E.Beta(torch.tensor([3.0], {F64}), 1.0))',  # noqa: E501
    f'D.kl_divergence(E.Dirichlet(torch.tensor([0.5, 2.0, 1.0], {F64})), E.Dirichlet(torch.tensor([3.0, 1.0, 1.0], {F64})))',  # noqa: E501
    f'D.kl_divergence(E.Beta(torch.tensor([0.5], {F64}), 2.0), E.Normal(torch.tensor([3.0], {F64}), 1.0))',  # noqa: E501
    f'D.kl_divergence(E.Beta(torch.tensor([0.5], {F64}), 2.0), E.Gamma(torch.tensor([3.0], {F64}), 1.0))',  # noqa: E501
    f'D.kl_divergence(E.Beta(torch.tensor([0.5], {F64}), 2.0), E.Exponential(torch.tensor([3.0], {F64})))',  # noqa: E501
    f'D.kl_divergence(E.Beta(torch.tensor([0.5], {F64}), 2.0), E.Uniform(torch.tensor([0.0], {F64}), 1.0))',  # noqa: E501
    f'D.kl_divergence(E.Uniform(torch.tensor([0.2], {F64}), 0.7), E.Beta(torch.tensor([3.0], {F64}), 1.0))',  # noqa: E501
    'D.kl_divergence(E.Normal(torch.tensor([0.5]), 1.0), E.Beta(torch.tensor([3.0]), 1.0))',
    f'torch._dirichlet_grad(torch.tensor([0.1, 0.5, 0.9, 0.3], {F64}), torch.tensor([0.5, 2.0, 9.0, 7.0], {F64}), torch.tensor([1.0, 4.0, 20.0, 15.0], {F64}))',  # noqa: E501
    'torch._dirichlet_grad(torch.tensor([0.1, 0.5, 0.9, 0.3]), torch.tensor([0.5, 2.0, 9.0, 1.0]), torch.tensor([1.0, 4.0, 20.0, 3.0]))',  # noqa: E501
    # Binomial, Multinomial, NegativeBinomial
    'E.Binomial(torch.tensor([10.0, 50.0, 3.0]), torch.tensor([0.3, 0.8, 0.5])).sample((3,))',
    f'E.Binomial(10, torch.tensor([0.3, 0.8], {F64})).log_prob(torch.tensor([2.0, 7.0], {F64}))',  # noqa: E501
    f'E.Binomial(10, logits=torch.tensor([0.3, -2.0], {F64})).entropy()',
    f'E.Binomial(10, torch.tensor([0.3, 0.8], {F64})).mode',
    'E.Binomial(torch.tensor([2.0, 3.0]), torch.tensor([0.3, 0.8])).entropy()',
    'E.Binomial(torch.tensor([2.0]), torch.tensor([0.3, 0.8])).enumerate_support()',
    'E.Binomial(torch.tensor([2.5]), torch.tensor([0.3]))',
    'E.Binomial(3, torch.tensor([0.3])).log_prob(torch.tensor([4.0]))',
    'repr(E.Binomial(3, torch.tensor([0.3])).support)',
    'E.Binomial(5, torch.tensor([0.3])).expand((2, 1)).sample()',
    'torch.binomial(torch.tensor([10.0, 500.0, 3.0]), torch.tensor([0.3, 0.45, 0.9]))',
    f'torch.binomial(torch.tensor([10.0, 500.0, 3.0], {F64}), torch.tensor([0.3, 0.45, 0.9], {F64}))',  # noqa: E501
    'torch.binomial(torch.tensor([3]), torch.tensor([0.5]))',
    f'torch.binomial(torch.tensor([3.0]), torch.tensor([0.5], {F64}))',
    'E.Multinomial(10, torch.tensor([0.2, 0.3, 0.5])).sample((2,))',
    f'E.Multinomial(10, torch.tensor([0.2, 0.3, 0.5], {F64})).log_prob(torch.tensor([2.0, 3.0, 5.0], {F64}))',  # noqa: E501
    f'E.Multinomial(4, torch.tensor([[0.2, 0.8], [0.5, 0.5]], {F64})).entropy()',
    f'E.Multinomial(4, logits=torch.tensor([0.0, -float("inf")], {F64})).log_prob(torch.tensor([4.0, 0.0], {F64}))',  # noqa: E501
    'E.Multinomial(10, torch.tensor([0.2, 0.3, 0.5])).mean',
    'E.Multinomial(torch.tensor(3), torch.tensor([0.2, 0.8]))',
    'E.Multinomial(3, torch.tensor([0.2, 0.8])).log_prob(torch.tensor([2.0, 2.0]))',
    'E.NegativeBinomial(torch.tensor([3.0, 10.0]), torch.tensor([0.3, 0.8])).sample((3,))',
    f'E.NegativeBinomial(torch.tensor([3.0, 10.0], {F64}), torch.tensor([0.3, 0.8], {F64})).log_prob(torch.tensor([2.0, 0.0], {F64}))',  # noqa: E501
    f'E.NegativeBinomial(torch.tensor([3.0, 10.0], {F64}), logits=torch.tensor([0.3, -1.0], {F64})).variance',  # noqa: E501
    f'E.NegativeBinomial(torch.tensor([3.0, 10.0], {F64}), torch.tensor([0.3, 0.8], {F64})).mode',  # noqa: E501
    'E.NegativeBinomial(torch.tensor([3.0]), torch.tensor([1.0]))',
    f'D.kl_divergence(E.Binomial(10, torch.tensor([0.3, 0.8], {F64})), E.Binomial(10, torch.tensor([0.5, 0.5], {F64})))',  # noqa: E501
    'D.kl_divergence(E.Binomial(5, torch.tensor([0.3])), E.Binomial(10, torch.tensor([0.5])))',
    f'D.kl_divergence(E.Binomial(12, torch.tensor([0.3], {F64})), E.Binomial(10, torch.tensor([0.5], {F64})))',  # noqa: E501
    # relaxed families
    'E.RelaxedBernoulli(torch.tensor([0.5]), torch.tensor([0.3, 0.8])).sample((2,))',
    f'E.RelaxedBernoulli(torch.tensor(0.5, {F64}), torch.tensor([0.3, 0.8], {F64})).log_prob(torch.tensor([0.2, 0.9], {F64}))',  # noqa: E501
    f'relaxed.LogitRelaxedBernoulli(torch.tensor(0.5, {F64}), logits=torch.tensor([0.3, -2.0], {F64})).rsample((2,))',  # noqa: E501
    f'relaxed.LogitRelaxedBernoulli(torch.tensor(0.5, {F64}), logits=torch.tensor([0.3, -2.0], {F64})).log_prob(torch.tensor([0.2, 0.9], {F64}))',  # noqa: E501
    'E.RelaxedOneHotCategorical(torch.tensor([0.5]), torch.tensor([0.2, 0.3, 0.5])).sample((2,))',
    f'E.RelaxedOneHotCategorical(torch.tensor(0.5, {F64}), torch.tensor([0.2, 0.3, 0.5], {F64})).log_prob(torch.tensor([0.1, 0.3, 0.6], {F64}))',  # noqa: E501
    f'relaxed.ExpRelaxedCategorical(torch.tensor(0.5, {F64}), logits=torch.tensor([0.2, 0.3, 0.5], {F64})).rsample()',  # noqa: E501
    'E.RelaxedBernoulli(torch.tensor([0.5]), torch.tensor([0.3, 0.8])).expand((3, 2)).batch_shape',
    # more transformed families
    'E.Weibull(torch.tensor([1.0, 2.0]), torch.tensor([0.5, 3.0])).sample((2,))',
    f'E.Weibull(torch.tensor([1.0, 2.0], {F64}), torch.tensor([0.5, 3.0], {F64})).log_prob(torch.tensor([0.4, 2.5], {F64}))',  # noqa: E501
    f'E.Weibull(torch.tensor([1.0, 2.0], {F64}), torch.tensor([0.5, 3.0], {F64})).entropy()',
    f'E.Weibull(torch.tensor([1.0, 2.0], {F64}), torch.tensor([1.5, 3.0], {F64})).mode',
    f'E.Weibull(torch.tensor([1.0, 2.0], {F64}), torch.tensor([0.5, 3.0], {F64})).variance',
    'E.Weibull(torch.tensor([1.0]), torch.tensor([2.0])).expand((3,)).sample()',
    'E.Pareto(torch.tensor([1.0, 2.0]), torch.tensor([0.5, 3.0])).sample((2,))',
    f'E.Pareto(torch.tensor([1.0, 2.0], {F64}), torch.tensor([0.5, 3.0], {F64})).log_prob(torch.tensor([1.5, 2.5], {F64}))',  # noqa: E501
    f'E.Pareto(torch.tensor([1.0, 2.0], {F64}), torch.tensor([0.5, 3.0], {F64})).variance',
    'E.Pareto(torch.tensor([1.0]), 2.0).log_prob(torch.tensor([0.5]))',
    'E.Kumaraswamy(torch.tensor([1.0, 2.0]), torch.tensor([0.5, 3.0])).sample((2,))',
    f'E.Kumaraswamy(torch.tensor([1.0, 2.0], {F64}), torch.tensor([0.5, 3.0], {F64})).log_prob(torch.tensor([0.5, 0.2], {F64}))',  # noqa: E501
    f'E.Kumaraswamy(torch.tensor([1.0, 2.0], {F64}), torch.tensor([0.5, 3.0], {F64})).mean',
    f'E.Kumaraswamy(torch.tensor([1.5, 2.0], {F64}), torch.tensor([0.5, 3.0], {F64})).mode',
    f'E.Kumaraswamy(torch.tensor([1.0, 2.0], {F64}), torch.tensor([0.5, 3.0], {F64})).entropy()',
    'E.InverseGamma(torch.tensor([1.0, 3.0]), torch.tensor([0.5, 3.0])).sample((2,))',
    f'E.InverseGamma(torch.tensor([1.0, 3.0], {F64}), torch.tensor([0.5, 3.0], {F64})).log_prob(torch.tensor([0.5, 2.0], {F64}))',  # noqa: E501
    f'E.InverseGamma(torch.tensor([1.0, 3.0], {F64}), torch.tensor([0.5, 3.0], {F64})).mean',
    f'E.InverseGamma(torch.tensor([1.0, 3.0], {F64}), torch.tensor([0.5, 3.0], {F64})).entropy()',  # noqa: E501
    'E.LogisticNormal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5])).sample((2,))',
    f'E.LogisticNormal(torch.tensor([0.0, 1.0], {F64}), 0.5).log_prob(torch.tensor([0.2, 0.3, 0.5], {F64}))',  # noqa: E501
    'E.LogisticNormal(0.0, 1.0).event_shape',
    f'D.kl_divergence(E.Pareto(torch.tensor([1.0, 2.0], {F64}), 3.0), E.Pareto(torch.tensor([1.5], {F64}), 2.0))',  # noqa: E501
    f'D.kl_divergence(E.Pareto(torch.tensor([1.0], {F64}), 3.0), E.Exponential(torch.tensor([1.5], {F64})))',  # noqa: E501
    f'D.kl_divergence(E.Pareto(torch.tensor([1.0], {F64}), 3.0), E.Gamma(torch.tensor([1.5], {F64}), 2.0))',  # noqa: E501
    f'D.kl_divergence(E.Pareto(torch.tensor([1.0], {F64}), 3.0), E.Normal(torch.tensor([1.5], {F64}), 2.0))',  # noqa: E501
    f'D.kl_divergence(E.Uniform(torch.tensor([1.5], {F64}), 3.0), E.Pareto(torch.tensor([1.0], {F64}), 2.0))',  # noqa: E501
    'D.kl_divergence(E.Normal(torch.tensor([1.5]), 3.0), E.Pareto(torch.tensor([1.0]), 2.0))',
    'D.kl_divergence(E.Weibull(torch.tensor([1.5]), 3.0), E.Weibull(torch.tensor([1.0]), 2.0))',
    # the constraint registry, Cat/Stack/CDF transforms
    'repr(D.biject_to(C.positive))', 'repr(D.transform_to(C.simplex))',
    'repr(D.biject_to(C.simplex))', 'repr(D.biject_to(C.unit_interval))',
    'repr(D.biject_to(C.interval(-1.0, 3.0)))', 'repr(D.biject_to(C.real_vector))',
    'repr(D.transform_to(C.lower_cholesky))', 'repr(D.transform_to(C.positive_definite))',
    'D.biject_to(C.lower_cholesky)',
    f'D.biject_to(C.interval(-1.0, 3.0))(torch.tensor([0.5, -4.0], {F64}))',
    f'D.biject_to(C.greater_than(2.0)).inv(torch.tensor([2.5, 7.0], {F64}))',
    f'D.biject_to(C.less_than(2.0)).log_abs_det_jacobian(torch.tensor([0.5], {F64}), torch.tensor([0.3], {F64}))',  # noqa: E501
    f'D.biject_to(C.cat([C.positive, C.real], 0, [2, 1]))(torch.tensor([0.5, -1.0, 3.0], {F64}))',  # noqa: E501
    f'D.transform_to(C.stack([C.positive, C.unit_interval], 0))(torch.tensor([0.5, -1.0], {F64}))',  # noqa: E501
    f'T.StackTransform([T.ExpTransform(), T.SigmoidTransform()], 0).log_abs_det_jacobian(torch.tensor([0.5, -1.0], {F64}), T.StackTransform([T.ExpTransform(), T.SigmoidTransform()], 0)(torch.tensor([0.5, -1.0], {F64})))',  # noqa: E501
    f'T.CatTransform([T.ExpTransform(), T.AffineTransform(0.0, 3.0)], 0, [2, 1]).log_abs_det_jacobian(torch.tensor([0.5, -1.0, 2.0], {F64}), torch.tensor([1.0, 1.0, 6.0], {F64}))',  # noqa: E501
    f'T.CatTransform([T.ExpTransform(), T.AffineTransform(0.0, 3.0)], 0, [2, 1]).inv(torch.tensor([0.5, 1.0, 2.0], {F64}))',  # noqa: E501
    f'T.CumulativeDistributionTransform(E.Normal(torch.tensor(0.0, {F64}), 2.0))(torch.tensor([0.5, -1.0], {F64}))',  # noqa: E501
    f'T.CumulativeDistributionTransform(E.Normal(torch.tensor(0.0, {F64}), 2.0)).inv(torch.tensor([0.5, 0.9], {F64}))',  # noqa: E501
    # LowRankMultivariateNormal, FisherSnedecor
    'E.LowRankMultivariateNormal(torch.zeros(3), torch.ones(3, 2), torch.ones(3)).sample((2,))',
    'lr.rsample((2,))',
    f'lr.log_prob(torch.tensor([[0.3, -1.0, 0.5], [2.0, 0.5, 0.1]], {F64}))',
    'lr.entropy()', 'lr.variance', 'lr.scale_tril', 'lr.covariance_matrix',
    'lr.precision_matrix',
    'E.LowRankMultivariateNormal(torch.zeros(3), torch.ones(2, 2), torch.ones(3))',
    'E.LowRankMultivariateNormal(torch.zeros(3), torch.ones(3, 2), torch.ones(2))',
    'E.LowRankMultivariateNormal(torch.zeros(3), torch.ones(3, 2), -torch.ones(3))',
    'E.LowRankMultivariateNormal(torch.zeros(3), torch.ones(3, 2), torch.ones(3)).expand((2,)).sample()',  # noqa: E501
    f'D.kl_divergence(lr, E.LowRankMultivariateNormal(torch.ones(3, {F64}), torch.tensor([[1.0], [0.5], [-1.0]], {F64}), torch.ones(3, {F64})))',  # noqa: E501
    f'D.kl_divergence(lr, E.MultivariateNormal(torch.ones(3, {F64}), torch.eye(3, {F64}) * 2))',
    f'D.kl_divergence(E.MultivariateNormal(torch.ones(3, {F64}), torch.eye(3, {F64}) * 2), lr)',
    'torch.autograd.grad(lr.log_prob(torch.ones(3, dtype=torch.float64)), [lrw])',
    'E.FisherSnedecor(torch.tensor([1.0, 5.0]), torch.tensor([3.0, 10.0])).sample((2,))',
    f'E.FisherSnedecor(torch.tensor([1.0, 5.0], {F64}), torch.tensor([3.0, 10.0], {F64})).rsample()',  # noqa: E501
    f'E.FisherSnedecor(torch.tensor([1.0, 5.0], {F64}), torch.tensor([3.0, 10.0], {F64})).log_prob(torch.tensor([0.5, 2.0], {F64}))',  # noqa: E501
    f'E.FisherSnedecor(torch.tensor([1.0, 5.0], {F64}), torch.tensor([3.0, 10.0], {F64})).mean',
    f'E.FisherSnedecor(torch.tensor([1.0, 5.0], {F64}), torch.tensor([3.0, 10.0], {F64})).mode',
    f'E.FisherSnedecor(torch.tensor([1.0, 5.0], {F64}), torch.tensor([3.0, 10.0], {F64})).variance',  # noqa: E501
    # ContinuousBernoulli, GeneralizedPareto
    'E.ContinuousBernoulli(torch.tensor([0.2, 0.5, 0.9])).sample((2,))',
    f'E.ContinuousBernoulli(torch.tensor([0.2, 0.5, 0.9], {F64})).rsample()',
    f'E.ContinuousBernoulli(torch.tensor([0.2, 0.5, 0.9], {F64})).log_prob(torch.tensor([0.3, 0.5, 0.99], {F64}))',  # noqa: E501
    f'E.ContinuousBernoulli(torch.tensor([0.2, 0.5, 0.9], {F64})).cdf(torch.tensor([0.3, 0.5, 0.99], {F64}))',  # noqa: E501
    f'E.ContinuousBernoulli(torch.tensor([0.2, 0.5, 0.9], {F64})).mean',
    f'E.ContinuousBernoulli(torch.tensor([0.2, 0.5, 0.9], {F64})).variance',
    f'E.ContinuousBernoulli(torch.tensor([0.2, 0.5, 0.9], {F64})).entropy()',
    f'E.ExponentialFamily.entropy(E.ContinuousBernoulli(logits=torch.tensor([0.2, -1.0], {F64})))',  # noqa: E501
    'E.ContinuousBernoulli(torch.tensor([1.5]), validate_args=True)',
    f'D.kl_divergence(E.ContinuousBernoulli(torch.tensor([0.2, 0.9], {F64})), E.ContinuousBernoulli(torch.tensor([0.5, 0.3], {F64})))',  # noqa: E501
    f'D.kl_divergence(E.ContinuousBernoulli(torch.tensor([0.2, 0.9], {F64})), E.Normal(torch.tensor([0.5], {F64}), 2.0))',  # noqa: E501
    f'D.kl_divergence(E.ContinuousBernoulli(torch.tensor([0.2, 0.9], {F64})), E.Exponential(torch.tensor([0.5], {F64})))',  # noqa: E501
    f'D.kl_divergence(E.ContinuousBernoulli(torch.tensor([0.2, 0.9], {F64})), E.Uniform(torch.tensor([0.0], {F64}), 2.0))',  # noqa: E501
    f'D.kl_divergence(E.Beta(torch.tensor([0.2, 0.9], {F64}), 2.0), E.ContinuousBernoulli(torch.tensor([0.3], {F64})))',  # noqa: E501
    f'D.kl_divergence(E.Uniform(torch.tensor([0.2], {F64}), 0.6), E.ContinuousBernoulli(torch.tensor([0.3], {F64})))',  # noqa: E501
    'D.kl_divergence(E.Normal(torch.tensor([0.2]), 0.6), E.ContinuousBernoulli(torch.tensor([0.3])))',  # noqa: E501
    'E.GeneralizedPareto(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]), torch.tensor([0.5, 0.0])).sample((2,))',  # noqa: E501
    f'E.GeneralizedPareto(torch.tensor([0.0, 1.0], {F64}), 2.0, torch.tensor([0.5, -0.2], {F64})).log_prob(torch.tensor([0.3, 2.0], {F64}))',  # noqa: E501
    f'E.GeneralizedPareto(torch.tensor([0.0, 1.0], {F64}), 2.0, torch.tensor([0.5, 0.0], {F64})).cdf(torch.tensor([0.3, 2.0], {F64}))',  # noqa: E501
    f'E.GeneralizedPareto(torch.tensor([0.0, 1.0], {F64}), 2.0, torch.tensor([0.5, 0.0], {F64})).mean',  # noqa: E501
    f'E.GeneralizedPareto(torch.tensor([0.0, 1.0], {F64}), 2.0, torch.tensor([0.3, 0.7], {F64})).variance',  # noqa: E501
    f'E.GeneralizedPareto(torch.tensor([0.0, 1.0], {F64}), 2.0, torch.tensor([0.3, 0.7], {F64})).entropy()',  # noqa: E501
    'repr(E.GeneralizedPareto(torch.tensor([0.0]), 2.0, torch.tensor([-0.5])).support)',
    # VonMises, LKJCholesky
    'E.VonMises(torch.tensor([0.0, 1.0, -2.0]), torch.tensor([0.5, 4.0, 1e-6])).sample((2,))',
    f'E.VonMises(torch.tensor([0.0, 1.0], {F64}), torch.tensor([0.5, 4.0], {F64})).log_prob(torch.tensor([0.3, -2.0], {F64}))',  # noqa: E501
    f'E.VonMises(torch.tensor([0.0, 1.0], {F64}), torch.tensor([0.5, 4.0], {F64})).variance',
    'E.VonMises(torch.tensor([0.0, 1.0]), torch.tensor([0.5, 4.0])).expand((3, 2)).sample()',
    'E.VonMises(torch.tensor([0.0]), torch.tensor([0.5])).rsample()',
    'E.LKJCholesky(3, torch.tensor([0.5, 2.0])).sample((2,))',
    f'E.LKJCholesky(3, torch.tensor([0.5, 2.0], {F64})).log_prob(T.CorrCholeskyTransform()(torch.tensor([0.5, -1.0, 0.3], {F64})))',  # noqa: E501
    'E.LKJCholesky(1)',
    'E.LKJCholesky(2, 1.5).expand((2,)).sample()',
    # Wishart
    'E.Wishart(torch.tensor(4.0), torch.eye(2) * 2).sample()',
    f'E.Wishart(torch.tensor([3.0, 5.0], {F64}), scale_tril=torch.tensor([[1.0, 0.0], [0.5, 2.0]], {F64})).rsample((2,))',  # noqa: E501
    f'E.Wishart(torch.tensor([3.0, 5.0], {F64}), torch.tensor([[2.0, 0.5], [0.5, 1.0]], {F64})).log_prob(torch.tensor([[3.0, 0.2], [0.2, 1.5]], {F64}))',  # noqa: E501
    f'E.Wishart(torch.tensor([3.0, 5.0], {F64}), torch.tensor([[2.0, 0.5], [0.5, 1.0]], {F64})).entropy()',  # noqa: E501
    f'E.Wishart(torch.tensor([3.0, 5.0], {F64}), torch.tensor([[2.0, 0.5], [0.5, 1.0]], {F64})).mean',  # noqa: E501
    f'E.Wishart(torch.tensor([3.0, 5.0], {F64}), torch.tensor([[2.0, 0.5], [0.5, 1.0]], {F64})).mode',  # noqa: E501
    f'E.Wishart(torch.tensor([3.0, 5.0], {F64}), torch.tensor([[2.0, 0.5], [0.5, 1.0]], {F64})).variance',  # noqa: E501
    f'E.Wishart(torch.tensor(3.0, {F64}), precision_matrix=torch.tensor([[2.0, 0.5], [0.5, 1.0]], {F64})).covariance_matrix',  # noqa: E501
    'E.Wishart(torch.tensor(0.5), torch.eye(2))',
    'E.Wishart(3.0, torch.eye(2)).expand((2,)).sample()',
    # torch._standard_gamma and friends
    'torch._standard_gamma(torch.tensor([0.3, 1.0, 7.5, 120.0]))',
    f'torch._standard_gamma(torch.tensor([0.3, 1.0, 7.5, 120.0], {F64}))',
    f'torch._standard_gamma_grad(torch.tensor([0.3, 2.0, 9.0, 30.0], {F64}), torch.tensor([0.5, 1.5, 10.0, 12.0], {F64}))',  # noqa: E501
    'torch._standard_gamma_grad(torch.tensor([0.3, 2.0, 9.0]), torch.tensor([0.5, 1.5, 10.0]))',
    'torch._sample_dirichlet(torch.tensor([[0.3, 1.0, 7.5], [2.0, 2.0, 0.1]]))',
    'torch._standard_gamma(torch.tensor([1, 2]))',
    'torch._standard_gamma(grate).grad_fn.name()',
    # constraints
    'repr(C.nonnegative_integer)', 'repr(C.real_vector)', 'repr(C.half_open_interval(0, 1))',
    'repr(C.lower_cholesky)', 'repr(C.positive_definite)', 'repr(C.one_hot)',
    'C.positive_definite.check(torch.tensor([[2.0, 1.0], [1.0, 2.0]]))',
    'C.positive_definite.check(torch.tensor([[1.0, 2.0], [2.0, 1.0]]))',
    'C.lower_cholesky.check(torch.tensor([[1.0, 0.0], [2.0, 1.0]]))',
    'C.simplex.check(torch.tensor([[0.2, 0.8], [0.5, 0.6]]))',
    'C.independent(C.real, 1).check(torch.tensor([[0.2, float("nan")], [0.5, 0.6]]))',
    'C.multinomial(3).check(torch.tensor([[1.0, 2.0], [3.0, 1.0]]))',
    'C.nonnegative_integer.check(torch.tensor([0.0, 1.5, 2.0, -1.0]))',
    'C.corr_cholesky.check(T.CorrCholeskyTransform()(torch.tensor([0.5, -1.0, 0.3])))',
    'torch.rand(2)',
]


def _run(torch):
    D = torch.distributions
    ns = {"torch": torch, "D": D, "E": D, "T": D.transforms, "C": D.constraints}
    if torch is autotensor:
        ns["relaxed"] = D.relaxed
    else:  # (PyTorch keeps the relaxed bases in their own modules)
        from torch.distributions import relaxed_bernoulli, relaxed_categorical
        ns["relaxed"] = SimpleNamespace(
            LogitRelaxedBernoulli=relaxed_bernoulli.LogitRelaxedBernoulli,
            ExpRelaxedCategorical=relaxed_categorical.ExpRelaxedCategorical)
    torch.manual_seed(0)
    ns["mloc"] = torch.tensor([0.5, -0.5], dtype=torch.float64, requires_grad=True)
    ns["mcov"] = torch.tensor([[2.0, 0.5], [0.5, 1.0]], dtype=torch.float64, requires_grad=True)
    ns["mvn"] = D.MultivariateNormal(ns["mloc"], ns["mcov"])
    ns["gconc"] = torch.tensor([0.4, 2.5, 11.0], dtype=torch.float64, requires_grad=True)
    ns["grate"] = torch.tensor([1.0, 0.5, 2.0], dtype=torch.float64, requires_grad=True)
    ns["lrw"] = torch.tensor([[1.0, 0.5], [0.3, -1.0], [2.0, 0.1]], dtype=torch.float64,
                             requires_grad=True)
    ns["lr"] = D.LowRankMultivariateNormal(torch.tensor([0.5, -0.5, 0.0], dtype=torch.float64),
                                           ns["lrw"], torch.tensor([1.0, 2.0, 0.5],
                                                                   dtype=torch.float64))
    ns["dconc"] = torch.tensor([0.4, 2.5, 11.0, 1.0], dtype=torch.float64, requires_grad=True)
    ns["mix"] = D.MixtureSameFamily(
        D.Categorical(torch.tensor([0.3, 0.7], dtype=torch.float64)),
        D.Normal(torch.tensor([-1.0, 2.0], dtype=torch.float64),
                 torch.tensor([0.5, 1.5], dtype=torch.float64)))
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


@pytest.fixture(scope="module")
def both():
    torch = pytest.importorskip("torch")
    return list(zip(_run(autotensor), _run(torch)))


@pytest.mark.parametrize("i", range(len(CASES)))
def test_distribution_case_matches_torch(both, i):
    (code, ours), (_, theirs) = both[i]
    if isinstance(theirs, tuple):  # (a tensor: dtype, then values)
        assert ours[0] == theirs[0], code
        tol = 1e-12 if theirs[0] == "float64" else 1e-6
        assert ours[1].shape == theirs[1].shape, code
        np.testing.assert_allclose(ours[1], theirs[1], rtol=tol, atol=tol, err_msg=code)
    elif isinstance(theirs, list):
        for a, b in zip(ours, theirs):
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12, err_msg=code)
    else:
        assert ours == theirs, code


_GRADCHECKS = {
    "laplace": lambda D, a, b, x: D.Laplace(a, b.exp()).log_prob(x) + D.Laplace(a, b.exp()).entropy(),  # noqa: E501
    "cauchy": lambda D, a, b, x: D.Cauchy(a, b.exp()).log_prob(x),
    "lognormal": lambda D, a, b, x: D.LogNormal(a, b.exp()).log_prob(x.exp()),
    "gumbel": lambda D, a, b, x: D.Gumbel(a, b.exp()).log_prob(x),
    "halfnormal": lambda D, a, b, x: D.HalfNormal(b.exp()).log_prob(x.abs()),
    "exponential_rsample": lambda D, a, b, x: D.Exponential(b.exp()).rsample(),
    "mvn": lambda D, a, b, x: D.MultivariateNormal(
        a, scale_tril=D.transforms.LowerCholeskyTransform()(b.reshape(2, 2).tril() + 2 * b.new_ones(2).diag())).log_prob(x.reshape(2, 2)),  # noqa: E501
    "kl_gumbel_normal": lambda D, a, b, x: D.kl_divergence(D.Gumbel(a, b.exp()),
                                                           D.Normal(x, b.exp() + 1)),
}


@pytest.mark.parametrize("name", sorted(_GRADCHECKS))
def test_family_gradients_by_finite_differences(name):
    """log_prob's, entropy's, rsample's and KL's gradients in float64 against central
    differences (no torch needed)."""
    torch = autotensor
    D = torch.distributions
    fn = _GRADCHECKS[name]
    shape = (2, 2) if name == "mvn" else (4,)
    torch.manual_seed(1)
    a = torch.randn(shape[-1] if name == "mvn" else 4, dtype=torch.float64,
                    requires_grad=True)
    b = (0.3 * torch.randn(4, dtype=torch.float64)).requires_grad_()
    x = torch.randn(4, dtype=torch.float64, requires_grad=True)

    def f(a, b, x):
        torch.manual_seed(2)  # (rsample draws the same noise each call)
        return fn(D, a, b, x)
    assert torch.autograd.gradcheck(f, (a, b, x))


def _gamma_sweep(torch):
    rng = np.random.default_rng(0)
    alphas = np.concatenate([rng.uniform(0, 2, 200), rng.exponential(20, 200),
                             [1e-30, 1e-8, 1e6, 5e-4, 0.0]])
    torch.manual_seed(11)
    out = []
    for dt in (torch.float32, torch.float64):
        a = torch.tensor(alphas, dtype=dt)
        out.append(torch._standard_gamma(a).numpy().astype(np.float64))
        x = torch.tensor(rng.exponential(10, alphas.size), dtype=dt)
        out.append(torch._standard_gamma_grad(a, x).numpy().astype(np.float64))
        out.append(torch._sample_dirichlet(a[:-1].reshape(-1, 4) + 0.05).numpy().astype(
            np.float64).ravel())
        counts = torch.tensor(np.floor(alphas * 3), dtype=dt)
        out.append(torch.binomial(counts, torch.tensor(rng.uniform(0, 1, alphas.size),
                                                       dtype=dt)).numpy().astype(np.float64))
        xs = torch.tensor(rng.uniform(0, 1, alphas.size), dtype=dt)
        out.append(torch._dirichlet_grad(xs, a, a + x).numpy().astype(np.float64))
    out.append(torch.rand(3, dtype=torch.float64).numpy())  # (the generator's state after)
    return np.concatenate(out)


def test_standard_gamma_bit_for_bit():
    """aten's Marsaglia-Tsang sampler (its float32 literals, the cached second normal of each
    Box-Muller pair), its implicit-gradient approximations, the Dirichlet normalisation and
    the Dirichlet gradient (its float/double mix for float32), binomial's BTRS and inversion:
    every value equal to
    PyTorch's, bit for bit, over 405 shapes in both dtypes."""
    torch = pytest.importorskip("torch")
    np.testing.assert_array_equal(_gamma_sweep(autotensor), _gamma_sweep(torch))


@pytest.mark.parametrize("module", ["", ".constraints", ".transforms"])
def test_every_public_name_of_torch_distributions(module):
    """torch.distributions' __all__ (and its constraints' and transforms'): all present."""
    import importlib
    pytest.importorskip("torch")
    theirs = importlib.import_module("torch.distributions" + module)
    ours = importlib.import_module("autotensor.distributions" + module)
    assert sorted(set(theirs.__all__) - set(dir(ours))) == []
