// SPDX-License-Identifier: Apache-2.0
// random_traffic workload: seeded random read-modify-writes and atomics, checked word by word.
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 256;
constexpr uint32_t kGrid = 32;
constexpr uint32_t kRounds = 16;
constexpr uint32_t kCounters = 1024;

class RandomTraffic final : public LibraryWorkload {
public:
    RandomTraffic(uint32_t kb, uint64_t seed)
        : LibraryWorkload("random_traffic.ptx"),
          m_words_per_thread(std::max<uint32_t>(1, kb * 256 / (kGrid * kBlock))),
          m_seed(static_cast<uint32_t>(sub_seed(seed, 1))),
          m_data(random_u32(uint64_t{m_words_per_thread} * kGrid * kBlock, sub_seed(seed, 0), 0, ~0u)) {}

    void execute(Device& dev) override {
        const DevPtr data = dev.upload(m_data), counters = dev.zeros<uint32_t>(kCounters);
        dev.launch("random_traffic", linear(kGrid * kBlock, kBlock),
                   LaunchArgs().ptr(data).ptr(counters).u32(m_words_per_thread).u32(kCounters).u32(kRounds)
                       .u32(m_seed));
        dev.download(m_out, data);
        dev.download(m_counters, counters);
    }

    void compare(Checker& check) const override {
        std::vector<uint32_t> data = m_data, counters(kCounters, 0);
        const uint32_t threads = kGrid * kBlock;
        for (uint32_t tid = 0; tid < threads; ++tid) {
            uint32_t state = m_seed ^ (tid * 2654435761u);
            for (uint32_t r = 0; r < kRounds; ++r) {
                state = state * 1664525u + 1013904223u;
                const uint32_t index = ((state >> 8) % m_words_per_thread) * threads + tid;
                const uint32_t v = data[index];
                data[index] = v * 3u + r + 1u;
                counters[(state >> 4) % kCounters] += v & 255u;
            }
        }
        check.exact_all("data", m_out, data);
        check.exact_all("counters", m_counters, counters);
    }

private:
    uint32_t m_words_per_thread;
    uint32_t m_seed;
    std::vector<uint32_t> m_data, m_out, m_counters;
};

const bool registered = workload_registry().add(
    {"random_traffic", "seeded random read-modify-writes and atomics over a large array",
     WorkloadClass::Irregular, {"random_traffic.ptx"}, {"KB of data", 4096, 1u << 20, 1,
       [](uint64_t n) { return 3072 * n; }}},
    construct<RandomTraffic>);

}  // namespace

}  // namespace stacksim::workloads
