// SPDX-License-Identifier: Apache-2.0
// Configuration of the router network between the SMs and the memory partitions ([memory.noc]).
#pragma once
#include <cstdint>
#include <string>

#include "noc/network_config.h"
#include "sim/param.h"

namespace stacksim::noc {

/// A mesh or 2.5D network used as the GPU's SM-to-partition interconnect
/// (memory.interconnect = "mesh" or "stacked"). Times in network cycles. The router network's
/// own keys are the standalone [noc] keys (NetworkConfig), read from [memory.noc] too, except
/// those the GPU decides: the topology (memory.interconnect), the memory controllers (one per
/// partition, one channel each) and the layer policy (all GPU traffic is memory traffic).
struct NocInterconnectConfig {
    double clock_mhz = 1216.0;
    /// width, height and concentration 0: automatic (see network()).
    NetworkConfig network = automatic_network();
    uint32_t flit_bytes = 32;    ///< bytes per flit (a packet of B bytes is ceil(B / flit_bytes) flits)
    uint32_t header_bytes = 8;   ///< address/command bytes of every packet
    uint32_t queue_depth = 32;   ///< requests one SM may have inside the network; beyond it END_REQ is withheld

    /// The declared parameters ([memory.noc]).
    static const sim::Params<NocInterconnectConfig>& params();
    /// Throws ConfigError("key: message") on an invalid value.
    void validate() const;

    /// The network for `topology` ("mesh" / "stacked") with `sms` SMs and `partitions` memory
    /// partitions whose largest packet carries `max_data_bytes` of data: resolves the automatic
    /// sizes (width 0: the smallest near-square grid for the SMs with at least two router
    /// columns; height 0: enough rows; concentration 0: 1 for a mesh, 2 for stacked) and sets
    /// eject_credits to hold the largest packet. Throws ConfigError("key: message") when the
    /// grid is too small for the SMs or the network is invalid.
    NetworkConfig network_for(const std::string& topology, unsigned sms, unsigned partitions,
                              unsigned max_data_bytes) const;

    /// NetworkConfig's defaults with width, height and concentration automatic.
    static NetworkConfig automatic_network() {
        NetworkConfig n;
        n.width = n.height = n.concentration = 0;
        return n;
    }
};

}  // namespace stacksim::noc
