// SPDX-License-Identifier: Apache-2.0
// covar workload (Polybench-GPU COVAR): covariance matrix of an n x n data set; three kernels
// (mean, reduce, covar): block 256 / (32,8) / 256 as in Polybench-GPU.
#include <cmath>
#include <cstdint>
#include <vector>

#include "workloads/library/library_workload.h"
#include "workloads/library/polybench_inputs.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 256;               // Polybench-GPU's DIM_THREAD_BLOCK_KERNEL_1/3_X
constexpr uint32_t kBlockX = 32, kBlockY = 8;  // DIM_THREAD_BLOCK_KERNEL_2_X/Y
constexpr uint32_t kMaxN = 46336;              // n*n must fit the kernels' int indices
constexpr float kFloatN = 3214212.01f;         // Polybench's float_n

class Covar final : public LibraryWorkload {
public:
    Covar(uint32_t n, uint64_t seed, PolybenchInputs in)
        : LibraryWorkload("covar.ptx"),
          m_n(n),
          m_data_in(polybench_matrix(in, n, sub_seed(seed, 0))) {}

    void execute(Device& dev) override {
        const DevPtr data = dev.upload(m_data_in);
        const DevPtr mean = dev.alloc<float>(m_n), symmat = dev.alloc<float>(m_data_in.size());
        const Shape columns = linear(m_n, kBlock);
        const auto n = static_cast<int32_t>(m_n);
        dev.launch("covar_mean", columns, LaunchArgs().ptr(mean).ptr(data).i32(n).f32(kFloatN));
        dev.launch("covar_reduce", tiled(m_n, m_n, kBlockX, kBlockY), LaunchArgs().ptr(mean).ptr(data).i32(n));
        dev.launch("covar_covar", columns, LaunchArgs().ptr(symmat).ptr(data).i32(n));
        dev.download(m_mean, mean);
        dev.download(m_data, data);
        dev.download(m_symmat, symmat);
    }

    void compare(Checker& check) const override {
        const size_t n = m_n;
        std::vector<float> data = m_data_in, mean(n, 0.0f), sym(n * n, 0.0f);
        for (size_t j = 0; j < n; ++j) {
            for (size_t i = 0; i < n; ++i) mean[j] += data[i * n + j];
            mean[j] /= kFloatN;
        }
        for (size_t i = 0; i < n; ++i)
            for (size_t j = 0; j < n; ++j) data[i * n + j] -= mean[j];
        for (size_t j1 = 0; j1 < n; ++j1)
            for (size_t j2 = j1; j2 < n; ++j2) {
                float acc = 0.0f;
                for (size_t i = 0; i < n; ++i) acc = std::fma(data[i * n + j1], data[i * n + j2], acc);
                sym[j1 * n + j2] = sym[j2 * n + j1] = acc;
            }
        check.near_all("mean", m_mean, mean);
        check.near_all("data", m_data, data);
        check.near_all("symmat", m_symmat, sym);
    }

private:
    uint32_t m_n;
    std::vector<float> m_data_in, m_mean, m_data, m_symmat;
};

const bool registered = workload_registry().add_with<PolybenchConfig>(
    {"covar", "Polybench COVAR: covariance matrix of N points of N variables (3 kernels)",
     WorkloadClass::Regular, {"covar.ptx"}, {"data dimension N", 64, kMaxN, 1,
       [](uint64_t n) { return 24 * n * n; }}},
    construct_polybench<Covar>);

}  // namespace

}  // namespace stacksim::workloads
