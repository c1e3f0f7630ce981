// SPDX-License-Identifier: Apache-2.0
// lud workload (Rodinia LUD): blocked in-place LU of an n x n matrix (n a multiple of 16); per
// 16-column step lud_diagonal (1 x 16), lud_perimeter (b x 32), lud_internal (b x b, 16x16)
// on the shared matrix, then a last lud_diagonal.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBs = 16;       // must equal LUD_BS in lud.cu
constexpr uint32_t kMaxN = 46336;  // n*n must fit the kernels' int indices

/// The CPU replay of the three kernels, with the PTX's rounding: the diagonal and perimeter
/// updates are mul.f32 then sub.f32 (not contracted), the internal dot product is fma.rn.f32.
class LudReference {
public:
    LudReference(std::vector<float>& m, size_t n) : m_m(m), m_n(n) {}
    float& at(size_t r, size_t c) { return m_m[r * m_n + c]; }

    void diagonal(size_t off) {
        for (size_t i = 0; i + 1 < kBs; ++i) {
            for (size_t t = i + 1; t < kBs; ++t) {
                float& x = at(off + t, off + i);
                for (size_t j = 0; j < i; ++j) x = x - at(off + t, off + j) * at(off + j, off + i);
                x = x / at(off + i, off + i);
            }
            for (size_t t = i + 1; t < kBs; ++t) {
                float& x = at(off + i + 1, off + t);
                for (size_t j = 0; j <= i; ++j) x = x - at(off + i + 1, off + j) * at(off + j, off + t);
            }
        }
    }
    void perimeter(size_t off, size_t blk) {  // blk: the strip's block index past the diagonal
        const size_t col = off + blk * kBs;
        for (size_t t = 0; t < kBs; ++t) {
            for (size_t i = 1; i < kBs; ++i)  // row strip: solve L * U_block
                for (size_t j = 0; j < i; ++j)
                    at(off + i, col + t) = at(off + i, col + t) - at(off + i, off + j) * at(off + j, col + t);
            for (size_t i = 0; i < kBs; ++i) {  // column strip: solve L_block * U
                float& x = at(col + t, off + i);
                for (size_t j = 0; j < i; ++j) x = x - at(col + t, off + j) * at(off + j, off + i);
                x = x / at(off + i, off + i);
            }
        }
    }
    void internal(size_t off, size_t row0, size_t col0) {
        for (size_t ty = 0; ty < kBs; ++ty)
            for (size_t tx = 0; tx < kBs; ++tx) {
                float sum = 0.0f;
                for (size_t i = 0; i < kBs; ++i) sum = std::fma(at(row0 + ty, off + i), at(off + i, col0 + tx), sum);
                at(row0 + ty, col0 + tx) -= sum;
            }
    }

private:
    std::vector<float>& m_m;
    size_t m_n;
};

class Lud final : public LibraryWorkload {
public:
    Lud(uint32_t n, uint64_t seed)
        : LibraryWorkload("lud.ptx"), m_n(n), m_in(random_f32(size_t{n} * n, sub_seed(seed, 0), 0.0f, 1.0f)) {
        for (size_t i = 0; i < n; ++i) m_in[i * n + i] += static_cast<float>(n);  // diagonally dominant
    }

    void execute(Device& dev) override {
        const DevPtr m = dev.upload(m_in);
        const auto n = static_cast<int32_t>(m_n);
        const Shape diagonal{Dim3{1, 1, 1}, Dim3{kBs, 1, 1}};
        int32_t i = 0;
        for (; i < n - static_cast<int32_t>(kBs); i += kBs) {
            const uint32_t strips = static_cast<uint32_t>(n - i) / kBs - 1;
            const LaunchArgs args = LaunchArgs().ptr(m).i32(n).i32(i);
            dev.launch("lud_diagonal", diagonal, args);
            dev.launch("lud_perimeter", Shape{Dim3{strips, 1, 1}, Dim3{2 * kBs, 1, 1}}, args);
            dev.launch("lud_internal", Shape{Dim3{strips, strips, 1}, Dim3{kBs, kBs, 1}}, args);
        }
        dev.launch("lud_diagonal", diagonal, LaunchArgs().ptr(m).i32(n).i32(i));
        dev.download(m_out, m);
    }

    void compare(Checker& check) const override {
        const size_t n = m_n;
        std::vector<float> m = m_in;
        LudReference ref(m, n);
        size_t off = 0;
        for (; off + kBs < n; off += kBs) {
            ref.diagonal(off);
            const size_t strips = (n - off) / kBs - 1;
            for (size_t b = 1; b <= strips; ++b) ref.perimeter(off, b);
            for (size_t by = 1; by <= strips; ++by)
                for (size_t bx = 1; bx <= strips; ++bx) ref.internal(off, off + by * kBs, off + bx * kBs);
        }
        ref.diagonal(off);
        check.near_all("m", m_out, m);
    }

private:
    uint32_t m_n;
    std::vector<float> m_in, m_out;
};

const bool registered = workload_registry().add(
    {"lud", "Rodinia LUD: blocked LU decomposition (diagonal, perimeter, internal kernels)",
     WorkloadClass::RegularSharing, {"lud.ptx"}, {"matrix dimension N (multiple of 16)", 64, kMaxN, kBs,
       [](uint64_t n) { return 16 * n * n; }}},
    construct<Lud>);

}  // namespace

}  // namespace stacksim::workloads
