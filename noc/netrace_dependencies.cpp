// SPDX-License-Identifier: Apache-2.0
// Netrace dependency tracking: reference counts on dependents, released on ejection.
#include "noc/netrace_dependencies.h"

#include <string>

#include "sim/error.h"

namespace stacksim::noc {

void DependencyTracker::add(const NetracePacket& packet) {
    if (!m_live.emplace(packet.id, packet.dependents).second) {
        throw sim::SimulationError("netrace: packet " + std::to_string(packet.id) +
                                   " added twice while in flight");
    }
    for (uint32_t dep : packet.dependents) ++m_pending[dep];
}

bool DependencyTracker::ready(uint32_t id) const { return pending(id) == 0; }

uint32_t DependencyTracker::pending(uint32_t id) const {
    const auto it = m_pending.find(id);
    return it == m_pending.end() ? 0 : it->second;
}

std::vector<uint32_t> DependencyTracker::ejected(uint32_t id) {
    const auto it = m_live.find(id);
    if (it == m_live.end()) {
        throw sim::SimulationError("netrace: ejected packet " + std::to_string(id) +
                                   " is not in flight");
    }
    std::vector<uint32_t> newly_ready;
    for (uint32_t dep : it->second) {
        const auto p = m_pending.find(dep);
        if (p == m_pending.end()) continue;  // cannot happen: add() counted it
        if (--p->second == 0) {
            m_pending.erase(p);
            if (m_live.count(dep) != 0) newly_ready.push_back(dep);
        }
    }
    m_live.erase(it);
    return newly_ready;
}

}  // namespace stacksim::noc
