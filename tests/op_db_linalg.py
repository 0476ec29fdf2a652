"""op_db samples for linear algebra (torch.linalg, matmul family, decompositions).

Imported by op_db.py at its end; ``add`` appends to the shared ``SAMPLES`` list, so every
sample here gets the generated tests (values, gradcheck, gradgradcheck, forward AD vs torch).
"""
import numpy as np  # noqa: F401

from op_db import add  # noqa: F401
