"""Benchmarks of issue 4: autotensor against PyTorch and a hand-written NumPy floor.

Run ``python -m benchmarks`` (or ``python benchmarks/run.py``); ``--help`` lists the flags.
Every workload runs the same computation on each engine, checks first that the engines
compute the same gradients, then times the engines interleaved (round-robin per repeat) and
prints medians and the ratios autotensor/torch and autotensor/NumPy of the same run.
"""
