// SPDX-License-Identifier: Apache-2.0
// scan workload: exclusive prefix sum of n uint32 (mod 2^32), CUDA SDK scanLargeArray style:
// prescan per 512-element chunk (block 256, grid ceil(n/512)), the chunk totals scanned
// recursively the same way, then uniform_add per level.
#include <cstdint>
#include <limits>
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 256;             // must equal SCAN_BLOCK in scan.cu
constexpr uint32_t kElems = 2 * kBlock;      // elements per prescan block
constexpr uint32_t kMaxN = std::numeric_limits<int32_t>::max() - kElems;

/// Scans `n` values at `in` into `out` (exclusive), recursing on the chunk totals; each level
/// frees its temporaries before returning.
void scan_level(Device& dev, DevPtr in, DevPtr out, uint32_t n) {
    const Shape chunks{Dim3{ceil_div(n, kElems), 1, 1}, Dim3{kBlock, 1, 1}};
    const uint32_t blocks = chunks.grid.x;
    const DevPtr sums = dev.alloc<uint32_t>(blocks);
    dev.launch("prescan", chunks, LaunchArgs().ptr(in).ptr(out).ptr(sums).i32(static_cast<int32_t>(n)));
    if (blocks > 1) {
        const DevPtr incr = dev.alloc<uint32_t>(blocks);
        scan_level(dev, sums, incr, blocks);
        dev.launch("uniform_add", chunks, LaunchArgs().ptr(out).ptr(incr).i32(static_cast<int32_t>(n)));
        dev.free(incr);
    }
    dev.free(sums);
}

class Scan final : public LibraryWorkload {
public:
    Scan(uint32_t n, uint64_t seed)
        : LibraryWorkload("scan.ptx"), m_n(n), m_in(random_u32(n, sub_seed(seed, 0), 0, 1u << 24)) {}

    void execute(Device& dev) override {
        const DevPtr in = dev.upload(m_in), out = dev.alloc<uint32_t>(m_n);
        scan_level(dev, in, out, m_n);
        dev.download(m_out, out);
    }

    void compare(Checker& check) const override {
        uint32_t sum = 0;  // wraps mod 2^32 exactly as the device does
        for (uint32_t i = 0; i < m_n; ++i) {
            check.exact("out", i, m_out[i], sum);
            sum += m_in[i];
        }
    }

private:
    uint32_t m_n;
    std::vector<uint32_t> m_in, m_out;
};

const bool registered = workload_registry().add(
    {"scan", "work-efficient (Blelloch) uint32 exclusive scan: block scans plus uniform add",
     WorkloadClass::RegularSharing, {"scan.ptx"}, {"elements", 16384, kMaxN, 1,
       [](uint64_t n) { return 16 * n; }}},
    construct<Scan>);

}  // namespace

}  // namespace stacksim::workloads
