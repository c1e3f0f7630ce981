// SPDX-License-Identifier: Apache-2.0
// srad workload (Rodinia SRAD v2): kIters iterations of srad_cuda_1 + srad_cuda_2 on an n x n
// image (n a multiple of 16); block (16,16), grid (n/16, n/16); the host computes q0sqr from
// the region of interest of the image it copies back before each iteration.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBs = 16;       // must equal SR_BS in srad.cu
constexpr uint32_t kMaxN = 46336;  // n*n must fit the kernels' int indices
constexpr uint32_t kIters = 2;     // Rodinia's run script: niter 2
constexpr uint32_t kRoi = 128;     // region of interest rows/cols [0, 128) (Rodinia: 0 127 0 127)
constexpr float kLambda = 0.5f;

/// Rodinia's host-side statistics of the region of interest, in float as Rodinia does.
float q0sqr_of(const std::vector<float>& j, size_t n) {
    const size_t roi = std::min<size_t>(n, kRoi);
    float sum = 0.0f, sum2 = 0.0f;
    for (size_t r = 0; r < roi; ++r)
        for (size_t c = 0; c < roi; ++c) {
            const float t = j[r * n + c];
            sum += t;
            sum2 += t * t;
        }
    const auto size_r = static_cast<float>(roi * roi);
    const float mean = sum / size_r;
    const float var = (sum2 / size_r) - mean * mean;
    return var / (mean * mean);
}

class Srad final : public LibraryWorkload {
public:
    Srad(uint32_t n, uint64_t seed)
        : LibraryWorkload("srad.ptx"), m_n(n), m_j_in(random_f32(size_t{n} * n, sub_seed(seed, 0), 0.0f, 1.0f)) {
        for (float& v : m_j_in) v = std::exp(v);  // Rodinia: J = exp(image)
    }

    void execute(Device& dev) override {
        const size_t count = m_j_in.size();
        const DevPtr j = dev.upload(m_j_in), c = dev.alloc<float>(count);
        const DevPtr e = dev.alloc<float>(count), w = dev.alloc<float>(count);
        const DevPtr nn = dev.alloc<float>(count), s = dev.alloc<float>(count);
        const Shape tiles = tiled(m_n, m_n, kBs, kBs);
        const auto n = static_cast<int32_t>(m_n);
        for (uint32_t it = 0; it < kIters; ++it) {
            dev.download(m_j, j);
            const float q0sqr = q0sqr_of(m_j, m_n);
            dev.launch("srad_cuda_1", tiles,
                       LaunchArgs().ptr(e).ptr(w).ptr(nn).ptr(s).ptr(j).ptr(c).i32(n).i32(n).f32(q0sqr));
            dev.launch("srad_cuda_2", tiles,
                       LaunchArgs().ptr(e).ptr(w).ptr(nn).ptr(s).ptr(j).ptr(c).i32(n).i32(n).f32(kLambda).f32(q0sqr));
        }
        dev.download(m_j, j);
        dev.download(m_c, c);
    }

    void compare(Checker& check) const override {
        const size_t n = m_n;
        std::vector<float> j = m_j_in, c(n * n), dn(n * n), ds(n * n), dw(n * n), de(n * n);
        for (uint32_t it = 0; it < kIters; ++it) {
            const float q0sqr = q0sqr_of(j, n);
            for (size_t r = 0; r < n; ++r)
                for (size_t k = 0; k < n; ++k) {  // srad_cuda_1, in the PTX's operation order
                    const size_t x = r * n + k;
                    const float jc = j[x];
                    const float nv = (r == 0 ? jc : j[x - n]) - jc, sv = (r + 1 == n ? jc : j[x + n]) - jc;
                    const float wv = (k == 0 ? jc : j[x - 1]) - jc, ev = (k + 1 == n ? jc : j[x + 1]) - jc;
                    const float g2 = std::fma(ev, ev, std::fma(wv, wv, std::fma(nv, nv, sv * sv))) / (jc * jc);
                    const float l = (((nv + sv) + wv) + ev) / jc;
                    const float num = std::fma(g2, 0.5f, (l * l) * -0.0625f);
                    const float den = std::fma(l, 0.25f, 1.0f);
                    const float qsqr = num / (den * den);
                    const float cv = 1.0f / ((qsqr - q0sqr) / ((q0sqr + 1.0f) * q0sqr) + 1.0f);
                    c[x] = cv < 0.0f ? 0.0f : (cv > 1.0f ? 1.0f : cv);
                    dn[x] = nv, ds[x] = sv, dw[x] = wv, de[x] = ev;
                }
            for (size_t r = 0; r < n; ++r)
                for (size_t k = 0; k < n; ++k) {  // srad_cuda_2
                    const size_t x = r * n + k;
                    const float cc = c[x], cs = r + 1 == n ? cc : c[x + n], ce = k + 1 == n ? cc : c[x + 1];
                    const float d_sum = std::fma(ce, de[x], std::fma(cc, dw[x], std::fma(cc, dn[x], cs * ds[x])));
                    j[x] = std::fma(0.25f * kLambda, d_sum, j[x]);
                }
        }
        check.near_all("J", m_j, j);
        check.near_all("C", m_c, c);
    }

private:
    uint32_t m_n;
    std::vector<float> m_j_in, m_j, m_c;
};

const bool registered = workload_registry().add(
    {"srad", "Rodinia SRAD v2: 2 diffusion iterations of two shared-memory tile kernels",
     WorkloadClass::RegularSharing, {"srad.ptx"}, {"image dimension N (multiple of 16)", 64, kMaxN, kBs,
       [](uint64_t n) { return 40 * n * n; }}},
    construct<Srad>);

}  // namespace

}  // namespace stacksim::workloads
