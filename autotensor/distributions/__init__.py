"""``torch.distributions``: the families PyTorch users reach for most, with PyTorch's formulas
(so gradients through ``rsample`` / ``log_prob`` / ``entropy`` match), its argument
validation and messages, samples drawn from the generator as PyTorch draws them (the same
values for a seed), ``expand``, transforms, and ``kl_divergence`` dispatched as PyTorch's.

Layout: ``distribution`` (the base), ``continuous`` and ``discrete`` (families drawn directly),
``gamma`` (Gamma, Chi2, StudentT, Dirichlet, Beta), ``transforms`` and ``transformed``
(families built by pushing a base through transforms), ``relaxed`` (Gumbel-softmax
relaxations), ``multivariate``, ``directional`` (VonMises, LKJCholesky), ``kl``,
``constraints``, ``constraint_registry`` (biject_to / transform_to), ``utils``."""
from . import constraints, transforms
from .constraint_registry import biject_to, transform_to
from .continuous import Cauchy, ContinuousBernoulli, Exponential, GeneralizedPareto, Laplace, \
    Normal, Uniform
from .discrete import Bernoulli, Binomial, Categorical, Geometric, Multinomial, \
    NegativeBinomial, OneHotCategorical, OneHotCategoricalStraightThrough, Poisson
from .directional import LKJCholesky, VonMises
from .distribution import Distribution, ExponentialFamily
from .gamma import Beta, Chi2, Dirichlet, FisherSnedecor, Gamma, StudentT
from .kl import kl_divergence, register_kl
from .multivariate import LowRankMultivariateNormal, MixtureSameFamily, MultivariateNormal, \
    Wishart
from .relaxed import RelaxedBernoulli, RelaxedOneHotCategorical
from .transformed import Gumbel, HalfCauchy, HalfNormal, Independent, InverseGamma, \
    Kumaraswamy, LogNormal, LogisticNormal, Pareto, TransformedDistribution, Weibull
from .transforms import AbsTransform, AffineTransform, CatTransform, ComposeTransform, \
    CorrCholeskyTransform, CumulativeDistributionTransform, ExpTransform, IndependentTransform, \
    LowerCholeskyTransform, PositiveDefiniteTransform, PowerTransform, ReshapeTransform, \
    SigmoidTransform, SoftmaxTransform, SoftplusTransform, StackTransform, \
    StickBreakingTransform, TanhTransform, Transform, identity_transform

__all__ = ["AbsTransform", "AffineTransform", "Bernoulli", "Beta", "Binomial", "Categorical",
           "Cauchy", "Multinomial", "NegativeBinomial", "RelaxedBernoulli",
           "RelaxedOneHotCategorical",
           "InverseGamma", "Kumaraswamy", "LogisticNormal", "Pareto", "Weibull",
           "Chi2", "Dirichlet", "Gamma", "StudentT",
           "ComposeTransform", "CorrCholeskyTransform", "Distribution", "ExpTransform",
           "Exponential", "ExponentialFamily", "Geometric", "Gumbel", "HalfCauchy",
           "HalfNormal", "Independent", "IndependentTransform", "Laplace", "LogNormal",
           "LowerCholeskyTransform", "MixtureSameFamily", "MultivariateNormal", "Normal",
           "OneHotCategorical", "OneHotCategoricalStraightThrough", "Poisson",
           "PositiveDefiniteTransform", "PowerTransform", "ReshapeTransform",
           "SigmoidTransform", "SoftmaxTransform", "SoftplusTransform",
           "StickBreakingTransform", "TanhTransform", "Transform", "TransformedDistribution",
           "Uniform", "constraints", "identity_transform", "kl_divergence", "register_kl",
           "biject_to", "transform_to", "CatTransform", "StackTransform",
           "FisherSnedecor", "LowRankMultivariateNormal", "ContinuousBernoulli",
           "GeneralizedPareto", "LKJCholesky", "VonMises", "Wishart",
           "CumulativeDistributionTransform",
           "transforms"]
