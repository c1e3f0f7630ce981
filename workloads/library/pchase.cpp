// SPDX-License-Identifier: Apache-2.0
// pchase workload: one thread follows a cyclic chain; latency per memory level.
#include <algorithm>
#include <vector>

#include "sim/param.h"
#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

/// Parameters of the pointer chase ([pchase]): the distance between consecutive elements.
struct PchaseConfig {
    uint32_t stride_bytes = 128;  ///< multiple of 4; 128 = one new line per step
    static const sim::Params<PchaseConfig>& params() {
        static const auto p = [] {
            sim::Params<PchaseConfig> p;
            p.add("stride_bytes", &PchaseConfig::stride_bytes, "bytes", "distance between consecutive chain elements")
                .min(4)
                .check([](const uint32_t& v) { return v % 4 == 0; }, "a multiple of 4");
            return p;
        }();
        return p;
    }
};

/// Pointer chase over `size` KB (a single cyclic chain, `stride_bytes` apart). Launches the
/// same one-thread kernel three times: a warm-up pass over the whole chain, then S steps from
/// element 0 and 2 x S steps from element S (from 0 if the chain is shorter than 3 x S),
/// S = min(chain length, 4096). Per-step latency in cycles =
/// (cycles of launch 3 - cycles of launch 2) / S. Every final index is checked.
class Pchase final : public LibraryWorkload {
public:
    Pchase(const PchaseConfig& cfg, uint32_t size_kb) : LibraryWorkload("pchase.ptx") {
        const uint64_t words = uint64_t{size_kb} * 1024 / 4;
        const uint64_t step = cfg.stride_bytes / 4;
        m_steps = static_cast<uint32_t>(std::max<uint64_t>(1, words / step));
        m_next.assign(m_steps * step, 0);
        for (uint64_t i = 0; i < m_steps; ++i) m_next[i * step] = static_cast<uint32_t>(((i + 1) % m_steps) * step);
    }

    void execute(Device& dev) override {
        const DevPtr next = dev.upload(m_next), out = dev.alloc<uint32_t>(3);
        for (int k = 0; k < 3; ++k)
            dev.launch("pchase", linear(1, 1),
                       LaunchArgs().ptr(next).ptr(out + 4 * k).u32(start(k)).i32(static_cast<int32_t>(count(k))));
        dev.download(m_out, out);
    }

    void compare(Checker& check) const override {
        for (int k = 0; k < 3; ++k) {
            uint32_t p = start(k);
            for (uint32_t i = 0; i < count(k); ++i) p = m_next[p];
            check.exact("out", static_cast<uint64_t>(k), m_out[k], p);
        }
    }

private:
    /// Steps of the first measured launch (the second takes twice as many).
    uint32_t measured() const { return std::min<uint32_t>(m_steps, kMaxMeasured); }
    /// Launch k: 0 = warm-up over the whole chain; 1 and 2 walk disjoint parts of it when it is
    /// long enough (so neither finds lines the other brought in), else the whole chain again.
    uint32_t count(int k) const { return k == 0 ? m_steps : k == 1 ? measured() : 2 * measured(); }
    uint32_t start(int k) const {
        const bool disjoint = m_steps >= 3 * measured();
        return k == 2 && disjoint ? static_cast<uint32_t>(m_next.size() / m_steps) * measured() : 0;
    }
    static constexpr uint32_t kMaxMeasured = 4096;
    uint32_t m_steps = 0;
    std::vector<uint32_t> m_next, m_out;
};

const bool registered = workload_registry().add_with<PchaseConfig>(
    {"pchase", "latency microbenchmark: one thread chases a chain [pchase] stride_bytes apart",
     WorkloadClass::Other, {"pchase.ptx"}, {"footprint in KB", 64, 1u << 20, 1,
       [](uint64_t n) { return 2048 * n; }}},
    [](const PchaseConfig& cfg, const WorkloadArgs& a) { return std::make_unique<Pchase>(cfg, a.size); });

}  // namespace

}  // namespace stacksim::workloads
