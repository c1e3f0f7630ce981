// SPDX-License-Identifier: Apache-2.0
// Per-SM address translation between the SM and its L1: L1 TLB, then the GMMU's residency check.
#pragma once
#include <cstdint>
#include <deque>
#include <queue>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "memory/gmmu.h"
#include "memory/tlb.h"
#include "sim/clock_domain.h"
#include "sim/stats.h"

namespace stacksim::memory {

/// Sits on an SM's memory socket. Each request is looked up in the L1 TLB (l1_tlb_ports per
/// cycle, l1_tlb_latency); a miss goes to the GMMU's shared translation (L2 TLB, walk cache,
/// walkers); misses to a page already missing share the fill (hit under miss). With
/// hit_under_miss off, a miss stops later lookups until it is filled. A translated request
/// then asks the GMMU whether its bytes are on the GPU; if not, the GMMU holds it (the
/// warp waits on its load; other warps go on) and replays it here after migration.
/// Protocol on both sockets as the SM's (BEGIN_REQ, END_REQ withheld when the input queue is
/// full, BEGIN_RESP passed straight back). Clocked by the core domain only while it has work.
class TranslationUnit : public sc_core::sc_module, public sim::Clocked {
public:
    tlm_utils::simple_target_socket<TranslationUnit> upstream;
    tlm_utils::simple_initiator_socket<TranslationUnit> downstream;

    TranslationUnit(sc_core::sc_module_name name, const UvmConfig& cfg, Gmmu& gmmu, sim::ClockDomain& clock,
                    sim::StatRegistry& stats);

    bool tick(uint64_t cycle) override;
    uint64_t hits() const { return m_hits.value(); }
    uint64_t misses() const { return m_misses.value(); }

private:
    struct Ready {
        uint64_t cycle;
        uint64_t seq;
        tlm::tlm_generic_payload* p;
        bool operator>(const Ready& o) const { return cycle != o.cycle ? cycle > o.cycle : seq > o.seq; }
    };
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase, sc_core::sc_time& d);
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase, sc_core::sc_time& d);
    void replay(tlm::tlm_generic_payload& p);
    void invalidate(uint64_t vpn);
    /// Earliest pending fill after `cycle`, or ~0.
    uint64_t next_fill(uint64_t cycle) const;

    UvmConfig m_cfg;
    Gmmu& m_gmmu;
    sim::ClockDomain& m_clock;
    uint32_t m_id;
    Tlb m_tlb;
    std::unordered_map<uint64_t, uint64_t> m_fills;  ///< vpn -> cycle its translation arrives
    std::deque<tlm::tlm_generic_payload*> m_in;
    tlm::tlm_generic_payload* m_upstream_blocked = nullptr;  ///< not yet given END_REQ
    std::priority_queue<Ready, std::vector<Ready>, std::greater<Ready>> m_ready;
    uint64_t m_seq = 0;
    std::deque<tlm::tlm_generic_payload*> m_out;
    tlm::tlm_generic_payload* m_blocked = nullptr;  ///< sent, waiting for END_REQ
    sim::Counter m_hits, m_misses, m_merged, m_held, m_blocking_stalls;
};

}  // namespace stacksim::memory
