"""``torch.linalg``: matrix functions and decompositions, batched over leading dimensions
(values for real and complex dtypes; gradients for real ones, and eig's). The ops, their
backward formulas and forward rules live in ``_ops/linalg.py`` (Note [Linear-algebra formulas])."""
from ._ops.linalg import (  # noqa: F401
    _LinAlgError as LinAlgError, cholesky_ex, cond, eigh, eigvalsh, inv, inv_ex, lstsq,
    lu_factor, lu_factor_ex, lu_solve, matmul, matrix_exp, matrix_norm, matrix_rank, multi_dot,
    pinv, qr, slogdet, solve, solve_ex, solve_triangular, svd, svdvals, tensorinv, tensorsolve,
    vecdot, vector_norm)
from ._ops.linalg import (
    det as det, linalg_cholesky as cholesky, linalg_cross as cross,
    linalg_diagonal as diagonal, linalg_lu as lu, linalg_matrix_power as matrix_power,
    linalg_norm as norm)
from ._ops.linalg import (  # noqa: F401  (part 3)
    eig, eigvals, householder_product, ldl_factor, ldl_factor_ex, ldl_solve,
    linalg_vander as vander)

__all__ = ["LinAlgError", "cholesky", "cholesky_ex", "cond", "cross", "det", "diagonal", "eigh",
           "eigvalsh", "inv", "inv_ex", "lstsq", "lu", "lu_factor", "lu_factor_ex", "lu_solve",
           "matmul", "matrix_exp", "matrix_norm", "matrix_power", "matrix_rank", "multi_dot",
           "norm", "pinv", "qr", "slogdet", "solve", "solve_ex", "solve_triangular", "svd",
           "svdvals", "tensorinv", "tensorsolve", "vecdot", "vector_norm"]
__all__ += ["eig", "eigvals", "householder_product", "ldl_factor", "ldl_factor_ex",  # (part 3)
            "ldl_solve", "vander"]

from ._ops._out import LINALG_OUT_NAMES as _LINALG_OUT_NAMES, add_out as _add_out  # noqa: E402
_add_out(globals(), _LINALG_OUT_NAMES)  # out= (Note [out= arguments])
