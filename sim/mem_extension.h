// SPDX-License-Identifier: Apache-2.0
// The project's single TLM extension: the fields a memory request carries besides address/size.
#pragma once
#include <cstdint>

#include <tlm>

namespace stacksim::sim {

/// Access kinds beyond the generic payload's read/write command.
/// PageWalk: a page-table walker's read of one page-table entry (8 bytes): L1 caches forward
/// it without allocating, L2 slices serve it as an ordinary read, and the functional memory
/// is not involved.
enum class MemAccess : uint8_t { Read, Write, Atomic, PageWalk };

/// Attached to every pooled payload. Fields are plain numbers so the framework stays
/// architecture-neutral; the GPU meaning is documented in docs/architecture.md.
class MemExtension : public tlm::tlm_extension<MemExtension> {
public:
    uint32_t source = 0;        ///< requesting port (SM id)
    uint32_t warp = 0;          ///< warp slot within the source
    uint32_t tag = 0;           ///< requester's own id for matching the response
    uint32_t sector_mask = 0;   ///< 32-byte sectors of the line touched (bit i = sector i)
    uint64_t issue_cycle = 0;   ///< requester cycle when the request was created
    MemAccess access = MemAccess::Read;
    bool lost_locality = false; ///< response: the cache found the line in this requester's
                                ///< victim tags (it had the line and lost it), for CCWS

    tlm::tlm_extension_base* clone() const override { return new MemExtension(*this); }
    void copy_from(const tlm::tlm_extension_base& other) override {
        *this = static_cast<const MemExtension&>(other);
    }
};

}  // namespace stacksim::sim
