// SPDX-License-Identifier: Apache-2.0
// Mesh, concentrated mesh and the 2.5D stacked topology.
#include "noc/topology.h"

#include <fmt/format.h>

#include <cstdlib>

#include "noc/network.h"
#include "sim/error.h"

namespace stacksim::noc {

unsigned Topology::add_router(unsigned ports, unsigned layer) {
    m_ports.push_back(ports);
    m_layer.push_back(layer);
    m_links.emplace_back(ports);
    return routers() - 1;
}

void Topology::connect(unsigned a, unsigned pa, unsigned b, unsigned pb, LinkKind kind) {
    m_links[a][pa] = PortLink{kind, static_cast<int32_t>(b), static_cast<uint8_t>(pb), -1};
    m_links[b][pb] = PortLink{kind, static_cast<int32_t>(a), static_cast<uint8_t>(pa), -1};
}

unsigned Topology::attach(unsigned router, unsigned port) {
    unsigned t = terminals();
    m_term_router.push_back(router);
    m_term_port.push_back(port);
    m_links[router][port] = PortLink{LinkKind::Terminal, -1, 0, static_cast<int32_t>(t)};
    return t;
}

void Topology::wire_plane(unsigned first, unsigned w, unsigned h, LinkKind kind) {
    // Ports 0..3 are east, west, north, south (RoutingFunction's kEast..kSouth minus one).
    for (unsigned y = 0; y < h; ++y)
        for (unsigned x = 0; x < w; ++x) {
            unsigned r = first + y * w + x;
            if (x + 1 < w) connect(r, kEast - 1, r + 1, kWest - 1, kind);
            if (y + 1 < h) connect(r, kSouth - 1, r + w, kNorth - 1, kind);
        }
}

unsigned Topology::edge_links() const {
    unsigned n = 0;
    for (auto& r : m_links)
        for (auto& l : r) n += l.kind == LinkKind::Lower && l.edge;
    return n;
}

unsigned Topology::links(LinkKind kind) const {
    unsigned n = 0;
    for (auto& r : m_links)
        for (auto& l : r) n += l.kind == kind;
    return n;
}

unsigned Topology::nearest_memory_controller(unsigned terminal) const {
    unsigned g = m_grid[terminal], best = m_cores, best_d = ~0u;
    for (unsigned t = m_cores; t < terminals(); t += m_channels) {
        unsigned h = m_grid[t];
        int dx = static_cast<int>(g % m_grid_cols) - static_cast<int>(h % m_grid_cols);
        int dy = static_cast<int>(g / m_grid_cols) - static_cast<int>(h / m_grid_cols);
        unsigned d = static_cast<unsigned>(std::abs(dx) + std::abs(dy));
        if (d < best_d) {
            best_d = d;
            best = t;
        }
    }
    return best;
}

namespace {

// Direction codes of RoutingFunction (kEast..kSouth) map to ports 0..3 on every router.
constexpr unsigned dir_port(unsigned dir) { return dir - 1; }

/// A router's output credits seen as a plane routing function's load (direction -> port).
class PlaneLoad final : public RouteLoad {
public:
    PlaneLoad(const PortCredits& c, MessageClass m) : m_c(c), m_m(m) {}
    unsigned free_slots(unsigned dir) const override { return m_c.free_slots(dir_port(dir), m_m); }

private:
    const PortCredits& m_c;
    MessageClass m_m;
};

/// Routes on a plane with the router's load when it is known.
unsigned plane_route(const RoutingFunction& f, unsigned node, unsigned dest, const PortCredits* c, MessageClass m) {
    if (!c) return f.route(node, dest, nullptr);
    PlaneLoad load(*c, m);
    return f.route(node, dest, &load);
}

/// Memory controller i of m: west edge column for the first half, east for the second; rows
/// spread evenly over the height (several per router when m / 2 > height).
void mc_place(unsigned i, unsigned m, unsigned w, unsigned h, bool north_south, unsigned& x, unsigned& y) {
    if (north_south) {  // the same layout on the transposed plane
        mc_place(i, m, h, w, false, y, x);
        return;
    }
    unsigned half = (m + 1) / 2;
    unsigned side = i < half ? 0 : 1, k = i < half ? i : i - half;
    unsigned count = side == 0 ? half : m - half;
    x = side == 0 ? 0 : w - 1;
    y = static_cast<unsigned>((uint64_t{k} * h) / count + (h > count ? h / count / 2 : 0));
    if (y >= h) y = h - 1;
}

/// Memory controllers per router of a w x h grid (index y * w + x).
std::vector<unsigned> mc_counts(unsigned m, unsigned w, unsigned h, bool north_south) {
    std::vector<unsigned> n(size_t{w} * h, 0);
    for (unsigned i = 0; i < m; ++i) {
        unsigned x, y;
        mc_place(i, m, w, h, north_south, x, y);
        ++n[y * w + x];
    }
    return n;
}

}  // namespace

void attach_controllers(Topology& t, const NetworkConfig& cfg, unsigned first, unsigned w, unsigned h,
                        unsigned first_port) {
    std::vector<unsigned> used(size_t{w} * h, 0);
    for (unsigned i = 0; i < cfg.memory_controllers; ++i) {
        unsigned x, y;
        mc_place(i, cfg.memory_controllers, w, h, cfg.memory_placement == "north_south", x, y);
        unsigned g = y * w + x;
        for (unsigned k = 0; k < cfg.memory_channels; ++k) {
            t.attach(first + g, first_port + used[g]++);
            t.m_grid.push_back(g);
        }
    }
}

namespace {

class MeshTopology : public Topology {
public:
    explicit MeshTopology(const NetworkConfig& cfg)
        : m_c(cfg.concentration), m_rw(cfg.width / cfg.concentration), m_rh(cfg.height / cfg.concentration),
          m_dor(routing_functions().create(cfg.routing, m_rw, m_rh)), m_routing(cfg.routing) {
        const unsigned cc = m_c * m_c, rn = m_rw * m_rh;
        auto mcs = mc_counts(cfg.memory_controllers, m_rw, m_rh, cfg.memory_placement == "north_south");
        for (unsigned r = 0; r < rn; ++r) add_router(4 + cc + mcs[r] * cfg.memory_channels, 0);
        wire_plane(0, m_rw, m_rh, LinkKind::Upper);
        m_cores = cfg.width * cfg.height;
        for (unsigned core = 0; core < m_cores; ++core) {
            unsigned x = core % cfg.width, y = core / cfg.width;
            unsigned r = (y / m_c) * m_rw + x / m_c;
            attach(r, 4 + (y % m_c) * m_c + x % m_c);
            m_grid.push_back(r);
        }
        attach_controllers(*this, cfg, 0, m_rw, m_rh, 4 + cc);
        m_grids = rn;
        m_grid_cols = m_rw;
        for (unsigned r = 0; r < rn; ++r) {
            m_grid_upper.push_back({r});
            m_grid_lower.push_back(r);
        }
    }
    unsigned route(unsigned router, const Flit& f, const PortCredits* credits) const override {
        unsigned rd = m_term_router[f.dst];
        if (rd == router) return m_term_port[f.dst];
        return dir_port(plane_route(*m_dor, router, rd, credits, f.mclass));
    }
    std::string describe() const override {
        return fmt::format("{}x{} {}mesh of {}x{} cores, {} memory controllers x {} channels, routing {}",
                           m_rw, m_rh, m_c > 1 ? "concentrated " : "", m_rw * m_c, m_rh * m_c, memory_controllers(),
                           m_channels, m_routing);
    }

private:
    unsigned m_c, m_rw, m_rh;
    std::unique_ptr<RoutingFunction> m_dor;
    std::string m_routing;
};

class StackedTopology : public Topology {
public:
    static constexpr unsigned kDown = 4;  ///< upper router port to the interposer
    explicit StackedTopology(const NetworkConfig& cfg)
        : m_c(cfg.concentration), m_w(cfg.width), m_h(cfg.height), m_iw(cfg.width / cfg.concentration),
          m_ih(cfg.height / cfg.concentration), m_upper_dor(routing_functions().create(cfg.routing, m_w, m_h)),
          m_lower_dor(routing_functions().create(cfg.routing, m_iw, m_ih)), m_routing(cfg.routing) {
        m_layered = true;
        const unsigned cc = m_c * m_c, un = m_w * m_h, in = m_iw * m_ih;
        // Upper router ports: 0..3 mesh, 4 down, 5 core.
        for (unsigned r = 0; r < un; ++r) add_router(6, 0);
        auto mcs = mc_counts(cfg.memory_controllers, m_iw, m_ih, cfg.memory_placement == "north_south");
        // Interposer router ports: 0..3 mesh, 4..4+cc-1 up (grid position), then controllers.
        for (unsigned r = 0; r < in; ++r) add_router(4 + cc + mcs[r] * cfg.memory_channels, 1);
        wire_plane(0, m_w, m_h, LinkKind::Upper);
        wire_plane(un, m_iw, m_ih, LinkKind::Lower);
        for (unsigned r = un; r < un + in; ++r)
            for (auto& l : m_links[r])
                if (l.kind == LinkKind::Lower) l.edge = mcs[static_cast<unsigned>(l.router) - un] > 0;
        for (unsigned y = 0; y < m_h; ++y)
            for (unsigned x = 0; x < m_w; ++x) {
                unsigned g = (y / m_c) * m_iw + x / m_c;
                connect(y * m_w + x, kDown, un + g, 4 + (y % m_c) * m_c + x % m_c, LinkKind::Vertical);
            }
        m_cores = un;
        m_grid_upper.resize(in);
        for (unsigned core = 0; core < un; ++core) {
            attach(core, 5);
            unsigned g = (core / m_w / m_c) * m_iw + (core % m_w) / m_c;
            m_grid.push_back(g);
            m_grid_upper[g].push_back(core);
        }
        attach_controllers(*this, cfg, un, m_iw, m_ih, 4 + cc);
        m_grids = in;
        m_grid_cols = m_iw;
        for (unsigned g = 0; g < in; ++g) m_grid_lower.push_back(un + g);
    }
    unsigned route(unsigned router, const Flit& f, const PortCredits* credits) const override {
        const unsigned un = m_w * m_h;
        unsigned rd = m_term_router[f.dst];
        if (rd == router) return m_term_port[f.dst];
        if (router < un) {
            if (rd >= un || f.lower) return kDown;
            return dir_port(plane_route(*m_upper_dor, router, rd, credits, f.mclass));
        }
        unsigned here = router - un;
        unsigned target = rd >= un ? rd - un : m_grid[f.dst];
        if (here == target) {  // up to the destination core (rd is its upper router)
            unsigned x = rd % m_w, y = rd / m_w;
            return 4 + (y % m_c) * m_c + x % m_c;
        }
        return dir_port(plane_route(*m_lower_dor, here, target, credits, f.mclass));
    }
    std::string describe() const override {
        return fmt::format("2.5D: {}x{} upper mesh over a {}x{} interposer mesh ({}x{} grids), {} memory controllers x {} "
                           "channels, routing {}-z",
                           m_w, m_h, m_iw, m_ih, m_c, m_c, memory_controllers(), m_channels, m_routing);
    }

private:
    unsigned m_c, m_w, m_h, m_iw, m_ih;
    std::unique_ptr<RoutingFunction> m_upper_dor, m_lower_dor;
    std::string m_routing;
};

}  // namespace

std::unique_ptr<Topology> Topology::create(const NetworkConfig& cfg) {
    cfg.validate();
    return build(cfg);
}

std::unique_ptr<Topology> Topology::build(const NetworkConfig& cfg) {
    std::unique_ptr<Topology> t = topologies().create(cfg.topology, cfg);
    t->m_channels = cfg.memory_channels;
    return t;
}

TopologyRegistry& topologies() {
    static TopologyRegistry r("topology", "network topologies: routers, links and where terminals attach");
    return r;
}

namespace {
const bool registered_mesh = topologies().add(
    "mesh", "a 2D mesh of routers, each serving a concentration x concentration block of cores (cmesh when > 1)",
    [](const NetworkConfig& c) { return std::make_unique<MeshTopology>(c); });
const bool registered_stacked = topologies().add(
    "stacked", "2.5D: an upper mesh, one core per router, over a concentrated interposer mesh with the memory",
    [](const NetworkConfig& c) { return std::make_unique<StackedTopology>(c); });
}  // namespace

}  // namespace stacksim::noc
