"""torch.testing.assert_close: the same verdicts, exception types and messages as
PyTorch's over tensors, NumPy arrays, numbers, booleans, None, sequences and mappings."""
import numpy as np
import pytest

import autotensor

CASES = [
    'ac(torch.tensor([1.,2,3]), torch.tensor([1.,2.1,3]))',
    'ac(torch.tensor([1,2,3]), torch.tensor([1,5,3]))',
    'ac(1.0, 1.1)',
    'ac(torch.tensor(1.), torch.tensor(1.1))',
    'ac(torch.tensor([1.,2]), torch.tensor([1.,2,3]))',
    'ac(torch.tensor([1.,2]), torch.tensor([1.,2], dtype=torch.float64))',
    'ac(torch.tensor([1.,2]), torch.tensor([1.,2], dtype=torch.float64), check_dtype=False)',
    'ac(torch.tensor([nan]), torch.tensor([nan]))',
    'ac(torch.tensor([nan]), torch.tensor([nan]), equal_nan=True)',
    'ac(torch.tensor([1.,2]), torch.tensor([1.,2.5]), rtol=0.3, atol=0)',
    'ac(torch.tensor([1.,2]), torch.tensor([1.,2.5]), rtol=0.3)',
    'ac([torch.tensor(1.), 2.0], [torch.tensor(1.), 2.5])',
    'ac({"a": torch.tensor([1.])}, {"a": torch.tensor([2.])})',
    'ac(torch.tensor([True, False]), torch.tensor([True, True]))',
    'ac(torch.tensor([1.,2]), torch.tensor([1.,2.5]), msg="custom")',
    'ac(torch.tensor([1.+1j]), torch.tensor([1.+2j]))',
    'ac(torch.zeros(2,2), torch.zeros(2,2).t(), check_stride=True)',
    'ac(torch.tensor([1.,2]), [1.,2])',
    'ac(1, 1.0)',
    'ac(torch.tensor([[1.,2],[3,4]]), torch.tensor([[1.,2],[3,5]]))',
    'ac(torch.tensor([1.,2],requires_grad=True), torch.tensor([1.,2]))',
    'ac(torch.tensor([1e-9]), torch.tensor([0.]))',
    'ac(torch.tensor([1.,2]).half(), torch.tensor([1.,2.001]).half())',
    'ac("a", "a")',
    'ac(None, None)',
    'ac(torch.tensor([1.]), None)',
    'ac(torch.tensor([1., 2.]), torch.tensor([1., 2.]))',
    'ac(np.array([1., 2.]), np.array([1., 2.5]))',
    'ac(torch.tensor([1., 2.]), np.array([1., 2.]))',
    'ac(torch.tensor([1., float("inf")]), torch.tensor([1., float("inf")]))',
    'ac(torch.tensor([1., float("inf")]), torch.tensor([1., -float("inf")]))',
    'ac(torch.tensor([0., 1.]), torch.tensor([1., 1.]))',
    'ac(torch.tensor([1, 2], dtype=torch.int32), torch.tensor([1., 2.]), check_dtype=False)',
    'ac(torch.tensor([1, 2], dtype=torch.int32), torch.tensor([1., 2.5]), check_dtype=False)',
    'ac([1, 2], [1, 2, 3])',
    'ac({"a": 1}, {"b": 1})',
    'ac(True, False)',
    'ac(1.0, 1.0 + 1e-9)',
    'ac(2, 3)',
    'ac(torch.tensor([1., 2.]), torch.tensor([1.5, 2.]), msg=lambda m: "X" + m[:10])',
    'ac(torch.tensor([[1., 2.], [3., 4.]], dtype=torch.float64), torch.tensor([[1., 2.1], [3.5, '
    '4.]], dtype=torch.float64))',
    'ac(torch.tensor([1, 2], dtype=torch.uint8), torch.tensor([3, 2], dtype=torch.uint8))',
    'ac((1.0, [2.0, {"k": torch.tensor([3.])}]), (1.0, [2.0, {"k": torch.tensor([3.5])}]))',
    'ac(torch.tensor([1.,2]), torch.tensor([1.,2.5]), rtol=0, atol=0)',
    'ac(torch.tensor(3), torch.tensor(4))',
]


def _run(torch, code):
    ns = {"torch": torch, "np": np, "ac": torch.testing.assert_close, "nan": float("nan")}
    try:
        return eval(code, ns)
    except Exception as e:  # (the verdict compared: type and message)
        return type(e).__name__, str(e)


@pytest.mark.parametrize("code", CASES)
def test_assert_close_matches_torch(code):
    torch = pytest.importorskip("torch")
    assert _run(autotensor, code) == _run(torch, code)


def test_assert_close_tolerances():
    t, ac = autotensor, autotensor.testing.assert_close
    ac(t.tensor([1.0], dtype=t.float64), t.tensor([1.0 + 9e-8], dtype=t.float64))
    with pytest.raises(AssertionError, match="not close"):
        ac(t.tensor([1.0], dtype=t.float64), t.tensor([1.0 + 3e-7], dtype=t.float64))
    ac(t.tensor([1.0]).half(), t.tensor([1.0009765625]).half())  # (one float16 ulp)
    with pytest.raises(ValueError, match="must be either specified or omitted"):
        ac(t.zeros(1), t.zeros(1), atol=1.0)
