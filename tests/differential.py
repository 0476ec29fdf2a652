"""Differential testing: run one scenario on autotensor and on PyTorch, compare the results.

A *scenario* is a function ``scenario(torch)`` that takes the module under test, builds its
tensors from fixed data (``torch.tensor(numpy_array)``; never each library's own random
numbers) and returns a nested structure of results: tensors, numbers, strings (grad_fn
names, say), tuples/lists/dicts, None, autograd nodes, dtypes, and exceptions caught with
:func:`catch` as ``(type_name, message)``.  :func:`compare` runs it on both modules and
asserts that the two results have the same structure, the same grad_fn names, dtypes and
shapes, and values within tolerance::

    def scenario(torch):
        x = torch.tensor(np.array([1.0, 2.0]), requires_grad=True)
        y = (x * x).sum()
        y.backward()
        return y, x.grad, catch(y.backward)

    compare(scenario)
"""
from __future__ import annotations

import math
import re
import warnings
from typing import Any, NamedTuple

import numpy as np
import pytest

import autotensor

_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


class Raised(NamedTuple):
    """An exception caught inside a scenario: its type name and its message."""

    type_name: str
    message: str


class TensorSummary(NamedTuple):
    """What a tensor is compared by."""

    dtype: str  # "float32", "int64", "bool", ...: the part after "torch." / "autotensor."
    shape: tuple
    values: Any  # a NumPy array (or nested lists when .numpy() is not available)
    requires_grad: bool
    grad_fn: str | None  # the class name of grad_fn, None for a leaf or a constant


def normalize_addresses(text: str) -> str:
    """Replace object addresses (``0x7f...``) so that text from two runs compares equal."""
    return _ADDRESS.sub("0x?", text)


def dtype_name(dtype) -> str:
    """``torch.float32`` and ``autotensor.float32`` both give ``"float32"``."""
    return str(dtype).rsplit(".", 1)[-1]


def node_name(node) -> str | None:
    """An autograd node's class name (``MulBackward0``, ``AccumulateGrad``), None for None."""
    return None if node is None else type(node).__name__


def tensor_data(t) -> tuple[str, tuple, Any]:
    """``(dtype_str, shape, values)`` of a tensor, e.g. ``("float32", (2,), array([1., 2.]))``.

    Values come from ``t.detach().numpy()`` (copied, so later in-place changes to ``t``
    do not change what was recorded), or ``t.detach().tolist()`` if that fails.
    """
    detached = t.detach()
    name = dtype_name(t.dtype)
    if getattr(t, "_is_zerotensor", None) is not None and t._is_zerotensor():
        # PyTorch's efficient zero tensor (e.g. the tangent of sgn of a real tensor) has no
        # storage to read: what it stands for is zeros of its shape and dtype
        shape = tuple(int(s) for s in t.shape)
        return name, shape, np.zeros(shape, "float32" if name == "bfloat16" else name)
    try:
        if name == "bfloat16":  # (torch's has no .numpy(); ours is ml_dtypes': as float32)
            detached = detached.float()
        values = np.array(detached.numpy(), copy=True)
    except Exception:  # noqa: BLE001 -- e.g. a dtype NumPy does not have
        values = detached.tolist()
    return name, tuple(int(s) for s in t.shape), values


def tensor_summary(t) -> TensorSummary:
    """``(dtype, shape, values, requires_grad, grad_fn name)`` of a tensor."""
    dtype, shape, values = tensor_data(t)
    return TensorSummary(dtype, shape, values, bool(t.requires_grad), node_name(t.grad_fn))


def exception_info(exc: BaseException) -> Raised:
    """``(type name, message)`` of an exception, with object addresses normalised and
    any C++ backtrace torch appends ("Exception raised from ...") cut off: it is debug
    output of torch's build, not part of the message."""
    message = str(exc).split("\nException raised from ", 1)[0]
    return Raised(type(exc).__name__, normalize_addresses(message))


def catch(fn, *args, **kwargs):
    """Call ``fn``; return its result, or :class:`Raised` if it raised an ``Exception``."""
    try:
        return fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 -- the point is to record any exception
        return exception_info(e)


def _is_tensor(obj, module) -> bool:
    tensor_type = getattr(module, "Tensor", None)
    return isinstance(tensor_type, type) and isinstance(obj, tensor_type)


def _is_node(obj) -> bool:
    return hasattr(obj, "next_functions") and callable(getattr(obj, "name", None))


def _is_dtype(obj, module) -> bool:
    dtype_type = getattr(module, "dtype", None)
    return isinstance(dtype_type, type) and isinstance(obj, dtype_type)


def normalize(obj, module):
    """Turn a scenario's result into plain, comparable Python/NumPy values.

    Tensors become :class:`TensorSummary`, nodes ``("node", class name)``, dtypes
    ``("dtype", name)``, exceptions :class:`Raised`, tuple subclasses (``torch.Size``,
    ``torch.return_types.max``) plain tuples, strings have addresses normalised.
    Iterative, so a deep result structure cannot hit the recursion limit.
    """
    # Work list of (source object, setter into the parent container).
    root: list = [None]
    stack = [(obj, root, 0)]
    while stack:
        item, parent, key = stack.pop()
        if isinstance(item, Raised):
            parent[key] = Raised(item.type_name, normalize_addresses(item.message))
        elif isinstance(item, BaseException):
            parent[key] = exception_info(item)
        elif _is_tensor(item, module):
            parent[key] = tensor_summary(item)
        elif _is_node(item):
            parent[key] = ("node", node_name(item))
        elif _is_dtype(item, module):
            parent[key] = ("dtype", dtype_name(item))
        elif isinstance(item, str):
            parent[key] = normalize_addresses(item)
        elif isinstance(item, dict):
            new: dict = {}
            parent[key] = new
            for k, v in item.items():
                stack.append((v, new, k))
        elif isinstance(item, (tuple, list)):
            new_list: list = [None] * len(item)
            parent[key] = ("list", new_list) if isinstance(item, list) else ("tuple", new_list)
            for i, v in enumerate(item):
                stack.append((v, new_list, i))
        elif isinstance(item, np.ndarray):
            parent[key] = np.array(item, copy=True)
        elif isinstance(item, np.generic):
            parent[key] = item.item()
        else:
            parent[key] = item
    return root[0]


def run_scenario(scenario, module):
    """Run ``scenario(module)`` with warnings silenced, and normalise its result."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = scenario(module)
    return normalize(result, module)


def _kind(value) -> str:
    if isinstance(value, bool) or isinstance(value, np.bool_):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, complex):
        return "complex"
    return type(value).__name__


def assert_same(actual, expected, rtol=1e-5, atol=1e-6, path="result",
                tolerances=None) -> None:
    """Assert ``actual`` (autotensor's, normalised) matches ``expected`` (torch's).

    Iterative over the nested structure; reports the path of the first difference.
    ``tolerances`` maps a dtype name ("float64") to ``(rtol, atol)`` for tensors of that
    dtype (Python floats use "float64"'s); atol is then scaled by the largest finite
    magnitude of torch's values (at least 1), so a float64 result agreeing only to float32
    precision fails whatever its scale.
    """
    stack = [(actual, expected, path)]
    while stack:
        a, e, p = stack.pop()
        if isinstance(e, TensorSummary) or isinstance(a, TensorSummary):
            assert isinstance(a, TensorSummary) and isinstance(e, TensorSummary), (
                f"{p}: autotensor gave {a!r}, torch gave {e!r}")
            if a.dtype != e.dtype and tolerances is not None and \
                    not tolerances.get("tangent_dtype", True) and "['tangent']" in p and \
                    a.dtype in tolerances and e.dtype in tolerances:
                # (a tangent under a transform: compared at the lower precision's tolerance)
                r, t = max(tolerances[a.dtype], tolerances[e.dtype])
                assert a.shape == e.shape, f"{p}: shape {a.shape} != torch's {e.shape}"
                _assert_values(a.values, e.values, r, t * _magnitude(e.values), p)
                continue
            assert a.dtype == e.dtype, f"{p}: dtype {a.dtype} != torch's {e.dtype}"
            assert a.shape == e.shape, f"{p}: shape {a.shape} != torch's {e.shape}"
            assert a.requires_grad == e.requires_grad, (
                f"{p}: requires_grad {a.requires_grad} != torch's {e.requires_grad}")
            if tolerances is None or tolerances.get("grad_fn", True):
                assert a.grad_fn == e.grad_fn, (
                    f"{p}: grad_fn {a.grad_fn} != torch's {e.grad_fn}")
            if tolerances is not None and e.dtype in tolerances:
                r, t = tolerances[e.dtype]
                _assert_values(a.values, e.values, r, t * _magnitude(e.values), p)
                if tolerances.get("signed_zeros", True):
                    _assert_signed_zeros(a.values, e.values, p)
            else:
                _assert_values(a.values, e.values, rtol, atol, p)
        elif isinstance(e, Raised) or isinstance(a, Raised):
            assert isinstance(a, Raised) and isinstance(e, Raised), (
                f"{p}: autotensor gave {a!r}, torch gave {e!r}")
            assert a.type_name == e.type_name and a.message == e.message, (
                f"{p}: autotensor raised {a.type_name}: {a.message!r}\n"
                f"{' ' * len(p)}  torch raised {e.type_name}: {e.message!r}")
        elif isinstance(e, dict):
            assert isinstance(a, dict), f"{p}: autotensor gave {a!r}, torch gave a dict"
            assert set(a) == set(e), f"{p}: keys {sorted(map(str, a))} != {sorted(map(str, e))}"
            for k in e:
                stack.append((a[k], e[k], f"{p}[{k!r}]"))
        elif isinstance(e, tuple) and len(e) == 2 and e[0] in ("list", "tuple") \
                and isinstance(e[1], list):
            assert isinstance(a, tuple) and len(a) == 2 and a[0] == e[0], (
                f"{p}: autotensor gave {a!r}, torch gave a {e[0]}")
            assert len(a[1]) == len(e[1]), (
                f"{p}: {e[0]} of length {len(a[1])}, torch's has {len(e[1])}")
            for i in reversed(range(len(e[1]))):
                stack.append((a[1][i], e[1][i], f"{p}[{i}]"))
        elif isinstance(e, np.ndarray):
            assert isinstance(a, np.ndarray), f"{p}: autotensor gave {a!r}, torch an array"
            _assert_values(a, e, rtol, atol, p)
        elif isinstance(e, float) and not isinstance(e, bool):
            assert _kind(a) == "float", f"{p}: autotensor gave {a!r}, torch gave float {e!r}"
            r, t = tolerances.get("float64", (rtol, atol)) if tolerances else (rtol, atol)
            assert (math.isnan(a) and math.isnan(e)) or math.isclose(
                a, e, rel_tol=r, abs_tol=t * _magnitude(e)), f"{p}: {a!r} != torch's {e!r}"
        else:
            assert _kind(a) == _kind(e), (
                f"{p}: autotensor gave {a!r} ({_kind(a)}), torch gave {e!r} ({_kind(e)})")
            assert a == e, f"{p}: autotensor gave {a!r}, torch gave {e!r}"


def _assert_signed_zeros(a, e, path) -> None:
    """Where torch's value is a zero, ours is the zero of the same sign."""
    a_arr, e_arr = np.asarray(a), np.asarray(e)
    if e_arr.dtype.kind != "f" or a_arr.dtype.kind != "f" or a_arr.shape != e_arr.shape:
        return
    zeros = (e_arr == 0) & (a_arr == 0)
    bad = zeros & (np.signbit(e_arr) != np.signbit(a_arr))
    assert not bad.any(), (f"{path}: signed zero differs at {np.argwhere(bad)[0].tolist()}: "
                           f"autotensor {a_arr[bad][0]!r}, torch {e_arr[bad][0]!r}")


def _magnitude(values) -> float:
    """The largest finite magnitude among ``values``, at least 1."""
    arr = np.abs(np.asarray(values, dtype=complex if np.iscomplexobj(values) else float))
    arr = arr[np.isfinite(arr)]
    return max(1.0, float(arr.max())) if arr.size else 1.0


def _assert_values(a, e, rtol, atol, path) -> None:
    a_arr, e_arr = np.asarray(a), np.asarray(e)
    assert a_arr.shape == e_arr.shape, f"{path}: values of shape {a_arr.shape} != {e_arr.shape}"
    if e_arr.dtype.kind in "biu" or a_arr.dtype.kind in "biu":
        np.testing.assert_array_equal(a_arr, e_arr, err_msg=path)
    elif rtol == np.inf:  # (values not compared: a NaN may stand for any of them)
        return
    else:
        np.testing.assert_allclose(a_arr, e_arr, rtol=rtol, atol=atol, equal_nan=True,
                                   err_msg=path)


def reference_torch():
    """PyTorch, or skip the calling test when it is not installed."""
    return pytest.importorskip("torch")


def compare(scenario, rtol=1e-5, atol=1e-6):
    """Run ``scenario`` on autotensor and on torch and assert the results agree.

    Skips when torch is not installed.  Returns the normalised autotensor result.
    An exception that escapes the scenario on autotensor is not caught: the test fails
    with autotensor's own traceback.
    """
    torch = reference_torch()
    expected = run_scenario(scenario, torch)
    actual = run_scenario(scenario, autotensor)
    assert_same(actual, expected, rtol=rtol, atol=atol)
    return actual
