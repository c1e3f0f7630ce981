// SPDX-License-Identifier: Apache-2.0
// The shared part of address translation: L2 TLB, page-walk cache, pool of walkers (plain C++).
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "memory/page_table.h"
#include "memory/tlb.h"
#include "memory/uvm_config.h"

namespace stacksim::memory {

/// Times an L1-TLB miss in core cycles. Page-table reads are not sent through the memory
/// system: each level missing the page-walk cache costs `walk_memory_latency` cycles (a
/// modelled DRAM access), each level hitting it `pwc_latency`; the leaf level is always
/// read from memory. Walks wait for a free walker; concurrent misses to one page share a walk.
class TranslationService {
public:
    TranslationService(const UvmConfig& cfg, const PageTable& table);

    /// An L1 miss for `vpn` reaching the L2 TLB at `cycle`; returns the cycle the translation
    /// is back at the L1 TLB. Calls must come in non-decreasing `cycle` order.
    uint64_t translate(uint64_t vpn, uint64_t cycle);
    /// Drops `vpn` from the L2 TLB (TLB shootdown on eviction or migration back).
    void invalidate(uint64_t vpn) { m_l2.invalidate(vpn); }

    uint64_t l2_hits() const { return m_l2.hits(); }
    uint64_t l2_misses() const { return m_l2.misses(); }
    uint64_t pwc_hits() const { return m_pwc.hits(); }
    uint64_t pwc_misses() const { return m_pwc.misses(); }
    uint64_t walks() const { return m_walks; }
    uint64_t merged_walks() const { return m_merged; }
    /// Sum of walk latencies (L2 miss to translation done, including waiting for a walker).
    uint64_t walk_cycles() const { return m_walk_cycles; }
    uint64_t walker_wait_cycles() const { return m_wait_cycles; }

private:
    UvmConfig m_cfg;
    const PageTable& m_table;
    Tlb m_l2, m_pwc;
    std::vector<uint64_t> m_walker_free;   ///< cycle each walker is free from
    std::unordered_map<uint64_t, uint64_t> m_inflight;  ///< vpn -> cycle its walk ends
    uint64_t m_port_cycle = 0;
    uint32_t m_port_used = 0;
    uint64_t m_walks = 0, m_merged = 0, m_walk_cycles = 0, m_wait_cycles = 0;
};

}  // namespace stacksim::memory
