// SPDX-License-Identifier: Apache-2.0
// Warp-scheduling policies (textbook §3.4) and their registry.
#pragma once
#include <memory>

#include "core/warp_scheduler_policy.h"
#include "sim/registry.h"

namespace stacksim::sched {

using WarpSchedulerRegistry = sim::Registry<core::WarpSchedulerPolicy>;

/// Loose round robin: start after the warp that issued last (in the scheduler's warp list),
/// wrapping around.
class LrrPolicy : public core::WarpSchedulerPolicy {
public:
    void prioritize(const std::vector<core::WarpRef>& warps, std::vector<uint32_t>& order) override;
    void on_issue(uint32_t slot) override { m_last = slot; }

private:
    uint32_t m_last = ~0u;
};

/// Greedy then oldest: keep issuing from the warp that issued last until it stalls,
/// then the oldest ready warp.
class GtoPolicy : public core::WarpSchedulerPolicy {
public:
    void prioritize(const std::vector<core::WarpRef>& warps, std::vector<uint32_t>& order) override;
    void on_issue(uint32_t slot) override { m_last = slot; }

private:
    uint32_t m_last = ~0u;
    std::vector<core::WarpRef> m_sorted;
};

/// Registry of warp-scheduling policies: "lrr", "gto".
const WarpSchedulerRegistry& warp_scheduler_registry();

}  // namespace stacksim::sched
