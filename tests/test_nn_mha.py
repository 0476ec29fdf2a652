"""MultiheadAttention against torch: same weights after the same seed, outputs, attention
weights and gradients (self/cross attention, masks, batch_first, unbatched, kdim/vdim)."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

CASES = [
    ("self", dict(), "self", {}),
    ("cross-kv-dims", dict(kdim=3, vdim=5), "cross", {}),
    ("batch_first", dict(batch_first=True), "self", {}),
    ("masks", dict(), "self", {"key_padding_mask": True, "attn_mask": True}),
    ("float-mask-per-head", dict(), "cross", {"attn_mask": "float3d",
                                              "average_attn_weights": False}),
    ("unbatched", dict(), "unbatched", {}),
    ("nobias", dict(bias=False), "self", {}),
]


def _run(m, ctor_kw, kind, call_kw):
    rng = np.random.default_rng(2)
    m.manual_seed(0)
    mha = m.nn.MultiheadAttention(8, 2, **ctor_kw)
    L, S, N = 4, 5, 3
    if kind == "unbatched":
        q = m.tensor(rng.standard_normal((L, 8)).astype(np.float32), requires_grad=True)
        k = v = q
    else:
        shape = (N, L, 8) if ctor_kw.get("batch_first") else (L, N, 8)
        q = m.tensor(rng.standard_normal(shape).astype(np.float32), requires_grad=True)
        if kind == "self":
            k = v = q
        else:
            k = m.tensor(rng.standard_normal((S, N, ctor_kw.get("kdim", 8)))
                         .astype(np.float32), requires_grad=True)
            v = m.tensor(rng.standard_normal((S, N, ctor_kw.get("vdim", 8)))
                         .astype(np.float32), requires_grad=True)
    kw = dict(call_kw)
    src = k.shape[0] if kind != "self" else L
    if kw.get("key_padding_mask"):
        kpm = np.zeros((N, src), dtype=bool)
        kpm[0, -1] = kpm[2, 0] = True
        kw["key_padding_mask"] = m.tensor(kpm)
    if kw.get("attn_mask") is True:
        kw["attn_mask"] = m.tensor(np.triu(np.ones((L, src), dtype=bool), 1))
    elif kw.get("attn_mask") == "float3d":
        kw["attn_mask"] = m.tensor(rng.standard_normal((N * 2, L, src)).astype(np.float32))
    out, w = mha(q, k, v, **kw)
    (out.sum() + (w * w).sum()).backward()
    grads = [p.grad.numpy() for p in mha.parameters()] + [q.grad.numpy()]
    return mha, out.detach().numpy(), w.detach().numpy(), grads


@pytest.mark.parametrize("name,ctor_kw,kind,call_kw", CASES, ids=[c[0] for c in CASES])
def test_mha_matches_torch(name, ctor_kw, kind, call_kw):
    a, b = _run(autotensor, ctor_kw, kind, call_kw), _run(torch, ctor_kw, kind, call_kw)
    assert repr(a[0]) == repr(b[0])
    sa, sb = a[0].state_dict(), b[0].state_dict()
    assert list(sa) == list(sb)
    for key in sb:
        np.testing.assert_array_equal(sa[key].numpy(), sb[key].numpy(), err_msg=key)
    np.testing.assert_allclose(a[1], b[1], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(a[2], b[2], rtol=1e-5, atol=1e-6)
    for ga, gb in zip(a[3], b[3]):
        np.testing.assert_allclose(ga, gb, rtol=1e-4, atol=1e-5)
