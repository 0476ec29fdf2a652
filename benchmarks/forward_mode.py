"""Forward mode (issue 9): per-op overhead of dual tensors, and Hessian-vector products.

    python -m benchmarks.forward_mode [--quick] [--repeat 5] [--sizes 100,1000,10000]

Each (engine, case) runs in a fresh subprocess (one BLAS/OpenMP thread), so that no engine
sees another's heap or thread pool; times are each process's CPU time (time.process_time,
median of ``--repeat`` samples), which on the shared 2-core machine is steadier than wall
time (Note [Fair timing] in harness.py).

1. Overhead per op: workload 1's elementwise chain (16 x float32, sin, * w, + b, tanh, exp,
   cos, * 0.9, + 0.1) with one dual input (x has a tangent; w and b do not), for autotensor
   and torch, next to the same chain on plain tensors (no level open, nothing requiring
   grad). Target: autotensor's dual chain at most torch's time.
2. HVP of an MLP loss, n parameters in one flat float64 vector theta (a 10-h-1 tanh MLP,
   batch 32, mean squared error; h chosen so that n ~ 1e2, 1e3, 1e4):
   - fwd-over-rev: ``autograd.grad(loss, theta, create_graph=True)`` on the dual theta
     (tangent v): H v is the gradient's tangent. O(n) time and memory.
   - functional.hvp: ``autograd.functional.hvp(loss, theta, v)`` (the double-backward
     trick, reverse-over-reverse), both engines.
   - hessian: ``autograd.functional.hessian(loss, theta) @ v``, O(n^2) memory and n
     backward passes: skipped where the Hessian would exceed 2 GB or the estimated time
     (n x one functional.hvp) 60 s.
   Memory: peak RSS above the RSS before the measured call (VmHWM after resetting it via
   /proc/self/clear_refs, MALLOC_MMAP_THRESHOLD_=65536 so freed buffers leave the
   process); for autotensor also tracemalloc's peak (NumPy reports its buffers to it;
   torch's are invisible to it). The H v of every method and engine is checked against
   torch's functional.hvp.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

import numpy as np

MB = 1024 * 1024
ENGINES = ("autotensor", "torch")
CHAIN_MODES = ("dual", "plain")
HVP_METHODS = ("fwd-over-rev", "functional.hvp", "hessian")
HESSIAN_MAX_BYTES = 2 * 1024 ** 3
HESSIAN_MAX_SECONDS = 60.0
IN, BATCH = 10, 32


def _status_kb(field):
    try:
        with open("/proc/self/status") as f:
            m = re.search(rf"^{field}:\s+(\d+) kB", f.read(), re.M)
    except OSError:
        return None
    return int(m.group(1)) if m else None


def _reset_hwm():
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def _median_cpu(fn, repeat, min_sample=0.05):
    """Median CPU seconds of one call (each sample repeats fn for >= min_sample s)."""
    fn()
    t0 = time.process_time()
    fn()
    one = max(time.process_time() - t0, 1e-7)
    k = max(1, int(min_sample / one))
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        for _ in range(k):
            fn()
        times.append((time.process_time() - t0) / k)
    times.sort()
    return times[len(times) // 2]


# ---- case 1: the elementwise chain ---------------------------------------------------
def chain_worker(torch, mode, n_ops, repeat):
    from .workloads import _chain_T, _data
    cycles = max(1, n_ops // 8)
    x, w, b = (torch.tensor(a) for a in (_data(1, 16), _data(2, 16, scale=0.5),
                                         _data(3, 16, scale=0.5)))
    v = torch.tensor(_data(4, 16))
    fw = torch.autograd.forward_ad
    if mode == "dual":  # one level for the whole run: the time is the ops' alone
        fw.enter_dual_level()
        xd = fw.make_dual(x, v)

        def step():
            return fw.unpack_dual(_chain_T(torch, xd, w, b, cycles)).tangent
    else:
        def step():
            return _chain_T(torch, x, w, b, cycles)
    out = step()
    sec = _median_cpu(step, repeat)
    if mode == "dual":
        fw.exit_dual_level()
    return {"us_per_op": sec / (cycles * 8) * 1e6, "check": out.numpy()[:4].tolist()}


# ---- case 2: HVP of an MLP loss ------------------------------------------------------
def hidden_for(n):
    """h of the 10-h-1 MLP with the parameter count closest to n (12 h + 1)."""
    return max(1, round((n - 1) / (IN + 2)))


def mlp_problem(torch, n_target):
    h = hidden_for(n_target)
    n = IN * h + h + h + 1
    rng = np.random.default_rng(n)
    theta = torch.tensor(rng.standard_normal(n) / np.sqrt(IN))
    v = torch.tensor(rng.standard_normal(n))
    X = torch.tensor(rng.standard_normal((BATCH, IN)))
    Y = torch.tensor(rng.standard_normal((BATCH, 1)))
    s1, s2, s3 = IN * h, IN * h + h, IN * h + 2 * h

    def loss(p):
        w1, b1 = p[:s1].view(h, IN), p[s1:s2]
        w2, b2 = p[s2:s3].view(1, h), p[s3:]
        out = torch.tanh(X @ w1.t() + b1) @ w2.t() + b2
        return ((out - Y) ** 2).mean()

    return n, theta, v, loss


def hvp_worker(torch, method, n_target, repeat):
    import tracemalloc
    n, theta, v, loss = mlp_problem(torch, n_target)
    fw = torch.autograd.forward_ad
    F = torch.autograd.functional
    if method == "fwd-over-rev":
        def call():
            p = theta.detach().requires_grad_()
            with fw.dual_level():
                d = fw.make_dual(p, v)
                g, = torch.autograd.grad(loss(d), d, create_graph=True)
                return fw.unpack_dual(g).tangent.detach()
    elif method == "functional.hvp":
        def call():
            return F.hvp(loss, theta, v)[1]
    else:
        if n * n * 8 > HESSIAN_MAX_BYTES:
            return {"n": n, "skipped": f"Hessian {n * n * 8 / MB:.0f} MB > 2 GB"}
        t_hvp = _median_cpu(lambda: F.hvp(loss, theta, v), 1, min_sample=0)
        if t_hvp * n > HESSIAN_MAX_SECONDS:
            return {"n": n, "skipped": f"estimated {t_hvp * n:.0f} s > 60 s"}

        def call():
            return F.hessian(loss, theta) @ v
    call()  # warm up
    rss0 = _status_kb("VmRSS")
    hwm_ok = _reset_hwm() and rss0 is not None
    traced = None
    if torch.__name__ == "autotensor":
        tracemalloc.start()
    out = call()
    if torch.__name__ == "autotensor":
        traced = tracemalloc.get_traced_memory()[1] / MB
        tracemalloc.stop()
    peak = (_status_kb("VmHWM") - rss0) / 1024 if hwm_ok else None
    sec = _median_cpu(call, repeat, min_sample=0 if method == "hessian" else 0.05)
    return {"n": n, "ms": sec * 1e3, "peak_rss_mb": peak, "traced_mb": traced,
            "hv": out.numpy().tolist()}


def worker(engine, case, arg, repeat):
    import importlib
    torch = importlib.import_module(engine)
    if engine == "torch":
        torch.set_num_threads(1)
    if case == "chain":
        return {m: chain_worker(torch, m, int(arg), repeat) for m in CHAIN_MODES}
    return hvp_worker(torch, case, int(arg), repeat)


# ---- the parent ----------------------------------------------------------------------
def _spawn(engine, case, arg, repeat):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="65536", OMP_NUM_THREADS="1",
               MKL_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    p = subprocess.run([sys.executable, "-m", "benchmarks.forward_mode", "--worker", engine,
                        case, str(arg), "--repeat", str(repeat)],
                       capture_output=True, text=True, env=env, cwd=root)
    if p.returncode:
        return {"error": (p.stderr.strip().splitlines() or ["no message"])[-1][-200:]}
    return json.loads(p.stdout.strip().splitlines()[-1])


def _f(v, fmt="{:.3g}"):
    return "-" if v is None else fmt.format(v)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="tiny sizes, 2 repeats (CI smoke)")
    p.add_argument("--repeat", type=int, default=None)
    p.add_argument("--chain-ops", type=int, default=None)
    p.add_argument("--sizes", default=None, help="HVP parameter counts, e.g. 100,1000,10000")
    p.add_argument("--engines", default=",".join(ENGINES))
    p.add_argument("--worker", nargs=3, metavar=("ENGINE", "CASE", "ARG"))
    args = p.parse_args(argv)
    repeat = args.repeat or (2 if args.quick else 5)
    if args.worker:
        print(json.dumps(worker(*args.worker, repeat)))
        return 0
    chain_ops = args.chain_ops or (16 if args.quick else 200)
    sizes = [int(s) for s in (args.sizes or ("30" if args.quick else
                                             "100,1000,10000")).split(",")]
    engines = [e for e in args.engines.split(",") if e]
    failed = False

    print(f"## 1. forward-mode overhead: {chain_ops // 8 * 8}-op elementwise chain, "
          f"16 x float32, one dual input (CPU time, median of {repeat})\n")
    print("| engine | dual (us/op) | plain (us/op) | dual / plain |")
    print("|---|---|---|---|")
    chain = {}
    for e in engines:
        r = _spawn(e, "chain", chain_ops, repeat)
        if "error" in r:
            failed = True
            print(f"| {e} | failed: {r['error']} | | |")
            continue
        chain[e] = r
        d, pl = r["dual"]["us_per_op"], r["plain"]["us_per_op"]
        print(f"| {e} | {d:.2f} | {pl:.2f} | {d / pl:.2f} |", flush=True)
    if all(e in chain for e in ENGINES):
        ratio = chain["autotensor"]["dual"]["us_per_op"] / chain["torch"]["dual"]["us_per_op"]
        a, b = (np.asarray(chain[e]["dual"]["check"]) for e in ENGINES)
        diff = np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-300)
        print(f"\nautotensor dual / torch dual: {ratio:.2f} (target <= 1: "
              f"{'met' if ratio <= 1 else 'missed'}); tangents agree to {diff:.1e} "
              "(relative)")

    print(f"\n## 2. Hessian-vector product of a 10-h-1 tanh MLP loss (batch {BATCH}, "
          f"float64), n parameters (CPU time, median of {repeat})\n")
    print("| n | engine | method | time (ms) | peak RSS above start (MB) | "
          "tracemalloc peak (MB) | max rel. error vs torch functional.hvp |")
    print("|---|---|---|---|---|---|---|")
    for n in sizes:
        res = {(e, m): _spawn(e, m, n, repeat) for e in engines for m in HVP_METHODS}
        ref = res.get(("torch", "functional.hvp"), {}).get("hv")
        for (e, m), r in res.items():
            if "error" in r:
                failed = True
                print(f"| {n} | {e} | {m} | failed: {r['error']} | | | |")
                continue
            if "skipped" in r:
                print(f"| {r['n']} | {e} | {m} | skipped: {r['skipped']} | | | |")
                continue
            err = None
            if ref is not None:
                a, b = np.asarray(r["hv"]), np.asarray(ref)
                err = float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-300))
            print(f"| {r['n']} | {e} | {m} | {r['ms']:.3g} | {_f(r['peak_rss_mb'])} | "
                  f"{_f(r['traced_mb'])} | {_f(err, '{:.1e}')} |", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
