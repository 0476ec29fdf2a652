"""dtype= of torch.norm / linalg.vector_norm / matrix_norm / linalg.norm: computed in that
dtype by the one LinalgVectorNormBackward0 node (no ToCopyBackward0 before it), the input's
gradient back in its own dtype, PyTorch's refusals (complex for real, narrowing)."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

CALLS = [
    lambda T, x: T.linalg.vector_norm(x, dtype=T.float64),
    lambda T, x: T.norm(x, dtype=T.float64),
    lambda T, x: T.norm(x, p=1, dtype=T.float64),
    lambda T, x: T.norm(x, p="fro", dim=1, dtype=T.float64),
    lambda T, x: T.norm(x, p="nuc", dtype=T.float64),
    lambda T, x: T.linalg.matrix_norm(x, dtype=T.float64),
    lambda T, x: T.linalg.norm(x, dtype=T.float64),
    lambda T, x: x.norm(p=3, dim=1, dtype=T.float64),
    lambda T, x: T.linalg.vector_norm(x, dtype=T.complex128),
    lambda T, x: T.norm(x, dtype=T.float16),
    lambda T, x: T.linalg.vector_norm(x.half(), dtype=T.float32),
]


def _run(T, i):
    x = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.5]], requires_grad=True)
    try:
        r = CALLS[i](T, x)
    except RuntimeError as e:
        return str(e)
    r.sum().backward()
    return (str(r.dtype), r.grad_fn.name(),
            [n[0].name() if n[0] is not None else None for n in r.grad_fn.next_functions],
            str(x.grad.dtype), r.detach().numpy(), x.grad.numpy())


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("i", range(len(CALLS)))
def test_norm_dtype_argument(i):
    a, t = _run(autotensor, i), _run(torch, i)
    if isinstance(t, str):
        assert a == t
        return
    assert a[:4] == t[:4]
    for p, q in zip(a[4:], t[4:]):
        np.testing.assert_allclose(p, q, rtol=1e-6 if p.dtype == np.float32 else 1e-12)
