// SPDX-License-Identifier: Apache-2.0
// Netrace dependency tracking: a packet may be injected only once every packet it depends on is ejected.
#pragma once
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "noc/netrace_reader.h"

namespace stacksim::noc {

/// Tracks netrace's injection rule for packets fed in trace order.
///
/// Each record lists its *dependents*; `add()` raises their pending counts and `ejected()`
/// lowers them. As in netrace.c (nt_dependencies_cleared), a packet with no pending count is
/// ready: dependencies on packets never read (outside the region or the trace) count as
/// satisfied. A counter for a dependent that never appears is closed when the packet naming it
/// is ejected, so only packets still in flight hold state.
class DependencyTracker {
public:
    /// Registers a packet read from the trace and counts it against each of its dependents.
    void add(const NetracePacket& packet);
    /// True when every registered packet this one depends on has been ejected.
    bool ready(uint32_t id) const;
    /// Number of registered, not yet ejected packets `id` still waits for.
    uint32_t pending(uint32_t id) const;
    /// Marks a registered packet ejected; returns registered in-flight packets it made ready.
    /// Throws sim::SimulationError for an id that was never added or was already ejected.
    std::vector<uint32_t> ejected(uint32_t id);
    /// Packets added but not yet ejected.
    size_t in_flight() const { return m_live.size(); }
    /// True when packet `id` was added and is not yet ejected.
    bool in_flight(uint32_t id) const { return m_live.count(id) != 0; }
    /// Dependency counters still open (including ones for ids never read).
    size_t pending_entries() const { return m_pending.size(); }

private:
    std::unordered_map<uint32_t, std::vector<uint32_t>> m_live;  ///< id -> dependents
    std::unordered_map<uint32_t, uint32_t> m_pending;            ///< id -> open dependency count
};

}  // namespace stacksim::noc
