// SPDX-License-Identifier: Apache-2.0
// Sectored cache with MSHRs, write-through or write-back, victim tags: the L1 and the L2 slices.
#pragma once
#include <cstdint>
#include <deque>
#include <queue>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <systemc>
#include <tlm>

#include "memory/sector_cache_config.h"
#include "common/tag_array.h"
#include "sim/clock_domain.h"
#include "sim/initiator_port.h"
#include "sim/payload_pool.h"
#include "sim/stats.h"
#include "sim/target_port.h"

namespace stacksim::memory {

/// Used as the per-SM L1 (on the SM's memory socket) and as an L2 slice (in front of a DRAM
/// channel); it speaks the same protocol on both sides (docs/protocol.md). One request per
/// cycle passes the tag stage. Read hits (all requested sectors valid) answer after
/// `hit_latency`; misses take an MSHR (merging up to `mshr_merge` requests per line) and fetch
/// only the missing sectors. Writes are forwarded (write-through, updating resident sectors) or
/// absorbed (write-back, write-allocate; dirty victims are written back). Atomics bypass the
/// cache and invalidate the line (`atomics = "bypass"`, the L1) or are executed in the cache as
/// a read-modify-write (`"execute"`, the L2). A full input queue or no free MSHR withholds
/// END_REQ. Each evicted line is remembered in its filler's victim tags; a miss that hits there
/// is marked with common::LostLocalityExtension (CCWS). Requests of the other traffic classes
/// (MemExtension::traffic: instruction, context, page walk) are forwarded without allocating
/// by a cache whose role is L1 and served as data by an L2 slice.
class SectorCache : public sc_core::sc_module, public sim::Clocked {
public:
    sim::TargetPort upstream;       ///< `queue_depth` requests, then END_REQ is withheld
    sim::InitiatorPort downstream;  ///< fills, forwarded requests and writebacks

    SectorCache(sc_core::sc_module_name name, const SectorCacheConfig& cfg, sim::ClockDomain& clock,
            sim::StatRegistry& stats);

    bool tick(uint64_t cycle) override;

private:
    struct Ready {
        uint64_t cycle;
        uint64_t seq;
        tlm::tlm_generic_payload* p;
        bool operator>(const Ready& o) const { return cycle != o.cycle ? cycle > o.cycle : seq > o.seq; }
    };
    struct Mshr {
        uint32_t requested = 0;   ///< sectors asked for downstream
        uint32_t outstanding = 0; ///< downstream fills not yet back
        uint32_t owner = 0;
        uint32_t dirty_on_fill = 0;  ///< sectors a forwarded write miss leaves dirty once filled
        std::vector<tlm::tlm_generic_payload*> waiters;
    };
    struct Outgoing {
        uint64_t addr;
        uint32_t sectors;
        sim::MemAccess access;
        tlm::tlm_generic_payload* origin;  ///< upstream request answered by this one (or null)
        uint32_t warp;
        bool whole = false;  ///< forwarded as it came, its own length (an L1's non-demand class)
    };

    bool lookup_stage(uint64_t cycle);
    /// The request next in line for the tag stage (the delay stage's front with an
    /// input_latency, else the input queue's); pop_request() removes it.
    tlm::tlm_generic_payload& front_request() { return m_cfg.input_latency ? *m_delay.front().p : upstream.front(); }
    void pop_request();
    /// input_latency > 0: a request is ready for the tag stage at `cycle`.
    bool request_ready(uint64_t cycle) const;
    /// Moves queued requests into the delay stage while fewer than queue_depth wait at its end.
    bool enter_delay(uint64_t cycle);
    /// write_miss = forward_and_fetch: forwards the write `p` and fetches its missing sectors;
    /// `sectors` (the cache's own) are left dirty.
    bool forward_and_fetch(tlm::tlm_generic_payload& p, uint64_t line, uint32_t missing, uint32_t sectors);
    /// A request's 32-byte sector mask widened to whole sectors of this cache.
    uint32_t own_sectors(uint32_t mask) const;
    void handle_fill(tlm::tlm_generic_payload& down, uint64_t cycle);
    void remember_victim(const common::Eviction& ev);
    bool in_victim_tags(uint32_t warp, uint64_t line) const;
    void respond(tlm::tlm_generic_payload& p, uint64_t cycle);
    void send_downstream(uint64_t cycle);

    SectorCacheConfig m_cfg;
    sim::ClockDomain& m_clock;
    common::TagArray m_tags;
    sim::PayloadPool m_pool;
    std::priority_queue<Ready, std::vector<Ready>, std::greater<Ready>> m_ready;
    uint64_t m_seq = 0;
    std::unordered_map<uint64_t, Mshr> m_mshrs;
    std::deque<Outgoing> m_out;
    std::vector<tlm::tlm_generic_payload*> m_returns;
    std::deque<uint64_t> m_arrivals;  ///< arrival cycle of each queued request (input_latency > 0)
    /// The input-latency stage (Accel-Sim's ROP queue): pipelined, any number in flight; each
    /// entry's cycle is when it reaches the tag stage (nondecreasing).
    std::deque<Ready> m_delay;
    std::unordered_map<tlm::tlm_generic_payload*, tlm::tlm_generic_payload*> m_origin;  ///< down -> up
    std::unordered_set<tlm::tlm_generic_payload*> m_pending_atomics;  ///< executed atomics awaiting a fill
    std::vector<std::deque<uint64_t>> m_victims;  ///< per warp slot

    sim::Counter m_reads, m_read_hits, m_sector_misses, m_mshr_merges, m_writes, m_atomics,
        m_reservation_fails, m_writebacks, m_lost_locality, m_walk_reads, m_walk_read_hits, m_walk_forwards, m_context_forwards,
        m_instruction_forwards, m_instruction_reads, m_write_miss_fetches, m_context_requests;
};

}  // namespace stacksim::memory
