// SPDX-License-Identifier: Apache-2.0
// sad workload (Parboil SAD): 4x4-block sums of absolute differences over a +-4 search window.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kRange = 4;                            // search window +-4 pixels
constexpr uint32_t kSide = 2 * kRange + 1;
constexpr uint32_t kPositions = kSide * kSide;            // 81 SADs per macroblock
constexpr uint32_t kBlock = 128;
constexpr uint32_t kMaxN = 16384;                         // N*N/16 * 81 threads fit an int

std::vector<uint16_t> frame(size_t pixels, uint64_t seed) {
    std::vector<uint16_t> f;
    f.reserve(pixels);
    for (uint32_t v : random_u32(pixels, seed, 0, 255)) f.push_back(static_cast<uint16_t>(v));
    return f;
}

class Sad final : public LibraryWorkload {
public:
    Sad(uint32_t n, uint64_t seed)
        : LibraryWorkload("sad.ptx"), m_n(n), m_cur(frame(size_t{n} * n, sub_seed(seed, 0))),
          m_ref(frame(size_t{n} * n, sub_seed(seed, 1))) {}

    void execute(Device& dev) override {
        const DevPtr cur = dev.upload(m_cur);
        const DevPtr ref = dev.upload(m_ref);
        const uint64_t threads = uint64_t{m_n / 4} * (m_n / 4) * kPositions;
        const DevPtr sads = dev.zeros<uint16_t>(threads);
        const int32_t n = static_cast<int32_t>(m_n);
        dev.launch("mb_sad_calc", linear(threads, kBlock),
                   LaunchArgs().ptr(cur).ptr(ref).ptr(sads).i32(n).i32(n).i32(static_cast<int32_t>(kRange)));
        dev.download(m_sads, sads);
    }

    void compare(Checker& check) const override {
        const int n = static_cast<int>(m_n), r = static_cast<int>(kRange);
        const int mbs_x = n / 4;
        for (size_t t = 0; t < m_sads.size(); ++t) {
            const int mb = static_cast<int>(t / kPositions), pos = static_cast<int>(t % kPositions);
            const int dy = pos / static_cast<int>(kSide) - r, dx = pos % static_cast<int>(kSide) - r;
            const int x0 = (mb % mbs_x) * 4, y0 = (mb / mbs_x) * 4;
            uint32_t sum = 0;
            for (int y = 0; y < 4; ++y) {
                const int ry = std::clamp(y0 + y + dy, 0, n - 1);
                for (int x = 0; x < 4; ++x) {
                    const int rx = std::clamp(x0 + x + dx, 0, n - 1);
                    sum += static_cast<uint32_t>(std::abs(int{m_cur[static_cast<size_t>((y0 + y) * n + x0 + x)]} -
                                                          int{m_ref[static_cast<size_t>(ry * n + rx)]}));
                }
            }
            check.exact("sads", t, m_sads[t], static_cast<uint16_t>(sum));
        }
    }

private:
    uint32_t m_n;
    std::vector<uint16_t> m_cur, m_ref, m_sads;
};

const bool registered = workload_registry().add(
    {"sad", "Parboil SAD: 4x4-block sums of absolute differences, +-4 search window, N x N 16-bit frames",
     WorkloadClass::Regular, {"sad.ptx"}, {"frame dimension N (multiple of 4)", 64, kMaxN, 4,
       [](uint64_t n) { return 48 * n * n; }}},
    construct<Sad>);

}  // namespace

}  // namespace stacksim::workloads
