// SPDX-License-Identifier: Apache-2.0
// covar workload (Polybench-GPU COVAR): covariance matrix of an n x n data set; three kernels
// (mean, reduce, covar): block 256 / (32,8) / 256 as in Polybench-GPU.
#include <cmath>
#include <cstdint>
#include <vector>

#include "workloads/library/common.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 256;               // Polybench-GPU's DIM_THREAD_BLOCK_KERNEL_1/3_X
constexpr uint32_t kBlockX = 32, kBlockY = 8;  // DIM_THREAD_BLOCK_KERNEL_2_X/Y
constexpr uint32_t kMaxN = 46336;              // n*n must fit the kernels' int indices
constexpr float kFloatN = 3214212.01f;         // Polybench's float_n

class Covar final : public Workload {
public:
    Covar(uint32_t n, uint64_t seed)
        : m_n(n), m_data_in(random_f32(size_t{n} * n, sub_seed(seed, 0), 0.0f, 1.0f)) {}

    void run(HostApi& host) override {
        const uint64_t mat_bytes = m_data_in.size() * sizeof(float);
        const DevPtr data = host.upload(m_data_in);
        const DevPtr mean = host.malloc(uint64_t{m_n} * sizeof(float)), symmat = host.malloc(mat_bytes);
        const Dim3 grid1{ceil_div(m_n, kBlock), 1, 1}, block1{kBlock, 1, 1};
        const auto n = static_cast<int32_t>(m_n);
        host.launch("covar.ptx", "covar_mean", grid1, block1, LaunchArgs().ptr(mean).ptr(data).i32(n).f32(kFloatN));
        host.launch("covar.ptx", "covar_reduce", Dim3{ceil_div(m_n, kBlockX), ceil_div(m_n, kBlockY), 1},
                    Dim3{kBlockX, kBlockY, 1}, LaunchArgs().ptr(mean).ptr(data).i32(n));
        host.launch("covar.ptx", "covar_covar", grid1, block1, LaunchArgs().ptr(symmat).ptr(data).i32(n));
        host.download(m_mean, mean, m_n);
        host.download(m_data, data, m_data_in.size());
        host.download(m_symmat, symmat, m_data_in.size());
        for (DevPtr d : {data, mean, symmat}) host.free(d);
        m_ran = true;
    }

    VerifyResult verify() override {
        if (!m_ran) return not_run_result();
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
        Checker check;
        for (size_t j = 0; j < n; ++j) check.near("mean", j, m_mean[j], mean[j]);
        for (size_t k = 0; k < n * n; ++k) check.near("data", k, m_data[k], data[k]);
        for (size_t k = 0; k < n * n; ++k) check.near("symmat", k, m_symmat[k], sym[k]);
        return check.result();
    }

private:
    uint32_t m_n;
    std::vector<float> m_data_in, m_mean, m_data, m_symmat;
    bool m_ran = false;
};

}  // namespace

std::unique_ptr<Workload> make_covar(uint32_t size, uint64_t seed) {
    require_size("covar", size, kMaxN);
    return std::make_unique<Covar>(size, seed);
}

}  // namespace stacksim::workloads
