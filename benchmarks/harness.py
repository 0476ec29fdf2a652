"""Engines in separate processes, machine facts, round-robin timing, gradient checks, report.

Note [Fair timing]: every engine runs a workload in its own fresh interpreter
(``benchmarks/worker.py``) that imports only that engine, with the same thread settings
(``OMP_NUM_THREADS``/``OPENBLAS_NUM_THREADS``/``MKL_NUM_THREADS`` and the libraries' own
setters, read back and reported). The workers of a workload are started together and the
parent asks them for one sample at a time, rotating who goes first each repeat, so a burst
of load from elsewhere on the machine lands on neighbouring samples of every engine.
Times are medians of the samples; a ratio is the median of the per-repeat ratios of
neighbouring (paired) samples, with their quartiles as the spread.

Two clocks: ``wall`` (perf_counter) is what a user waits; ``cpu`` (the worker's process
time, all its threads) leaves out the time the worker was preempted. On a machine shared
with other jobs (load average above the cores) wall samples mostly measure the scheduler;
with one thread per engine (``--threads 1``) the CPU clock equals the wall time of a quiet
machine without its noise, so ``--threads 1 --clock cpu`` is the measurement for a busy
machine. With several threads the CPU clock sums them (and counts spin-waiting), so it is
no measure of speed there. Each bench also prints cpu/wall per engine: the share of the
time it had a core (near 1.0 on a quiet machine, per thread). In one process torch's
OpenMP pool and NumPy's OpenBLAS threads contend for the cores and slow torch's small ops
by up to 4 x on 2 cores (issue 14): the old in-process harness measured that, not torch.
"""
import datetime
import json
import os
import pickle
import platform
import statistics
import subprocess
import sys
import tempfile

import numpy as np

# The engines every workload runs, in report order; workloads may add baselines ("gemm").
ENGINES = ("autotensor", "torch", "numpy")
# autotensor with the timed step wrapped in autotensor.compile (issue 14): its own column
COMPILED = "compiled"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
# Set on some CPUs for old OpenBLAS builds; they pick a slower kernel in a current NumPy.
CORETYPE_VARS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")


# ----------------------------------------------------------------------------- in a worker

def apply_threads(n):
    """Limit NumPy's BLAS to n threads in this process (before any engine is imported)."""
    if n is None:
        return {}
    try:
        import threadpoolctl
    except ImportError:
        threadpoolctl = None
    if threadpoolctl is not None:
        threadpoolctl.threadpool_limits(n)
        return {"threads set via": "threadpoolctl"}
    for lib in _openblas():
        for name in ("scipy_openblas_set_num_threads64_", "openblas_set_num_threads64_",
                     "openblas_set_num_threads", "scipy_openblas_set_num_threads"):
            fn = getattr(lib, name, None)
            if fn is not None:
                fn(int(n))
                return {"threads set via": f"ctypes {name} (no threadpoolctl)"}
    return {"threads set via": "environment only (no threadpoolctl, not OpenBLAS)"}


def import_engine(engine, threads=None):
    """The engine's module (None for the NumPy baselines), torch set to ``threads``."""
    if engine == "torch":
        import torch
        if threads is not None:
            torch.set_num_threads(threads)
        return torch
    if engine in ("autotensor", COMPILED):
        import autotensor
        return autotensor
    return None


def process_facts(module):
    """What this worker runs on: BLAS libraries and thread counts, read back."""
    facts = {"blas": blas_info()}
    if module is not None and module.__name__ == "torch":
        facts["torch"] = (f"{module.__version__}, get_num_threads()={module.get_num_threads()}"
                          f", interop {module.get_num_interop_threads()}, MKL "
                          f"{'yes' if module.backends.mkl.is_available() else 'no'}")
    return facts


def blas_info():
    """The BLAS/OpenMP pools loaded in this process (threadpoolctl, else ctypes)."""
    try:
        import threadpoolctl
    except ImportError:
        threadpoolctl = None
    if threadpoolctl is not None:
        out = []
        for i in threadpoolctl.threadpool_info():
            bits = [i.get("internal_api"), i.get("version"), i.get("architecture"),
                    i.get("threading_layer")]
            out.append(f"{' '.join(str(b) for b in bits if b)} "
                       f"({i.get('num_threads')} threads)")
        return "; ".join(out) + " [threadpoolctl]"
    for lib in _openblas():
        for name in ("scipy_openblas_get_num_threads64_", "openblas_get_num_threads64_",
                     "openblas_get_num_threads", "scipy_openblas_get_num_threads"):
            fn = getattr(lib, name, None)
            if fn is not None:
                return f"OpenBLAS ({int(fn())} threads) [ctypes {name}; no threadpoolctl]"
    return "unknown (no threadpoolctl, not OpenBLAS)"


def _openblas():
    import ctypes
    try:
        with open("/proc/self/maps") as f:
            paths = sorted({ln.split()[-1] for ln in f
                            if "openblas" in ln.lower() and ".so" in ln})
        return [ctypes.CDLL(p) for p in paths]
    except OSError:
        return []


# ----------------------------------------------------------------------------- the parent

def machine_facts(threads):
    def load():
        return " / ".join(f"{x:.2f}" for x in os.getloadavg())
    facts = {
        "date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
        "machine": f"{platform.machine()} {_cpu_model()}, os.cpu_count()={os.cpu_count()}, "
                   f"usable cores={len(os.sched_getaffinity(0))}",
        "load at start": f"{load()} (1/5/15-min load average)",
        "python": platform.python_version(),
        "numpy": f"{np.__version__}, built with BLAS {_blas_build()}",
        "threads": f"{threads} for every engine ({', '.join(THREAD_VARS)} and the "
                   "libraries' own setters; read back per engine below)",
        "autotensor": f"at git {_git_commit()}",
    }
    cores = len(os.sched_getaffinity(0))
    if os.getloadavg()[0] > cores:
        facts["busy machine"] = (f"load average {os.getloadavg()[0]:.1f} on {cores} cores: "
                                 "wall times mostly measure the scheduler; prefer "
                                 "--threads 1 --clock cpu (Note [Fair timing])")
    set_vars = {v: os.environ[v] for v in CORETYPE_VARS if v in os.environ}
    if set_vars:
        facts["OpenBLAS overrides"] = (", ".join(f"{k}={v}" for k, v in set_vars.items())
                                       + " (kept for every engine; see the kernel below)")
    return facts


def _blas_build():
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
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                              capture_output=True, text=True, timeout=5).stdout.strip() or "?"
    except Exception:
        return "?"


def engine_available(engine):
    if engine != "torch":
        return True
    import importlib.util
    return importlib.util.find_spec("torch") is not None


class Worker:
    """A ``benchmarks.worker`` subprocess for one engine and one workload."""

    def __init__(self, engine, workload, size, threads):
        env = dict(os.environ)
        env.update({v: str(threads) for v in THREAD_VARS})
        env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
        sz = {k: v for k, v in size.items() if k != "modules"}
        sz["threads"] = threads
        self.engine = engine
        self._err = tempfile.TemporaryFile()  # a file, not a pipe: it never fills up
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.worker", engine, str(workload), json.dumps(sz)],
            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self._err)
        self.facts, self.error = None, None

    def recv(self):
        try:
            return pickle.load(self.proc.stdout)
        except EOFError:
            self.proc.wait()
            self._err.seek(0)
            tail = self._err.read().decode(errors="replace").strip().splitlines()
            return {"error": f"worker exited ({self.proc.returncode}): "
                             + (tail[-1] if tail else "no message")}

    def ask(self, **req):
        try:
            pickle.dump(req, self.proc.stdin, protocol=pickle.HIGHEST_PROTOCOL)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # recv reports the exit
        return self.recv()

    def close(self):
        if self.proc.poll() is None:
            self.ask(op="quit")
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout, self._err):
            f.close()


class Bench:
    """One timed case: a factory per engine building fresh state and returning a runner.

    A runner is ``(step, grads)`` or ``(step, grads, reset)``: ``step()`` is the timed call;
    ``grads()`` (or None for a baseline like the raw GEMMs) returns the gradients of the
    first step as NumPy arrays, in the same order on every engine; ``reset()``, untimed,
    restores the initial state before each sample (training steps: every engine times the
    same trajectory, never a converged or saturated model). ``per``: divide the time by
    this many ops and report microseconds per op; otherwise milliseconds per step.
    ``target``: (engine, max ratio) from issue 14. ``min_sample``: seconds of steps per
    sample (0: one step per sample, no calibration).
    """

    def __init__(self, workload, case, factories, per=None, tol=1e-4, target=None,
                 min_sample=0.1, compiled_target=None):
        self.workload, self.case = workload, case
        self.factories, self.per, self.tol = factories, per, tol
        self.target, self.min_sample = target, min_sample
        self.compiled_target = compiled_target  # (engine, max ratio) for the compiled column


class Result:
    def __init__(self, bench):
        self.bench = bench
        self.samples = {}  # engine -> [seconds per step], index = repeat (None: missing)
        self.share = {}  # engine -> median cpu/wall of its samples
        self.errors = {}  # engine -> message
        self.loads = []  # 1-min load average after each round of samples
        self.check = None  # printed gradient-check line
        self.check_ok = True

    @property
    def medians(self):
        return {e: statistics.median(x for x in s if x is not None)
                for e, s in self.samples.items()
                if e not in self.errors and any(x is not None for x in s)}

    def value(self, engine):
        s = self.medians[engine]
        return s / self.bench.per * 1e6 if self.bench.per else s * 1e3

    @property
    def unit(self):
        return "us/op" if self.bench.per else "ms/step"

    def paired(self, other, engine="autotensor"):
        """engine / other per repeat (neighbouring samples), for the engines' ratio."""
        a, b = self.samples.get(engine, ()), self.samples.get(other, ())
        return [x / y for x, y in zip(a, b) if x is not None and y is not None and y > 0]

    def ratios(self, engine="autotensor"):
        """other engine -> (median, lower quartile, upper quartile) of the paired ratios
        engine / other (the compiled column is not a reference for the others)."""
        if engine not in self.medians:
            return {}
        out = {}
        for e in self.medians:
            r = self.paired(e, engine) if e not in (engine, COMPILED) else []
            if r:
                q = statistics.quantiles(r, n=4) if len(r) > 1 else [r[0], r[0], r[0]]
                out[e] = (statistics.median(r), q[0], q[2])
        return out


def _rel_err(a, ref):
    a = np.asarray(a, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    if a.shape != ref.shape:
        return float("inf")
    scale = max(float(np.max(np.abs(ref))) if ref.size else 0.0, 1e-30)
    return float(np.max(np.abs(a - ref))) / scale if ref.size else 0.0


def check_grads(result, grads):
    """Compare every engine's gradients with the NumPy floor's (else the first engine's)."""
    grads = {e: [np.zeros(0) if x is None else np.asarray(x) for x in g]
             for e, g in grads.items() if g is not None}
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


def run_workload(workload, benches, size, threads, repeats, quick=False, clock="wall"):
    """Start one worker per engine (together), then per bench: prepare every engine, check
    gradients, and take ``repeats`` rounds of one sample per engine, rotating the order.

    Returns (results, facts per engine). ``repeats`` is overridden to 1 for benches of more
    than 100,000 ops (one step takes seconds).
    """
    engines = []
    for b in benches:
        engines += [e for e in b.factories if e not in engines and engine_available(e)]
    workers = {e: Worker(e, workload, size, threads) for e in engines}
    facts = {}
    try:
        for e, w in workers.items():
            hello = w.recv()
            w.error = hello.get("error")
            facts[e] = hello.get("facts") or {"error": w.error}
        results = [_run_bench(i, b, workers, 1 if b.per and b.per > 100_000 else repeats,
                              quick, clock) for i, b in enumerate(benches)]
    finally:
        for w in workers.values():
            w.close()
    return results, facts


def _run_bench(index, bench, workers, repeats, quick, clock):
    result = Result(bench)
    live = [e for e in bench.factories if e in workers]
    for e in live:
        if workers[e].error:
            result.errors[e] = workers[e].error
    live = [e for e in live if e not in result.errors]
    grads = {}
    for e in live:  # one at a time: no engine's first step competes with another's
        rep = workers[e].ask(op="prepare", bench=index,
                             min_sample=0.0 if quick else bench.min_sample)
        if rep.get("error"):
            result.errors[e] = rep["error"]
        else:
            grads[e] = rep["grads"]
    live = [e for e in live if e not in result.errors]
    try:
        check_grads(result, grads)
    except Exception as exc:
        result.check_ok = False
        result.check = f"gradient check failed: {type(exc).__name__}: {exc}"
    result.samples = {e: [None] * repeats for e in live}
    shares = {e: [] for e in live}
    for r in range(repeats):
        k = r % len(live) if live else 0
        for e in live[k:] + live[:k]:  # rotate who goes first
            if e in result.errors:
                continue
            rep = workers[e].ask(op="sample")
            if rep.get("error"):
                result.errors[e] = rep["error"]
            else:
                result.samples[e][r] = rep[clock]
                if rep["wall"] > 0:
                    shares[e].append(rep["cpu"] / rep["wall"])
        result.loads.append(os.getloadavg()[0])
    result.share = {e: statistics.median(s) for e, s in shares.items() if s}
    for e in live:
        if e not in result.errors:
            workers[e].ask(op="drop")
    return result


def fmt_value(v):
    return f"{v:.3g}" if v < 100 else f"{v:.0f}"


def fmt_ratio(r):
    med, lo, hi = r
    return f"{med:.2f} [{lo:.2f}-{hi:.2f}]" if hi - lo >= 0.005 else f"{med:.2f}"


def print_result(res, out):
    b = res.bench
    out(f"  [{b.workload}] {b.case}")
    out(f"      {res.check}")
    if res.medians:
        cells = [f"{e} {fmt_value(res.value(e))} {res.unit}" for e in res.medians]
        n = max(sum(x is not None for x in s) for s in res.samples.values())
        out("      " + " | ".join(cells) + f"   (medians of {n} samples)")
        ratios = res.ratios()
        if ratios:
            line = "   ".join(f"autotensor/{e} {fmt_ratio(r)}" for e, r in ratios.items())
            if b.target:
                te, tr = b.target
                if te in ratios:
                    ok = "met" if ratios[te][0] <= tr else "MISSED"
                    line += f"   (target autotensor/{te} <= {tr:g}: {ok})"
            out("      ratio " + line + "   (median [quartiles] of paired samples)")
        cratios = res.ratios(COMPILED)
        if cratios:
            line = "   ".join(f"compiled/{e} {fmt_ratio(r)}" for e, r in cratios.items())
            if b.compiled_target and b.compiled_target[0] in cratios:
                te, tr = b.compiled_target
                ok = "met" if cratios[te][0] <= tr else "MISSED"
                line += f"   (target compiled/{te} <= {tr:g}: {ok})"
            out("      ratio " + line)
    if res.loads:
        share = ", ".join(f"{e} {v:.2f}" for e, v in res.share.items())
        out(f"      load average during the samples: {min(res.loads):.2f}-{max(res.loads):.2f}"
            f"; cpu/wall: {share}")
    for e, msg in res.errors.items():
        out(f"      {e}: ERROR {msg}")
