// SPDX-License-Identifier: Apache-2.0
// corr workload (Polybench-GPU CORR): correlation matrix of an n x n data set; four kernels
// (mean, std, reduce, corr): block 256 / (32,8) / 256 as in Polybench-GPU.
#include <cmath>
#include <cstdint>
#include <vector>

#include "workloads/library/library_workload.h"
#include "workloads/library/polybench_inputs.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 256;               // Polybench-GPU's DIM_THREAD_BLOCK_KERNEL_1/3/4_X
constexpr uint32_t kBlockX = 32, kBlockY = 8;  // DIM_THREAD_BLOCK_KERNEL_2_X/Y
constexpr uint32_t kMaxN = 46336;              // n*n must fit the kernels' int indices
constexpr float kEps = 0.1f;

class Corr final : public LibraryWorkload {
public:
    Corr(uint32_t n, uint64_t seed, PolybenchInputs in)
        : LibraryWorkload("corr.ptx"),
          m_n(n),
          m_data_in(polybench_matrix(in, n, sub_seed(seed, 0))) {}

    void execute(Device& dev) override {
        const DevPtr data = dev.upload(m_data_in);
        const DevPtr mean = dev.alloc<float>(m_n), stddev = dev.alloc<float>(m_n);
        const DevPtr symmat = dev.zeros<float>(m_data_in.size());
        const Shape columns = linear(m_n, kBlock);
        const auto n = static_cast<int32_t>(m_n);
        dev.launch("corr_mean", columns, LaunchArgs().ptr(mean).ptr(data).i32(n));
        dev.launch("corr_std", columns, LaunchArgs().ptr(mean).ptr(stddev).ptr(data).i32(n).f32(kEps));
        dev.launch("corr_reduce", tiled(m_n, m_n, kBlockX, kBlockY),
                   LaunchArgs().ptr(mean).ptr(stddev).ptr(data).i32(n));
        dev.launch("corr_corr", columns, LaunchArgs().ptr(symmat).ptr(data).i32(n));
        dev.download(m_mean, mean);
        dev.download(m_std, stddev);
        dev.download(m_data, data);
        dev.download(m_symmat, symmat);
    }

    void compare(Checker& check) const override {
        const size_t n = m_n;
        const auto fn = static_cast<float>(m_n);
        std::vector<float> data = m_data_in, mean(n, 0.0f), stddev(n, 0.0f), sym(n * n, 0.0f);
        for (size_t j = 0; j < n; ++j) {
            for (size_t i = 0; i < n; ++i) mean[j] += data[i * n + j];
            mean[j] /= fn;
            for (size_t i = 0; i < n; ++i) {
                const float d = data[i * n + j] - mean[j];
                stddev[j] = std::fma(d, d, stddev[j]);
            }
            stddev[j] = std::sqrt(stddev[j] / fn);
            if (stddev[j] <= kEps) stddev[j] = 1.0f;
        }
        const float sqrt_n = std::sqrt(fn);
        for (size_t i = 0; i < n; ++i)
            for (size_t j = 0; j < n; ++j) data[i * n + j] = (data[i * n + j] - mean[j]) / (sqrt_n * stddev[j]);
        for (size_t j1 = 0; j1 < n; ++j1) {
            sym[j1 * n + j1] = 1.0f;
            for (size_t j2 = j1 + 1; j2 < n; ++j2) {
                float acc = 0.0f;
                for (size_t i = 0; i < n; ++i) acc = std::fma(data[i * n + j1], data[i * n + j2], acc);
                sym[j1 * n + j2] = sym[j2 * n + j1] = acc;
            }
        }
        check.near_all("mean", m_mean, mean);
        check.near_all("std", m_std, stddev);
        check.near_all("data", m_data, data);
        check.near_all("symmat", m_symmat, sym);
    }

private:
    uint32_t m_n;
    std::vector<float> m_data_in, m_mean, m_std, m_data, m_symmat;
};

const bool registered = workload_registry().add_with<PolybenchConfig>(
    {"corr", "Polybench CORR: correlation matrix of N points of N variables (4 kernels)",
     WorkloadClass::Regular, {"corr.ptx"}, {"data dimension N", 64, kMaxN, 1,
       [](uint64_t n) { return 24 * n * n; }}},
    construct_polybench<Corr>);

}  // namespace

}  // namespace stacksim::workloads
