// SPDX-License-Identifier: Apache-2.0
// hotspot workload (Rodinia HOTSPOT): kSteps time steps of the thermal stencil on an n x n
// grid, kPyramid steps per launch; block (16,16), grid ceil(n/12) x ceil(n/12).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBs = 16;       // must equal HS_BLOCK in hotspot.cu
constexpr uint32_t kPyramid = 2;   // time steps per launch (Rodinia's pyramid_height)
constexpr uint32_t kSteps = 6;     // total time steps
constexpr uint32_t kMaxN = 46336;  // n*n must fit the kernel's int indices

/// Rodinia's chip constants, reduced to the kernel's float parameters.
struct Params {
    float cap, rx, ry, rz, step;
    explicit Params(uint32_t n) {
        const double t_chip = 0.0005, chip = 0.016, k_si = 100, spec_heat = 1.75e6, factor = 0.5;
        const double gh = chip / n, gw = chip / n;
        cap = static_cast<float>(factor * spec_heat * t_chip * gw * gh);
        rx = static_cast<float>(gw / (2.0 * k_si * t_chip * gh));
        ry = static_cast<float>(gh / (2.0 * k_si * t_chip * gw));
        rz = static_cast<float>(t_chip / (k_si * gh * gw));
        step = static_cast<float>(0.001 / (3.0e6 / (factor * t_chip * spec_heat)));
    }
};

class Hotspot final : public LibraryWorkload {
public:
    Hotspot(uint32_t n, uint64_t seed)
        : LibraryWorkload("hotspot.ptx"),
          m_n(n),
          m_temp_in(random_f32(size_t{n} * n, sub_seed(seed, 0), 300.0f, 350.0f)),
          m_power(random_f32(size_t{n} * n, sub_seed(seed, 1), 0.0f, 2.0f)) {}

    void execute(Device& dev) override {
        const DevPtr power = dev.upload(m_power);
        DevPtr src = dev.upload(m_temp_in), dst = dev.alloc<float>(m_temp_in.size());
        const Params p(m_n);
        const uint32_t blocks = ceil_div(m_n, kBs - 2 * kPyramid);  // each CTA computes its inner 12 x 12
        const Shape shape{Dim3{blocks, blocks, 1}, Dim3{kBs, kBs, 1}};
        const auto n = static_cast<int32_t>(m_n), border = static_cast<int32_t>(kPyramid);
        for (uint32_t t = 0; t < kSteps; t += kPyramid) {
            const auto iters = static_cast<int32_t>(std::min(kPyramid, kSteps - t));
            dev.launch("calculate_temp", shape,
                       LaunchArgs().i32(iters).ptr(power).ptr(src).ptr(dst).i32(n).i32(n).i32(border).i32(border)
                           .f32(p.cap).f32(p.rx).f32(p.ry).f32(p.rz).f32(p.step));
            std::swap(src, dst);
        }
        dev.download(m_temp, src);
        for (DevPtr d : {power, src, dst}) dev.free(d);  // by role, as the program always has (they swap per launch)
    }

    void compare(Checker& check) const override {
        const size_t n = m_n;
        const Params p(m_n);
        const float sdc = p.step / p.cap, rx_1 = 1.0f / p.rx, ry_1 = 1.0f / p.ry, rz_1 = 1.0f / p.rz;
        std::vector<float> t = m_temp_in, next(t.size());
        for (uint32_t s = 0; s < kSteps; ++s) {
            for (size_t r = 0; r < n; ++r)
                for (size_t c = 0; c < n; ++c) {  // clamped neighbours; the PTX's operation order
                    const float tc = t[r * n + c];
                    const float nv = t[(r == 0 ? r : r - 1) * n + c], sv = t[(r + 1 == n ? r : r + 1) * n + c];
                    const float wv = t[r * n + (c == 0 ? c : c - 1)], ev = t[r * n + (c + 1 == n ? c : c + 1)];
                    float acc = std::fma(ry_1, (sv + nv) - (tc + tc), m_power[r * n + c]);
                    acc = std::fma(rx_1, (ev + wv) - (tc + tc), acc);
                    acc = std::fma(rz_1, 80.0f - tc, acc);
                    next[r * n + c] = std::fma(sdc, acc, tc);
                }
            t.swap(next);
        }
        check.near_all("temp", m_temp, t);
    }

private:
    uint32_t m_n;
    std::vector<float> m_temp_in, m_power, m_temp;
};

const bool registered = workload_registry().add(
    {"hotspot", "Rodinia HOTSPOT: 6 thermal time steps, 2 per launch with shared-memory pyramids",
     WorkloadClass::Regular, {"hotspot.ptx"}, {"grid dimension N", 64, kMaxN, 1,
       [](uint64_t n) { return 24 * n * n; }}},
    construct<Hotspot>);

}  // namespace

}  // namespace stacksim::workloads
