// SPDX-License-Identifier: Apache-2.0
// Dimension-order routing (XY and YX): deterministic and deadlock-free on a mesh.
#include "noc/routing.h"

namespace stacksim::noc {

namespace {

class DimensionOrder final : public RoutingFunction {
public:
    DimensionOrder(unsigned width, bool x_first) : m_width(width), m_x_first(x_first) {}
    unsigned route(unsigned node, unsigned dest, const RouteLoad*) const override {
        unsigned x = node % m_width, y = node / m_width;
        unsigned dx = dest % m_width, dy = dest / m_width;
        unsigned xport = dx > x ? kEast : dx < x ? kWest : kLocal;
        unsigned yport = dy > y ? kSouth : dy < y ? kNorth : kLocal;
        if (m_x_first) return xport != kLocal ? xport : yport;
        return yport != kLocal ? yport : xport;
    }

private:
    unsigned m_width;
    bool m_x_first;
};

const bool registered_xy = routing_functions().add(
    "xy", "dimension order: X first, then Y", [](unsigned w, unsigned) { return std::make_unique<DimensionOrder>(w, true); });
const bool registered_yx = routing_functions().add(
    "yx", "dimension order: Y first, then X", [](unsigned w, unsigned) { return std::make_unique<DimensionOrder>(w, false); });

}  // namespace

}  // namespace stacksim::noc
