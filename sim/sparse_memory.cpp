// SPDX-License-Identifier: Apache-2.0
// Byte-addressed functional memory allocated in pages on first write.
#include "sim/sparse_memory.h"

#include <algorithm>

namespace stacksim::sim {

const SparseMemory::Page* SparseMemory::find(uint64_t page_no) const {
    if (page_no == m_last_no) return m_last;
    auto it = m_pages.find(page_no);
    if (it == m_pages.end()) return nullptr;
    m_last_no = page_no;
    m_last = it->second.get();
    return m_last;
}

SparseMemory::Page& SparseMemory::get_or_create(uint64_t page_no) {
    if (page_no == m_last_no) return *m_last;
    auto& slot = m_pages[page_no];
    if (!slot) {
        slot = std::make_unique<Page>();
        std::memset(slot->bytes, 0, kPageBytes);
    }
    m_last_no = page_no;
    m_last = slot.get();
    return *slot;
}

void SparseMemory::read(uint64_t addr, void* dst, uint64_t bytes) const {
    auto* out = static_cast<uint8_t*>(dst);
    while (bytes > 0) {
        uint64_t off = addr % kPageBytes;
        uint64_t n = std::min(bytes, kPageBytes - off);
        if (const Page* p = find(addr / kPageBytes))
            std::memcpy(out, p->bytes + off, n);
        else
            std::memset(out, 0, n);
        out += n;
        addr += n;
        bytes -= n;
    }
}

void SparseMemory::write(uint64_t addr, const void* src, uint64_t bytes) {
    auto* in = static_cast<const uint8_t*>(src);
    while (bytes > 0) {
        uint64_t off = addr % kPageBytes;
        uint64_t n = std::min(bytes, kPageBytes - off);
        std::memcpy(get_or_create(addr / kPageBytes).bytes + off, in, n);
        in += n;
        addr += n;
        bytes -= n;
    }
}

void SparseMemory::fill(uint64_t addr, uint8_t value, uint64_t bytes) {
    while (bytes > 0) {
        uint64_t off = addr % kPageBytes;
        uint64_t n = std::min(bytes, kPageBytes - off);
        std::memset(get_or_create(addr / kPageBytes).bytes + off, value, n);
        addr += n;
        bytes -= n;
    }
}

}  // namespace stacksim::sim
