// SPDX-License-Identifier: Apache-2.0
// Dimension-order routing on one 2D plane of routers (used by every topology's layers).
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

/// Picks the direction from router `node` towards router `dest` of the plane (kLocal when there).
class RoutingFunction {
public:
    virtual ~RoutingFunction() = default;
    virtual unsigned route(unsigned node, unsigned dest) const = 0;
};

/// Routing functions by name; factories take (width, height) of the mesh.
using RoutingRegistry = sim::Registry<RoutingFunction, unsigned, unsigned>;
/// "xy" (X first, then Y) and "yx" (Y first, then X); both deadlock-free on a mesh.
const RoutingRegistry& routing_registry();

}  // namespace stacksim::noc
