"""Warnings of reductions as PyTorch's: var/std/var_mean/std_mean with degrees of freedom
<= 0 warn, mean() of an empty tensor gives NaN without NumPy's warning."""
import warnings

import pytest

import autotensor

CASES = [
    "torch.ones(3).std(0, correction=3)", "torch.zeros(0).var()",
    "torch.ones(2, 3).var(1, correction=5)", "torch.std_mean(torch.ones(1))",
    "torch.zeros(0).mean()",
    "torch.ones(1).var(unbiased=False)", "torch.ones(1).var()", "torch.zeros(0, 3).var(1)",
    "torch.zeros(0, 3).var(0)", "torch.zeros(0, 3).mean(0)", "torch.zeros(2, 0).mean(1)",
    "torch.ones(3, 4).std(dim=(0, 1), correction=12)",
    "torch.ones(3, 4).std(dim=(0, 1), correction=11)", "torch.var(torch.ones(2), correction=2)",
    "torch.tensor(2.0).var()", "torch.zeros(0).nanmean()", "torch.var_mean(torch.zeros(0))",
]


def _warned(torch, code):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = eval(code, {"torch": torch})
    r = r if isinstance(r, tuple) else (r,)
    return [str(x.message).split(" (Triggered")[0] for x in w], [repr(t.tolist()) for t in r]


@pytest.mark.parametrize("code", CASES)
def test_reduction_warnings_as_torch(code):
    torch = pytest.importorskip("torch")
    assert _warned(autotensor, code) == _warned(torch, code)
