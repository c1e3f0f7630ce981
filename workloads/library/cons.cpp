// SPDX-License-Identifier: Apache-2.0
// cons workload (CUDA SDK convolutionSeparable): 17-tap row pass, then column pass, N x N floats.
#include <cmath>
#include <cstdint>
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr int kRadius = 8;                     // must equal RADIUS in cons.cu
constexpr uint32_t kBlockX = 32, kBlockY = 8;  // BX, BY in cons.cu
constexpr uint32_t kMaxN = 16384;

// One pass in the kernel's order: sum = fma(filter[R - k], src, sum), k = -R..R; zero outside.
std::vector<float> pass(const std::vector<float>& src, const std::vector<float>& filter, int n, bool rows) {
    std::vector<float> dst(src.size());
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            float sum = 0.0f;
            for (int k = -kRadius; k <= kRadius; ++k) {
                const int xs = rows ? x + k : x, ys = rows ? y : y + k;
                const float v = xs >= 0 && xs < n && ys >= 0 && ys < n ? src[static_cast<size_t>(ys) * n + xs] : 0.0f;
                sum = std::fma(filter[static_cast<size_t>(kRadius - k)], v, sum);
            }
            dst[static_cast<size_t>(y) * n + x] = sum;
        }
    return dst;
}

class Cons final : public LibraryWorkload {
public:
    Cons(uint32_t n, uint64_t seed)
        : LibraryWorkload("cons.ptx"), m_n(n), m_in(random_f32(size_t{n} * n, sub_seed(seed, 0), 0.0f, 1.0f)),
          m_filter(random_f32(2 * kRadius + 1, sub_seed(seed, 1), 0.0f, 1.0f)) {}

    void execute(Device& dev) override {
        const DevPtr in = dev.upload(m_in);
        const DevPtr filter = dev.upload(m_filter);
        const DevPtr tmp = dev.alloc<float>(m_in.size());
        const DevPtr out = dev.alloc<float>(m_in.size());
        const int32_t n = static_cast<int32_t>(m_n);
        const Shape shape = tiled(m_n, m_n, kBlockX, kBlockY);
        dev.launch("convolution_rows", shape, LaunchArgs().ptr(tmp).ptr(in).ptr(filter).i32(n).i32(n));
        dev.launch("convolution_columns", shape, LaunchArgs().ptr(out).ptr(tmp).ptr(filter).i32(n).i32(n));
        dev.download(m_out, out);
    }

    void compare(Checker& check) const override {
        const int n = static_cast<int>(m_n);
        check.near_all("out", m_out, pass(pass(m_in, m_filter, n, true), m_filter, n, false));
    }

private:
    uint32_t m_n;
    std::vector<float> m_in, m_filter, m_out;
};

const bool registered = workload_registry().add(
    {"cons", "CUDA SDK convolutionSeparable: 17-tap row then column convolution of an N x N float image",
     WorkloadClass::RegularSharing, {"cons.ptx"}, {"image dimension N", 128, kMaxN, 1,
       [](uint64_t n) { return 32 * n * n; }}},
    construct<Cons>);

}  // namespace

}  // namespace stacksim::workloads
