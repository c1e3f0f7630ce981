// SPDX-License-Identifier: Apache-2.0
// fdtd2d workload (Polybench-GPU FDTD-2D): kTmax time steps of three kernels each on an n x n
// grid; block (32,8), grid (ceil(n/32), ceil(n/8)).
#include <cmath>
#include <cstdint>
#include <vector>

#include "workloads/library/library_workload.h"
#include "workloads/library/polybench_inputs.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlockX = 32, kBlockY = 8;  // Polybench-GPU's DIM_THREAD_BLOCK_X/Y
constexpr uint32_t kMaxN = 46000;              // (n+1)^2 must fit the kernels' int indices
constexpr uint32_t kTmax = 4;                  // time steps (Polybench: 500)

// PolyBench/GPU's initial fields: ((float) (i + di) * (j + dj) + c) / n.
float field(size_t i, size_t j, int64_t di, size_t dj, int c, size_t n) {
    return (static_cast<float>(static_cast<int64_t>(i) + di) * static_cast<float>(j + dj) + static_cast<float>(c)) /
           static_cast<float>(n);
}

class Fdtd2d final : public LibraryWorkload {
public:
    Fdtd2d(uint32_t n, uint64_t seed, PolybenchInputs in)
        : LibraryWorkload("fdtd2d.ptx"),
          m_n(n),
          m_fict(polybench_1d(in, kTmax, sub_seed(seed, 0), [](size_t t) { return static_cast<float>(t); })),
          m_ex_in(polybench_2d(in, n, n + 1, sub_seed(seed, 1),
                              [n](size_t i, size_t j) { return field(i, j, 0, 1, 1, n); })),
          m_ey_in(polybench_2d(in, n + 1, n, sub_seed(seed, 2),
                              [n](size_t i, size_t j) { return field(i, j, -1, 2, 2, n); })),
          m_hz_in(polybench_2d(in, n, n, sub_seed(seed, 3),
                              [n](size_t i, size_t j) { return field(i, j, -9, 4, 3, n); })) {}

    void execute(Device& dev) override {
        const DevPtr fict = dev.upload(m_fict), ex = dev.upload(m_ex_in);
        const DevPtr ey = dev.upload(m_ey_in), hz = dev.upload(m_hz_in);
        const Shape shape = tiled(m_n, m_n, kBlockX, kBlockY);
        const auto n = static_cast<int32_t>(m_n);
        for (int32_t t = 0; t < static_cast<int32_t>(kTmax); ++t) {
            dev.launch("fdtd_step1", shape, LaunchArgs().ptr(fict).ptr(ex).ptr(ey).ptr(hz).i32(n).i32(t));
            dev.launch("fdtd_step2", shape, LaunchArgs().ptr(ex).ptr(ey).ptr(hz).i32(n).i32(t));
            dev.launch("fdtd_step3", shape, LaunchArgs().ptr(ex).ptr(ey).ptr(hz).i32(n).i32(t));
        }
        dev.download(m_ex, ex);
        dev.download(m_ey, ey);
        dev.download(m_hz, hz);
    }

    void compare(Checker& check) const override {
        const size_t n = m_n;
        std::vector<float> ex = m_ex_in, ey = m_ey_in, hz = m_hz_in;
        for (size_t t = 0; t < kTmax; ++t) {
            // a - 0.5f*d and a - 0.7f*d are contracted to fma.rn.f32(d, -c, a).
            for (size_t j = 0; j < n; ++j) ey[j] = m_fict[t];
            for (size_t i = 1; i < n; ++i)
                for (size_t j = 0; j < n; ++j)
                    ey[i * n + j] = std::fma(hz[i * n + j] - hz[(i - 1) * n + j], -0.5f, ey[i * n + j]);
            for (size_t i = 0; i < n; ++i)
                for (size_t j = 1; j < n; ++j)
                    ex[i * (n + 1) + j] = std::fma(hz[i * n + j] - hz[i * n + j - 1], -0.5f, ex[i * (n + 1) + j]);
            for (size_t i = 0; i < n; ++i)
                for (size_t j = 0; j < n; ++j) {
                    const float d = ex[i * (n + 1) + j + 1] - ex[i * (n + 1) + j] + ey[(i + 1) * n + j] - ey[i * n + j];
                    hz[i * n + j] = std::fma(d, -0.7f, hz[i * n + j]);
                }
        }
        check.near_all("ex", m_ex, ex);
        check.near_all("ey", m_ey, ey);
        check.near_all("hz", m_hz, hz);
    }

private:
    uint32_t m_n;
    std::vector<float> m_fict, m_ex_in, m_ey_in, m_hz_in, m_ex, m_ey, m_hz;
};

const bool registered = workload_registry().add_with<PolybenchConfig>(
    {"fdtd2d", "Polybench FDTD-2D: 4 time steps of 3 field-update kernels on an N x N grid",
     WorkloadClass::Regular, {"fdtd2d.ptx"}, {"grid dimension N", 128, kMaxN, 1,
       [](uint64_t n) { return 40 * n * n; }}},
    construct_polybench<Fdtd2d>);

}  // namespace

}  // namespace stacksim::workloads
