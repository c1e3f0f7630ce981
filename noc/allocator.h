// SPDX-License-Identifier: Apache-2.0
// Separable input-first round-robin allocator (used for VC and switch allocation).
#pragma once
#include <cstdint>
#include <vector>

namespace stacksim::noc {

/// A set of up to 128 allocator inputs or outputs (a router's input or output VCs: ports x VCs,
/// e.g. 10 ports x 8 VCs on the thesis's interposer routers).
using AllocMask = unsigned __int128;
/// Most inputs (and outputs) an allocator matches.
inline constexpr unsigned kMaxAllocPorts = 128;

/// Matches inputs to outputs (at most as many of each as `Mask` has bits): each requesting input
/// first picks one of its requested outputs round robin, then each output picks one of the
/// inputs that picked it round robin. Pointers advance past a winner only when its grant is
/// final (iSLIP style), so every persistent requester is served within inputs x outputs rounds.
/// Never grants an output twice. With `iterations` > 1 it is iSLIP: unmatched inputs retry the
/// still free outputs, and only first-iteration grants move the pointers. `Mask` is uint64_t
/// (up to 64 inputs and outputs: the usual router, and the faster one) or AllocMask (128).
template <typename Mask>
class BasicSeparableAllocator {
public:
    static constexpr unsigned kMaxPorts = sizeof(Mask) * 8;

    BasicSeparableAllocator(unsigned inputs, unsigned outputs, unsigned iterations = 1);

    /// Input `in` requests output `out` this round.
    void request(unsigned in, unsigned out) {
        if (m_req[in] == 0) m_active_inputs.push_back(in);
        m_req[in] |= Mask{1} << out;
    }
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
    std::vector<Mask> m_req;      ///< per input: mask of requested outputs
    std::vector<Mask> m_out_req;  ///< per output: mask of inputs that picked it
    std::vector<unsigned> m_in_ptr, m_out_ptr;
    std::vector<int> m_grant;
    std::vector<unsigned> m_active_inputs, m_active_outputs, m_granted;
    unsigned m_iterations;
};

/// Up to 64 inputs and outputs.
using SeparableAllocator = BasicSeparableAllocator<uint64_t>;
/// Up to 128 inputs and outputs.
using WideSeparableAllocator = BasicSeparableAllocator<AllocMask>;

extern template class BasicSeparableAllocator<uint64_t>;
extern template class BasicSeparableAllocator<AllocMask>;

/// Index of the first set bit of `mask` at or after `start`, wrapping around; `mask` != 0.
unsigned round_robin_pick(uint64_t mask, unsigned start);
unsigned round_robin_pick(AllocMask mask, unsigned start);
/// Index of the lowest set bit of `mask` != 0.
inline unsigned lowest_bit(AllocMask mask) {
    const uint64_t lo = static_cast<uint64_t>(mask);
    return lo ? static_cast<unsigned>(__builtin_ctzll(lo))
              : 64 + static_cast<unsigned>(__builtin_ctzll(static_cast<uint64_t>(mask >> 64)));
}

}  // namespace stacksim::noc
