"""Bit-for-bit sweep of reductions against PyTorch (stop 35, helper red35): every op below on
small tensors (1..70 elements per reduced row; rows, columns, several dims, all dims,
transposed and sliced layouts), float32 and float64 (float16/bfloat16 where asked), values
and, where the backward reduces, gradients. Prints, per op and dtype, how many output
elements differ in any bit (NaNs equal).

    PYTHONPATH=. python -m tests.reduction_sweep [--ops var,std] [--dtypes float64] [--grad]
"""
import argparse
import sys

import numpy as np

import autotensor
import torch

SIZES = (1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 20, 31, 32, 33, 47, 64, 70)


def layouts(sizes=SIZES):
    """(shape, view, dims)."""
    same = lambda x: x  # noqa: E731
    for n in sizes:
        yield (5, n), same, (-1,)
        yield (n, 6), same, (0,)
        yield (3, n, 4), same, (1,)
        yield (3, 2, n), same, (1, 2)
        yield (2, n, 3), same, (0, 2)
        yield (n, 5), lambda x: x.T, (1,)
        yield (4, 2 * n), lambda x: x[:, ::2], (-1,)
        yield (2, n), same, None


def _d(dims):
    return -1 if dims is None else dims[0]


F = None  # the module's nn.functional, set per call


def _ops():
    ops = {}

    def op(name, grad=True, two=False, pos=False):
        def deco(fn):
            ops[name] = (fn, grad, two, pos)
            return fn
        return deco

    op("var")(lambda M, x, y, d: M.var(x, dim=d))
    op("var_c0")(lambda M, x, y, d: M.var(x, dim=d, correction=0))
    op("std")(lambda M, x, y, d: M.std(x, dim=d))
    op("std_c0")(lambda M, x, y, d: M.std(x, dim=d, correction=0))
    op("var_mean")(lambda M, x, y, d: M.var_mean(x, dim=d))
    op("std_mean")(lambda M, x, y, d: M.std_mean(x, dim=d))
    for p in (1, 3, 0.5, float("inf"), float("-inf")):
        op(f"norm_{p}")(lambda M, x, y, d, p=p: M.linalg.vector_norm(x, ord=p, dim=d))
    for p in (1, 2, 3):
        op(f"dist_{p}", two=True)(lambda M, x, y, d, p=p: M.dist(x, y, p=p))
    op("logsumexp")(lambda M, x, y, d: M.logsumexp(x, dim=d if d is not None else (0, 1)))
    op("softmax")(lambda M, x, y, d: M.softmax(x, dim=_d(d)))
    op("log_softmax")(lambda M, x, y, d: M.log_softmax(x, dim=_d(d)))
    op("cumsum")(lambda M, x, y, d: M.cumsum(x, dim=_d(d)))
    op("cumprod")(lambda M, x, y, d: M.cumprod(x, dim=_d(d)))
    op("prod")(lambda M, x, y, d: M.prod(x, dim=_d(d)) if d is not None else M.prod(x))
    op("nansum", grad=False)(lambda M, x, y, d: M.nansum(x, dim=d))
    op("nanmean", grad=False)(lambda M, x, y, d: M.nanmean(x, dim=d))
    op("mean")(lambda M, x, y, d: M.mean(x, dim=d))
    op("sum")(lambda M, x, y, d: M.sum(x, dim=d))
    op("sum_f64", grad=False)(lambda M, x, y, d: M.sum(x, dim=d, dtype=M.float64))
    op("fro")(lambda M, x, y, d: M.linalg.matrix_norm(x, "fro", dim=(-2, -1)))
    op("trace")(lambda M, x, y, d: M.trace(x[..., 0, :, :] if x.dim() == 3 else x))
    op("einsum_ij_i")(lambda M, x, y, d: M.einsum("...j->...", x))
    op("einsum_dot", two=True)(lambda M, x, y, d: M.einsum("...j,...j->...", x, y))
    for p in (1, 3):
        op(f"normalize_{p}")(lambda M, x, y, d, p=p: M.nn.functional.normalize(
            x, p=p, dim=_d(d)))
    op("cosine", two=True)(lambda M, x, y, d: M.nn.functional.cosine_similarity(
        x, y, dim=_d(d)))
    for p in (1, 2, 3):
        op(f"pairwise_{p}", two=True)(lambda M, x, y, d, p=p: M.nn.functional.pairwise_distance(
            x, y, p=p))
    for p in (1, 2, 3):
        op(f"cdist_{p}", two=True)(lambda M, x, y, d, p=p: M.cdist(x, y[..., :3, :], p=p)
                                   if x.dim() == 3 else M.cdist(x, y[:3], p=p))
        op(f"pdist_{p}")(lambda M, x, y, d, p=p: M.nn.functional.pdist(x, p=p)
                         if x.dim() == 2 else M.nn.functional.pdist(x[0], p=p))
    for red in ("mean", "sum"):
        op(f"mse_{red}", two=True)(lambda M, x, y, d, r=red: M.nn.functional.mse_loss(
            x, y, reduction=r))
        op(f"l1_{red}", two=True)(lambda M, x, y, d, r=red: M.nn.functional.l1_loss(
            x, y, reduction=r))
        op(f"smoothl1_{red}", two=True)(lambda M, x, y, d, r=red:
                                        M.nn.functional.smooth_l1_loss(x, y, reduction=r))
        op(f"huber_{red}", two=True)(lambda M, x, y, d, r=red: M.nn.functional.huber_loss(
            x, y, reduction=r, delta=0.7))
        op(f"kldiv_{red}", two=True)(lambda M, x, y, d, r=red: M.nn.functional.kl_div(
            x, y.abs(), reduction=r))
    op("dot", two=True)(lambda M, x, y, d: M.dot(x.reshape(-1), y.reshape(-1)))
    op("vdot", two=True)(lambda M, x, y, d: M.vdot(x.reshape(-1), y.reshape(-1)))
    op("mv", two=True)(lambda M, x, y, d: M.mv(x.reshape(-1, x.shape[-1]), y.reshape(-1)[
        :x.shape[-1]]))
    op("addmv", two=True)(lambda M, x, y, d: M.addmv(
        y.reshape(-1)[:x.reshape(-1, x.shape[-1]).shape[0]], x.reshape(-1, x.shape[-1]),
        y.reshape(-1)[:x.shape[-1]], beta=0.5, alpha=1.5))
    op("mm", two=True)(lambda M, x, y, d: M.mm(x.reshape(-1, x.shape[-1]),
                                              y.reshape(-1, x.shape[-1]).T))
    op("bmm", two=True)(lambda M, x, y, d: M.bmm(x, y.transpose(-1, -2))
                        if x.dim() == 3 else M.bmm(x[None], y.T[None]))
    op("bcast_add_grad", two=True)(lambda M, x, y, d: x + y.reshape(-1)[:x.shape[-1]])
    op("bcast_mul_grad", two=True)(lambda M, x, y, d: x * y.reshape(-1)[:x.shape[-1]])
    return ops


def _bits(a):
    a = np.asarray(a)
    if a.dtype.kind == "c":
        return np.stack([_bits(a.real), _bits(a.imag)])
    a = a.astype(np.float64)
    out = a.view(np.int64).copy()
    out[np.isnan(a)] = 0x7ff8000000000000
    return out


def _out(M, fn, x, y, d, grad, rng_seed):
    xs = [x, y]
    for t in xs:
        if grad:
            t.requires_grad_(True)
    try:
        out = fn(M, x, y, d)
    except Exception as e:  # noqa: BLE001
        return ("error", type(e).__name__)
    outs = out if isinstance(out, tuple) else (out,)
    res = [o.detach().double().numpy() if o.dtype.is_floating_point else o.numpy()
           for o in outs]
    nval = len(res)
    if grad:
        g = np.random.default_rng(rng_seed).standard_normal(outs[0].shape)
        gm = M.from_numpy(g).to(outs[0].dtype)
        if outs[0].requires_grad:
            try:
                outs[0].backward(gm)
            except Exception as e:  # noqa: BLE001
                return ("error-bwd", type(e).__name__)
            for t in xs:
                if t.grad is not None:
                    res.append(t.grad.double().numpy())
    return res + [nval]


def sweep(names=None, dtypes=("float64", "float32"), grad=False, sizes=SIZES, seed=0,
          verbose=False):
    """{(op, dtype, 'val'|'grad'): (differing elements, total)}: with one PyTorch thread
    (restored after: other tests depend on the default)."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _sweep(names, dtypes, grad, sizes, seed, verbose)
    finally:
        torch.set_num_threads(threads)


def _sweep(names, dtypes, grad, sizes, seed, verbose):
    ops = _ops()
    counts = {}
    for name, (fn, has_grad, _two, _pos) in ops.items():
        if names and name not in names:
            continue
        for dtype in dtypes:
            rng = np.random.default_rng(seed)
            for k, (shape, view, dims) in enumerate(layouts(sizes)):
                xn = rng.standard_normal(shape)
                yn = rng.standard_normal(shape)
                if name == "cumprod" or name == "prod":
                    xn = 1 + 0.1 * xn
                if name.startswith("nan"):
                    xn[rng.random(shape) < 0.2] = np.nan
                pair = []
                for M in (torch, autotensor):
                    x = view(M.from_numpy(xn.copy()).to(getattr(M, dtype)))
                    y = view(M.from_numpy(yn.copy()).to(getattr(M, dtype)))
                    pair.append(_out(M, fn, x, y, dims, grad and has_grad, k))
                want, got = pair
                if isinstance(want, tuple) or isinstance(got, tuple):
                    if want != got and verbose:
                        print("  error", name, dtype, shape, dims, want, got)
                    continue
                nval = want.pop()
                got.pop()
                for i, (w, g) in enumerate(zip(want, got)):
                    kind = "val" if i < nval else "grad"
                    c = counts.setdefault((name, dtype, kind), [0, 0])
                    if w.shape != g.shape:
                        c[0] += w.size
                        c[1] += w.size
                        continue
                    diff = int((_bits(w) != _bits(g)).sum())
                    c[0] += diff
                    c[1] += w.size
                    if diff and verbose:
                        print("  ", name, dtype, kind, shape, dims, diff, "/", w.size)
    return counts


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", default="")
    ap.add_argument("--dtypes", default="float64,float32")
    ap.add_argument("--grad", action="store_true")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args(argv)
    names = set(args.ops.split(",")) - {""}
    counts = sweep(names, args.dtypes.split(","), args.grad, verbose=args.v)
    for (name, dtype, kind), (d, t) in sorted(counts.items()):
        if d or args.v:
            print(f"{name:16s} {dtype:9s} {kind:4s} {d:6d} / {t}")
    print("clean:", sorted({n for (n, _, _), (d, _) in counts.items() if d == 0}
                           - {n for (n, _, _), (d, _) in counts.items() if d}))


if __name__ == "__main__":
    sys.exit(main())
