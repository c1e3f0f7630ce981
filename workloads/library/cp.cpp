// SPDX-License-Identifier: Apache-2.0
// cp workload (GPGPU-Sim ISPASS-2009 suite CP, Parboil cuenergy "short"): the Coulombic
// potential of kAtoms random point charges on an N x N plane; one launch, block 16 x 8, each
// thread two points 16 apart, accumulated into a zeroed grid.
#include <cmath>
#include <cstdint>
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlockX = 16, kBlockY = 8, kUnroll = 2;  // BLOCKSIZEX, BLOCKSIZEY, UNROLLX
constexpr uint32_t kAtoms = 200;                           // the suite's ATOMCOUNT
constexpr float kSpacing = 0.1f;                           // gridspacing (angstrom)
constexpr uint32_t kMaxN = 8192;

class Cp final : public LibraryWorkload {
public:
    Cp(uint32_t n, uint64_t seed) : LibraryWorkload("cp.ptx"), m_n(n) {
        // Charges anywhere over the plane, up to one grid spacing off it; z is stored as the
        // squared distance to the plane, as the original's copy to constant memory does.
        const float side = kSpacing * static_cast<float>(n);
        const std::vector<float> x = random_f32(kAtoms, sub_seed(seed, 0), 0.0f, side);
        const std::vector<float> y = random_f32(kAtoms, sub_seed(seed, 1), 0.0f, side);
        const std::vector<float> z = random_f32(kAtoms, sub_seed(seed, 2), 0.0f, kSpacing);
        const std::vector<float> q = random_f32(kAtoms, sub_seed(seed, 3), -1.0f, 1.0f);
        for (uint32_t a = 0; a < kAtoms; ++a) {
            m_atoms.insert(m_atoms.end(), {x[a], y[a], z[a] * z[a], q[a]});
        }
    }

    void execute(Device& dev) override {
        const DevPtr grid = dev.zeros<float>(size_t{m_n} * m_n);
        const DevPtr atoms = dev.upload(m_atoms);
        dev.launch("cenergy", {Dim3{m_n / (kBlockX * kUnroll), m_n / kBlockY, 1}, Dim3{kBlockX, kBlockY, 1}},
                   LaunchArgs().i32(static_cast<int32_t>(kAtoms)).f32(kSpacing).ptr(atoms).ptr(grid));
        dev.download(m_grid, grid);
    }

    void compare(Checker& check) const override {
        std::vector<float> want(size_t{m_n} * m_n, 0.0f);
        const float spacing_u = kSpacing * static_cast<float>(kBlockX);
        for (uint32_t yi = 0; yi < m_n; ++yi)
            for (uint32_t xi = 0; xi < m_n; ++xi) {
                if (xi / kBlockX % kUnroll != 0) continue;  // the second point of a thread
                const float coory = static_cast<float>(yi) * kSpacing;
                const float coorx = static_cast<float>(xi) * kSpacing;
                float e1 = 0.0f, e2 = 0.0f;
                for (uint32_t a = 0; a < kAtoms; ++a) {  // nvcc's contraction, in its order
                    const float* at = &m_atoms[size_t{a} * 4];
                    const float dy = coory - at[1];
                    const float dyz2 = std::fma(dy, dy, at[2]);
                    const float dx1 = coorx - at[0];
                    const float dx2 = spacing_u + dx1;
                    e1 = std::fma(at[3], 1.0f / std::sqrt(std::fma(dx1, dx1, dyz2)), e1);
                    e2 = std::fma(at[3], 1.0f / std::sqrt(std::fma(dx2, dx2, dyz2)), e2);
                }
                want[size_t{yi} * m_n + xi] += e1;
                want[size_t{yi} * m_n + xi + kBlockX] += e2;
            }
        check.near_all("energygrid", m_grid, want);
    }

private:
    uint32_t m_n;
    std::vector<float> m_atoms, m_grid;
};

const bool registered = workload_registry().add(
    {"cp", "CP (GPGPU-Sim suite, Parboil cuenergy): Coulombic potential of 200 charges on an N x N plane",
     WorkloadClass::Regular, {"cp.ptx"}, {"grid dimension N (N x N points, multiple of 32)", 256, kMaxN, 32,
       [](uint64_t n) { return 4 * n * n + 16 * kAtoms; }}},
    construct<Cp>);

}  // namespace

}  // namespace stacksim::workloads
