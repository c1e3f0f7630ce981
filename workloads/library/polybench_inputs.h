// SPDX-License-Identifier: Apache-2.0
// The inputs a Polybench workload starts from: the library's seeded random data, or the
// deterministic initialisation of PolyBench/GPU 1.0's host code.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/param.h"
#include "workloads/host_data.h"
#include "workloads/workload_registry.h"

namespace stacksim::workloads {

/// Which inputs a Polybench workload starts from.
enum class PolybenchInputs : uint8_t {
    Random,     ///< seeded uniform random data (the library's default: every element differs)
    Polybench,  ///< PolyBench/GPU 1.0's init functions (e.g. A[i][j] = i*j/N)
};

/// Parameters of the Polybench workloads ([atax], [bicg], [mvt], [gesummv], [corr], [covar],
/// [2dconv], [3dconv], [fdtd2d]).
struct PolybenchConfig {
    PolybenchInputs inputs = PolybenchInputs::Random;

    /// The declared parameters.
    static const sim::Params<PolybenchConfig>& params();
};

/// PolyBench/GPU's `i * M_PI` (its M_PI is 3.14159), computed in double and stored as a float.
inline float polybench_pi_times(size_t i) { return static_cast<float>(static_cast<double>(i) * 3.14159); }

/// PolyBench/GPU's `((DATA_TYPE) i*j) / n` with DATA_TYPE float.
inline float polybench_ij_over(size_t i, size_t j, size_t n) {
    return static_cast<float>(i) * static_cast<float>(j) / static_cast<float>(n);
}

/// `n` inputs: seeded uniform values in [0, 1) (Random) or f(i) as a float (Polybench).
template <typename F>
std::vector<float> polybench_1d(PolybenchInputs in, size_t n, uint64_t seed, F f) {
    if (in == PolybenchInputs::Random) return random_f32(n, seed, 0.0f, 1.0f);
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = f(i);
    return v;
}

/// rows x cols inputs, row-major: seeded uniform values in [0, 1) (Random) or f(i, j) (Polybench).
template <typename F>
std::vector<float> polybench_2d(PolybenchInputs in, size_t rows, size_t cols, uint64_t seed, F f) {
    if (in == PolybenchInputs::Random) return random_f32(rows * cols, seed, 0.0f, 1.0f);
    std::vector<float> v(rows * cols);
    for (size_t i = 0; i < rows; ++i)
        for (size_t j = 0; j < cols; ++j) v[i * cols + j] = f(i, j);
    return v;
}

/// The n x n matrix of most Polybench kernels: A[i][j] = ((float) i*j) / n, or random.
inline std::vector<float> polybench_matrix(PolybenchInputs in, size_t n, uint64_t seed) {
    return polybench_2d(in, n, n, seed, [n](size_t i, size_t j) { return polybench_ij_over(i, j, n); });
}

/// A Polybench vector x[i] = ((float) i + k) / n, or random.
inline std::vector<float> polybench_vector(PolybenchInputs in, size_t n, uint64_t seed, float k) {
    return polybench_1d(in, n, seed, [n, k](size_t i) { return (static_cast<float>(i) + k) / static_cast<float>(n); });
}

/// The factory of Polybench workload W, constructed from (size, seed, inputs).
template <typename W>
std::unique_ptr<Workload> construct_polybench(const PolybenchConfig& cfg, const WorkloadArgs& args) {
    return std::make_unique<W>(args.size, args.seed, cfg.inputs);
}

}  // namespace stacksim::workloads
