"""Tests generated from ``op_db.SAMPLES``: for every sample, the forward against NumPy and
PyTorch, float64 gradcheck and gradgradcheck, values / gradients / node names against
PyTorch in float64 and float32, and agreement of the two interpretations of each backward
formula (raw arrays vs tensors, Note [One formula, two interpretations]). Then a check
of every node class generated from the op table against PyTorch's class names.
"""
from __future__ import annotations

import importlib

import numpy as np
import pytest
from op_db import SAMPLES

import autotensor
from autotensor._ops import FAMILIES
from autotensor._ops.dispatch import OpDef
from autotensor.autograd.gradcheck import GradcheckError, gradcheck, gradgradcheck

DIFF = [s for s in SAMPLES if not s.kink]
GRADGRAD = [s for s in DIFF if s.gradgrad]
WITH_REF = [s for s in SAMPLES if s.ref is not None]


def _flat_outputs(out):
    """The tensor outputs of an op, in order (tuples, lists and named tuples flattened)."""
    if isinstance(out, (tuple, list)):
        return list(out)
    return [out]


def _weights(sample, outputs):
    """Fixed grad_outputs for the differentiable outputs, each of its output's dtype
    (seeded by the sample's name)."""
    rng = np.random.default_rng(len(sample.name) * 7919 + sum(map(ord, sample.name)))
    return [rng.uniform(-1, 1, tuple(o.shape)).astype(_as_np(o).dtype) for o in outputs]


def _diff_inputs(inputs):
    return [t for t in inputs if t.requires_grad]


def _diff_outputs(outputs):
    return [o for o in outputs if o.requires_grad]


def _graph_names(outputs):
    """``[(name, [child names])]`` breadth-first from the outputs' grad_fns, each node once."""
    order, seen = [], set()
    queue = [o.grad_fn for o in outputs if o.grad_fn is not None]
    while queue:
        node = queue.pop(0)
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        children = [fn for fn, _ in node.next_functions]
        order.append((type(node).__name__,
                      [None if fn is None else type(fn).__name__ for fn in children]))
        queue.extend(children)
    return order


def _run(module, sample, dtype):
    """Forward and backward of a sample with ``module``: outputs, gradients, graph."""
    inputs = sample.make_inputs(module, dtype)
    outputs = _flat_outputs(sample(module, *inputs))
    diff_out = _diff_outputs(outputs)
    diff_in = _diff_inputs(inputs)
    ws = [module.tensor(w) for w in _weights(sample, diff_out)]
    grads = module.autograd.grad(diff_out, diff_in, ws, allow_unused=True) if diff_out else ()
    return inputs, outputs, grads, _graph_names(diff_out)


def _as_np(t):
    return np.array(t.detach().numpy(), copy=True)


def _dtype_name(t):
    return str(t.dtype).rsplit(".", 1)[-1]


def _assert_close(got, want, rtol, atol, what):
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=what)


# ---- forward vs NumPy --------------------------------------------------------------------
@pytest.mark.parametrize("sample", WITH_REF, ids=repr)
def test_forward_vs_numpy(sample):
    inputs = sample.make_inputs(autotensor)
    out = sample(autotensor, *inputs)
    want = np.asarray(sample.ref(*[np.asarray(a) for a in sample.args]))
    got = _as_np(out)
    _assert_close(got, want, 1e-12, 1e-12, sample.name)
    assert got.dtype == want.dtype, f"dtype {got.dtype} != {want.dtype}"


# ---- gradcheck / gradgradcheck ------------------------------------------------------------
@pytest.mark.parametrize("sample", DIFF, ids=repr)
def test_gradcheck(sample):
    inputs = sample.make_inputs(autotensor)
    assert gradcheck(lambda *ts: sample(autotensor, *ts), inputs, **sample.gradcheck_kwargs)


@pytest.mark.parametrize("sample", GRADGRAD, ids=repr)
def test_gradgradcheck(sample):
    autotensor.manual_seed(0)
    inputs = sample.make_inputs(autotensor)
    assert gradgradcheck(lambda *ts: sample(autotensor, *ts), inputs,
                         **sample.gradcheck_kwargs)


# ---- the two interpretations of each backward formula -------------------------------------
@pytest.mark.parametrize("sample", SAMPLES, ids=repr)
def test_raw_and_tensor_formulas_agree(sample):
    inputs = sample.make_inputs(autotensor)
    outputs = _diff_outputs(_flat_outputs(sample(autotensor, *inputs)))
    diff_in = _diff_inputs(inputs)
    if not diff_in:  # (nothing differentiable: grad() refuses empty inputs, as PyTorch)
        assert not outputs
        return
    ws = [autotensor.tensor(w) for w in _weights(sample, outputs)]
    raw = autotensor.autograd.grad(outputs, diff_in, ws, retain_graph=True, allow_unused=True)
    graph = autotensor.autograd.grad(outputs, diff_in, ws, create_graph=True, allow_unused=True)
    for i, (a, b) in enumerate(zip(raw, graph, strict=True)):
        assert (a is None) == (b is None), f"input {i}: one interpretation gave None"
        if a is None:
            continue
        assert _dtype_name(a) == _dtype_name(b)
        _assert_close(_as_np(b), _as_np(a), 1e-12, 1e-12, f"gradient of input {i}")


# ---- against PyTorch ----------------------------------------------------------------------
@pytest.mark.parametrize("sample", SAMPLES, ids=repr)
def test_vs_torch_float64(sample):
    torch = pytest.importorskip("torch")
    a_in, a_out, a_grads, a_graph = _run(autotensor, sample, np.float64)
    t_in, t_out, t_grads, t_graph = _run(torch, sample, np.float64)
    assert len(a_out) == len(t_out)
    for i, (a, t) in enumerate(zip(a_out, t_out, strict=True)):
        assert _dtype_name(a) == _dtype_name(t), f"output {i} dtype"
        assert tuple(a.shape) == tuple(t.shape), f"output {i} shape"
        _assert_close(_as_np(a), _as_np(t), 1e-10, 1e-12, f"output {i}")
        assert a.requires_grad == t.requires_grad, f"output {i} requires_grad"
        assert type(a.grad_fn).__name__ == type(t.grad_fn).__name__, f"output {i} grad_fn"
    assert a_graph == t_graph, "graph (node names along next_functions)"
    for i, (a, t) in enumerate(zip(a_grads, t_grads, strict=True)):
        assert (a is None) == (t is None), f"gradient {i} defined"
        if a is None:
            continue
        assert _dtype_name(a) == _dtype_name(t), f"gradient {i} dtype"
        _assert_close(_as_np(a), _as_np(t), 1e-10, 1e-12, f"gradient of input {i}")


@pytest.mark.parametrize("sample", SAMPLES, ids=repr)
def test_vs_torch_float32(sample):
    torch = pytest.importorskip("torch")
    a_in, a_out, a_grads, _ = _run(autotensor, sample, np.float32)
    t_in, t_out, t_grads, _ = _run(torch, sample, np.float32)
    for i, (a, t) in enumerate(zip(a_out, t_out, strict=True)):
        assert _dtype_name(a) == _dtype_name(t), f"output {i} dtype"
        _assert_close(_as_np(a), _as_np(t), 1e-5, 1e-5, f"output {i}")
    diff_in = _diff_inputs(a_in)
    for i, (a, t, x) in enumerate(zip(a_grads, t_grads, diff_in, strict=True)):
        assert (a is None) == (t is None), f"gradient {i} defined"
        if a is None:
            continue
        assert _dtype_name(a) == _dtype_name(x), f"gradient {i} dtype != its input's"
        assert _dtype_name(a) == _dtype_name(t), f"gradient {i} dtype"
        _assert_close(_as_np(a), _as_np(t), 1e-4, 1e-5, f"gradient of input {i}")


# ---- the op table's node classes -----------------------------------------------------------
OPS = [v for m in FAMILIES for v in vars(m).values() if isinstance(v, OpDef)]


def test_node_classes_named_after_table():
    from autotensor.autograd.graph import _UNBOUND
    for op in OPS:
        # node_name is what Node.name() returns (torch::autograd::CopyBackwards for copy_);
        # a node PyTorch binds no Python class for (Identity) is a CppFunction
        expected = "CppFunction" if op.node_name in _UNBOUND else op.node_name.rsplit("::", 1)[-1]
        assert op.node_cls.__name__ == expected, op


@pytest.mark.parametrize("op", OPS, ids=lambda op: f"{op.name}-{op.node_name}")
def test_node_class_name_matches_torch(op):
    torch = pytest.importorskip("torch")
    if not hasattr(torch.ops.aten, op.name):
        pytest.skip(f"{op.name} is not an op in PyTorch")
    torch_names = set(dir(torch._C._functions))
    name = op.node_cls.__name__
    if name == "CppFunction":  # (unpack_dual's primal: PyTorch's Identity node, unbound)
        fw = torch.autograd.forward_ad
        with fw.dual_level():
            x = fw.make_dual(torch.ones(1, requires_grad=True), torch.ones(1))
            assert type(fw.unpack_dual(x).primal.grad_fn).__name__ == name
        return
    assert name in torch_names, f"{name} is not a PyTorch node class"


# ---- gradcheck itself ----------------------------------------------------------------------
def _x(values, requires_grad=True):
    return autotensor.tensor(np.array(values, dtype=np.float64), requires_grad=requires_grad)


def test_gradcheck_reports_mismatch_like_torch():
    x = _x([[1.0, 2.0], [3.0, -4.0]])
    with pytest.raises(GradcheckError) as info:
        gradcheck(lambda a: a * a.detach(), (x,))
    msg = str(info.value)
    assert isinstance(info.value, RuntimeError)
    assert msg.startswith("Jacobian mismatch for output 0 with respect to input 0,\n"
                          "numerical:tensor([[ 2.0000,  0.0000,")
    assert "\nanalytical:tensor([[ 1.,  0.,  0.,  0.]," in msg
    assert "relative error" in msg and "d output[1, 1] / d input[1, 1]" in msg
    assert gradcheck(lambda a: a * a.detach(), (x,), raise_exception=False) is False
    assert gradcheck(lambda a: a * a.detach(), (x,), fast_mode=True,
                     raise_exception=False) is False


def test_gradcheck_message_matches_torch_prefix():
    torch = pytest.importorskip("torch")
    data = np.array([[1.0, 2.0], [3.0, -4.0]])
    a = autotensor.tensor(data, requires_grad=True)
    t = torch.tensor(data, requires_grad=True)
    with pytest.raises(GradcheckError) as ours:
        gradcheck(lambda z: z * z.detach(), (a,))
    torch_gradcheck = importlib.import_module("torch.autograd.gradcheck")
    with pytest.raises(torch_gradcheck.GradcheckError) as theirs:
        torch.autograd.gradcheck(lambda z: z * z.detach(), (t,))
    assert str(ours.value).startswith(str(theirs.value))


def test_gradcheck_names_input_and_output_indices():
    x, y = _x([1.0, 2.0]), _x([3.0, 4.0])
    with pytest.raises(GradcheckError, match="output 1 with respect to input 1"):
        gradcheck(lambda a, b: (a * b, a * b.detach()), (x, y))


def test_gradcheck_flags_kinks():
    with pytest.raises(GradcheckError, match="non-differentiable point"):
        gradcheck(lambda a: a.relu(), (_x([0.0, 1.0]),))


def test_gradcheck_input_errors():
    with pytest.raises(ValueError, match="at least one input tensor to require gradient"):
        gradcheck(lambda a: a * 2, (_x([1.0], requires_grad=False),))
    with pytest.warns(UserWarning, match="Input #0 requires gradient and is not a double"):
        gradcheck(lambda a: a * 2, (autotensor.tensor([1.0, 2.0], requires_grad=True),),
                  atol=1e-2, rtol=1e-2, eps=1e-3)


def test_gradcheck_float_tolerance_and_nondiff_outputs():
    x = _x([0.5, 1.5])
    assert gradcheck(lambda a: (a.exp(), a.max(0).indices), (x,))
    assert gradgradcheck(lambda a: (a ** 3).sum(), (x,))
    assert gradgradcheck(lambda a: a * a, (x,), grad_outputs=(_x([1.0, -1.0]),))


def test_gradgradcheck_catches_wrong_second_derivative():
    x = _x([0.5, 1.5])
    # first derivative right (2a), second derivative wrong (0): a constant-in-graph gradient
    f = lambda a: a * a.detach() + (a - a.detach()) * a.detach()  # noqa: E731
    assert gradcheck(f, (x,))
    assert gradgradcheck(f, (x,), raise_exception=False) is False


def test_relative_error():
    from autotensor.autograd.gradcheck import relative_error
    assert relative_error(np.array([1.0, 2.0]), np.array([1.0, 2.0])) == 0.0
    assert relative_error(np.array([0.0]), np.array([0.5])) == 0.5
    assert relative_error(np.array([10.0]), np.array([5.0])) == 0.5


# ---- dedicated checks found while building the table -----------------------------------------
def test_grad_output_is_cast_to_the_output_dtype():
    """PyTorch casts a grad_output to its output's dtype before the backward (validate_outputs):
    a float64 0.1 flowing into a float32 output arrives at the float64 input as float32(0.1)."""
    x = _x([1.0])
    g, = autotensor.autograd.grad(x.float(), x, _x([0.1], requires_grad=False))
    assert g.item() == float(np.float32(0.1))


def test_scatter_add_backward_src_larger_than_index_raises_like_torch():
    """src larger than index: PyTorch's forward works, its backward rejects the gradient."""
    x = _x(np.zeros((3, 3)))
    s = _x(np.arange(9.0).reshape(3, 3))
    y = x.scatter_add(0, autotensor.tensor([[0, 1], [2, 0]]), s)
    with pytest.raises(RuntimeError, match=r"Function ScatterAddBackward0 returned an invalid "
                       r"gradient at index 1 - got \[2, 2\] but expected shape compatible with "
                       r"\[3, 3\]"):
        y.sum().backward()
