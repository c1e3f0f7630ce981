// SPDX-License-Identifier: Apache-2.0
// Routing functions on one 2D plane of routers (every topology's layers use them), registry.
#pragma once
#include <memory>

#include "sim/registry.h"

namespace stacksim::noc {

/// Directions a plane routing function returns. Node id = y * W + x; x grows east, y grows
/// south. Topologies map directions to router ports (east..south are ports 0..3).
enum MeshPort : unsigned {
    kLocal = 0,  ///< arrived: the destination router
    kEast = 1,   ///< towards x + 1
    kWest = 2,   ///< towards x - 1
    kNorth = 3,  ///< towards y - 1
    kSouth = 4,  ///< towards y + 1
};

/// What an adaptive routing function may know at the routing router: the free buffer slots of
/// the next router in each direction, for the packet's message class.
class RouteLoad {
public:
    virtual ~RouteLoad() = default;
    /// Free flit slots downstream of direction `dir` (kEast .. kSouth).
    virtual unsigned free_slots(unsigned dir) const = 0;
};

/// Picks the direction from router `node` towards router `dest` of the plane (kLocal when there).
/// A deterministic function ignores `load`; an adaptive one chooses among the directions its
/// deadlock-avoidance rule permits by `load`, which is null when no router state is at hand
/// (then it must still return a permitted, productive direction).
class RoutingFunction {
public:
    virtual ~RoutingFunction() = default;
    virtual unsigned route(unsigned node, unsigned dest, const RouteLoad* load = nullptr) const = 0;
};

/// Routing functions by name (noc.routing, memory.noc.routing), each registered in
/// noc/routing_*.cpp; factories take (width, height) of the plane.
using RoutingRegistry = sim::Registry<RoutingFunction, unsigned, unsigned>;
RoutingRegistry& routing_functions();

}  // namespace stacksim::noc
