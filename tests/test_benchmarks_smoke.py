"""Smoke run of the benchmarks (issues 4, 14): tiny sizes, checks they still run, not timed."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_benchmarks_quick_run():
    p = subprocess.run([sys.executable, "-m", "benchmarks", "--quick"], cwd=ROOT,
                       capture_output=True, text=True, timeout=240)
    out = p.stdout + p.stderr
    assert p.returncode == 0, out[-4000:]
    assert re.search(r"ratio autotensor/(torch|numpy) \d+\.\d\d", out), out[-4000:]
    assert "gradients DIFFER" not in out, out[-4000:]
    # every engine ran in its own process, which reported its BLAS and thread count
    assert re.search(r"autotensor process: blas: .*\(\d+ threads\)", out), out[-4000:]
    assert re.search(r"numpy process: blas: .*\(\d+ threads\)", out), out[-4000:]


def test_worker_imports_only_its_engine():
    """The autotensor worker must not load torch (torch's thread pool would share the
    process with NumPy's BLAS: the unfair measurement of issue 14)."""
    code = ("import sys, json; from benchmarks import harness, workloads\n"
            "harness.apply_threads(1); harness.import_engine('autotensor', 1)\n"
            "print(json.dumps('torch' in sys.modules))")
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stdout.strip().splitlines()[-1] == "false"
