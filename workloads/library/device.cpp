// SPDX-License-Identifier: Apache-2.0
// The library's device view: allocation bookkeeping and freeing in allocation order.
#include "workloads/library/device.h"

#include <algorithm>
#include <stdexcept>

namespace stacksim::workloads {

DevPtr Device::malloc_bytes(uint64_t bytes) {
    const DevPtr p = m_host.malloc(bytes);
    m_allocs.emplace_back(p, bytes);
    return p;
}

uint64_t Device::bytes_of(DevPtr p) const {
    for (const auto& [base, bytes] : m_allocs)
        if (base == p) return bytes;
    throw std::logic_error("Device: no live allocation starts at this pointer");
}

void Device::free(DevPtr p) {
    auto it = std::find_if(m_allocs.begin(), m_allocs.end(), [p](const auto& a) { return a.first == p; });
    if (it == m_allocs.end()) throw std::logic_error("Device: free of a pointer that is not a live allocation");
    m_allocs.erase(it);
    m_host.free(p);
}

void Device::free_all() {
    for (const auto& [p, bytes] : m_allocs) m_host.free(p);
    m_allocs.clear();
}

}  // namespace stacksim::workloads
