// SPDX-License-Identifier: Apache-2.0
// Per-SM address translation between the SM and its L1: L1 TLB, then the GMMU's residency check.
#pragma once
#include <cstdint>
#include <deque>
#include <queue>
#include <set>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>

#include "memory/gmmu.h"
#include "memory/tlb.h"
#include "sim/clock_domain.h"
#include "sim/initiator_port.h"
#include "sim/payload_pool.h"
#include "sim/stats.h"
#include "sim/target_port.h"

namespace stacksim::memory {

/// Sits on an SM's memory socket. Each request is looked up in the L1 TLB (l1_tlb_ports per
/// cycle, l1_tlb_latency); a miss goes to the GMMU's shared translation (L2 TLB, walk cache,
/// walkers); misses to a page already missing share the fill (hit under miss). With
/// hit_under_miss off, a miss stops later lookups until it is filled. A translated request
/// then asks the GMMU whether its bytes are on the GPU; if not, the GMMU holds it (the
/// warp waits on its load; other warps go on) and replays it here after migration.
/// With walk_reads = "memory" the unit also issues the page-table entry reads of the walks its
/// misses start (reads marked with PageWalkExtension, from its own pool, ahead of the SM's
/// requests on the downstream socket) and keeps their responses from the SM; requests whose
/// translation is on its way wait here until the walk ends, with no polling.
/// Protocol on both sockets as the SM's (BEGIN_REQ, END_REQ withheld when the input queue is
/// full, BEGIN_RESP passed straight back; docs/protocol.md). Clocked by the core domain only
/// while it has work.
class TranslationUnit : public sc_core::sc_module, public sim::Clocked {
public:
    sim::TargetPort upstream;       ///< `queue_depth` requests, then END_REQ is withheld
    sim::InitiatorPort downstream;  ///< translated requests and page-table reads

    /// `line_bytes`/`sector_bytes`: geometry of the cache below, for page-table reads.
    TranslationUnit(sc_core::sc_module_name name, const UvmConfig& cfg, Gmmu& gmmu, sim::ClockDomain& clock,
                    sim::StatRegistry& stats, uint32_t line_bytes = 128, uint32_t sector_bytes = 32);

    bool tick(uint64_t cycle) override;
    uint64_t hits() const { return m_hits.value(); }
    uint64_t misses() const { return m_misses.value(); }
    uint64_t pte_reads() const { return m_pte_reads.value(); }

private:
    struct Ready {
        uint64_t cycle;
        uint64_t seq;
        tlm::tlm_generic_payload* p;
        bool operator>(const Ready& o) const { return cycle != o.cycle ? cycle > o.cycle : seq > o.seq; }
    };
    struct WalkRead {
        uint64_t cycle;
        uint64_t seq;
        uint64_t walk;
        uint64_t addr;
        bool operator>(const WalkRead& o) const { return cycle != o.cycle ? cycle > o.cycle : seq > o.seq; }
    };
    static constexpr uint64_t kPending = ~uint64_t{0};  ///< m_fills: walk under way, end unknown

    void response(tlm::tlm_generic_payload& p);
    void replay(tlm::tlm_generic_payload& p);
    void invalidate(uint64_t vpn);
    void walk_done(uint64_t vpn, uint64_t cycle);
    void walk_response(tlm::tlm_generic_payload& p, uint64_t cycle);
    /// Earliest pending fill after `cycle`, or ~0.
    uint64_t next_fill(uint64_t cycle) const;
    /// Sets vpn's fill to end at cycle `c` (kPending: not known yet), keeping m_fill_ends.
    void set_fill(uint64_t vpn, uint64_t c);
    void erase_fill(std::unordered_map<uint64_t, uint64_t>::iterator it);
    /// Drops the fills that ended by `cycle`: they count nowhere, and kept they made every scan
    /// grow with the number of pages ever translated.
    void prune_fills(uint64_t cycle);

    UvmConfig m_cfg;
    Gmmu& m_gmmu;
    sim::ClockDomain& m_clock;
    uint32_t m_id;
    uint32_t m_walk_client;
    uint32_t m_line_bytes, m_sector_bytes;
    Tlb m_tlb;
    std::unordered_map<uint64_t, uint64_t> m_fills;  ///< vpn -> cycle its translation arrives
    std::set<std::pair<uint64_t, uint64_t>> m_fill_ends;  ///< (cycle, vpn) of the fills whose end is known
    /// vpn -> requests (with their order) waiting for a walk whose end is not known yet
    std::unordered_map<uint64_t, std::vector<std::pair<uint64_t, tlm::tlm_generic_payload*>>> m_parked;
    std::priority_queue<WalkRead, std::vector<WalkRead>, std::greater<WalkRead>> m_walk_sched;
    std::deque<tlm::tlm_generic_payload*> m_walk_out;  ///< page-table reads ready to send
    std::unordered_map<tlm::tlm_generic_payload*, uint64_t> m_walk_payloads;  ///< sent -> walk id
    sim::PayloadPool m_pool;
    std::priority_queue<Ready, std::vector<Ready>, std::greater<Ready>> m_ready;
    uint64_t m_seq = 0;
    std::deque<tlm::tlm_generic_payload*> m_out;
    sim::Counter m_hits, m_misses, m_merged, m_held, m_blocking_stalls, m_pte_reads;
    sim::Average m_pte_latency;
};

}  // namespace stacksim::memory
