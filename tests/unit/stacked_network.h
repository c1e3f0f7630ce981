// SPDX-License-Identifier: Apache-2.0
// Test helpers for the 2.5D network: its config, head flits with a latency field, and a set of
// standalone routers whose input buffers a test fills.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "noc/flit.h"
#include "noc/network_config.h"
#include "noc/router.h"
#include "noc/topology.h"

namespace stacksim::test {

/// The 2.5D system of the thesis: 8x8 cores over a 4x4 interposer, 8 edge controllers.
inline noc::NetworkConfig stacked(const std::string& routing = "yx", const std::string& policy = "dor") {
    noc::NetworkConfig c;
    c.topology = "stacked";
    c.width = 8;
    c.height = 8;
    c.concentration = 2;
    c.memory_controllers = 8;
    c.buffer_depth = 8;
    c.routing = routing;
    c.layer_policy = policy;
    return c;
}

/// A head flit whose per-hop latency field (8.8 fixed point) holds `latency` cycles.
inline noc::Flit head_with(unsigned src, unsigned dst, unsigned latency, bool lower) {
    noc::Flit f;
    f.src = src;
    f.dst = dst;
    f.head = true;
    f.lower = lower;
    f.hop_latency = static_cast<uint16_t>(latency << 8);
    return f;
}

/// Every router of a stacked network with 4-flit VC buffers, and a way to fill input buffers.
struct StackedRouters {
    noc::NetworkConfig cfg = [] {
        auto c = stacked();
        c.buffer_depth = 4;
        return c;
    }();
    std::unique_ptr<noc::Topology> t = noc::Topology::create(cfg);
    std::vector<std::unique_ptr<noc::Router>> routers;
    std::map<std::pair<unsigned, unsigned>, unsigned> held;
    StackedRouters() {
        for (unsigned r = 0; r < t->routers(); ++r) {
            noc::RouterParams rp{t->ports(r), 0, cfg.vcs, cfg.buffer_depth, cfg.pipeline_stages};
            routers.push_back(std::make_unique<noc::Router>(r, rp, *t));
        }
    }
    /// Writes `flits` flits into input `port` of router `r`, filling its VCs in order.
    void fill(unsigned r, unsigned port, unsigned flits) {
        for (unsigned i = 0; i < flits; ++i) {
            noc::Flit f;
            f.vc = static_cast<uint8_t>(held[{r, port}]++ / cfg.buffer_depth);
            routers[r]->receive_flit(port, f, 0);
        }
        REQUIRE(routers[r]->overflows() == 0);
    }
};

}  // namespace stacksim::test
