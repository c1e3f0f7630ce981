// SPDX-License-Identifier: Apache-2.0
// Parameters of a router network ([noc], and embedded in [memory.noc]).
#pragma once
#include <cstdint>
#include <string>

#include "sim/param.h"
#include "sim/policy_catalog.h"

namespace stacksim::noc {

/// Network parameters ([noc] section; the GPU interconnect embeds them in [memory.noc]).
struct NetworkConfig {
    std::string topology = "mesh"; ///< "mesh" (concentrated when concentration > 1) or "stacked" (2.5D)
    unsigned width = 8;            ///< cores per row (upper layer columns)
    unsigned height = 8;           ///< cores per column (upper layer rows)
    unsigned concentration = 1;    ///< mesh: c x c cores per router; stacked: c x c upper routers per interposer router
    unsigned memory_controllers = 0;  ///< controllers on the west/east edge routers (interposer for stacked)
    unsigned memory_channels = 1;     ///< network terminals (router ports) per memory controller
    std::string memory_placement = "west_east";  ///< controllers on the west/east or north/south edge routers
    unsigned eject_credits = 0;    ///< flits per VC a terminal can hold before consuming; 0 = unlimited
    unsigned vcs = 4;              ///< VCs per port, split evenly between request and reply
    unsigned buffer_depth = 8;     ///< flits per VC buffer
    unsigned pipeline_stages = 3;  ///< router pipeline depth, >= 3
    unsigned allocator_iterations = 1;  ///< VC and switch allocators: 1 separable, > 1 iSLIP iterations
    unsigned link_latency = 1;     ///< cycles per router-to-router link
    /// "arrival": the extra pipeline stages count from a head's buffer arrival; "head": they are
    /// a per-packet route computation at the front of the VC (BookSim's routing_delay).
    std::string route_stage = "arrival";
    unsigned credit_delay = 0;     ///< cycles a credit takes beyond the link (BookSim's credit_delay)
    std::string routing = "xy";    ///< routing_functions() name, applied on each layer (xy-z / yx-z when stacked)
    sim::PolicySpec layer_policy{"dor"};  ///< stacked only: a layer_policies() policy

    /// The declared parameters. width, height and concentration accept 0 ("automatic", which
    /// only the GPU interconnect resolves); validate() requires the resolved sizes.
    static const sim::Params<NetworkConfig>& params();
    /// Throws sim::ConfigError("key: message").
    void validate() const;
    /// Cores (traffic sources of the synthetic patterns).
    unsigned nodes() const { return width * height; }
    /// Cores plus memory controllers.
    unsigned terminals() const { return width * height + memory_terminals(); }
    /// Memory-controller channels: the terminals after the cores.
    unsigned memory_terminals() const { return memory_controllers * memory_channels; }
};

}  // namespace stacksim::noc
