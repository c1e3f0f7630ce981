// SPDX-License-Identifier: Apache-2.0
// gesummv workload (Polybench-GPU GESUMMV): y = alpha*A*x + beta*B*x; block 256, grid ceil(n/256).
#include <cmath>
#include <cstdint>
#include <vector>

#include "workloads/library/library_workload.h"
#include "workloads/library/polybench_inputs.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 256;   // Polybench-GPU's DIM_THREAD_BLOCK_X
constexpr uint32_t kMaxN = 46336;  // n*n must fit the kernel's int indices
constexpr float kAlpha = 1.5f, kBeta = 1.2f;

class Gesummv final : public LibraryWorkload {
public:
    Gesummv(uint32_t n, uint64_t seed, PolybenchInputs in)
        : LibraryWorkload("gesummv.ptx"),
          m_n(n),
          m_a(polybench_matrix(in, n, sub_seed(seed, 0))),
          m_b(polybench_matrix(in, n, sub_seed(seed, 1))),
          m_x(polybench_vector(in, n, sub_seed(seed, 2), 0.0f)) {}

    void execute(Device& dev) override {
        const DevPtr a = dev.upload(m_a), b = dev.upload(m_b), x = dev.upload(m_x);
        const DevPtr y = dev.alloc<float>(m_n), tmp = dev.alloc<float>(m_n);
        dev.zero(y);
        dev.zero(tmp);
        dev.launch("gesummv_kernel", linear(m_n, kBlock),
                   LaunchArgs().ptr(a).ptr(b).ptr(x).ptr(y).ptr(tmp).i32(static_cast<int32_t>(m_n))
                       .f32(kAlpha).f32(kBeta));
        dev.download(m_y, y);
        dev.download(m_tmp, tmp);
    }

    void compare(Checker& check) const override {
        const size_t n = m_n;
        for (size_t i = 0; i < n; ++i) {
            float tmp = 0.0f, y = 0.0f;  // fma.rn.f32 in index order from the zeroed buffers
            for (size_t j = 0; j < n; ++j) {
                tmp = std::fma(m_a[i * n + j], m_x[j], tmp);
                y = std::fma(m_b[i * n + j], m_x[j], y);
            }
            check.near("tmp", i, m_tmp[i], tmp);
            check.near("y", i, m_y[i], std::fma(kAlpha, tmp, kBeta * y));  // as nvcc contracts it
        }
    }

private:
    uint32_t m_n;
    std::vector<float> m_a, m_b, m_x, m_y, m_tmp;
};

const bool registered = workload_registry().add_with<PolybenchConfig>(
    {"gesummv", "Polybench GESUMMV: y = alpha A x + beta B x, row walks of two N x N matrices",
     WorkloadClass::Irregular, {"gesummv.ptx"}, {"matrix dimension N", 128, kMaxN, 1,
       [](uint64_t n) { return 16 * n * n + 40 * n; }}},
    construct_polybench<Gesummv>);

}  // namespace

}  // namespace stacksim::workloads
