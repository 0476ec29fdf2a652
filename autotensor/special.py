"""``torch.special``: the special functions under SciPy's names (aliases of the ops where
torch has them at the top level too). Kernels in ``_ops/special.py``."""
from ._ops import (  # noqa: F401
    digamma, erf, erfc, erfinv, exp2, expm1, log1p, log_softmax, logit, logsumexp, polygamma,
    sigmoid as expit, sinc, softmax, xlogy)
from ._ops.pointwise import lgamma as gammaln
from ._ops.special import (  # noqa: F401
    entr, erfcx, i0, i1, i1e, log_ndtr, mvlgamma as multigammaln, ndtr, ndtri,
    special_i0e as i0e, special_round as round, special_zeta as zeta, xlog1py)

psi = digamma

__all__ = ["digamma", "entr", "erf", "erfc", "erfcx", "erfinv", "exp2", "expit", "expm1",
           "gammaln", "i0", "i0e", "i1", "i1e", "log1p", "log_ndtr", "log_softmax", "logit",
           "logsumexp", "multigammaln", "ndtr", "ndtri", "polygamma", "psi", "round", "sinc",
           "softmax", "xlog1py", "xlogy", "zeta"]
