// SPDX-License-Identifier: Apache-2.0
// pathfinder workload (Rodinia PATHFINDER): cheapest top-to-bottom path costs over a kRows x n
// int grid, kPyramid rows per launch; block 256, grid ceil(n / (256 - 2*kPyramid)).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 256;  // must equal PF_BLOCK in pathfinder.cu
constexpr uint32_t kRows = 20;    // grid rows (Rodinia's run script: 100)
constexpr uint32_t kPyramid = 5;  // rows per launch (Rodinia's pyramid_height; run script: 20)
constexpr uint32_t kMaxN = (1u << 31) / kRows;

class Pathfinder final : public LibraryWorkload {
public:
    Pathfinder(uint32_t n, uint64_t seed)
        : LibraryWorkload("pathfinder.ptx"),
          m_n(n),
          m_data(random_i32(size_t{kRows} * n, sub_seed(seed, 0), 0, 9)) {}  // Rodinia: rand() % 10

    void execute(Device& dev) override {
        const DevPtr wall = dev.upload(m_data);  // row 0 is the source row; the kernel reads rows 1..
        DevPtr src = dev.alloc<int32_t>(m_n), dst = dev.alloc<int32_t>(m_n);
        dev.copy_in(src, m_data.data(), m_n);
        // Each CTA computes its inner 256 - 2 x kPyramid columns.
        const Shape shape{Dim3{ceil_div(m_n, kBlock - 2 * kPyramid), 1, 1}, Dim3{kBlock, 1, 1}};
        const auto cols = static_cast<int32_t>(m_n);
        for (uint32_t t = 0; t + 1 < kRows; t += kPyramid) {
            const auto iters = static_cast<int32_t>(std::min(kPyramid, kRows - t - 1));
            dev.launch("dynproc_kernel", shape,
                       LaunchArgs().i32(iters).ptr(wall + uint64_t{m_n} * sizeof(int32_t)).ptr(src).ptr(dst).i32(cols)
                           .i32(static_cast<int32_t>(kRows)).i32(static_cast<int32_t>(t))
                           .i32(static_cast<int32_t>(kPyramid)));
            std::swap(src, dst);
        }
        dev.download(m_result, src);
        for (DevPtr d : {wall, src, dst}) dev.free(d);  // by role, as the program always has (they swap per launch)
    }

    void compare(Checker& check) const override {
        const size_t n = m_n;
        std::vector<int32_t> dp(m_data.begin(), m_data.begin() + static_cast<std::ptrdiff_t>(n)), next(n);
        for (size_t r = 1; r < kRows; ++r) {
            for (size_t c = 0; c < n; ++c) {
                const int32_t left = dp[c == 0 ? c : c - 1], right = dp[c + 1 == n ? c : c + 1];
                next[c] = std::min({left, dp[c], right}) + m_data[r * n + c];
            }
            dp.swap(next);
        }
        check.exact_all("result", m_result, dp);
    }

private:
    uint32_t m_n;
    std::vector<int32_t> m_data, m_result;
};

const bool registered = workload_registry().add(
    {"pathfinder", "Rodinia PATHFINDER: dynamic programming over 20 rows, 5 per launch (int)",
     WorkloadClass::Regular, {"pathfinder.ptx"}, {"columns", 4096, kMaxN, 1,
       [](uint64_t n) { return 176 * n; }}},
    construct<Pathfinder>);

}  // namespace

}  // namespace stacksim::workloads
