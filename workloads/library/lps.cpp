// SPDX-License-Identifier: Apache-2.0
// lps workload (GPGPU-Sim suite LPS, laplace3d): Jacobi sweeps on an N x N x N float grid.
#include <cstdint>
#include <utility>
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlockX = 32, kBlockY = 4;  // the benchmark's BLOCK_X, BLOCK_Y
constexpr uint32_t kSweeps = 2;                // u1 -> u2 -> u1
constexpr uint32_t kMaxN = 1024;

std::vector<float> sweep(const std::vector<float>& u1, size_t n) {
    std::vector<float> u2(u1.size());
    const float sixth = 1.0f / 6.0f;
    const size_t koff = n * n;
    for (size_t k = 0; k < n; ++k)
        for (size_t j = 0; j < n; ++j)
            for (size_t i = 0; i < n; ++i) {
                const size_t g = i + j * n + k * koff;
                const bool edge = i == 0 || j == 0 || k == 0 || i + 1 == n || j + 1 == n || k + 1 == n;
                u2[g] = edge ? u1[g]
                             : (u1[g - 1] + u1[g + 1] + u1[g - n] + u1[g + n] + u1[g - koff] + u1[g + koff]) * sixth;
            }
    return u2;
}

class Lps final : public LibraryWorkload {
public:
    Lps(uint32_t n, uint64_t seed)
        : LibraryWorkload("lps.ptx"), m_n(n), m_u(random_f32(size_t{n} * n * n, sub_seed(seed, 0), 0.0f, 1.0f)) {}

    void execute(Device& dev) override {
        DevPtr a = dev.upload(m_u);
        DevPtr b = dev.zeros<float>(m_u.size());
        const int32_t n = static_cast<int32_t>(m_n);
        for (uint32_t s = 0; s < kSweeps; ++s) {
            dev.launch("laplace3d", tiled(m_n, m_n, kBlockX, kBlockY), LaunchArgs().i32(n).i32(n).i32(n).ptr(a).ptr(b));
            std::swap(a, b);
        }
        dev.download(m_out, a);
    }

    void compare(Checker& check) const override {
        std::vector<float> want = m_u;
        for (uint32_t s = 0; s < kSweeps; ++s) want = sweep(want, m_n);
        check.near_all("u", m_out, want);
    }

private:
    uint32_t m_n;
    std::vector<float> m_u, m_out;
};

const bool registered = workload_registry().add(
    {"lps", "LPS (GPGPU-Sim suite laplace3d): two Jacobi sweeps of the 3D Laplace equation, N^3 floats",
     WorkloadClass::Regular, {"lps.ptx"}, {"grid dimension N (N^3 points)", 32, kMaxN, 1,
       [](uint64_t n) { return 24 * n * n * n; }}},
    construct<Lps>);

}  // namespace

}  // namespace stacksim::workloads
