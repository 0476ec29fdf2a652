"""Bad input: each misuse raises PyTorch's exception (type + message), corrupts nothing
(tensors, ``.grad``, ``grad_fn``, ``_version`` unchanged), and a correct retry works."""
from __future__ import annotations

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from differential import catch, compare  # noqa: E402


def _state(*ts):
    out = []
    for t in ts:
        out.append({"t": t, "grad": t.grad if t.is_leaf else None, "version": t._version,
                    "grad_fn": type(t.grad_fn).__name__ if t.grad_fn is not None else None})
    return out


def _a(*shape, seed=0, dtype=np.float32):
    return np.random.RandomState(seed).randn(*shape).astype(dtype)


# Each case: (build, misuse, retry).  build(torch) -> dict of tensors; misuse(torch, env)
# is expected to raise; retry(torch, env) is the correct call and its result is compared.
CASES = {
    "matmul_wrong_shapes": (
        lambda torch: {"a": torch.tensor(_a(2, 3), requires_grad=True),
                       "b": torch.tensor(_a(2, 3, seed=1))},
        lambda torch, e: e["a"] @ e["b"],
        lambda torch, e: e["a"] @ e["b"].t()),
    "add_broadcast_mismatch": (
        lambda torch: {"a": torch.tensor(_a(2, 3), requires_grad=True),
                       "b": torch.tensor(_a(4))},
        lambda torch, e: e["a"] + e["b"],
        lambda torch, e: e["a"] + e["b"][:3]),
    "view_incompatible": (
        lambda torch: {"a": torch.tensor(_a(3, 4), requires_grad=True)},
        lambda torch, e: e["a"].t().view(12),
        lambda torch, e: e["a"].t().reshape(12)),
    "view_wrong_numel": (
        lambda torch: {"a": torch.tensor(_a(3, 4), requires_grad=True)},
        lambda torch, e: e["a"].view(5, -1),
        lambda torch, e: e["a"].view(6, -1)),
    "cat_dtype_dim_mismatch": (
        lambda torch: {"a": torch.tensor(_a(2, 3), requires_grad=True),
                       "b": torch.tensor(_a(3, 2))},
        lambda torch, e: torch.cat([e["a"], e["b"]], 0),
        lambda torch, e: torch.cat([e["a"], e["b"].t()], 0)),
    "stack_shape_mismatch": (
        lambda torch: {"a": torch.tensor(_a(2), requires_grad=True),
                       "b": torch.tensor(_a(3))},
        lambda torch, e: torch.stack([e["a"], e["b"]]),
        lambda torch, e: torch.stack([e["a"], e["b"][:2]])),
    "mm_int_float": (
        lambda torch: {"a": torch.tensor(_a(2, 2), requires_grad=True),
                       "b": torch.tensor(np.array([[1, 2], [3, 4]]))},
        lambda torch, e: e["a"].mm(e["b"]),
        lambda torch, e: e["a"].mm(e["b"].float())),
    "requires_grad_on_int_tensor": (
        lambda torch: {"a": torch.tensor(_a(2))},
        lambda torch, e: torch.tensor([1, 2], requires_grad=True),
        lambda torch, e: torch.tensor([1.0, 2.0], requires_grad=True)),
    "requires_grad_on_int_method": (
        lambda torch: {"a": torch.tensor(_a(2))},
        lambda torch, e: torch.tensor([1, 2]).requires_grad_(),
        lambda torch, e: torch.tensor([1, 2]).float().requires_grad_()),
    "backward_twice": (
        lambda torch: (lambda x: {"x": x, "y": (x * x).sum()})(
            torch.tensor(_a(3), requires_grad=True)),
        lambda torch, e: (e["y"].backward(), e["y"].backward()),
        lambda torch, e: ((e["x"] * e["x"]).sum().backward(), e["x"].grad)[1]),
    "backward_non_scalar": (
        lambda torch: (lambda x: {"x": x, "y": x * 2})(torch.tensor(_a(3), requires_grad=True)),
        lambda torch, e: e["y"].backward(),
        lambda torch, e: (e["y"].backward(torch.ones(3)), e["x"].grad)[1]),
    "backward_wrong_gradient_shape": (
        lambda torch: (lambda x: {"x": x, "y": x * 2})(torch.tensor(_a(3), requires_grad=True)),
        lambda torch, e: e["y"].backward(torch.ones(4)),
        lambda torch, e: (e["y"].backward(torch.ones(3)), e["x"].grad)[1]),
    "backward_no_grad_fn": (
        lambda torch: {"x": torch.tensor(_a(3))},
        lambda torch, e: e["x"].sum().backward(),
        lambda torch, e: e["x"].sum()),
    "modified_saved_tensor": (
        lambda torch: (lambda x: (lambda y: {"x": x, "y": y, "z": (y * y).sum()})(x * 1))(
            torch.tensor(_a(3), requires_grad=True)),
        lambda torch, e: (e["y"].add_(1.0), e["z"].backward()),
        lambda torch, e: ((e["y"] * e["y"]).sum().backward(), e["x"].grad)[1]),
    "modified_saved_output_exp": (
        lambda torch: (lambda x: (lambda y: {"x": x, "y": y})(x.exp()))(
            torch.tensor(_a(3), requires_grad=True)),
        lambda torch, e: (e["y"].mul_(2), e["y"].sum().backward()),
        lambda torch, e: (e["x"].exp().sum().backward(), e["x"].grad)[1]),
    "inplace_on_leaf": (
        lambda torch: {"x": torch.tensor(_a(3), requires_grad=True)},
        lambda torch, e: e["x"].add_(1.0),
        lambda torch, e: (lambda: (torch.no_grad().__enter__(), e["x"].add_(1.0)))()[1]),
    "inplace_on_view_of_leaf": (
        lambda torch: {"x": torch.tensor(_a(3), requires_grad=True)},
        lambda torch, e: e["x"][0].mul_(2),
        lambda torch, e: e["x"].clone()[0].mul_(2)),
    "setitem_on_leaf": (
        lambda torch: {"x": torch.tensor(_a(3), requires_grad=True)},
        lambda torch, e: e["x"].__setitem__(0, 1.0),
        lambda torch, e: e["x"].detach().clone().__setitem__(0, 1.0)),
    "hook_wrong_shape": (
        lambda torch: (lambda x: {"x": x, "y": x * 2})(torch.tensor(_a(3), requires_grad=True)),
        lambda torch, e: (e["y"].register_hook(lambda g: g.sum()),
                          (e["y"] * 3).sum().backward()),
        lambda torch, e: ((e["x"] * 2 * 3).sum().backward(), e["x"].grad)[1]),
    "hook_wrong_dtype": (
        lambda torch: (lambda x: {"x": x, "y": x * 2})(torch.tensor(_a(3), requires_grad=True)),
        lambda torch, e: (e["y"].register_hook(lambda g: g.long()),
                          (e["y"] * 3).sum().backward()),
        lambda torch, e: ((e["x"] * 2 * 3).sum().backward(), e["x"].grad)[1]),
    "hook_on_non_grad_tensor": (
        lambda torch: {"x": torch.tensor(_a(3))},
        lambda torch, e: e["x"].register_hook(lambda g: g),
        lambda torch, e: e["x"].requires_grad_().register_hook(lambda g: g) and None),
    "retain_grad_no_grad": (
        lambda torch: {"x": torch.tensor(_a(3))},
        lambda torch, e: e["x"].retain_grad(),
        lambda torch, e: e["x"]),
    "nan_inf_inputs": (
        lambda torch: {"x": torch.tensor(np.array([np.nan, np.inf, -np.inf, 0.0],
                                                  dtype=np.float32), requires_grad=True)},
        lambda torch, e: (lambda y: (y.backward(torch.ones(4)), e["x"].grad, y))(
            e["x"].sqrt() * e["x"].log()),
        lambda torch, e: (e["x"].exp().sum(), e["x"].relu(), e["x"].sigmoid(),
                          e["x"].tanh(), e["x"].max(), e["x"].clamp(-1, 1))),
    "empty_tensor_reductions": (
        lambda torch: {"x": torch.tensor(np.zeros((0, 3), np.float32), requires_grad=True)},
        lambda torch, e: e["x"].max(),
        lambda torch, e: (lambda s: (s.backward(), e["x"].grad, s, e["x"].mean(),
                                     e["x"].prod(), e["x"].sum(0)))(e["x"].sum())),
    "empty_tensor_amax_dim": (
        lambda torch: {"x": torch.tensor(np.zeros((0, 3), np.float32), requires_grad=True)},
        lambda torch, e: e["x"].amax(0),
        lambda torch, e: e["x"].amax(1)),
    "non_tensor_argument_add": (
        lambda torch: {"x": torch.tensor(_a(3), requires_grad=True)},
        lambda torch, e: torch.add(e["x"], "a"),
        lambda torch, e: torch.add(e["x"], 1)),
    "non_tensor_argument_cat": (
        lambda torch: {"x": torch.tensor(_a(3), requires_grad=True)},
        lambda torch, e: torch.cat([e["x"], [1.0, 2.0]]),
        lambda torch, e: torch.cat([e["x"], torch.tensor([1.0, 2.0])])),
    "non_tensor_argument_mm": (
        lambda torch: {"x": torch.tensor(_a(2, 2), requires_grad=True)},
        lambda torch, e: e["x"].mm([[1.0, 0.0], [0.0, 1.0]]),
        lambda torch, e: e["x"].mm(torch.eye(2))),
    "index_out_of_range_int": (
        lambda torch: {"x": torch.tensor(_a(3, 2), requires_grad=True)},
        lambda torch, e: e["x"][3],
        lambda torch, e: e["x"][2]),
    "index_out_of_range_negative": (
        lambda torch: {"x": torch.tensor(_a(3, 2), requires_grad=True)},
        lambda torch, e: e["x"][:, -3],
        lambda torch, e: e["x"][:, -2]),
    "index_out_of_range_tensor": (
        lambda torch: {"x": torch.tensor(_a(3, 2), requires_grad=True)},
        lambda torch, e: e["x"][torch.tensor([0, 5])],
        lambda torch, e: e["x"][torch.tensor([0, 2])]),
    "index_select_out_of_range": (
        lambda torch: {"x": torch.tensor(_a(3, 2), requires_grad=True)},
        lambda torch, e: e["x"].index_select(0, torch.tensor([3])),
        lambda torch, e: e["x"].index_select(0, torch.tensor([2]))),
    "too_many_indices": (
        lambda torch: {"x": torch.tensor(_a(3), requires_grad=True)},
        lambda torch, e: e["x"][0, 0],
        lambda torch, e: e["x"][0]),
    "dim_out_of_range": (
        lambda torch: {"x": torch.tensor(_a(3, 2), requires_grad=True)},
        lambda torch, e: e["x"].sum(2),
        lambda torch, e: e["x"].sum(-2)),
    "transpose_dim_out_of_range": (
        lambda torch: {"x": torch.tensor(_a(3, 2), requires_grad=True)},
        lambda torch, e: e["x"].transpose(0, 2),
        lambda torch, e: e["x"].transpose(0, 1)),
    "grad_unused_input": (
        lambda torch: {"x": torch.tensor(_a(3), requires_grad=True),
                       "u": torch.tensor(_a(3, seed=1), requires_grad=True)},
        lambda torch, e: torch.autograd.grad((e["x"] * 2).sum(), [e["x"], e["u"]]),
        lambda torch, e: torch.autograd.grad((e["x"] * 2).sum(), [e["x"], e["u"]],
                                             allow_unused=True)),
    "grad_outputs_wrong_shape": (
        lambda torch: {"x": torch.tensor(_a(3), requires_grad=True)},
        lambda torch, e: torch.autograd.grad(e["x"] * 2, e["x"], torch.ones(2)),
        lambda torch, e: torch.autograd.grad(e["x"] * 2, e["x"], torch.ones(3))),
    "huge_dim": (
        lambda torch: {"x": torch.tensor(_a(3), requires_grad=True)},
        lambda torch, e: e["x"].view(2 ** 62, 2 ** 62),
        lambda torch, e: e["x"].view(3, 1)),
    "negative_size": (
        lambda torch: {"x": torch.tensor(_a(3), requires_grad=True)},
        lambda torch, e: torch.zeros(-1, 2),
        lambda torch, e: torch.zeros(1, 2)),
    "sub_bool": (
        lambda torch: {"x": torch.tensor(np.array([True, False]))},
        lambda torch, e: e["x"] - e["x"],
        lambda torch, e: e["x"] ^ e["x"]),
    "int_inplace_true_div": (
        lambda torch: {"x": torch.tensor(np.array([1, 2, 3]))},
        lambda torch, e: e["x"].div_(2),
        lambda torch, e: e["x"].div(2)),
    "expand_wrong": (
        lambda torch: {"x": torch.tensor(_a(3), requires_grad=True)},
        lambda torch, e: e["x"].expand(2, 4),
        lambda torch, e: e["x"].expand(2, 3)),
    "where_cond_not_bool": (
        lambda torch: {"x": torch.tensor(_a(3), requires_grad=True)},
        lambda torch, e: torch.where(e["x"], e["x"], e["x"] * 2),
        lambda torch, e: torch.where(e["x"] > 0, e["x"], e["x"] * 2)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_input(name):
    build, misuse, retry = CASES[name]

    def scenario(torch):
        env = build(torch)
        names = sorted(env)
        before = _state(*(env[n] for n in names))
        # snapshot values (a failed op must not have written anything)
        snap = [env[n].detach().clone() for n in names]
        err = catch(misuse, torch, env)
        after = _state(*(env[n] for n in names))
        unchanged = [bool(((s == env[n].detach()) | ((s != s) & (env[n] != env[n]))).all())
                     for s, n in zip(snap, names, strict=True)]
        ok = catch(retry, torch, env)
        if torch.is_grad_enabled() is False:  # a retry may have entered no_grad
            torch.set_grad_enabled(True)
        return {"error": err, "before": before, "after": after, "unchanged": unchanged,
                "retry": ok}

    compare(scenario)


_AS_STRIDED = [
    "m.arange(10.).as_strided((5,), (-1,))", "m.arange(10.).as_strided((5,), (1,), -1)",
    "m.arange(10.).as_strided((2, 5), (3,))", "m.arange(10.).as_strided((5,), (3,))",
    "m.arange(22.).reshape(1, 22).as_strided((1, 6, 8), (22, 3, 1))",
    "m.arange(10.).as_strided_((5,), (3,))", "m.arange(22.)[2:].as_strided((3,), (8,))",
    "m.arange(10.).as_strided((0,), (100,), 11)", "m.arange(10.)[::2].as_strided((5,), (2,), 1)",
    "m.arange(10.)[::2].as_strided((5,), (2,), 2)",
    "m.arange(12.).reshape(3, 4).t().as_strided((2, 2), (4, 1), 7)",
    "m.arange(12.).reshape(3, 4).t().as_strided((2, 2), (4, 1), 8)",
    "m.zeros(3).expand(4, 3).as_strided((4, 3), (1, 1))",
]


@pytest.mark.parametrize("expr", _AS_STRIDED)
def test_as_strided_never_reads_outside_its_storage(expr):
    """A layout reaching outside the storage raises PyTorch's setStorage error (it read
    whatever memory followed the array: garbage values, or a crash)."""
    import autotensor
    torch = pytest.importorskip("torch")

    def run(m):
        try:
            return eval(expr, {"m": m}).tolist()
        except RuntimeError as e:
            return str(e)

    assert run(autotensor) == run(torch)


def test_constant_pad_result_is_contiguous_like_torch():
    import autotensor
    torch = pytest.importorskip("torch")
    for m in (autotensor, torch):
        y = m.nn.functional.pad(m.arange(40.).reshape(2, 20), [1, 1])
        assert y.is_contiguous() and y.stride() == (22, 1)
