"""PyTorch's errors, provoked on autotensor and on torch: same type, same full message.

Each scenario also records the state after the failure (values, ``.grad``, ``_version``,
``grad_fn``) -- a failed op or backward must leave the tensors as they were -- and then
does the correct thing, which must work.  Messages named in the Core issue are also
checked against the literal text.
"""
from __future__ import annotations

import numpy as np
import pytest
from differential import Raised, catch, compare


def f32(torch, data, **kwargs):
    return torch.tensor(np.array(data, dtype=np.float32), **kwargs)


def f64(torch, data, **kwargs):
    return torch.tensor(np.array(data, dtype=np.float64), **kwargs)


def i64(torch, data, **kwargs):
    return torch.tensor(np.array(data, dtype=np.int64), **kwargs)


def leaf_state(t):
    """What a failed operation must not change on a leaf."""
    return t, t.grad, t._version, t.is_leaf, t.grad_fn


SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward.")
INPLACE_HINT = (
    "Hint: enable anomaly detection to find the operation that failed to compute its "
    "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")


def _expect(result, type_name, message):
    """``result`` (autotensor's, already equal to torch's) is the literal error we name."""
    assert result == Raised(type_name, message), result


# --------------------------------------------------------------------------------------
# backward / autograd.grad
# --------------------------------------------------------------------------------------
def test_nonscalar_implicit_backward():
    def scenario(torch):
        x = f32(torch, [1.0, 2.0], requires_grad=True)
        z = x + 2
        err = catch(z.backward)
        after = leaf_state(x)
        z.backward(torch.ones_like(z))
        grad_err = catch(torch.autograd.grad, z, x)
        return err, after, x.grad, grad_err

    res = compare(scenario)
    _expect(res[1][0], "RuntimeError", "grad can be implicitly created only for scalar outputs")


def test_backward_twice():
    def scenario(torch):
        x = f32(torch, [1.0, 2.0, 3.0], requires_grad=True)
        y = (x * x).sum()
        y.backward()
        first = x.grad.clone()
        err = catch(y.backward)
        after = leaf_state(x)
        y2 = (x * x).sum()
        y2.backward()
        return first, err, after, x.grad

    res = compare(scenario)
    _expect(res[1][1], "RuntimeError", SECOND_BACKWARD)


def test_backward_twice_autograd_grad_and_saved_tensor_access():
    def scenario(torch):
        x = f32(torch, [1.0, 2.0], requires_grad=True)
        b = x * x
        (g,) = torch.autograd.grad(b.sum(), x)
        err_grad = catch(torch.autograd.grad, b.sum(), x)
        err_saved = catch(lambda: b.grad_fn._saved_self)
        return g, err_grad, err_saved, x.grad

    compare(scenario)


@pytest.mark.parametrize("w_first", [False, True], ids=["w_sum_last", "w_sum_first"])
def test_failed_second_backward_partial_effects(w_first):
    """What a failing second backward has already accumulated depends on the engine's
    order (newest node first, AccumulateGrad as soon as it is ready): same as torch."""
    def scenario(torch):
        x = f32(torch, [1.0, 2.0], requires_grad=True)
        w = f32(torch, [1.0, 2.0], requires_grad=True)
        y = w.sum() + (x * x).sum() if w_first else (x * x).sum() + w.sum()
        y.backward()
        err = catch(y.backward)
        return err, x.grad, w.grad

    compare(scenario)


def test_element_does_not_require_grad():
    def scenario(torch):
        c = f32(torch, [1.0, 2.0])
        err0 = catch(lambda: c.sum().backward())
        x = f32(torch, [1.0, 2.0], requires_grad=True)
        err1 = catch(torch.autograd.backward, [(x * 2).sum(), c.sum()])
        after = leaf_state(x)
        err_grad = catch(torch.autograd.grad, c.sum(), x)
        with torch.no_grad():  # seed 001 §4.4: out has no grad_fn
            y = x + 2
        out = (y * y * 3).mean()
        err_nograd = catch(out.backward)
        (x * 2).sum().backward()
        return err0, err1, after, err_grad, err_nograd, x.grad

    res = compare(scenario)
    _expect(res[1][0], "RuntimeError",
            "element 0 of tensors does not require grad and does not have a grad_fn")
    _expect(res[1][1], "RuntimeError",
            "element 1 of tensors does not require grad and does not have a grad_fn")


def test_unused_input_in_autograd_grad():
    def scenario(torch):
        x = f32(torch, [1.0, 2.0], requires_grad=True)
        w = f32(torch, [3.0, 4.0], requires_grad=True)
        y = (x * 2).sum()
        err = catch(torch.autograd.grad, y, [x, w], retain_graph=True)
        unused = torch.autograd.grad(y, [x, w], allow_unused=True, retain_graph=True)
        materialized = torch.autograd.grad(y, [x, w], materialize_grads=True, retain_graph=True)
        bad_combo = catch(torch.autograd.grad, y, [x, w], materialize_grads=True,
                          allow_unused=False)
        return err, unused, materialized, bad_combo, x.grad, w.grad

    res = compare(scenario)
    _expect(res[1][0], "RuntimeError",
            "The differentiated Tensor at index 1 appears to not have been used in the graph. "
            "Set allow_unused=True if this is the desired behavior.")


def test_grad_wrt_tensor_that_does_not_require_grad():
    def scenario(torch):
        x = f32(torch, [1.0, 2.0])
        w = f32(torch, [1.0, 2.0], requires_grad=True)
        return catch(torch.autograd.grad, (w * 2).sum(), x)

    compare(scenario)


def test_gradient_of_wrong_shape():
    def scenario(torch):
        x = f32(torch, [1.0, 2.0], requires_grad=True)
        y = x * 2
        err = catch(y.backward, f32(torch, [1.0, 1.0, 1.0]))
        err_scalar = catch(y.sum().backward, f32(torch, [1.0, 1.0]))
        after = leaf_state(x)
        y.backward(f32(torch, [1.0, 0.5]))
        return err, err_scalar, after, x.grad

    compare(scenario)


# --------------------------------------------------------------------------------------
# requires_grad and friends
# --------------------------------------------------------------------------------------
def test_requires_grad_on_integer_tensor():
    def scenario(torch):
        data = np.array([1, 2], dtype=np.int64)
        err_ctor = catch(torch.tensor, data, requires_grad=True)
        err_factory = catch(torch.ones, 2, dtype=torch.int64, requires_grad=True)
        t = torch.tensor(data)
        err_method = catch(t.requires_grad_)

        def set_flag():
            t.requires_grad = True

        err_attr = catch(set_flag)
        return err_ctor, err_factory, err_method, err_attr, t, t.requires_grad

    res = compare(scenario)
    _expect(res[1][0], "RuntimeError",
            "Only Tensors of floating point and complex dtype can require gradients")
    _expect(res[1][2], "RuntimeError", "only Tensors of floating point dtype can require gradients")


def test_requires_grad_flag_on_non_leaf_and_hooks_without_grad():
    def scenario(torch):
        x = f32(torch, [1.0, 2.0], requires_grad=True)
        y = x * 2

        def clear_flag():
            y.requires_grad = False

        err_flag = catch(clear_flag)
        c = f32(torch, [1.0, 2.0])
        err_retain = catch(c.retain_grad)
        err_hook = catch(c.register_hook, lambda g: g)
        return err_flag, y, err_retain, err_hook, c.requires_grad

    compare(scenario)


def test_numpy_on_tensor_that_requires_grad():
    def scenario(torch):
        x = f32(torch, [1.0, 2.0], requires_grad=True)
        err = catch(x.numpy)
        return err, x.detach().numpy(), leaf_state(x)

    res = compare(scenario)
    _expect(res[1][0], "RuntimeError",
            "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")


def test_grad_setter_checks():
    def scenario(torch):
        x = f32(torch, [1.0, 2.0], requires_grad=True)
        x.grad = f32(torch, [0.5, 0.5])
        results = []
        for value in (f32(torch, [1.0, 2.0, 3.0]), f64(torch, [1.0, 2.0]), 3):
            def assign(value=value):
                x.grad = value

            results.append(catch(assign))
            results.append(x.grad)  # unchanged
        x.grad = f32(torch, [4.0, 5.0])
        results.append(x.grad)
        x.grad = None
        results.append(x.grad)
        return results

    compare(scenario)


# --------------------------------------------------------------------------------------
# shapes: broadcasting, mm / matmul, views, indexing
# --------------------------------------------------------------------------------------
def test_broadcast_mismatch():
    def scenario(torch):
        a = f32(torch, np.ones((2, 3)), requires_grad=True)
        b = f32(torch, np.arange(8).reshape(2, 4))
        errs = [catch(lambda: a + b), catch(lambda: a * b), catch(lambda: a - b),
                catch(lambda: b / a), catch(torch.add, a, b)]
        after = leaf_state(a)
        ok = (a + b[:, :3]).sum()
        ok.backward()
        return errs, after, ok, a.grad

    res = compare(scenario)
    _expect(res[1][0][1][0], "RuntimeError",
            "The size of tensor a (3) must match the size of tensor b (4) at non-singleton "
            "dimension 1")


def test_mm_shape_mismatch():
    def scenario(torch):
        a = f32(torch, np.arange(6).reshape(2, 3), requires_grad=True)
        b = f32(torch, np.arange(6).reshape(2, 3), requires_grad=True)
        errs = [catch(torch.mm, a, b), catch(a.mm, b), catch(lambda: a @ b),
                catch(torch.matmul, a, b)]
        after = (leaf_state(a), leaf_state(b))
        out = torch.mm(a, b.t())
        out.sum().backward()
        return errs, after, out, a.grad, b.grad

    res = compare(scenario)
    _expect(res[1][0][1][0], "RuntimeError",
            "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)")


@pytest.mark.parametrize("shapes", [
    ((3,), (4,)),          # dot of vectors
    ((2, 3), (4,)),        # matrix @ vector
    ((4,), (2, 3)),        # vector @ matrix
    ((2, 2, 3), (2, 4, 5)),  # batched
    ((2, 2, 3), (3, 3, 4)),  # batch dims do not broadcast
    ((2, 3), (2, 4, 5)),   # matrix @ batch
    ((2, 2, 3), (2,)),     # batch @ vector
    ((), (3,)),            # 0-d
], ids=lambda s: "x".join(map(str, s)))
def test_matmul_mismatches(shapes):
    def scenario(torch):
        a = f32(torch, np.ones(shapes[0]), requires_grad=True)
        b = f32(torch, np.ones(shapes[1]))
        return catch(torch.matmul, a, b), catch(lambda: a @ b), leaf_state(a)

    compare(scenario)


def test_mm_needs_matrices():
    def scenario(torch):
        return catch(torch.mm, f32(torch, [1.0, 2.0, 3.0]), f32(torch, np.ones((3, 2))))

    compare(scenario)


def test_view_errors():
    def scenario(torch):
        x = f32(torch, np.arange(6).reshape(2, 3), requires_grad=True)
        t = x.t()
        errs = [catch(t.view, 6), catch(x.view, 4), catch(x.view, -1, -1),
                catch(x.reshape, 4), catch(x.flatten().view, 2, 2)]
        ok = (t.reshape(6), t.contiguous().view(6), x.view(3, 2), x.view(-1))
        return errs, t.is_contiguous(), ok, leaf_state(x)

    res = compare(scenario)
    _expect(res[1][0][1][0], "RuntimeError",
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")


def test_index_out_of_range():
    def scenario(torch):
        v = f32(torch, [1.0, 2.0, 3.0], requires_grad=True)
        m = f32(torch, np.arange(6).reshape(2, 3))
        errs = [catch(lambda: v[5]), catch(lambda: v[-4]), catch(lambda: m[1, 7]),
                catch(lambda: m[2]), catch(lambda: m[0, 0, 0]),
                catch(lambda: m[i64(torch, [5])]),
                catch(lambda: m[torch.tensor(np.array([True, False, True]))])]
        ok = v[2] * 2
        ok.backward()
        return errs, ok, v.grad, v[-3], m[1, -1], m[1:5], m[5:]

    res = compare(scenario)
    _expect(res[1][0][1][0], "IndexError", "index 5 is out of bounds for dimension 0 with size 3")


def test_dim_out_of_range_and_bad_arguments():
    def scenario(torch):
        x = f32(torch, np.arange(6).reshape(2, 3), requires_grad=True)
        y = f32(torch, np.ones((2, 2)))
        return [
            catch(x.sum, dim=2), catch(x.mean, 3), catch(x.max, dim=2),
            catch(x.softmax, dim=2), catch(x.log_softmax, dim=-3), catch(x.transpose, 0, 2),
            catch(x.squeeze, 2), catch(x.unsqueeze, 3), catch(x.narrow, 1, 2, 2),
            catch(x.permute, 0, 0), catch(x.split, 0, 1), catch(x.chunk, 0),
            catch(x.expand, 2, 4), catch(x.gather, 1, i64(torch, [[3]])),
            catch(torch.stack, [x, y]), catch(torch.stack, []),
            catch(torch.cat, [x, y]), catch(torch.cat, [y, y], dim=2), catch(torch.cat, []),
            catch(x.masked_fill, f32(torch, np.ones((2, 3))), 1.0),
            catch(x.masked_fill, torch.tensor(np.ones((2, 4), dtype=bool)), 1.0),
            catch(torch.where, torch.tensor(np.ones((2, 3), dtype=bool)), x, y),
            catch(torch.clamp, x),
            catch(f32(torch, np.ones((2, 3, 4))).t),
            catch(x.pow, f32(torch, [1.0, 2.0])),
            catch(torch.empty(0).max),
            leaf_state(x),
        ]

    compare(scenario)


def test_scalar_conversions_of_many_elements():
    def scenario(torch):
        x = f32(torch, [1.0, 2.0])
        return [catch(x.item), catch(bool, x), catch(float, x), catch(int, x),
                f32(torch, [2.5]).item(), bool(f32(torch, [0.0])), float(f32(torch, 3.5)),
                int(f32(torch, [2.7]))]

    compare(scenario)


def test_ragged_nested_list():
    def scenario(torch):
        return catch(torch.tensor, [[1, 2], [3]]), catch(torch.tensor, [[1.0], [2.0, 3.0]])

    compare(scenario)


# --------------------------------------------------------------------------------------
# in-place operations
# --------------------------------------------------------------------------------------
def test_inplace_modified_saved_tensor():
    def scenario(torch):
        x = f32(torch, np.ones((2, 2)), requires_grad=True)
        a = x + 1
        b = a * a
        a.add_(1)
        err = catch(lambda: b.sum().backward())
        after = (leaf_state(x), a._version, a)
        b2 = a * a  # the retry: saves the modified a
        b2.sum().backward()
        return err, after, x.grad

    res = compare(scenario)
    _expect(res[1][0], "RuntimeError",
            "one of the variables needed for gradient computation has been modified by an "
            "inplace operation: [torch.FloatTensor [2, 2]], which is output 0 of Add, is at "
            "version 1; expected version 0 instead. " + INPLACE_HINT)


def test_inplace_modified_saved_tensor_variants():
    def scenario(torch):
        out = []
        # modified twice; the op named is the one that made the tensor
        x = f32(torch, np.ones((2, 2)), requires_grad=True)
        a = x * 3
        b = a * a
        a.add_(1)
        a.mul_(2)
        out.append(catch(lambda: b.sum().backward()))
        out.append((a._version, x.grad))
        # a leaf modified under no_grad after it was saved: no "output 0 of ..."
        x = f32(torch, np.ones((2, 2)), requires_grad=True)
        y = x * x
        with torch.no_grad():
            x.mul_(2)
        out.append(catch(lambda: y.sum().backward()))
        out.append(leaf_state(x))
        # an op that saves its result (exp), double precision
        x = f64(torch, [0.0, 1.0, 2.0], requires_grad=True)
        e = x.exp()
        e.add_(1)
        out.append(catch(lambda: e.sum().backward()))
        # an op whose backward does not need the modified tensor: no error
        x = f32(torch, [1.0, 2.0, 3.0], requires_grad=True)
        a = x * 2
        s = a + 1
        a.zero_()
        s.sum().backward()
        out.append(x.grad)
        return out

    compare(scenario)


def test_failed_backward_after_inplace_leaves_grads_unchanged():
    def scenario(torch):
        x = f32(torch, [1.0, 2.0], requires_grad=True)
        w = f32(torch, [1.0, 2.0], requires_grad=True)
        a = x + 1
        b = a * a
        a.add_(1)
        y = b.sum() + w.sum()
        err = catch(y.backward)
        return err, x.grad, w.grad

    compare(scenario)


INPLACE_ON_LEAF = ["add_", "sub_", "mul_", "div_", "zero_", "fill_", "copy_",
                   "iadd", "isub", "imul", "itruediv"]


@pytest.mark.parametrize("op", INPLACE_ON_LEAF)
def test_inplace_on_leaf_that_requires_grad(op):
    def scenario(torch):
        x = f32(torch, [1.0, 2.0], requires_grad=True)
        other = f32(torch, [3.0, 4.0])

        def apply():
            nonlocal x
            if op == "zero_":
                x.zero_()
            elif op == "fill_":
                x.fill_(2.0)
            elif op == "copy_":
                x.copy_(other)
            elif op == "iadd":
                x += 1
            elif op == "isub":
                x -= other
            elif op == "imul":
                x *= 2
            elif op == "itruediv":
                x /= other
            else:
                getattr(x, op)(other)

        err = catch(apply)
        after = leaf_state(x)  # the data must not have been written before the check
        with torch.no_grad():
            apply()
        allowed = leaf_state(x)
        (x * x).sum().backward()
        return err, after, allowed, x.grad

    res = compare(scenario)
    _expect(res[1][0], "RuntimeError",
            "a leaf Variable that requires grad is being used in an in-place operation.")


def test_inplace_under_no_grad_is_allowed_and_tracked_by_version():
    def scenario(torch):
        x = f32(torch, [1.0, 2.0], requires_grad=True)
        with torch.no_grad():
            x.mul_(3)
            x.add_(1)
            x -= 0.5
        state = leaf_state(x), x.requires_grad
        y = (x * x).sum()
        y.backward()
        return state, y, x.grad

    compare(scenario)


def test_inplace_shape_and_dtype_errors():
    def scenario(torch):
        t = f32(torch, [1.0, 2.0, 3.0])
        err_shape = catch(t.add_, f32(torch, np.ones((2, 3))))
        err_shape_mul = catch(t.mul_, f32(torch, np.ones((2, 3))))
        n = i64(torch, [1, 2, 3])
        err_dtype = catch(n.add_, 1.5)
        return err_shape, err_shape_mul, (t, t._version), err_dtype, (n, n._version)

    compare(scenario)
