"""Engines, machine facts, interleaved timing, gradient checks and the printed report."""
import ctypes
import datetime
import gc
import math
import os
import platform
import statistics
import subprocess
import time

import numpy as np

# The engines every workload runs, in report order; workloads may add baselines ("gemm").
ENGINES = ("autotensor", "torch", "numpy")


class Env:
    """The engines available in this process and the machine facts RESULTS.md records.

    threads: None leaves NumPy's BLAS at its default and gives torch the same count; N sets
    both to N (BLAS through threadpoolctl when installed, else through OpenBLAS's own
    ``openblas_set_num_threads``, found with ctypes as threadpoolctl would).
    """

    def __init__(self, threads=None):
        import autotensor
        self.modules = {"autotensor": autotensor}
        self.notes = []
        self.torch_error = None
        try:
            import torch
        except Exception as e:  # torch is optional
            torch = None
            self.torch_error = f"{type(e).__name__}: {e}"
        if threads is not None:
            how = _set_blas_threads(threads)
            self.notes.append(f"--threads {threads}: NumPy's BLAS set through {how}")
        self.blas_threads, self.thread_source = _blas_threads()
        if torch is not None:
            self.modules["torch"] = torch
            if self.thread_source.startswith("unknown"):
                self.notes.append("NumPy's BLAS thread count is unknown (no threadpoolctl, "
                                  "not OpenBLAS): torch left at its default thread count")
            else:
                torch.set_num_threads(self.blas_threads)
                self.notes.append(f"torch.set_num_threads({self.blas_threads}): the BLAS "
                                  f"thread count NumPy uses (read via {self.thread_source})")
        else:
            self.notes.append(f"torch not importable ({self.torch_error}): skipped")
        load = os.getloadavg()[0]
        cores = len(os.sched_getaffinity(0))
        self.load = f"{load:.1f} (1-min load average) on {cores} usable cores"
        if load > cores * 0.75:
            self.notes.append(f"machine busy at start: load average {load:.1f} on {cores} "
                              "cores; multi-threaded BLAS suffers most (try --threads 1)")

    @property
    def torch_threads(self):
        t = self.modules.get("torch")
        return t.get_num_threads() if t is not None else None

    def facts(self):
        import autotensor
        blas = _blas_name()
        facts = {
            "date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
            "machine": f"{platform.machine()} {_cpu_model()}, os.cpu_count()={os.cpu_count()}, "
                       f"usable cores={len(os.sched_getaffinity(0))}",
            "load": self.load,
            "python": platform.python_version(),
            "numpy": f"{np.__version__}, BLAS {blas}, BLAS threads {self.blas_threads} "
                     f"(read via {self.thread_source})",
            "torch": (f"{self.modules['torch'].__version__}, "
                      f"get_num_threads()={self.torch_threads}"
                      if "torch" in self.modules else f"not available ({self.torch_error})"),
            "autotensor": f"{getattr(autotensor, '__version__', '?')} at git {_git_commit()}",
        }
        return facts


def _blas_threads():
    """NumPy's BLAS thread count: threadpoolctl if installed, else OpenBLAS via ctypes."""
    try:
        import threadpoolctl
    except ImportError:
        threadpoolctl = None
    if threadpoolctl is not None:
        info = threadpoolctl.threadpool_info()
        blas = [i for i in info if i.get("user_api") == "blas"]
        if blas:
            return blas[0]["num_threads"], "threadpoolctl"
    try:  # read-only probe of the OpenBLAS NumPy loaded (what threadpoolctl does)
        for lib in _openblas():
            for name in ("scipy_openblas_get_num_threads64_", "openblas_get_num_threads64_",
                         "openblas_get_num_threads", "scipy_openblas_get_num_threads"):
                fn = getattr(lib, name, None)
                if fn is not None:
                    return int(fn()), f"ctypes {name}"
    except OSError:
        pass
    return os.cpu_count(), "unknown: assumed os.cpu_count()"


def _openblas():
    with open("/proc/self/maps") as f:
        paths = sorted({ln.split()[-1] for ln in f if "openblas" in ln.lower() and ".so" in ln})
    return [ctypes.CDLL(p) for p in paths]


def _set_blas_threads(n):
    try:
        import threadpoolctl
    except ImportError:
        threadpoolctl = None
    if threadpoolctl is not None:
        threadpoolctl.threadpool_limits(n, user_api="blas")
        return "threadpoolctl"
    for lib in _openblas():
        for name in ("scipy_openblas_set_num_threads64_", "openblas_set_num_threads64_",
                     "openblas_set_num_threads", "scipy_openblas_set_num_threads"):
            fn = getattr(lib, name, None)
            if fn is not None:
                fn(int(n))
                return f"ctypes {name}"
    raise RuntimeError("--threads needs threadpoolctl or an OpenBLAS-backed NumPy")


def _blas_name():
    try:
        cfg = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        return f"{cfg.get('name')} {cfg.get('version')}"
    except Exception:
        return "unknown (see numpy.show_config())"


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for ln in f:
                if ln.startswith("model name"):
                    return ln.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _git_commit():
    try:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root,
                              capture_output=True, text=True, timeout=5).stdout.strip() or "?"
    except Exception:
        return "?"


class Bench:
    """One timed case: a factory per engine building fresh state and returning a runner.

    A runner is ``(step, grads)`` or ``(step, grads, reset)``: ``step()`` is the timed call;
    ``grads()`` (or None for a baseline like the raw GEMMs) returns the gradients of the
    first step as NumPy arrays, in the same order on every engine; ``reset()``, untimed,
    restores the initial state before each sample (training steps: every engine times the
    same trajectory, never a converged or saturated model). ``per``: divide the time by
    this many ops and report microseconds per op; otherwise milliseconds per step.
    ``target``: (engine, max ratio) from issue 4.
    """

    def __init__(self, workload, case, factories, per=None, tol=1e-4, target=None,
                 min_sample=0.1):
        self.workload, self.case = workload, case
        self.factories, self.per, self.tol = factories, per, tol
        self.target, self.min_sample = target, min_sample


class Result:
    def __init__(self, bench):
        self.bench = bench
        self.medians = {}  # engine -> seconds per step
        self.errors = {}  # engine -> message
        self.check = None  # printed gradient-check line
        self.check_ok = True

    def value(self, engine):
        s = self.medians[engine]
        return s / self.bench.per * 1e6 if self.bench.per else s * 1e3

    @property
    def unit(self):
        return "us/op" if self.bench.per else "ms/step"

    def ratios(self):
        if "autotensor" not in self.medians:
            return {}
        a = self.medians["autotensor"]
        return {e: a / s for e, s in self.medians.items() if e != "autotensor" and s > 0}


def _rel_err(a, ref):
    a = np.asarray(a, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    if a.shape != ref.shape:
        return math.inf
    scale = max(float(np.max(np.abs(ref))) if ref.size else 0.0, 1e-30)
    return float(np.max(np.abs(a - ref))) / scale if ref.size else 0.0


def check_grads(result, runners):
    """Compare every engine's gradients with the NumPy floor's (else the first engine's)."""
    grads = {}
    for e, (_, g, *_) in runners.items():
        if g is not None:
            grads[e] = [np.zeros(0) if x is None else np.asarray(x) for x in g()]
    if len(grads) < 2:
        result.check = "gradients: only one engine, nothing to compare"
        return
    ref_name = "numpy" if "numpy" in grads else next(iter(grads))
    ref = grads[ref_name]
    worst, bad = 0.0, []
    for e, g in grads.items():
        if e == ref_name:
            continue
        if len(g) != len(ref):
            bad.append(f"{e}: {len(g)} gradients, {ref_name} has {len(ref)}")
            continue
        for i, (x, r) in enumerate(zip(g, ref, strict=True)):
            err = _rel_err(x, r)
            worst = max(worst, err)
            if not err <= result.bench.tol:
                bad.append(f"{e} gradient #{i} {tuple(np.shape(x))}: max err {err:.2e} of "
                           f"max|grad| vs {ref_name} (tol {result.bench.tol:g})")
    names = ", ".join(grads)
    if bad:
        result.check_ok = False
        result.check = "gradients DIFFER: " + "; ".join(bad)
    else:
        result.check = (f"gradients agree: {names} ({sum(len(g) for g in grads.values())} "
                        f"arrays, max err {worst:.1e} of max|grad|, tol {result.bench.tol:g})")


def run_bench(bench, repeats, engines):
    """Build, check, calibrate, then time the engines round-robin; medians per engine."""
    result = Result(bench)
    runners = {}
    for e, factory in bench.factories.items():
        if e not in engines:
            continue
        try:
            runner = factory()
            runner[0]()  # first step: the gradients to check, and a warm-up
            runners[e] = runner
        except Exception as exc:  # report and go on with the other engines
            result.errors[e] = f"{type(exc).__name__}: {exc}"
    try:
        check_grads(result, runners)
    except Exception as exc:
        result.check_ok = False
        result.check = f"gradient check failed: {type(exc).__name__}: {exc}"
    inner = {}
    for e, (step, *_) in runners.items():
        if bench.min_sample <= 0:  # one step per sample: no calibration run
            inner[e] = 1
            continue
        gc.collect()
        t0 = time.perf_counter()
        step()
        dt = time.perf_counter() - t0
        inner[e] = max(1, min(10000, math.ceil(bench.min_sample / max(dt, 1e-9))))
    samples = {e: [] for e in runners}
    order = list(runners)
    for r in range(repeats):
        k = r % len(order) if order else 0
        for e in order[k:] + order[:k]:  # rotate who goes first
            step, n = runners[e][0], inner[e]
            if len(runners[e]) > 2:
                runners[e][2]()
            gc.collect()
            try:
                t0 = time.perf_counter()
                for _ in range(n):
                    step()
                samples[e].append((time.perf_counter() - t0) / n)
            except Exception as exc:
                result.errors[e] = f"{type(exc).__name__}: {exc}"
                order.remove(e)
                break
    for e, s in samples.items():
        if s and e not in result.errors:
            result.medians[e] = statistics.median(s)
    return result


def fmt_value(v):
    return f"{v:.3g}" if v < 100 else f"{v:.0f}"


def print_result(res, out):
    b = res.bench
    out(f"  [{b.workload}] {b.case}")
    out(f"      {res.check}")
    if res.medians:
        cells = [f"{e} {fmt_value(res.value(e))} {res.unit}" for e in res.medians]
        out("      " + " | ".join(cells))
        ratios = res.ratios()
        if ratios:
            line = "   ".join(f"autotensor/{e} {r:.2f}" for e, r in ratios.items())
            if b.target:
                te, tr = b.target
                if te in ratios:
                    ok = "met" if ratios[te] <= tr else "MISSED"
                    line += f"   (target autotensor/{te} <= {tr:g}: {ok})"
            out("      ratio " + line)
    for e, msg in res.errors.items():
        out(f"      {e}: ERROR {msg}")
