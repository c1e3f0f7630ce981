// SPDX-License-Identifier: Apache-2.0
// Separable input-first round-robin allocator.
#include "noc/allocator.h"

#include <stdexcept>
#include <string>

namespace stacksim::noc {

unsigned round_robin_pick(uint64_t mask, unsigned start) {
    uint64_t hi = start < 64 ? mask & (~uint64_t{0} << start) : 0;
    return static_cast<unsigned>(__builtin_ctzll(hi ? hi : mask));
}

unsigned round_robin_pick(AllocMask mask, unsigned start) {
    const AllocMask hi = start < kMaxAllocPorts ? mask & (~AllocMask{0} << start) : 0;
    return lowest_bit(hi ? hi : mask);
}

template <typename Mask>
BasicSeparableAllocator<Mask>::BasicSeparableAllocator(unsigned inputs, unsigned outputs, unsigned iterations)
    : m_req(inputs, 0), m_out_req(outputs, 0), m_in_ptr(inputs, 0), m_out_ptr(outputs, 0),
      m_grant(inputs, -1), m_iterations(iterations) {
    if (inputs == 0 || outputs == 0 || inputs > kMaxPorts || outputs > kMaxPorts || iterations < 1)
        throw std::invalid_argument("SeparableAllocator: 1.." + std::to_string(kMaxPorts) +
                                    " inputs and outputs, >= 1 iteration");
    m_active_inputs.reserve(inputs);
    m_active_outputs.reserve(outputs);
    m_granted.reserve(inputs);
}

template <typename Mask>
void BasicSeparableAllocator<Mask>::allocate() {
    for (unsigned in : m_granted) m_grant[in] = -1;
    m_granted.clear();
    Mask taken = 0;  // outputs matched in earlier iterations
    for (unsigned it = 0; it < m_iterations; ++it) {
        // Input stage: each unmatched input picks one of its still free outputs.
        bool any = false;
        for (unsigned in : m_active_inputs) {
            const Mask want = m_req[in] & ~taken;
            if (m_grant[in] >= 0 || want == 0) continue;
            unsigned out = round_robin_pick(want, m_in_ptr[in]);
            if (m_out_req[out] == 0) m_active_outputs.push_back(out);
            m_out_req[out] |= Mask{1} << in;
            any = true;
        }
        if (!any) break;
        // Output stage: each output picks one of the inputs that picked it. As in iSLIP, only
        // first-iteration grants move the pointers (so no input starves).
        for (unsigned out : m_active_outputs) {
            unsigned in = round_robin_pick(m_out_req[out], m_out_ptr[out]);
            m_grant[in] = static_cast<int>(out);
            m_granted.push_back(in);
            taken |= Mask{1} << out;
            if (it == 0) {
                m_out_ptr[out] = (in + 1) % inputs();
                m_in_ptr[in] = (out + 1) % outputs();
            }
            m_out_req[out] = 0;
        }
        m_active_outputs.clear();
    }
    for (unsigned in : m_active_inputs) m_req[in] = 0;
    m_active_inputs.clear();
    m_active_outputs.clear();
}

template class BasicSeparableAllocator<uint64_t>;
template class BasicSeparableAllocator<AllocMask>;

}  // namespace stacksim::noc
