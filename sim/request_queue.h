// SPDX-License-Identifier: Apache-2.0
// The bounded input queue of a non-blocking TLM target that back-pressures with END_REQ.
#pragma once
#include <cstddef>
#include <deque>

#include <tlm>

namespace stacksim::sim {

/// Holds up to `depth` requests in arrival order. A BEGIN_REQ that finds it full is withheld
/// (no END_REQ) until a slot frees; then admit_withheld() queues it and the owner sends the
/// END_REQ. At most one request is withheld at a time: the base protocol lets an initiator
/// have one request outstanding in the request phase, and the queue serves one initiator.
/// Plain C++: TargetPort wraps it with the socket and the protocol.
class RequestQueue {
public:
    explicit RequestQueue(size_t depth) : m_depth(depth) {}

    /// A BEGIN_REQ arrived: true when queued (answer END_REQ now), false when withheld.
    /// Requires !has_withheld().
    bool offer(tlm::tlm_generic_payload& p) {
        if (m_items.size() >= m_depth) {
            m_withheld = &p;
            return false;
        }
        m_items.push_back(&p);
        return true;
    }
    /// Queues the withheld request if a slot is free and returns it (the owner owes it an
    /// END_REQ), else null.
    tlm::tlm_generic_payload* admit_withheld() {
        if (!m_withheld || m_items.size() >= m_depth) return nullptr;
        tlm::tlm_generic_payload* p = m_withheld;
        m_withheld = nullptr;
        m_items.push_back(p);
        return p;
    }

    bool empty() const { return m_items.empty(); }
    size_t size() const { return m_items.size(); }
    size_t depth() const { return m_depth; }
    /// A request waits for its END_REQ.
    bool has_withheld() const { return m_withheld != nullptr; }
    tlm::tlm_generic_payload* front() const { return m_items.front(); }
    void pop_front() { m_items.pop_front(); }

private:
    size_t m_depth;
    std::deque<tlm::tlm_generic_payload*> m_items;
    tlm::tlm_generic_payload* m_withheld = nullptr;
};

}  // namespace stacksim::sim
