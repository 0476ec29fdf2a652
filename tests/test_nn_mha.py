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


@pytest.mark.parametrize("statics", ["k", "v", "kv", "kv_zero_attn"])
def test_functional_static_k_and_v_match_torch(statics):
    """F.multi_head_attention_forward's static_k / static_v (bsz * heads, S, head_dim)
    replace the projected keys / values; values and gradients (float64) as PyTorch's."""
    E, H, L, S, N = 8, 2, 3, 4, 2

    def run(m):
        rng = np.random.default_rng(5)
        t = (lambda *s: m.tensor(rng.standard_normal(s), requires_grad=True))
        q, k, v = t(L, N, E), t(S, N, E), t(S, N, E)
        w, b, ow, ob = t(3 * E, E), t(3 * E), t(E, E), t(E)
        zero_attn = "zero" in statics
        s_len = S + 2 if zero_attn else S  # (any length when both are static)
        sk, sv = t(N * H, s_len, E // H), t(N * H, s_len, E // H)
        out, weights = m.nn.functional.multi_head_attention_forward(
            q, k, v, E, H, w, b, None, None, zero_attn, 0.0, ow, ob,
            static_k=sk if "k" in statics.split("_")[0] else None,
            static_v=sv if "v" in statics.split("_")[0] else None)
        leaves = [q, k, v, w, sk, sv]
        grads = m.autograd.grad((out * out).sum() + weights.sum(), leaves, allow_unused=True)
        return [out.detach().numpy(), weights.detach().numpy()] + \
            [None if g is None else g.numpy() for g in grads]

    for a, t_ in zip(run(autotensor), run(torch), strict=True):
        assert (a is None) == (t_ is None)
        if a is not None:
            np.testing.assert_allclose(a, t_, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("case", ["rows", "head_dim", "bias_k"])
def test_functional_static_k_errors_like_torch(case):
    def run(m):
        rng = np.random.default_rng(5)
        t = (lambda *s: m.tensor(rng.standard_normal(s)))
        q = t(3, 2, 8)
        static = {"rows": t(3, 4, 4), "head_dim": t(4, 4, 3), "bias_k": t(4, 4, 4)}[case]
        bias = (t(1, 1, 8), t(1, 1, 8)) if case == "bias_k" else (None, None)
        with pytest.raises(AssertionError) as info:
            m.nn.functional.multi_head_attention_forward(
                q, q, q, 8, 2, t(24, 8), t(24), *bias, False, 0.0, t(8, 8), t(8),
                static_k=static)
        return str(info.value)

    assert run(autotensor) == run(torch)
