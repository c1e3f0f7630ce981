// SPDX-License-Identifier: Apache-2.0
// lib workload (GPGPU-Sim ISPASS-2009 suite LIB, M. Giles' LIBOR Monte Carlo): the value of a
// portfolio of 15 swaptions along each of n paths of 40 steps of 80 forward rates, driven by
// seeded normal draws; one launch of 64 blocks (fewer for small n) of 64 threads.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 64, kMaxGrid = 64;     // BLOCK_SIZE, GRID_SIZE
constexpr uint32_t kRates = 80, kSteps = 40, kOptions = 15;  // NN, NMAT, NOPT
constexpr float kDelta = 0.25f, kLambda = 0.2f;
constexpr int32_t kMaturities[kOptions] = {4, 4, 4, 8, 8, 8, 20, 20, 20, 28, 28, 28, 40, 40, 40};
constexpr float kSwapRates[kOptions] = {.045f, .05f, .055f, .045f, .05f, .055f, .045f, .05f,
                                        .055f, .045f, .05f, .055f, .045f, .05f, .055f};
constexpr uint32_t kMaxN = 1u << 22;

/// The kernel's value of one path, with every rounding of its PTX in the same order.
float path_value(const std::vector<float>& z, uint32_t npath, uint32_t path) {
    float L[kRates];
    std::fill(L, L + kRates, 0.05f);
    const float sqrt_delta = std::sqrt(kDelta);
    for (uint32_t n = 0; n < kSteps; ++n) {
        const float sqez = sqrt_delta * z[size_t{n} * npath + path];
        float v = 0.0f;
        for (uint32_t i = n + 1; i < kRates; ++i) {
            const float lam = kLambda, con1 = kDelta * lam, li = L[i];
            v = v + (con1 * li) / std::fma(kDelta, li, 1.0f);
            const float arg = std::fma(con1, v, lam * std::fma(-0.5f, con1, sqez));
            L[i] = li * std::exp2(arg * 1.44269502f);  // __expf: ex2.approx of x * log2(e)
        }
    }
    float b = 1.0f, s = 0.0f, v = 0.0f;
    uint32_t opt = 0;
    for (uint32_t n = kSteps; n < kRates; ++n) {
        b = b / std::fma(L[n], kDelta, 1.0f);
        s = std::fma(b, kDelta, s);
        for (; opt < kOptions && static_cast<uint32_t>(kMaturities[opt] - 1) == n - kSteps; ++opt) {
            const float swapval = std::fma(s, kSwapRates[opt], b) + -1.0f;
            if (swapval < 0.0f) v = std::fma(swapval, -100.0f, v);
        }
    }
    b = 1.0f;
    for (uint32_t n = 0; n < kSteps; ++n) b = b / std::fma(L[n], kDelta, 1.0f);
    return v * b;
}

class Lib final : public LibraryWorkload {
public:
    Lib(uint32_t n, uint64_t seed) : LibraryWorkload("lib.ptx"), m_n(n), m_z(size_t{kSteps} * n) {
        // Standard normal draws as the sum of 12 uniforms minus 6 (exact in double, so the
        // inputs are the same on every platform).
        SplitMix64 rng(sub_seed(seed, 0));
        for (float& z : m_z) {
            double sum = -6.0;
            for (int k = 0; k < 12; ++k) sum += rng.next_unit();
            z = static_cast<float>(sum);
        }
    }

    void execute(Device& dev) override {
        const DevPtr lambda = dev.upload(std::vector<float>(kRates, kLambda));
        const DevPtr maturities = dev.upload(std::vector<int32_t>(kMaturities, kMaturities + kOptions));
        const DevPtr swaprates = dev.upload(std::vector<float>(kSwapRates, kSwapRates + kOptions));
        const DevPtr z = dev.upload(m_z), v = dev.alloc<float>(m_n);
        const uint32_t grid = std::min(kMaxGrid, ceil_div(m_n, kBlock));
        dev.launch("Pathcalc_Portfolio_KernelGPU2", {Dim3{grid, 1, 1}, Dim3{kBlock, 1, 1}},
                   LaunchArgs().i32(static_cast<int32_t>(m_n)).f32(kDelta).ptr(lambda).ptr(maturities)
                       .ptr(swaprates).ptr(z).ptr(v));
        dev.download(m_v, v);
    }

    void compare(Checker& check) const override {
        std::vector<float> want(m_n);
        for (uint32_t p = 0; p < m_n; ++p) want[p] = path_value(m_z, m_n, p);
        check.near_all("v", m_v, want);
    }

private:
    uint32_t m_n;
    std::vector<float> m_z, m_v;
};

const bool registered = workload_registry().add(
    {"lib", "LIB (GPGPU-Sim suite, Giles' LIBOR Monte Carlo): swaption portfolio value along n paths",
     WorkloadClass::Regular, {"lib.ptx"}, {"paths", 4096, kMaxN, 1,
       [](uint64_t n) { return 12 * uint64_t{kSteps} * n + 12 * n; }}},
    construct<Lib>);

}  // namespace

}  // namespace stacksim::workloads
