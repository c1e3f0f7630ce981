// SPDX-License-Identifier: Apache-2.0
// FR-FCFS DRAM command scheduling (Rixner et al., ISCA 2000), with an optional row-hit cap.
#include <algorithm>

#include "memory/dram_scheduler.h"

namespace stacksim::memory {

namespace {

/// Parameters of frfcfs ([memory.dram.frfcfs]).
struct FrFcfsParams {
    uint32_t max_row_hits = 0;
    static const sim::Params<FrFcfsParams>& params() {
        static const auto p = [] {
            sim::Params<FrFcfsParams> p;
            p.add("max_row_hits", &FrFcfsParams::max_row_hits, "commands",
                  "consecutive row hits to a bank before an older miss to another row may close it (0 = no cap)")
                .range(0, 1u << 20);
            return p;
        }();
        return p;
    }
};

/// First-ready first-come-first-served (Rixner et al., ISCA 2000): ready row hits first,
/// oldest first; then the oldest ready command. A row that queued requests still hit is not
/// precharged, unless the optional cap on consecutive hits to that bank is reached.
class FrFcfs final : public DramScheduler {
public:
    explicit FrFcfs(const FrFcfsParams& p) : m_cap(p.max_row_hits) {}
    size_t choose(const std::vector<DramCandidate>& c, uint64_t now) const override {
        const std::vector<uint8_t>& ok = eligible(c);
        size_t oldest = none;
        for (size_t i = 0; i < c.size(); ++i) {
            if (!ok[i] || c[i].ready > now) continue;
            if (c[i].row_hit && !capped(c[i])) return i;
            if (oldest == none) oldest = i;
        }
        return oldest;
    }
    uint64_t next_ready(const std::vector<DramCandidate>& c) const override {
        const std::vector<uint8_t>& ok = eligible(c);
        uint64_t t = never;
        for (size_t i = 0; i < c.size(); ++i)
            if (ok[i]) t = std::min(t, c[i].ready);
        return t;
    }

private:
    bool capped(const DramCandidate& x) const { return m_cap != 0 && x.hit_streak >= m_cap; }
    /// A PRE closing a row with pending hits waits until the bank's hits are capped; once
    /// capped, hits younger than such a PRE wait for it (the older conflict goes first).
    /// In a buffer reused by every call (one scheduler per channel; called every busy cycle).
    const std::vector<uint8_t>& eligible(const std::vector<DramCandidate>& c) const {
        std::vector<uint8_t>& ok = m_ok;
        std::vector<uint32_t>& closing = m_closing;  // banks with an older eligible row-closing PRE
        ok.assign(c.size(), 1);
        closing.clear();
        for (size_t i = 0; i < c.size(); ++i) {
            const DramCandidate& x = c[i];
            if (x.closes_hit_row) {
                ok[i] = capped(x) ? 1 : 0;
                if (ok[i]) closing.push_back(x.bank);
            } else if (x.row_hit && capped(x) &&
                       std::find(closing.begin(), closing.end(), x.bank) != closing.end()) {
                ok[i] = 0;
            }
        }
        return ok;
    }
    uint32_t m_cap;
    mutable std::vector<uint8_t> m_ok;
    mutable std::vector<uint32_t> m_closing;
};

const bool registered = dram_schedulers().add_with<FrFcfsParams>(
    "frfcfs", "first-ready FCFS: row hits first, then the oldest (Rixner, ISCA 2000)",
    [](const FrFcfsParams& p) { return std::make_unique<FrFcfs>(p); });

}  // namespace

}  // namespace stacksim::memory
