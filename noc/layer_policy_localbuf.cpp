// SPDX-License-Identifier: Apache-2.0
// LocalBuf layer selection: divert when the source grid's routers are congested (thesis ch.5).
#include "noc/layer_policy_base.h"
#include "noc/router.h"
#include "noc/topology.h"

namespace stacksim::noc {

namespace {

/// What a router's occupancy is measured over.
enum class OccupancyScope { Port, Router, Active };

/// Parameters of localbuf ([noc.localbuf]).
struct LocalBufParams {
    double buffer_threshold = 0.6;
    uint32_t congested_nodes = 1;
    OccupancyScope scope = OccupancyScope::Port;
    static const sim::Params<LocalBufParams>& params() {
        using C = LocalBufParams;
        static const auto p = [] {
            sim::Params<C> p;
            p.add("buffer_threshold", &C::buffer_threshold, "",
                  "buffer occupancy (fraction, of the fullest input port, the whole router or its buffers in use: scope) above which a router is congested")
                .check([](double v) { return v > 0.0 && v <= 1.0; }, "in (0, 1]");
            p.add("congested_nodes", &C::congested_nodes, "routers",
                  "divert when more than this many routers of the source's grid are congested")
                .range(0, 1024);
            p.add("scope", &C::scope, "",
                  "port: a router is congested when its fullest input port is over the threshold; router: when "
                  "all its input buffers together are (the thesis's definition; rarely trips before saturation); "
                  "active: when its buffers in use (the input VCs holding flits) together are")
                .names({{"port", OccupancyScope::Port}, {"router", OccupancyScope::Router}, {"active", OccupancyScope::Active}});
            return p;
        }();
        return p;
    }
};

/// A router with an input port (scope port), whose buffers together (scope router) or whose
/// buffers in use together (scope active) are more than the threshold full is congested;
/// divert when more than congested_nodes upper routers of the source's grid are congested and
/// the grid's interposer router is not.
class LocalBuf final : public LayerPolicyBase {
public:
    LocalBuf(const LocalBufParams& p, const LayerPolicyEnv& env) : LayerPolicyBase(env), m_p(p) {}
    bool divert(unsigned src, unsigned, uint64_t) override {
        const Topology& t = m_env.topology;
        unsigned g = t.grid(src), congested = 0;
        for (unsigned r : t.grid_upper_routers(g)) congested += is_congested(r);
        return decide(congested > m_p.congested_nodes && !is_congested(t.grid_lower_router(g)));
    }

private:
    bool is_congested(unsigned r) const {
        const Router& router = *m_env.routers[r];
        const double occupancy = m_p.scope == OccupancyScope::Router   ? router.occupancy()
                                 : m_p.scope == OccupancyScope::Active ? router.active_occupancy()
                                                                       : router.max_port_occupancy();
        return occupancy > m_p.buffer_threshold;
    }
    LocalBufParams m_p;
};

const bool registered = layer_policies().add_with<LocalBufParams>(
    "localbuf", "divert when more routers of the grid than congested_nodes are over buffer_threshold full (an input port, the whole router or its buffers in use: scope) and the interposer node is not",
    [](const LocalBufParams& p, const LayerPolicyEnv& e) { return std::make_unique<LocalBuf>(p, e); });

}  // namespace

}  // namespace stacksim::noc
