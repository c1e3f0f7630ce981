// SPDX-License-Identifier: Apache-2.0
// mvt workload (Polybench-GPU MVT): x1 += A y1, x2 += A^T y2; two kernels, block 256, grid ceil(n/256).
#include <cmath>
#include <cstdint>
#include <vector>

#include "workloads/library/library_workload.h"
#include "workloads/library/polybench_inputs.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 256;   // Polybench-GPU's DIM_THREAD_BLOCK_X
constexpr uint32_t kMaxN = 46336;  // n*n must fit the kernels' int indices

class Mvt final : public LibraryWorkload {
public:
    Mvt(uint32_t n, uint64_t seed, PolybenchInputs in)
        : LibraryWorkload("mvt.ptx"),
          m_n(n),
          m_a(polybench_matrix(in, n, sub_seed(seed, 0))),
          m_x1_in(polybench_vector(in, n, sub_seed(seed, 1), 0.0f)),
          m_x2_in(polybench_vector(in, n, sub_seed(seed, 2), 1.0f)),
          m_y1(polybench_vector(in, n, sub_seed(seed, 3), 3.0f)),
          m_y2(polybench_vector(in, n, sub_seed(seed, 4), 4.0f)) {}

    void execute(Device& dev) override {
        const DevPtr a = dev.upload(m_a), x1 = dev.upload(m_x1_in), x2 = dev.upload(m_x2_in);
        const DevPtr y1 = dev.upload(m_y1), y2 = dev.upload(m_y2);
        const auto n = static_cast<int32_t>(m_n);
        dev.launch("mvt_kernel1", linear(m_n, kBlock), LaunchArgs().ptr(a).ptr(x1).ptr(y1).i32(n));
        dev.launch("mvt_kernel2", linear(m_n, kBlock), LaunchArgs().ptr(a).ptr(x2).ptr(y2).i32(n));
        dev.download(m_x1, x1);
        dev.download(m_x2, x2);
    }

    void compare(Checker& check) const override {
        const size_t n = m_n;
        // Both kernels accumulate in index order with fma.rn.f32 onto the initial x.
        std::vector<float> x1 = m_x1_in, x2 = m_x2_in;
        for (size_t i = 0; i < n; ++i)
            for (size_t j = 0; j < n; ++j) x1[i] = std::fma(m_a[i * n + j], m_y1[j], x1[i]);
        for (size_t j = 0; j < n; ++j)
            for (size_t i = 0; i < n; ++i) x2[i] = std::fma(m_a[j * n + i], m_y2[j], x2[i]);
        check.near_all("x1", m_x1, x1);
        check.near_all("x2", m_x2, x2);
    }

private:
    uint32_t m_n;
    std::vector<float> m_a, m_x1_in, m_x2_in, m_y1, m_y2, m_x1, m_x2;
};

const bool registered = workload_registry().add_with<PolybenchConfig>(
    {"mvt", "Polybench MVT: x1 += A y1 (row walks) and x2 += A^T y2 (column walks)",
     WorkloadClass::Irregular, {"mvt.ptx"}, {"matrix dimension N", 128, kMaxN, 1,
       [](uint64_t n) { return 8 * n * n + 56 * n; }}},
    construct_polybench<Mvt>);

}  // namespace

}  // namespace stacksim::workloads
