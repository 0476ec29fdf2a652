"""Random programs of views and in-place ops on a tensor in a graph, against torch.

Hypothesis draws a short program: each step picks a tensor from a pool (the base and the
views made so far) and either makes a new view of it or applies an in-place op to it
(with a scalar, or with a fresh leaf that requires grad).  The program runs on autotensor
and on PyTorch (``differential.compare``); the values, grad_fn names and versions of every
tensor in the pool, every error raised on the way, and the gradients of a loss over the
whole pool w.r.t. all leaves must agree.
"""
from __future__ import annotations

import numpy as np
from differential import catch, compare
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def _fixed(shape, lo, hi, salt=0):
    n = int(np.prod(shape)) if len(shape) else 1
    vals = lo + (hi - lo) * (((np.arange(n) + salt) * 7919 % 97) / 96.0)
    return vals.reshape(shape).astype(np.float32)


# View ops: (name, applicable(shape), fn(t, k)) where k is a drawn integer.
def _dim(t, k):
    return k % t.dim()


VIEWS = [
    ("select", lambda s: len(s) >= 1 and s[0] > 0, lambda t, k: t.select(0, k % t.shape[0])),
    ("index_int", lambda s: len(s) >= 2 and s[-1] > 0, lambda t, k: t[..., k % t.shape[-1]]),
    ("slice_step", lambda s: len(s) >= 1, lambda t, k: t[k % 2::2]),
    ("slice_dim", lambda s: len(s) >= 2, lambda t, k: t[:, (k % 2):]),
    ("transpose", lambda s: len(s) >= 2, lambda t, k: t.transpose(0, -1)),
    ("t", lambda s: len(s) == 2, lambda t, k: t.t()),
    ("unsqueeze", lambda s: len(s) <= 3, lambda t, k: t.unsqueeze(k % (t.dim() + 1))),
    ("squeeze", lambda s: True, lambda t, k: t.squeeze()),
    ("flatten", lambda s: True, lambda t, k: t.flatten()),
    ("view_minus1", lambda s: True, lambda t, k: t.view(-1)),
    ("reshape", lambda s: True, lambda t, k: t.reshape(-1)),
    ("narrow", lambda s: len(s) >= 1 and s[0] >= 2, lambda t, k: t.narrow(0, k % 2, 1)),
    ("diagonal", lambda s: len(s) >= 2, lambda t, k: t.diagonal()),
    ("permute", lambda s: len(s) == 3, lambda t, k: t.permute(2, 0, 1)),
    ("movedim", lambda s: len(s) >= 2, lambda t, k: t.movedim(0, -1)),
    ("expand", lambda s: len(s) <= 3, lambda t, k: t.unsqueeze(0).expand(2, *t.shape)),
    ("unflatten", lambda s: len(s) >= 1 and s[0] % 2 == 0 and s[0] > 0,
     lambda t, k: t.unflatten(0, (2, -1))),
    ("detach", lambda s: True, lambda t, k: t.detach()),
    ("split", lambda s: len(s) >= 1 and s[0] >= 2, lambda t, k: t.split(1)[k % t.shape[0]]),
    ("as_strided", lambda s: len(s) >= 1 and s[0] >= 2,
     lambda t, k: t.as_strided((2,), (t.stride(0),), t.storage_offset())),
]


def _leaf(torch, shape, leaves, salt):
    w = torch.tensor(_fixed(tuple(shape), 0.5, 1.5, salt), requires_grad=True)
    leaves.append(w)
    return w


# In-place ops: fn(t, torch, leaves, salt)
INPLACE = [
    ("mul_scalar", lambda t, torch, L, s: t.mul_(1.5)),
    ("add_scalar", lambda t, torch, L, s: t.add_(0.25)),
    ("sub_", lambda t, torch, L, s: t.sub_(_leaf(torch, t.shape, L, s))),
    ("mul_leaf", lambda t, torch, L, s: t.mul_(_leaf(torch, t.shape, L, s))),
    ("add_leaf_alpha", lambda t, torch, L, s: t.add_(_leaf(torch, t.shape, L, s), alpha=0.5)),
    ("div_leaf", lambda t, torch, L, s: t.div_(_leaf(torch, t.shape, L, s))),
    ("neg_", lambda t, torch, L, s: t.neg_()),
    ("sin_", lambda t, torch, L, s: t.sin_()),
    ("tanh_", lambda t, torch, L, s: t.tanh_()),
    ("sigmoid_", lambda t, torch, L, s: t.sigmoid_()),
    ("clamp_", lambda t, torch, L, s: t.clamp_(-0.8, 0.9)),
    ("relu_", lambda t, torch, L, s: t.relu_()),
    ("zero_", lambda t, torch, L, s: t.zero_()),
    ("fill_", lambda t, torch, L, s: t.fill_(0.75)),
    ("copy_leaf", lambda t, torch, L, s: t.copy_(_leaf(torch, t.shape, L, s))),
    ("iadd_leaf", lambda t, torch, L, s: t.__iadd__(_leaf(torch, t.shape, L, s))),
    ("imul_scalar", lambda t, torch, L, s: t.__imul__(-1.25)),
    ("setitem_scalar", lambda t, torch, L, s: t.__setitem__(..., 0.5) if t.dim() == 0
     else t.__setitem__(s % t.shape[0], 2.0)),
    ("setitem_leaf", lambda t, torch, L, s: t.__setitem__(
        ..., _leaf(torch, t.shape, L, s)) if t.dim() == 0
     else t.__setitem__(s % t.shape[0], _leaf(torch, t.shape[1:], L, s))),
    ("masked_fill_", lambda t, torch, L, s: t.masked_fill_(
        torch.tensor((np.arange(t.numel()) % 2 == s % 2).reshape(tuple(t.shape))), -0.5)),
]

BASE_SHAPE = (4, 3, 2)

steps = st.lists(
    st.tuples(st.booleans(), st.integers(0, 10_000), st.integers(0, 10_000),
              st.integers(0, 10_000)),
    min_size=1, max_size=7)


def _program(torch, program):
    a = torch.tensor(_fixed(BASE_SHAPE, -1.0, 1.0), requires_grad=True)
    leaves = [a]
    base = a * 0.9 + 0.05
    pool = [base]
    log = []
    for is_view, which, op, k in program:
        t = pool[which % len(pool)]
        if is_view:
            candidates = [v for v in VIEWS if t.numel() > 0 and v[1](tuple(t.shape))]
            if not candidates:
                continue
            name, _, fn = candidates[op % len(candidates)]
            r = catch(fn, t, k)
            log.append((name, which % len(pool), r if not isinstance(r, torch.Tensor) else
                        (tuple(r.shape), r.stride(), r.storage_offset(), r._is_view())))
            if isinstance(r, torch.Tensor):
                pool.append(r)
        else:
            if t.numel() == 0:
                continue
            name, fn = INPLACE[op % len(INPLACE)]
            if name == "masked_fill_" and 0 in t.stride():
                # PyTorch deprecates masked_fill_ on expanded tensors (it warns), and its
                # gradient there is not a behaviour to copy; test_inplace_on_expanded_view
                # checks the values
                continue
            r = catch(fn, t, torch, leaves, k)
            log.append((name, which % len(pool), r is t if name[:7] != "setitem" else r))
    # Reading grad_fn rebases a stale view; a multi-output view whose base was modified
    # raises there (and in any op that uses it), as in PyTorch.
    state = [(t.detach().clone(), catch(lambda t=t: t.grad_fn), t._version, t.requires_grad)
             for t in pool]
    weights = [torch.tensor(_fixed(tuple(t.shape), -1.0, 2.0, i)) for i, t in enumerate(pool)]
    terms = [catch(lambda t=t, w=w: (t * w).sum()) for t, w, in zip(pool, weights)
             if t.requires_grad]
    log.append(("terms", [x for x in terms if not isinstance(x, torch.Tensor)]))
    terms = [x for x in terms if isinstance(x, torch.Tensor)]
    grads = None
    if terms:
        loss = terms[0]
        for term in terms[1:]:
            loss = loss + term
        grads = catch(torch.autograd.grad, loss, leaves, allow_unused=True)
    return log, state, grads


# derandomize: CI sees the same 200 programs every run (a red build must be reproducible);
# explore further with HYPOTHESIS_PROFILE-free local runs after removing it, or with
# ``python -m tests.fuzz``.
@settings(max_examples=200, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(program=steps)
def test_random_views_and_inplace_ops(program):
    compare(lambda torch: _program(torch, program), rtol=1e-4, atol=1e-5)
