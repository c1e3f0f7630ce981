// SPDX-License-Identifier: Apache-2.0
// The framework's TLM extension: the fields every memory request carries besides address/size.
#pragma once
#include <cstdint>

#include <tlm>

namespace stacksim::sim {

/// Access kinds beyond the generic payload's read/write command.
enum class MemAccess : uint8_t { Read, Write, Atomic };

/// What a request is for. Set once by the request's sender; a cache that forwards a request
/// copies it unchanged, and every module decides by it (docs/protocol.md).
enum class TrafficClass : uint8_t {
    Demand,       ///< a load, store or atomic of a program (and the fills and writebacks it causes)
    Instruction,  ///< an I-cache fill read (gpu.sm.icache_fill = memory)
    Context,      ///< a CTA context save or restore (preemption)
    PageWalk,     ///< a page-table entry read of a page-table walker
};

/// Attached to every pooled payload (PayloadPool) and reset to these defaults each time the
/// pool hands the payload out. Fields are plain numbers so the framework stays
/// architecture-neutral; who sets and reads each one is in docs/protocol.md. Facts only some
/// modules care about travel in extensions of their own (sim::FlagExtension).
class MemExtension : public tlm::tlm_extension<MemExtension> {
public:
    uint32_t source = 0;        ///< requesting port (SM id)
    uint32_t warp = 0;          ///< warp slot within the source
    uint32_t tag = 0;           ///< requester's own id for matching the response
    uint32_t sector_mask = 0;   ///< 32-byte sectors of the line touched (bit i = sector i)
    uint64_t issue_cycle = 0;   ///< requester cycle when the request was created
    MemAccess access = MemAccess::Read;
    TrafficClass traffic = TrafficClass::Demand;

    tlm::tlm_extension_base* clone() const override { return new MemExtension(*this); }
    void copy_from(const tlm::tlm_extension_base& other) override {
        *this = static_cast<const MemExtension&>(other);
    }
};

}  // namespace stacksim::sim
