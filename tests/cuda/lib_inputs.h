// SPDX-License-Identifier: Apache-2.0
// What the lib_*.cu programs share: the library workloads' own input generators (the simulator's
// workloads/host_data.cpp, compiled into the program), so that `PROGRAM N SEED` feeds its kernels
// exactly the inputs of `stacksim run --workload NAME:N --seed SEED`; and the library's float
// tolerance for the CPU comparison.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "check.h"
#include "workloads/host_data.cpp"

using stacksim::workloads::random_f32;
using stacksim::workloads::random_i32;
using stacksim::workloads::random_u32;
using stacksim::workloads::SplitMix64;
using stacksim::workloads::sub_seed;

/// The library's float check (workloads/library/common.h): |got - want| <= 1e-5 + 1e-4 |want|.
inline bool lib_near(float got, float want) {
    return std::fabs(double{got} - double{want}) <= 1e-5 + 1e-4 * std::fabs(double{want});
}

/// ceil(a / b), as the library workloads size their grids.
inline unsigned lib_ceil_div(unsigned long long a, unsigned long long b) {
    return static_cast<unsigned>((a + b - 1) / b);
}

/// argv[i] as a whole number, or `fallback` when absent.
inline unsigned long long lib_arg(int argc, char** argv, int i, unsigned long long fallback) {
    return argc > i ? std::strtoull(argv[i], nullptr, 10) : fallback;
}
