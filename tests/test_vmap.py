"""torch.func.vmap / stack_module_state (Note [vmap as a loop] in autotensor/func/_vmap.py):
differential scenarios run on both modules, and checks that need no torch."""
import functools

import numpy as np
import pytest

import autotensor

RNG = np.random.default_rng(0)
X = RNG.normal(size=(3, 4))
Y = RNG.normal(size=(4,))


def _summary(r):
    leaves = r if isinstance(r, (tuple, list)) else [r]
    out = []
    for t in leaves:
        if isinstance(t, dict):
            out.append({k: _summary(v) for k, v in t.items()})
        elif hasattr(t, "shape"):
            out.append((tuple(t.shape), str(t.dtype).split(".")[-1],
                        t.detach().numpy().tolist()))
        else:
            out.append(t)
    return out


def _psg(torch, x):
    """Per-sample gradients: vmap(grad(loss)) over functional_call."""
    torch.manual_seed(0)
    model = torch.nn.Linear(4, 2).double()
    params = {k: v.detach() for k, v in model.named_parameters()}

    def loss(p, xi, yi):
        out = torch.func.functional_call(model, p, (xi.unsqueeze(0),))
        return ((out - yi) ** 2).sum()
    g = torch.vmap(torch.func.grad(loss), in_dims=(None, 0, 0))(params, x, x[:, :2])
    return [g["weight"], g["bias"]]


def _ensemble(torch, x):
    torch.manual_seed(0)
    models = [torch.nn.Linear(4, 2).double() for _ in range(3)]
    params, buffers = torch.func.stack_module_state(models)

    def call(p, b, data):
        return torch.func.functional_call(models[0], (p, b), (data,))
    out = torch.vmap(call, in_dims=(0, 0, None))(params, buffers, x)
    out.sum().backward()
    return [out, params["weight"].grad, params["bias"].grad,
            params["weight"].is_leaf, buffers]


SCENARIOS = {
    "dot_in_dims": lambda t, x, y: t.vmap(t.dot, in_dims=(0, None))(x, y),
    "out_dims_1": lambda t, x, y: t.vmap(lambda a: a ** 2, out_dims=1)(x),
    "dict_in_dims": lambda t, x, y: t.vmap(lambda d: t.dot(d["x"], d["y"]),
                                           in_dims=({"x": 0, "y": None},))({"x": x, "y": y}),
    "in_dim_1_two_outputs": lambda t, x, y: t.vmap(lambda a, b: (a * b, a.sum()),
                                                   in_dims=(1, None))(x, y[:3]),
    "negative_in_dim": lambda t, x, y: t.vmap(lambda a: a.cumsum(0), in_dims=-1)(x),
    "in_dims_structure": lambda t, x, y: t.vmap(lambda a: a, in_dims=(0, 1))(x),
    "in_dims_list": lambda t, x, y: t.vmap(lambda a: a, in_dims=[0])(x),
    "in_dim_range": lambda t, x, y: t.vmap(lambda a: a, in_dims=2)(x),
    "in_dim_str": lambda t, x, y: t.vmap(lambda a: a, in_dims=("a",))(x),
    "broadcast_inside": lambda t, x, y: t.vmap(lambda a, b: a + b)(x, y),
    "non_tensor_output": lambda t, x, y: t.vmap(lambda a: 3)(x),
    "unbatched_output_out_dim_none": lambda t, x, y: t.vmap(lambda a: (a, y),
                                                            out_dims=(0, None))(x),
    "batched_output_out_dim_none": lambda t, x, y: t.vmap(lambda a: (a, a),
                                                          out_dims=(0, None))(x),
    "out_dims_structure": lambda t, x, y: t.vmap(lambda a: a, out_dims=(0, 1))(x),
    "out_dims_str": lambda t, x, y: t.vmap(lambda a: a, out_dims="a")(x),
    "out_dims_negative": lambda t, x, y: t.vmap(lambda a: a.outer(a), out_dims=-1)(x),
    "empty_batch": lambda t, x, y: t.vmap(lambda a: a.sum())(t.empty(0, 3)),
    "random_error": lambda t, x, y: t.vmap(lambda a: a + t.rand(4))(x),
    "nested": lambda t, x, y: t.vmap(t.vmap(t.dot))(x.reshape(3, 2, 2), x.reshape(3, 2, 2)),
    "nothing_mapped": lambda t, x, y: t.vmap(lambda a: a, in_dims=None)(x),
    "no_inputs": lambda t, x, y: t.vmap(lambda: x)(),
    "sizes_differ": lambda t, x, y: t.vmap(lambda a, b: a)(x, x[:2]),
    "chunked": lambda t, x, y: t.vmap(lambda a: a.sum(), chunk_size=2)(x),
    "grad_inside": lambda t, x, y: t.vmap(t.func.grad(lambda a: (a.sin() * a).sum()))(x),
    "jacrev_outside": lambda t, x, y: t.func.jacrev(lambda a: t.vmap(t.sin)(a))(x[0]),
    "jacfwd_of_vmap": lambda t, x, y: t.func.jacfwd(t.vmap(lambda a: a.exp() * a))(x[:, 0]),
    "per_sample_grads": lambda t, x, y: _psg(t, x),
    "ensemble": lambda t, x, y: _ensemble(t, x),
    "bad_randomness": lambda t, x, y: t.vmap(lambda a: a, randomness="bad")(x),
    "chunk_size_zero": lambda t, x, y: t.vmap(lambda a: a, chunk_size=0)(x),
    "partial_name": lambda t, x, y: t.vmap(functools.partial(t.add, alpha=2),
                                           in_dims=(0, 2))(x, x),
    "kwargs_unmapped": lambda t, x, y: t.vmap(lambda a, scale=4.0: a * scale)(x, scale=y),
    "non_tensor_input": lambda t, x, y: t.vmap(lambda a: a, in_dims=(0,))(3.0),
    "pytree_output": lambda t, x, y: t.vmap(lambda a: [a, {"k": a * 2}])(x),
    "inplace_on_mapped_input": lambda t, x, y: (lambda c: (t.vmap(lambda a: a.mul_(2))(c), c))(
        x.clone()),
    "stack_module_state_empty": lambda t, x, y: t.func.stack_module_state([]),
    "stack_module_state_classes": lambda t, x, y: t.func.stack_module_state(
        [t.nn.Linear(2, 2), t.nn.Tanh()]),
    "stack_module_state_modes": lambda t, x, y: t.func.stack_module_state(
        [t.nn.Linear(2, 2), t.nn.Linear(2, 2).eval()]),
}


def _outcome(mod, name):
    t = mod
    x, y = t.tensor(X), t.tensor(Y)
    try:
        return ("ok", _summary(SCENARIOS[name](t, x, y)))
    except Exception as e:  # noqa: BLE001 (errors are compared: type and message)
        return ("raised", type(e).__name__, str(e))


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_vmap_matches_torch(name):
    torch = pytest.importorskip("torch")
    ours, theirs = _outcome(autotensor, name), _outcome(torch, name)
    assert ours[0] == theirs[0], (ours, theirs)
    if ours[0] == "raised":
        assert ours == theirs
    else:
        _close(ours[1], theirs[1])


def _close(a, b):
    if isinstance(a, (list, tuple)):
        assert isinstance(b, (list, tuple)) and len(a) == len(b), (a, b)
        for u, v in zip(a, b):
            _close(u, v)
    elif isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            _close(a[k], b[k])
    elif isinstance(a, float):
        assert a == pytest.approx(b, rel=1e-12, abs=1e-14)
    else:
        assert a == b


RANDOM_OPS = {
    "rand": lambda t, a: a + t.rand(20, dtype=t.float64),
    "randn_like": lambda t, a: t.randn_like(a),
    "normal_": lambda t, a: a.clone().normal_(),
    "uniform_": lambda t, a: a.clone().uniform_(),
    "dropout": lambda t, a: t.nn.functional.dropout(a, 0.5),
    "randint": lambda t, a: a + t.randint(0, 5, (20,)),
    "randperm": lambda t, a: a + t.randperm(20),
    "dropout_eval": lambda t, a: t.nn.Dropout(0.5).eval()(a),
}


@pytest.mark.parametrize("mode", ["error", "same"])
@pytest.mark.parametrize("op", sorted(RANDOM_OPS))
def test_vmap_randomness_modes_match_torch(op, mode):
    """'error' raises PyTorch's error on any draw; 'same' gives every entry the draws of
    one unbatched call (bit for bit PyTorch's, the generator replayed per entry)."""
    torch = pytest.importorskip("torch")

    def run(t):
        t.manual_seed(1)
        try:
            r = t.vmap(lambda a: RANDOM_OPS[op](t, a), randomness=mode)(
                t.ones(3, 20, dtype=t.float64))
            return ("ok", r.double().numpy().tolist(), t.rand(2).tolist())
        except RuntimeError as e:
            return ("raised", str(e))
    assert run(autotensor) == run(torch)


def test_vmap_randomness_different_draws_per_entry():
    autotensor.manual_seed(0)
    r = autotensor.vmap(lambda a: a + autotensor.rand(5), randomness="different")(
        autotensor.zeros(3, 5))
    assert r.shape == (3, 5)
    assert not autotensor.equal(r[0], r[1]) and not autotensor.equal(r[1], r[2])


def test_vmap_equals_loop_and_gradients_by_finite_differences():
    """No torch needed: vmap(f) is f per entry stacked, and its gradient is the float64
    finite-difference gradient."""
    t = autotensor
    x = t.tensor(X, requires_grad=True)
    w = t.tensor(Y, requires_grad=True)

    def f(a, b):
        return (a.tanh() * b).sum() ** 2
    out = t.vmap(f, in_dims=(0, None))(x, w)
    expected = t.stack([f(x[i], w) for i in range(3)])
    assert t.equal(out, expected)
    assert t.autograd.gradcheck(lambda a, b: t.vmap(f, in_dims=(0, None))(a, b), (x, w))
    assert t.autograd.gradgradcheck(lambda a: t.vmap(t.func.grad(lambda v: v.sin().sum()))(a),
                                    (x,))


def test_vmap_nested_with_in_dims_and_out_dims():
    t = autotensor
    a = t.tensor(RNG.normal(size=(2, 3, 4)))
    r = t.vmap(t.vmap(lambda v: v * 2, in_dims=1, out_dims=0), in_dims=0, out_dims=1)(a)
    assert r.shape == (4, 2, 3)
    assert t.equal(r, (a * 2).permute(2, 0, 1))
