// SPDX-License-Identifier: Apache-2.0
// The shared part of address translation: L2 TLB, page-walk cache, pool of walkers (plain C++).
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

#include "memory/page_table.h"
#include "memory/tlb.h"
#include "memory/uvm_config.h"

namespace stacksim::memory {

/// Times an L1-TLB miss in core cycles: L2 TLB (l2_tlb_ports lookups per cycle,
/// l2_tlb_latency), then on a miss a page walk by one of `walkers` shared walkers (a walk
/// waits for a free one; concurrent misses to one page share a walk). Each upper level
/// found in the page-walk cache costs `pwc_latency`; a level missing it, and always the
/// leaf, reads its entry from memory:
/// - walk_reads = "memory": a real read of PageTable::pte_address(vpn, level), issued by the
///   client (translation unit) whose miss started the walk through its SM's memory path; the
///   walk goes on when the client reports the response (pte_read_done()). Event-driven:
///   nothing is polled while a walk waits on memory.
/// - walk_reads = "modelled": `walk_memory_latency` cycles, no request (translate()).
class TranslationService {
public:
    /// A translation unit as seen by the walkers.
    struct Client {
        /// The translation of `vpn` is back at this client's L1 TLB at `cycle` (>= now).
        std::function<void(uint64_t vpn, uint64_t cycle)> done;
        /// Read the page-table entry at `addr` for walk `walk` from cycle `cycle` (>= now) on,
        /// then call pte_read_done(walk, response cycle).
        std::function<void(uint64_t walk, uint64_t addr, uint64_t cycle)> read;
    };

    TranslationService(const UvmConfig& cfg, const PageTable& table);

    uint32_t attach(Client c);
    /// An L1 miss of `client` for `vpn` reaching the L2 TLB at `cycle` (non-decreasing over
    /// calls). Returns the cycle the translation is back if already known (L2 TLB hit,
    /// modelled walks); otherwise the client's done() is called when the walk ends.
    std::optional<uint64_t> request(uint32_t client, uint64_t vpn, uint64_t cycle);
    /// The response to walk `walk`'s current entry read arrived at `cycle`.
    void pte_read_done(uint64_t walk, uint64_t cycle);

    /// Modelled walk (walk_reads = "modelled"): returns the cycle the translation is back.
    /// Calls must come in non-decreasing `cycle` order.
    uint64_t translate(uint64_t vpn, uint64_t cycle);
    /// Drops `vpn` from the L2 TLB (TLB shootdown on eviction or migration back); a walk
    /// under way for it still answers its waiters but does not fill the L2 TLB.
    void invalidate(uint64_t vpn);

    bool memory_walks() const { return m_memory; }
    uint64_t l2_hits() const { return m_l2.hits(); }
    uint64_t l2_misses() const { return m_l2.misses(); }
    uint64_t pwc_hits() const { return m_pwc.hits(); }
    uint64_t pwc_misses() const { return m_pwc.misses(); }
    uint64_t walks() const { return m_walks; }
    uint64_t merged_walks() const { return m_merged; }
    /// Sum of walk latencies (L2 miss to translation done, including waiting for a walker).
    uint64_t walk_cycles() const { return m_walk_cycles; }
    uint64_t walker_wait_cycles() const { return m_wait_cycles; }
    /// Page-table entry reads sent through the memory system, and the cycles they took.
    uint64_t pte_reads() const { return m_pte_reads; }
    uint64_t pte_read_cycles() const { return m_pte_read_cycles; }
    /// Walks under way or waiting for a walker (memory walks).
    size_t walks_in_flight() const { return m_active.size(); }

private:
    struct Waiter {
        uint32_t client;
        uint64_t earliest;  ///< its L2 TLB lookup ends here
    };
    struct Walk {
        uint64_t vpn = 0;
        uint32_t issuer = 0;
        uint32_t level = 0;
        uint64_t looked_up = 0;
        uint64_t read_issued = 0;
        bool fill_l2 = true;
        std::vector<Waiter> waiters;
    };
    uint64_t port_slot(uint64_t cycle);
    void start(uint64_t id, uint64_t cycle);
    void advance(uint64_t id, uint64_t cycle);
    void finish(uint64_t id, uint64_t cycle);

    UvmConfig m_cfg;
    const PageTable& m_table;
    bool m_memory;
    Tlb m_l2, m_pwc;
    std::vector<Client> m_clients;
    // Modelled walks.
    std::vector<uint64_t> m_walker_free;   ///< cycle each walker is free from
    std::unordered_map<uint64_t, uint64_t> m_inflight;  ///< vpn -> cycle its walk ends
    // Memory walks.
    std::map<uint64_t, Walk> m_active;           ///< walk id -> walk (running or queued)
    std::unordered_map<uint64_t, uint64_t> m_by_vpn;  ///< vpn -> walk id
    std::deque<uint64_t> m_queue;                ///< walks waiting for a walker
    uint32_t m_idle_walkers;
    uint64_t m_next_id = 0;

    uint64_t m_port_cycle = 0;
    uint32_t m_port_used = 0;
    uint64_t m_walks = 0, m_merged = 0, m_walk_cycles = 0, m_wait_cycles = 0;
    uint64_t m_pte_reads = 0, m_pte_read_cycles = 0;
};

}  // namespace stacksim::memory
