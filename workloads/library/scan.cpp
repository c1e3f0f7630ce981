// SPDX-License-Identifier: Apache-2.0
// scan workload: exclusive prefix sum of n uint32 (mod 2^32), CUDA SDK scanLargeArray style:
// prescan per 512-element chunk (block 256, grid ceil(n/512)), the chunk totals scanned
// recursively the same way, then uniform_add per level.
#include <cstdint>
#include <limits>
#include <vector>

#include "workloads/library/common.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 256;             // must equal SCAN_BLOCK in scan.cu
constexpr uint32_t kElems = 2 * kBlock;      // elements per prescan block
constexpr uint32_t kMaxN = std::numeric_limits<int32_t>::max() - kElems;

/// Scans `n` values at `in` into `out` (exclusive), recursing on the chunk totals.
void scan_level(HostApi& host, DevPtr in, DevPtr out, uint32_t n) {
    const uint32_t blocks = ceil_div(n, kElems);
    const DevPtr sums = host.malloc(uint64_t{blocks} * sizeof(uint32_t));
    host.launch("scan.ptx", "prescan", Dim3{blocks, 1, 1}, Dim3{kBlock, 1, 1},
                LaunchArgs().ptr(in).ptr(out).ptr(sums).i32(static_cast<int32_t>(n)));
    if (blocks > 1) {
        const DevPtr incr = host.malloc(uint64_t{blocks} * sizeof(uint32_t));
        scan_level(host, sums, incr, blocks);
        host.launch("scan.ptx", "uniform_add", Dim3{blocks, 1, 1}, Dim3{kBlock, 1, 1},
                    LaunchArgs().ptr(out).ptr(incr).i32(static_cast<int32_t>(n)));
        host.free(incr);
    }
    host.free(sums);
}

class Scan final : public Workload {
public:
    Scan(uint32_t n, uint64_t seed) : m_n(n), m_in(random_u32(n, sub_seed(seed, 0), 0, 1u << 24)) {}

    void run(HostApi& host) override {
        const DevPtr in = host.upload(m_in);
        const DevPtr out = host.malloc(uint64_t{m_n} * sizeof(uint32_t));
        scan_level(host, in, out, m_n);
        host.download(m_out, out, m_n);
        host.free(in);
        host.free(out);
        m_ran = true;
    }

    VerifyResult verify() override {
        if (!m_ran) return not_run_result();
        Checker check;
        uint32_t sum = 0;  // wraps mod 2^32 exactly as the device does
        for (uint32_t i = 0; i < m_n; ++i) {
            check.exact("out", i, m_out[i], sum);
            sum += m_in[i];
        }
        return check.result();
    }

private:
    uint32_t m_n;
    std::vector<uint32_t> m_in, m_out;
    bool m_ran = false;
};

}  // namespace

std::unique_ptr<Workload> make_scan(uint32_t size, uint64_t seed) {
    require_size("scan", size, kMaxN);
    return std::make_unique<Scan>(size, seed);
}

}  // namespace stacksim::workloads
