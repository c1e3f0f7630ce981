// SPDX-License-Identifier: Apache-2.0
// Which memory partition (L2 slice + DRAM channel) serves an address.
#pragma once
#include <cstdint>

#include "sim/param.h"

namespace stacksim::common {

/// Addresses are interleaved over `partitions` in chunks of `interleave_bytes`; with
/// `xor_hash` the partition index is XORed with higher address bits so that strides that are
/// multiples of partitions × interleave still spread over every partition.
struct AddressMap {
    uint32_t partitions = 1;
    uint32_t interleave_bytes = 256;
    bool xor_hash = false;

    /// The declared parameters ([memory.map]).
    static const sim::Params<AddressMap>& params();

    uint32_t partition_of(uint64_t addr) const {
        uint64_t chunk = addr / interleave_bytes;
        uint64_t p = chunk % partitions;
        if (xor_hash) {
            uint64_t upper = chunk / partitions;
            p = (p ^ (upper ^ (upper >> 7) ^ (upper >> 13))) % partitions;
        }
        return static_cast<uint32_t>(p);
    }
};

}  // namespace stacksim::common
