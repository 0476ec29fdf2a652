"""``torch.special``: the special functions under SciPy's names (aliases of the ops where
torch has them at the top level too). Kernels in ``_ops/special.py``."""
from ._ops import (  # noqa: F401
    digamma, erf, erfc, erfinv, exp2, expm1, log1p, log_softmax, logit, logsumexp, polygamma,
    sigmoid as expit, sinc, softmax, xlogy)
from ._ops.pointwise import lgamma as gammaln
from ._ops.special import (  # noqa: F401
    entr, erfcx, i0, i1, i1e, log_ndtr, mvlgamma as multigammaln, ndtr, ndtri,
    special_i0e as i0e, special_round as round, special_zeta as zeta, xlog1py)

from ._ops.special import (  # noqa: F401,E402  (Note [Special functions PyTorch does not differentiate])
    airy_ai, bessel_j0, bessel_j1, bessel_y0, bessel_y1, chebyshev_polynomial_t,
    chebyshev_polynomial_u, chebyshev_polynomial_v, chebyshev_polynomial_w, hermite_polynomial_h,
    hermite_polynomial_he, laguerre_polynomial_l, legendre_polynomial_p, modified_bessel_i0,
    modified_bessel_i1, modified_bessel_k0, modified_bessel_k1, scaled_modified_bessel_k0,
    scaled_modified_bessel_k1, shifted_chebyshev_polynomial_t, shifted_chebyshev_polynomial_u,
    shifted_chebyshev_polynomial_v, shifted_chebyshev_polynomial_w, spherical_bessel_j0,
    special_gammainc as gammainc, special_gammaincc as gammaincc)

psi = digamma

__all__ = ["digamma", "entr", "erf", "erfc", "erfcx", "erfinv", "exp2", "expit", "expm1",
           "gammaln", "i0", "i0e", "i1", "i1e", "log1p", "log_ndtr", "log_softmax", "logit",
           "logsumexp", "multigammaln", "ndtr", "ndtri", "polygamma", "psi", "round", "sinc",
           "softmax", "xlog1py", "xlogy", "zeta", "airy_ai", "bessel_j0", "bessel_j1",
           "bessel_y0", "bessel_y1", "chebyshev_polynomial_t", "chebyshev_polynomial_u",
           "chebyshev_polynomial_v", "chebyshev_polynomial_w", "gammainc", "gammaincc",
           "hermite_polynomial_h", "hermite_polynomial_he", "laguerre_polynomial_l",
           "legendre_polynomial_p", "modified_bessel_i0", "modified_bessel_i1",
           "modified_bessel_k0", "modified_bessel_k1", "scaled_modified_bessel_k0",
           "scaled_modified_bessel_k1", "shifted_chebyshev_polynomial_t",
           "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
           "shifted_chebyshev_polynomial_w", "spherical_bessel_j0"]
