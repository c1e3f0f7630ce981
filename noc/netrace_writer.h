// SPDX-License-Identifier: Apache-2.0
// Writer of Netrace (.tra.bz2) network traces: the format NetraceReader reads.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "noc/netrace_reader.h"

namespace stacksim::noc {

/// A whole trace to write. Packets must be in cycle order; regions split the cycles in order.
struct NetraceTrace {
    std::string benchmark_name;            ///< at most 29 characters
    uint8_t num_nodes = 64;
    uint64_t num_cycles = 0;               ///< >= the last packet's cycle
    std::string notes;
    std::vector<uint64_t> region_cycles;   ///< cycles of each region, summing to num_cycles (may be empty)
    std::vector<NetracePacket> packets;
};

/// The decompressed bytes of `trace`: netrace's header (magic, version 1.0), notes, region
/// table (seek offsets from the first record, packet counts per region by cycle), then the
/// records. Throws sim::InputError naming what NetraceReader would reject (a type without a
/// size, a node outside num_nodes, a node type above 3, cycles out of order or past
/// num_cycles, more than 255 dependents, regions that do not sum to num_cycles).
std::string netrace_bytes(const NetraceTrace& trace);

/// Writes `trace` bzip2-compressed (block size 900k) to `path`, atomically (readers see the
/// old file or the whole new one). Throws sim::InputError as netrace_bytes, or naming `path`.
void write_netrace(const std::string& path, const NetraceTrace& trace);

}  // namespace stacksim::noc
