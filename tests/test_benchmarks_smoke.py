"""Smoke run of the benchmarks (issue 4): tiny sizes, checks they still run, not timed."""
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
