// SPDX-License-Identifier: Apache-2.0
// Where each CTA slot of each SM saves its context in the context area.
#pragma once
#include <cstdint>

#include "common/context_extension.h"

namespace stacksim::core {

/// Bytes of one CTA slot's region of the context area (a slot's checkpoints wrap within it).
constexpr uint64_t kContextRegionBytes = uint64_t{1} << 20;

/// Start of CTA slot `slot`'s context region on SM `sm`: SM regions 256 MiB apart, slot
/// regions 1 MiB apart, and each region shifted by ((sm + slot) mod `stagger_steps`) ×
/// `stagger_bytes` (the memory partitions and their interleave, SmConfig) so that the SMs'
/// saves, which all start together, begin on different L2 slices / DRAM channels. Without the
/// shift every region starts on the same partition: small saves (PEP's dirty checkpoints)
/// then all go to the first partitions, and large ones sweep the partitions in lockstep.
inline uint64_t context_region(uint32_t sm, uint32_t slot, uint32_t stagger_bytes, uint32_t stagger_steps) {
    const uint64_t base = common::kContextAreaBase + (uint64_t{sm} << 28) + (uint64_t{slot} << 20);
    const uint64_t steps = stagger_steps ? stagger_steps : 1;
    return base + (uint64_t{sm} + slot) % steps * stagger_bytes % (kContextRegionBytes / 2);
}

/// Bytes from `region` (a context_region()) to the end of its slot's region.
inline uint64_t context_region_bytes(uint64_t region) { return kContextRegionBytes - region % kContextRegionBytes; }

}  // namespace stacksim::core
