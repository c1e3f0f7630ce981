// SPDX-License-Identifier: Apache-2.0
// Routing functions of the 2D mesh: the interface and dimension-order (XY, YX) routing.
#pragma once
#include <memory>

#include "sim/registry.h"

namespace stacksim::noc {

/// Router port numbering of a W x H mesh. Node id = y * W + x; x grows east, y grows south.
enum MeshPort : unsigned {
    kLocal = 0,  ///< injection (input) / ejection (output)
    kEast = 1,   ///< towards x + 1
    kWest = 2,   ///< towards x - 1
    kNorth = 3,  ///< towards y - 1
    kSouth = 4,  ///< towards y + 1
};
/// Ports per mesh router.
constexpr unsigned kMeshPorts = 5;
/// The port on the neighbour that faces `port` (East <-> West, North <-> South).
unsigned opposite_port(unsigned port);

/// Picks the output port of a head flit at router `node` heading to `dest` (kLocal when there).
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
