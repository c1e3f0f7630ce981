// SPDX-License-Identifier: Apache-2.0
// Byte-addressed functional memory allocated in pages on first write.
#pragma once
#include <cstdint>
#include <cstring>
#include <memory>
#include <unordered_map>

namespace stacksim::sim {

/// Functional backing store for a flat address space. Untouched bytes read as zero.
/// Holds data only; timing is modelled elsewhere.
class SparseMemory {
public:
    static constexpr uint64_t kPageBytes = 4096;

    /// Copies `bytes` bytes starting at `addr` into `dst`.
    void read(uint64_t addr, void* dst, uint64_t bytes) const;
    /// Copies `bytes` bytes from `src` to `addr`, allocating pages as needed.
    void write(uint64_t addr, const void* src, uint64_t bytes);
    /// Sets `bytes` bytes at `addr` to `value`.
    void fill(uint64_t addr, uint8_t value, uint64_t bytes);

    template <typename T> T load(uint64_t addr) const {
        T v;
        read(addr, &v, sizeof(T));
        return v;
    }
    template <typename T> void store(uint64_t addr, T v) { write(addr, &v, sizeof(T)); }

    /// The kPageBytes bytes of page `page_no` (address / kPageBytes), or null when nothing was
    /// ever written there (it reads as zeros).
    const uint8_t* page(uint64_t page_no) const {
        const Page* p = find(page_no);
        return p ? p->bytes : nullptr;
    }
    /// The bytes of page `page_no`, allocated (zeroed) on first use.
    uint8_t* page_for_write(uint64_t page_no) { return get_or_create(page_no).bytes; }

    /// Bytes of host memory held by allocated pages.
    uint64_t resident_bytes() const { return m_pages.size() * kPageBytes; }

private:
    struct Page {
        uint8_t bytes[kPageBytes];
    };
    const Page* find(uint64_t page_no) const;
    Page& get_or_create(uint64_t page_no);

    std::unordered_map<uint64_t, std::unique_ptr<Page>> m_pages;
    mutable uint64_t m_last_no = ~uint64_t{0};
    mutable Page* m_last = nullptr;
};

}  // namespace stacksim::sim
