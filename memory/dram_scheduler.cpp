// SPDX-License-Identifier: Apache-2.0
// DRAM command-scheduling policies ("fcfs", "frfcfs") behind a sim::Registry.
#include "memory/dram_scheduler.h"

#include <algorithm>

namespace stacksim::memory {

namespace {

/// First-come first-served: only the oldest request may issue (Rixner et al., ISCA 2000,
/// in-order baseline).
class Fcfs : public DramScheduler {
public:
    size_t choose(const std::vector<DramCandidate>& c, uint64_t now) const override {
        return !c.empty() && c[0].ready <= now ? 0 : none;
    }
    uint64_t next_ready(const std::vector<DramCandidate>& c) const override {
        return c.empty() ? never : c[0].ready;
    }
};

/// First-ready first-come-first-served (Rixner et al., ISCA 2000): ready row hits first,
/// oldest first; then the oldest ready command. A row that queued requests still hit is not
/// precharged, unless the optional cap on consecutive hits to that bank is reached.
class FrFcfs : public DramScheduler {
public:
    explicit FrFcfs(uint32_t cap) : m_cap(cap) {}
    size_t choose(const std::vector<DramCandidate>& c, uint64_t now) const override {
        const std::vector<bool> ok = eligible(c);
        size_t oldest = none;
        for (size_t i = 0; i < c.size(); ++i) {
            if (!ok[i] || c[i].ready > now) continue;
            if (c[i].row_hit && !capped(c[i])) return i;
            if (oldest == none) oldest = i;
        }
        return oldest;
    }
    uint64_t next_ready(const std::vector<DramCandidate>& c) const override {
        const std::vector<bool> ok = eligible(c);
        uint64_t t = never;
        for (size_t i = 0; i < c.size(); ++i)
            if (ok[i]) t = std::min(t, c[i].ready);
        return t;
    }

private:
    bool capped(const DramCandidate& x) const { return m_cap != 0 && x.hit_streak >= m_cap; }
    /// A PRE closing a row with pending hits waits until the bank's hits are capped; once
    /// capped, hits younger than such a PRE wait for it (the older conflict goes first).
    std::vector<bool> eligible(const std::vector<DramCandidate>& c) const {
        std::vector<bool> ok(c.size(), true);
        std::vector<uint32_t> closing;  // banks with an older eligible row-closing PRE
        for (size_t i = 0; i < c.size(); ++i) {
            const DramCandidate& x = c[i];
            if (x.closes_hit_row) {
                ok[i] = capped(x);
                if (ok[i]) closing.push_back(x.bank);
            } else if (x.row_hit && capped(x) &&
                       std::find(closing.begin(), closing.end(), x.bank) != closing.end()) {
                ok[i] = false;
            }
        }
        return ok;
    }
    uint32_t m_cap;
};

}  // namespace

const DramSchedulerRegistry& dram_schedulers() {
    static const DramSchedulerRegistry registry = [] {
        DramSchedulerRegistry r("DRAM scheduler");
        r.add("fcfs", "first come first served: the oldest request's command only",
              [](uint32_t) { return std::make_unique<Fcfs>(); });
        r.add("frfcfs", "first-ready FCFS: row hits first, then the oldest (Rixner, ISCA 2000)",
              [](uint32_t cap) { return std::make_unique<FrFcfs>(cap); });
        return r;
    }();
    return registry;
}

}  // namespace stacksim::memory
