"""``gradcheck`` / ``gradgradcheck``: analytical gradients against finite differences.

Note [How gradcheck works]
~~~~~~~~~~~~~~~~~~~~~~~~~~
For every differentiable input ``x`` and differentiable output ``y`` we build two
Jacobians of shape ``(x.numel(), y.numel())`` (PyTorch's layout: row = input element,
column = output element):

* numerical: central differences ``(f(x + eps e_k) - f(x - eps e_k)) / (2 eps)``, one
  input element ``k`` at a time. The element is changed through the tensor's storage
  (its ndarray), not through an op, so neither the graph nor the version counter sees
  it: the function is simply called again on the perturbed values.
* analytical: one ``autograd.grad`` call per output element with the one-hot
  ``grad_outputs`` ``e_j``, which gives the Jacobian's column ``j``. It is computed twice
  to check that backward is deterministic ("reentrant").

They must agree elementwise like ``allclose(analytical, numerical, rtol, atol)``. Then,
as in PyTorch, zero ``grad_outputs`` must give zero (or no) gradients, of the input's
dtype and shape, also when some outputs get no gradient at all (PyTorch's "undefined"
grads; here: those outputs are left out of the ``autograd.grad`` call).

``gradgradcheck`` runs ``gradcheck`` on ``(inputs, grad_outputs) -> autograd.grad(func(
inputs), inputs, grad_outputs, create_graph=True)``: the backward's own backward.

Complex numbers follow PyTorch: a complex input is perturbed along its real and its
imaginary axis, and its numerical entry is the conjugate Wirtinger derivative
``ds/dx + i ds/dy`` of a real output ``s`` (which is what backward returns for it); a
function with complex outputs is checked twice, on the imaginary and then the real part of
those outputs ("While considering the imaginary part of complex outputs only, ..."). Fast
mode takes the slow path for complex inputs.

Finite differences are meaningless at a kink (``relu`` at 0, a tie in ``max``): there the
left and right differences disagree. The report says so for the failing element; it
does not change the verdict (PyTorch fails there too).
"""
import warnings

from .._backend import np
from . import grad_mode
from .engine import grad as _autograd_grad

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError", "relative_error",
           "numerical_jacobian", "analytical_jacobian"]


class GradcheckError(RuntimeError):
    """Error raised by :func:`gradcheck` and :func:`gradgradcheck`."""


FAILED_NONDET_MSG = """\n
NOTE: If your op relies on non-deterministic operations i.e., it is listed here:
https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
this failure might be expected.

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `nondet_tol=<tol>` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_nondet_tol=<tol>`.
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_nondet_tol=<tol>`
"""

_UNDEFINED_MSG = ('Please look at "Notes about undefined output gradients" in '
                  '"tools/autograd/derivatives.yaml"')


# ---- small helpers ------------------------------------------------------------------------
def _tensor_cls():
    from .._tensor import Tensor
    return Tensor


def _wrap(arr):
    from .._tensor import _make
    return _make(arr if arr.__class__ is np.ndarray else np.asarray(arr))


def _as_tuple(x):
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _tensor_outputs(out):
    Tensor = _tensor_cls()
    return [o for o in _as_tuple(out) if isinstance(o, Tensor)]


def _part_of_outputs(func, part):
    """func with each complex output replaced by its real or imaginary part."""
    def part_func(*args):
        Tensor = _tensor_cls()
        outs = _as_tuple(func(*args))
        pick = (lambda o: o.real) if part == "real" else (lambda o: o.imag)
        return tuple(pick(o) if isinstance(o, Tensor) and o._data.dtype.kind == "c" else o
                     for o in outs)
    return part_func


def _diff_inputs(inputs):
    """``[(position, tensor)]`` of the inputs that require grad."""
    Tensor = _tensor_cls()
    return [(i, x) for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]


def _differentiable_outputs(out):
    Tensor = _tensor_cls()
    return tuple(o for o in _as_tuple(out) if isinstance(o, Tensor) and o.requires_grad)


def relative_error(numerical, analytical):
    """SPEC F4's error: ``||g_num - g_ad|| / max(1, ||g_num||, ||g_ad||)`` (Frobenius).

    Takes arrays or tensors; 0 means identical, and the ``max(1, ...)`` makes it an absolute
    error for small gradients and a relative one for large ones.
    """
    n, a = _array(numerical), _array(analytical)
    wide = np.complex128 if "c" in (n.dtype.kind, a.dtype.kind) else np.float64
    n, a = n.astype(wide), a.astype(wide)
    return float(np.linalg.norm((n - a).ravel()) /
                 max(1.0, np.linalg.norm(n.ravel()), np.linalg.norm(a.ravel())))


def _array(x):
    return x._data if isinstance(x, _tensor_cls()) else np.asarray(x)


def _allclose(a, n, rtol, atol):
    """``torch.allclose(a, n, rtol, atol)``: |a - n| <= atol + rtol * |n|, NaN never close."""
    with np.errstate(invalid="ignore"):
        return bool(np.all(np.abs(a - n) <= atol + rtol * np.abs(n)))


def _set_element(x, idx, value):
    """Write one element of x's storage, unseen by autograd (no node, no version bump)."""
    try:
        x._data[idx] = value
    except ValueError:  # a read-only array (e.g. wrapped from a read-only ndarray)
        x._data = np.array(x._data, copy=True)
        x._data[idx] = value


def _outputs_data(func, inputs):
    """Call func and copy out the values of all its Tensor outputs (None for the others)."""
    Tensor = _tensor_cls()
    return [np.array(o._data, copy=True) if isinstance(o, Tensor) else None
            for o in _as_tuple(func(*inputs))]


def _check_same_dtype_and_shape(base, new, eps, idx):
    for b, o in zip(base, new, strict=True):
        if b is None or o is None:
            continue
        on = f" on index {idx}" if idx is not None else ""
        if b.shape != o.shape:
            raise AssertionError(
                f"Expected `func` to return outputs with the same shape when inputs are "
                f"perturbed{on} by {eps}, but got: shapes {b.shape} and {o.shape}.")
        if b.dtype != o.dtype:
            raise AssertionError(
                f"Expected `func` to return outputs with the same dtype when inputs are "
                f"perturbed{on} by {eps}, but got: dtypes {b.dtype} and {o.dtype}.")


# ---- the two Jacobians --------------------------------------------------------------------
def numerical_jacobian(func, inputs, eps=1e-6, outputs=None):
    """Central-difference Jacobians: ``result[i][j]`` is output j w.r.t. differentiable
    input i, an ndarray of shape ``(input.numel(), output.numel())``.

    Also returns ``kinks[i][j]``: a boolean array of the same shape, True where the left and
    right one-sided differences disagree (a non-differentiable point such as relu at 0).
    """
    inputs = _as_tuple(inputs)
    base = outputs if outputs is not None else _outputs_data(func, inputs)
    jacobians, kinks = [], []
    for _, x in _diff_inputs(inputs):
        numel = x._data.size
        jac = [np.zeros((numel, 0 if o is None else o.size), dtype=x._data.dtype)
               for o in base]
        kink = [np.zeros(j.shape, dtype=bool) for j in jac]
        # a complex input is perturbed along its real and its imaginary axis
        steps = (eps, eps * 1j) if x._data.dtype.kind == "c" else (eps,)
        for k in range(numel):
            idx = np.unravel_index(k, x._data.shape)
            orig = x._data[idx].copy()
            for step in steps:
                _set_element(x, idx, orig - step)
                minus = _outputs_data(func, inputs)
                _set_element(x, idx, orig + step)
                plus = _outputs_data(func, inputs)
                _set_element(x, idx, orig)
                _check_same_dtype_and_shape(base, minus, eps, idx)
                _check_same_dtype_and_shape(base, plus, eps, idx)
                for j, (b, lo, hi) in enumerate(zip(base, minus, plus, strict=True)):
                    if b is None or b.dtype.kind not in "fc":
                        continue
                    d = (hi.astype(jac[j].dtype) - lo) / (2 * eps)
                    if step is eps:
                        jac[j][k] = d.reshape(-1)
                    else:  # the conjugate Wirtinger derivative ds/dx + i ds/dy
                        jac[j][k] += 1j * d.reshape(-1)
                        continue
                    right = (hi - b).reshape(-1) / eps
                    left = (b - lo).reshape(-1) / eps
                    with np.errstate(invalid="ignore"):
                        kink[j][k] = np.abs(right - left) > 1e-2 * np.maximum(
                            1.0, np.maximum(np.abs(right), np.abs(left)))
        jacobians.append(jac)
        kinks.append(kink)
    return jacobians, kinks


def _vjp(output, diff_inputs, grad_output):
    return _autograd_grad(output, diff_inputs, _wrap(grad_output), retain_graph=True,
                          allow_unused=True)


def _jacobian_rows(output, diff_inputs):
    """``jac[i]``: (input i numel, output numel) from one one-hot vjp per output element."""
    out = output._data
    jacs = [np.zeros((x._data.size, out.size), dtype=x._data.dtype) for x in diff_inputs]
    sizes_ok = types_ok = True
    for j in range(out.size):
        go = np.zeros(out.shape, dtype=out.dtype)
        go.reshape(-1)[j] = 1
        for i, g in enumerate(_vjp(output, diff_inputs, go)):
            if g is None:
                continue
            x = diff_inputs[i]._data
            if g._data.shape != x.shape:
                sizes_ok = False
                continue
            if g._data.dtype != x.dtype:
                types_ok = False
            jacs[i][:, j] = g._data.reshape(-1)
    return jacs, sizes_ok, types_ok


def analytical_jacobian(output, diff_inputs, nondet_tol=0.0, check_grad_dtypes=False):
    """Jacobians of ``output`` w.r.t. each of ``diff_inputs`` from reverse mode, with
    PyTorch's checks (size, dtype, reentrancy)."""
    jac1, sizes_ok, types_ok = _jacobian_rows(output, diff_inputs)
    jac2, _, _ = _jacobian_rows(output, diff_inputs)
    reentrant = all(a.size == 0 or float(np.max(np.abs(a - b))) <= nondet_tol
                    for a, b in zip(jac1, jac2, strict=True))
    if not types_ok and check_grad_dtypes:
        raise GradcheckError("Gradient has dtype mismatch")
    if not sizes_ok:
        raise GradcheckError("Analytical gradient has incorrect size")
    if not reentrant:
        raise GradcheckError(
            "Backward is not reentrant, i.e., running backward with "
            "same input and grad_output multiple times gives different values, "
            "although analytical gradient matches numerical gradient."
            f"The tolerance for nondeterminism was {nondet_tol}." + FAILED_NONDET_MSG)
    return jac1


def _mismatch_msg(analytical, numerical, kink, out_idx, in_idx, in_shape, out_shape,
                  rtol, atol, part=None):
    """PyTorch's message, then where the worst element is and why it might be off.
    ``part`` ("real"/"imaginary") names the part of a complex output being checked."""
    msg = (f"While considering the {part} part of complex outputs only, " if part else "")
    msg += (f"Jacobian mismatch for output {out_idx:d} with respect to input {in_idx:d},\n"
           f"numerical:{_wrap(numerical)}\nanalytical:{_wrap(analytical)}\n")
    with np.errstate(invalid="ignore"):
        excess = np.abs(analytical - numerical) - (atol + rtol * np.abs(numerical))
    excess = np.where(np.isnan(excess), np.inf, excess)
    r, c = np.unravel_index(int(np.argmax(excess)), excess.shape)
    r_idx = tuple(int(i) for i in np.unravel_index(r, in_shape))
    c_idx = tuple(int(i) for i in np.unravel_index(c, out_shape))
    msg += (f"\nlargest mismatch: d output{list(c_idx)} / d input{list(r_idx)} "
            f"(Jacobian element [{r}, {c}]): numerical {numerical[r, c].item()!r}, "
            f"analytical {analytical[r, c].item()!r}, allowed |difference| "
            f"{float(atol + rtol * abs(numerical[r, c]))!r} (atol + rtol * |numerical|)\n"
            f"relative error ||J_num - J_ad|| / max(1, ||J_num||, ||J_ad||) = "
            f"{relative_error(numerical, analytical)!r}\n")
    if kink is not None and kink[r].any():
        msg += (f"note: input{list(r_idx)} looks like a non-differentiable point (the left and "
                f"right finite differences disagree, e.g. relu at 0 or a tie in max/min): "
                f"gradcheck is only meaningful away from such points.\n")
    return msg


# ---- the checks -----------------------------------------------------------------------------
def _check_inputs(inputs):
    any_requires_grad = False
    Tensor = _tensor_cls()
    for idx, x in enumerate(inputs):
        if isinstance(x, Tensor) and x.requires_grad:
            if x._data.dtype not in (np.float64, np.complex128):
                warnings.warn(
                    f"Input #{idx} requires gradient and "
                    "is not a double precision floating point or complex. "
                    "This check will likely fail if all the inputs are "
                    "not of double precision floating point or complex. ", stacklevel=3)
            d = x._data
            if not all(st > 0 or sz <= 1 for st, sz in zip(d.strides, d.shape, strict=True)):
                raise RuntimeError(
                    f"The {idx}th input has a dimension with stride 0. gradcheck only "
                    "supports inputs that are non-overlapping to be able to "
                    "compute the numerical gradients correctly. You should call "
                    ".contiguous on the input before passing it to gradcheck.")
            any_requires_grad = True
    if not any_requires_grad:
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, "
            "but none of them have requires_grad=True.")


def _slow_check(func, inputs, func_out, outputs, eps, rtol, atol, check_grad_dtypes,
                nondet_tol, part=None):
    diff = [x for _, x in _diff_inputs(inputs)]
    Tensor = _tensor_cls()
    base = [np.array(o._data, copy=True) if isinstance(o, Tensor) else None
            for o in _as_tuple(func_out)]
    numerical, kinks = numerical_jacobian(func, inputs, eps, outputs=base)
    if not outputs:
        for per_input in numerical:
            for jac in per_input:
                if np.any(jac != 0):
                    raise GradcheckError("Numerical gradient for function expected to be zero")
        return
    diff_pos = [k for k, o in enumerate(_as_tuple(func_out))
                if isinstance(o, Tensor) and o.requires_grad]
    for i, o in enumerate(outputs):
        analytical = analytical_jacobian(o, diff, nondet_tol, check_grad_dtypes)
        for j, a in enumerate(analytical):
            n = numerical[j][diff_pos[i]]
            if not _allclose(a, n, rtol, atol):
                raise GradcheckError(_mismatch_msg(
                    a, n, kinks[j][diff_pos[i]], i, j, diff[j]._data.shape, o._data.shape,
                    rtol, atol, part))


def _fast_check(func, inputs, func_out, outputs, eps, rtol, atol, check_grad_dtypes,
                nondet_tol, part=None):
    """PyTorch's fast mode: compare the scalars v^T J u (numerical J u, analytical v^T J)
    for random vectors u (per input) and v (per output); the slow report on failure.
    Complex inputs take the slow path (their conjugate Wirtinger Jacobian elementwise)."""
    diff = [x for _, x in _diff_inputs(inputs)]
    if not outputs or any(x._data.dtype.kind == "c" for x in diff):
        return _slow_check(func, inputs, func_out, outputs, eps, rtol, atol,
                           check_grad_dtypes, nondet_tol, part)
    rng = np.random.default_rng(0)
    all_u = []
    for x in diff:
        u = rng.random(x._data.size)
        all_u.append(u / max(np.linalg.norm(u), 1e-300))
    all_v = [rng.random(o._data.size) for o in outputs]
    Tensor = _tensor_cls()
    outs = [o for o in _as_tuple(func_out) if isinstance(o, Tensor)]
    diff_pos = [k for k, o in enumerate(outs) if o.requires_grad]
    # numerical J_i u_i for each input i (perturb the whole input along u_i)
    jus = []
    for x, u in zip(diff, all_u, strict=True):
        orig = np.array(x._data, copy=True)
        step = (eps * u).reshape(x._data.shape).astype(x._data.dtype)
        x._data[...] = orig - step
        minus = _outputs_data(func, inputs)
        x._data[...] = orig + step
        plus = _outputs_data(func, inputs)
        x._data[...] = orig
        jus.append([None if lo is None else ((hi - lo) / (2 * eps)).reshape(-1)
                    for lo, hi in zip(minus, plus, strict=True)])
    for j, (o, v) in enumerate(zip(outputs, all_v, strict=True)):
        go = v.reshape(o._data.shape).astype(o._data.dtype)
        vjs1 = _vjp(o, diff, go)
        vjs2 = _vjp(o, diff, go)
        for a, b in zip(vjs1, vjs2, strict=True):
            if a is not None and b is not None and a._data.size and \
                    float(np.max(np.abs(a._data - b._data))) > nondet_tol:
                raise GradcheckError(
                    "Backward is not reentrant, i.e., running backward with "
                    "same input and grad_output multiple times gives different values, "
                    "although analytical gradient matches numerical gradient."
                    f"The tolerance for nondeterminism was {nondet_tol}." + FAILED_NONDET_MSG)
        for i, (x, u, vj) in enumerate(zip(diff, all_u, vjs1, strict=True)):
            if vj is not None and vj._data.shape != x._data.shape:
                raise GradcheckError("Analytical gradient has incorrect size")
            if vj is not None and check_grad_dtypes and vj._data.dtype != x._data.dtype:
                raise GradcheckError("Gradient has dtype mismatch")
            a = 0.0 if vj is None else float(vj._data.reshape(-1) @ u)
            n = float(v @ jus[i][diff_pos[j]])
            if not _allclose(np.float64(a), np.float64(n), rtol, atol * u.sum() * v.sum()):
                try:
                    _slow_check(func, inputs, func_out, outputs, eps, rtol, atol,
                                check_grad_dtypes, nondet_tol, part)
                    slow = ("\nFast gradcheck failed but element-wise differences are small. "
                            "This means that the test might've passed in slow_mode!\n")
                except GradcheckError as e:
                    slow = "\nThe slow-mode check reports:\n" + str(e)
                prefix = (f"While considering the {part} part of complex outputs only, "
                          if part else "")
                raise GradcheckError(
                    prefix + f"Jacobian mismatch for output {j:d} with respect to input {i:d},\n"
                    f"numerical:{_wrap(np.asarray(n))}\nanalytical:{_wrap(np.asarray(a))}\n"
                    "\nThe above quantities relating the numerical and analytical jacobians "
                    "are computed in fast mode (v^T J u with random vectors u and v).\n"
                    + slow) from None


def _check_zero_grad_outputs(outputs, inputs):
    """Zero grad_outputs must give zero (or no) gradients of the inputs' dtype and shape."""
    diff = [x for _, x in _diff_inputs(inputs)]
    grads = _autograd_grad(outputs, diff, [_wrap(np.zeros_like(o._data)) for o in outputs],
                           retain_graph=True, allow_unused=True)
    for gi, di in zip(grads, diff, strict=True):
        if gi is None:
            continue
        if not np.all(gi._data == 0):
            raise GradcheckError("backward not multiplied by grad_output")
        if gi._data.dtype != di._data.dtype:
            raise GradcheckError("grad is incorrect type")
        if gi._data.shape != di._data.shape:
            raise GradcheckError("grad is incorrect size")


def _check_undefined_grads(func, inputs):
    """Backward must cope with outputs that receive no gradient (PyTorch's undefined grads):
    with several outputs, leave each out of the ``autograd.grad`` call in turn."""
    diff = [x for _, x in _diff_inputs(inputs)]

    def check(outs):
        try:
            grads = _autograd_grad(outs, diff, [_wrap(np.zeros_like(o._data)) for o in outs],
                                   allow_unused=True)
        except RuntimeError as e:
            raise GradcheckError("Expected backward function to handle undefined output "
                                 "grads. " + _UNDEFINED_MSG) from e
        for gi in grads:
            if gi is not None and not np.all(gi._data == 0):
                raise GradcheckError(
                    "Expected all input grads to be undefined or zero when all output grads "
                    "are undefined or zero. " + _UNDEFINED_MSG)

    n = len(_differentiable_outputs(func(*inputs)))
    if n > 1:
        for k in range(n):
            outs = _differentiable_outputs(func(*inputs))
            check(tuple(o for i, o in enumerate(outs) if i != k))


FAILED_BATCHED_GRAD_MSG = """
gradcheck or gradgradcheck failed while testing batched gradient computation.
This could have been invoked in a number of ways (via a test that calls
gradcheck/gradgradcheck directly or via an autogenerated test).

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `check_batched_grad=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `check_batched_grad=False` and/or `check_batched_gradgrad=False`.

If you're modifying an existing operator that supports batched grad computation,
or wish to make a new operator work with batched grad computation, please read
the following.

To compute batched grads (e.g., jacobians, hessians), we vmap over the backward
computation. The most common failure case is if there is a 'vmap-incompatible
operation' in the backward pass. Please see
NOTE: [How to write vmap-compatible backward formulas]
in the codebase for an explanation of how to fix this.
""".strip()

FAILED_BATCHED_GRAD_MSG_FWD_AD = """
gradcheck failed while testing batched gradient computation with forward-mode AD.
This test is enabled automatically when both `check_batched_grad=True`
and `check_forward_ad=True`, but can be disabled in the following ways
dependong on how the test was invoked (via a test that calls gradcheck
directly or via an autogenerated test).

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `check_batched_forward_grad=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `check_batched_forward_grad=False`
"""


def _batched_mismatch(output_idx, input_idx, res, exp, forward=False):
    msg = FAILED_BATCHED_GRAD_MSG_FWD_AD if forward else FAILED_BATCHED_GRAD_MSG
    return (f"For output {output_idx} and input {input_idx}:\n\n{msg}\n\nGot:\n{res}\n\n"
            f"Expected:\n{exp}")


def _compare_batched(vjp, vectors, output_idx, forward):
    """PyTorch's batched-gradient checks: vmap(vjp) over two random vectors against two
    separate calls (vmap here is the per-entry loop, Note [vmap as a loop]: the check
    exercises the batched entry points and their errors)."""
    from .. import _ops
    from ..func import vmap
    expected = [_ops.stack(shards) for shards in zip(*(vjp(v) for v in vectors))]
    try:
        result = vmap(vjp)(_ops.stack(vectors))
    except RuntimeError as ex:
        msg = FAILED_BATCHED_GRAD_MSG_FWD_AD if forward else FAILED_BATCHED_GRAD_MSG
        raise GradcheckError(f"While computing batched gradients, got: {ex}\n\n{msg}") from ex
    for input_idx, (res, exp) in enumerate(zip(result, expected)):
        if not _ops.allclose(res, exp):
            raise GradcheckError(_batched_mismatch(
                input_idx if forward else output_idx, input_idx, res, exp, forward))


def _test_batched_grad(inputs, output, output_idx):
    """check_batched_grad: vjps of ``output`` for two random grad_outputs, batched."""
    from .. import _creation
    diff = [x for _, x in _diff_inputs(inputs)]

    def vjp(v):
        grads = _autograd_grad(output, diff, v, retain_graph=True, allow_unused=True)
        return tuple(g if g is not None else
                     _creation.zeros((), dtype=x.dtype).expand(x.shape)
                     for g, x in zip(grads, diff))
    vectors = [_creation.randn_like(output) for _ in range(2)]
    _compare_batched(vjp, vectors, output_idx, forward=False)


def _test_batched_forward_grad(func, inputs):
    """check_batched_forward_grad: jvps for two random tangents of each input, batched."""
    from .. import _creation
    from . import forward_ad as fwAD
    Tensor = _tensor_cls()
    for idx, x in enumerate(inputs):
        if not (isinstance(x, Tensor) and x.requires_grad) or x._data.dtype.kind not in "fc":
            continue

        def jvp(tangent, idx=idx, x=x):
            with fwAD.dual_level():
                args = tuple(fwAD.make_dual(x.detach(), tangent) if i == idx else
                             (a.detach() if isinstance(a, Tensor) else a)
                             for i, a in enumerate(inputs))
                out = []
                for o in _as_tuple(func(*args)):
                    if o is None:
                        continue
                    primal, t = fwAD.unpack_dual(o)
                    out.append(t if t is not None else
                               _creation.zeros((), dtype=primal.dtype).expand(primal.shape))
                return tuple(out)
        _compare_batched(jvp, [_creation.randn_like(x) for _ in range(2)], idx, forward=True)


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
              nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
              check_batched_grad=False, check_batched_forward_grad=False,
              check_forward_ad=False, check_backward_ad=True, fast_mode=False, masked=None):
    """Check the gradients of ``func`` at ``inputs`` against central finite differences.

    Like ``torch.autograd.gradcheck``: returns True, or raises :class:`GradcheckError`
    naming the output and input (indices among the differentiable ones) with the numerical
    and analytical Jacobians (rows: input elements, columns: output elements); with
    ``raise_exception=False`` returns False instead. Inputs that require grad should be
    float64. See Note [How gradcheck works].

    >>> import autotensor as torch
    >>> x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    >>> gradcheck(lambda t: (t * t).sum(), (x,))
    True
    """
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError("Expected at least one of check_forward_ad or check_backward_ad "
                             "to be True")
    if check_batched_grad and not check_backward_ad:
        raise AssertionError("Setting check_batched_grad=True requires check_backward_ad to "
                             "be True")
    if check_batched_forward_grad and not check_forward_ad:
        raise AssertionError("Setting check_batched_forward_grad=True requires "
                             "check_forward_ad to be True")
    try:
        return _gradcheck(func, _as_tuple(inputs), eps, atol, rtol, nondet_tol,
                          check_undefined_grad, check_grad_dtypes, check_batched_grad,
                          check_backward_ad, fast_mode, check_forward_ad,
                          check_batched_forward_grad)
    except GradcheckError:
        if raise_exception:
            raise
        return False


def _gradcheck(func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad,
               check_grad_dtypes, check_batched_grad, check_backward_ad, fast_mode,
               check_forward_ad=False, check_batched_forward_grad=False):
    _check_inputs(inputs)
    with grad_mode.enable_grad():
        func_out = func(*inputs)
        outputs = _differentiable_outputs(func_out)
        if check_forward_ad:
            _check_forward_ad(func, inputs, func_out, eps, rtol, atol)
        if check_batched_forward_grad:
            _test_batched_forward_grad(func, inputs)
        if not check_backward_ad:
            return True
        check = _fast_check if fast_mode else _slow_check
        if any(o._data.dtype.kind == "c" for o in _tensor_outputs(func_out)):
            # as PyTorch: the imaginary, then the real parts of complex outputs, each a
            # real function whose Jacobian is checked (Note [How gradcheck works])
            for part in ("imaginary", "real"):
                part_func = _part_of_outputs(func, part)
                part_out = part_func(*inputs)
                check(part_func, inputs, part_out, _differentiable_outputs(part_out), eps,
                      rtol, atol, check_grad_dtypes, nondet_tol, part)
        else:
            check(func, inputs, func_out, outputs, eps, rtol, atol, check_grad_dtypes,
                  nondet_tol)
        if check_batched_grad:
            for i, o in enumerate(outputs):
                _test_batched_grad(inputs, o, i)
        if outputs:
            _check_zero_grad_outputs(outputs, inputs)
            if check_undefined_grad:
                _check_undefined_grads(func, inputs)
    return True


def _forward_jacobian(func, inputs, n_out):
    """``result[i][j]``: the Jacobian of output j wrt differentiable input i by forward
    mode, one dual pass per input element (rows: input elements, as numerical_jacobian)."""
    from . import forward_ad as fwAD
    Tensor = _tensor_cls()
    result = []
    for pos, x in _diff_inputs(inputs):
        rows = [[] for _ in range(n_out)]
        for k in range(x._data.size):
            basis = np.zeros(x._data.size, dtype=x._data.dtype)
            basis[k] = 1
            with fwAD.dual_level():
                args = list(inputs)
                args[pos] = fwAD.make_dual(x, _wrap(basis.reshape(x._data.shape)))
                outs = _as_tuple(func(*args))
                for j, o in enumerate(outs):
                    if not isinstance(o, Tensor) or o._data.dtype.kind not in "fc":
                        rows[j].append(None)
                        continue
                    t = fwAD.unpack_dual(o).tangent
                    rows[j].append(np.zeros(o._data.size) if t is None
                                   else np.array(t._data, dtype=np.float64).reshape(-1))
        result.append([None if not r or r[0] is None else np.stack(r) for r in rows])
    return result


def _check_forward_ad(func, inputs, func_out, eps, rtol, atol):
    """Forward-mode Jacobians against the numerical ones (PyTorch's message)."""
    Tensor = _tensor_cls()
    base = [np.array(o._data, copy=True) if isinstance(o, Tensor) else None
            for o in _as_tuple(func_out)]
    numerical, _ = numerical_jacobian(func, inputs, eps, outputs=base)
    forward = _forward_jacobian(func, inputs, len(base))
    for i, (fw_i, num_i) in enumerate(zip(forward, numerical, strict=True)):
        for j, (a, n) in enumerate(zip(fw_i, num_i, strict=True)):
            if a is None or base[j] is None or base[j].dtype.kind not in "fc":
                continue
            if not _allclose(a, n, rtol, atol):
                raise GradcheckError(
                    f"Jacobian computed with forward mode mismatch for output {j:d} with "
                    f"respect to input {i:d},\nnumerical:{_wrap(n)}\nanalytical:{_wrap(a)}\n")


def _random_like(t, noncontiguous):
    """A leaf requiring grad with t's shape and dtype, uniform in [-1, 1) (autotensor's
    generator, so ``manual_seed`` makes it reproducible)."""
    from .. import _creation, _dtypes
    dtype = t.dtype if t._data.dtype.kind in "fc" else _dtypes.float64
    shape = tuple(t.shape)
    if noncontiguous and shape and t._data.size > 1:
        wide = _creation.rand(shape[:-1] + (shape[-1] * 2,), dtype=dtype)._data
        data = (wide * 2 - 1)[..., ::2]
    else:
        data = _creation.rand(shape, dtype=dtype)._data * 2 - 1
    r = _wrap(data)
    r.requires_grad_()
    return r


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False,
                  check_batched_grad=False, check_fwd_over_rev=False, check_rev_over_rev=True,
                  fast_mode=False, masked=False):
    """Check second derivatives: ``gradcheck`` of ``(inputs, grad_outputs) -> autograd.grad(
    func(inputs), inputs, grad_outputs, create_graph=True)``.

    ``grad_outputs`` default to random tensors in [-1, 1) that require grad (made
    non-contiguous with ``gen_non_contig_grad_outputs``), so the check also covers the
    backward's linearity in the incoming gradient.

    >>> import autotensor as torch
    >>> x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    >>> gradgradcheck(lambda t: t ** 3, (x,))
    True
    """
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError(
            "Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True")
    if check_undefined_grad and not check_rev_over_rev:
        raise AssertionError(
            "Setting check_undefined_grad=True requires check_rev_over_rev to be True")
    if check_batched_grad and not check_rev_over_rev:
        raise AssertionError(
            "Setting check_batched_grad=True requires check_rev_over_rev to be True")
    tupled_inputs = _as_tuple(inputs)
    if grad_outputs is None:
        with grad_mode.enable_grad():
            outputs = _differentiable_outputs(func(*tupled_inputs))
        tupled_grad_outputs = tuple(_random_like(o, gen_non_contig_grad_outputs)
                                    for o in outputs)
    else:
        tupled_grad_outputs = _as_tuple(grad_outputs)
    num_outputs = len(tupled_grad_outputs)
    Tensor = _tensor_cls()
    diff_input_idx = {i for i, x in enumerate(tupled_inputs)
                      if isinstance(x, Tensor) and x.requires_grad}

    def new_func(*args):
        input_args = args[:len(args) - num_outputs]
        outs = _differentiable_outputs(func(*input_args))
        gos = args[len(args) - num_outputs:]
        diff_args = tuple(x for i, x in enumerate(input_args) if i in diff_input_idx)
        grads = _autograd_grad(outs, diff_args, gos, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(new_func, tupled_inputs + tupled_grad_outputs, eps=eps, atol=atol,
                     rtol=rtol, raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_undefined_grad=check_undefined_grad,
                     check_grad_dtypes=check_grad_dtypes,
                     check_batched_grad=check_batched_grad, fast_mode=fast_mode,
                     check_forward_ad=check_fwd_over_rev,
                     check_backward_ad=check_rev_over_rev, masked=masked)
