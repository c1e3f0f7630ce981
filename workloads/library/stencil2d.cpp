// SPDX-License-Identifier: Apache-2.0
// stencil2d workload: kIters 5-point Jacobi sweeps over an n x n float grid (fixed border),
// ping-ponging two buffers; block (16,16) with a shared-memory halo tile, grid ceil(n/16)^2.
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kTile = 16;     // must equal ST_TILE in stencil2d.cu
constexpr uint32_t kIters = 4;     // Jacobi sweeps
constexpr uint32_t kMaxN = 46336;  // n*n must fit the kernel's int indices
constexpr float kC0 = 0.5f, kC1 = 0.125f;

class Stencil2d final : public LibraryWorkload {
public:
    Stencil2d(uint32_t n, uint64_t seed)
        : LibraryWorkload("stencil2d.ptx"), m_n(n), m_in(random_f32(size_t{n} * n, sub_seed(seed, 0), 0.0f, 1.0f)) {}

    void execute(Device& dev) override {
        DevPtr src = dev.upload(m_in), dst = dev.alloc<float>(m_in.size());
        for (uint32_t it = 0; it < kIters; ++it) {
            dev.launch("stencil2d", tiled(m_n, m_n, kTile, kTile),
                       LaunchArgs().ptr(src).ptr(dst).i32(static_cast<int32_t>(m_n)).f32(kC0).f32(kC1));
            std::swap(src, dst);
        }
        dev.download(m_out, src);
        for (DevPtr d : {src, dst}) dev.free(d);  // by role, as the program always has (they swap per launch)
    }

    void compare(Checker& check) const override {
        const size_t n = m_n;
        std::vector<float> a = m_in, b = m_in;
        for (uint32_t it = 0; it < kIters; ++it) {
            for (size_t i = 1; i + 1 < n; ++i)
                for (size_t j = 1; j + 1 < n; ++j) {  // fma(c0, centre, c1 * ((N + S) + (W + E)))
                    const size_t x = i * n + j;
                    b[x] = std::fma(kC0, a[x], kC1 * ((a[x - n] + a[x + n]) + (a[x - 1] + a[x + 1])));
                }
            std::swap(a, b);
        }
        check.near_all("out", m_out, a);
    }

private:
    uint32_t m_n;
    std::vector<float> m_in, m_out;
};

const bool registered = workload_registry().add(
    {"stencil2d", "5-point Jacobi, 4 sweeps with 16x16 shared-memory halo tiles (float)",
     WorkloadClass::Regular, {"stencil2d.ptx"}, {"grid dimension N", 128, kMaxN, 1,
       [](uint64_t n) { return 16 * n * n; }}},
    construct<Stencil2d>);

}  // namespace

}  // namespace stacksim::workloads
