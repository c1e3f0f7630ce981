// SPDX-License-Identifier: Apache-2.0
// Inter-kernel data sharing detected from kernels' pointer arguments (ETC's compiler analysis).
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <vector>

namespace stacksim::memory {

/// Remembers which kernels got pointers into which regions (2 MB-aligned by default): two
/// different kernels with a pointer into the same region share data (the thesis's "pointers of
/// several kernels to nearby data").
class SharingDetector {
public:
    explicit SharingDetector(uint64_t region_bytes = 2097152) : m_region(region_bytes) {}
    /// A launch of kernel `kernel` (any identity, e.g. its address) with these pointer arguments.
    void note_launch(uint64_t kernel, const std::vector<uint64_t>& pointers);
    bool sharing() const { return m_sharing; }

private:
    uint64_t m_region;
    std::map<uint64_t, std::set<uint64_t>> m_kernels;  ///< region -> kernels pointing into it
    bool m_sharing = false;
};

}  // namespace stacksim::memory
