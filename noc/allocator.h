// SPDX-License-Identifier: Apache-2.0
// Separable input-first round-robin allocator (used for VC and switch allocation).
#pragma once
#include <cstdint>
#include <vector>

namespace stacksim::noc {

/// Matches inputs to outputs (at most 64 of each): each requesting input first picks one of its
/// requested outputs round robin, then each output picks one of the inputs that picked it round
/// robin. Pointers advance past a winner only when its grant is final (iSLIP style), so every
/// persistent requester is served within inputs x outputs rounds. Never grants an output twice.
/// With `iterations` > 1 it is iSLIP: unmatched inputs retry the still free outputs, and only
/// first-iteration grants move the pointers.
class SeparableAllocator {
public:
    SeparableAllocator(unsigned inputs, unsigned outputs, unsigned iterations = 1);

    /// Input `in` requests output `out` this round.
    void request(unsigned in, unsigned out);
    bool has_requests() const { return !m_active_inputs.empty(); }
    /// Computes the matching of the requests made since the last allocate(), then clears them.
    void allocate();
    /// Output granted to `in` by the last allocate(), or -1.
    int grant(unsigned in) const { return m_grant[in]; }
    /// Inputs granted by the last allocate(), in output order.
    const std::vector<unsigned>& granted() const { return m_granted; }
    unsigned inputs() const { return static_cast<unsigned>(m_req.size()); }
    unsigned outputs() const { return static_cast<unsigned>(m_out_req.size()); }

private:
    std::vector<uint64_t> m_req;      ///< per input: mask of requested outputs
    std::vector<uint64_t> m_out_req;  ///< per output: mask of inputs that picked it
    std::vector<unsigned> m_in_ptr, m_out_ptr;
    std::vector<int> m_grant;
    std::vector<unsigned> m_active_inputs, m_active_outputs, m_granted;
    unsigned m_iterations;
};

/// Index of the first set bit of `mask` at or after `start`, wrapping around; `mask` != 0.
unsigned round_robin_pick(uint64_t mask, unsigned start);

}  // namespace stacksim::noc
