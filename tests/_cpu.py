"""The CPU the tests run on, where PyTorch's MKL kernels round differently by vendor.

MKL picks its GEMM and LAPACK kernels by CPU: on Intel's (AVX-512) the small-matrix
GEMMs add a -0.0 bias to their products by other rules than on AMD's (rules that also
change with the matrices' sizes), and LU factors of a matrix that is singular only up to
rounding come out exactly singular or not (NumPy's OpenBLAS picks its kernels by CPU too:
det([[1, 2, 3], [2, 4, 6], [1, 0, 1]]) is -6.7e-16 in both on AMD, 0 in NumPy's and
-6.7e-16 in PyTorch's on Intel): tests use matrices singular in every rounding.
autotensor's signed zeros of GEMMs were measured against MKL on AMD EPYC (Note [Signed
zeros of matrix products]); on another CPU those bits are PyTorch's own per-CPU choice,
and tests compare the values there, not the signs.
"""


def cpu_vendor():
    """/proc/cpuinfo's vendor_id ("GenuineIntel", "AuthenticAMD"), or "" off Linux."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("vendor_id"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


# GEMMs with a -0.0 bias: PyTorch's zero signs are the ones autotensor models
GEMM_ZERO_SIGNS_MODELLED = cpu_vendor() == "AuthenticAMD"
