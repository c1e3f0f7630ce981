// SPDX-License-Identifier: Apache-2.0
// Configuration of the router network between the SMs and the memory partitions ([memory.noc]).
#pragma once
#include <cstdint>
#include <string>

#include "noc/network.h"

namespace stacksim::noc {

/// A mesh or 2.5D network used as the GPU's SM-to-partition interconnect
/// (memory.interconnect = "mesh" or "stacked"). Times in network cycles.
struct NocInterconnectConfig {
    double clock_mhz = 1216.0;
    uint32_t width = 0;          ///< cores per row (upper layer columns); 0: smallest near-square grid for the SMs
    uint32_t height = 0;         ///< cores per column; 0: as above
    uint32_t concentration = 0;  ///< mesh: cores per router side (0 = 1); stacked: upper routers per interposer side (0 = 2)
    uint32_t vcs = 4;            ///< VCs per port, half for requests, half for replies
    uint32_t buffer_depth = 8;   ///< flits per VC buffer
    uint32_t pipeline_stages = 3;
    uint32_t link_latency = 1;
    std::string routing = "xy";  ///< "xy" or "yx" (XY-Z / YX-Z on the stacked topology)
    uint32_t flit_bytes = 32;    ///< bytes per flit (a packet of B bytes is ceil(B / flit_bytes) flits)
    uint32_t header_bytes = 8;   ///< address/command bytes of every packet
    uint32_t queue_depth = 32;   ///< requests one SM may have inside the network; beyond it END_REQ is withheld

    /// Throws ConfigError("key: message") on an invalid value.
    void validate() const;

    /// The network for `topology` ("mesh" / "stacked") with `sms` SMs and `partitions` memory
    /// partitions whose largest packet carries `max_data_bytes` of data: resolves the automatic
    /// sizes and sets eject_credits to hold the largest packet. Throws ConfigError("key: message")
    /// when the grid is too small for the SMs.
    NetworkConfig network(const std::string& topology, unsigned sms, unsigned partitions,
                          unsigned max_data_bytes) const;
};

}  // namespace stacksim::noc
