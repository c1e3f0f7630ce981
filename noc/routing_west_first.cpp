// SPDX-License-Identifier: Apache-2.0
// West-first minimal adaptive routing (Glass and Ni's turn model, ISCA 1992).
#include "noc/routing.h"

namespace stacksim::noc {

namespace {

/// Every westward hop is taken first (deterministically); once a packet need not go west it
/// may take any productive direction among east, north and south, and takes the one with the
/// most free slots downstream (ties and no load information: east, then the Y direction).
/// Forbidding the two turns into the west removes every cycle of channel dependences, so it is
/// deadlock-free on a mesh without extra virtual channels.
class WestFirst final : public RoutingFunction {
public:
    explicit WestFirst(unsigned width) : m_width(width) {}
    unsigned route(unsigned node, unsigned dest, const RouteLoad* load) const override {
        const unsigned x = node % m_width, y = node / m_width;
        const unsigned dx = dest % m_width, dy = dest / m_width;
        if (dx < x) return kWest;
        const unsigned xport = dx > x ? kEast : kLocal;
        const unsigned yport = dy > y ? kSouth : dy < y ? kNorth : kLocal;
        if (xport == kLocal) return yport;
        if (yport == kLocal || !load) return xport;
        return load->free_slots(yport) > load->free_slots(xport) ? yport : xport;
    }

private:
    unsigned m_width;
};

const bool registered = routing_functions().add(
    "west_first", "minimal adaptive, west hops first (turn model): the productive direction with most free slots",
    [](unsigned w, unsigned) { return std::make_unique<WestFirst>(w); });

}  // namespace

}  // namespace stacksim::noc
