// SPDX-License-Identifier: Apache-2.0
// Network topologies: routers, their ports and links, terminal attachment, and routing.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "noc/flit.h"
#include "noc/routing.h"
#include "sim/registry.h"

namespace stacksim::noc {

struct NetworkConfig;

/// Free buffer slots behind each output port of a router, per message class.
class PortCredits {
public:
    virtual ~PortCredits() = default;
    virtual unsigned free_slots(unsigned port, MessageClass c) const = 0;
};

/// What an output port of a router leads to.
enum class LinkKind : uint8_t {
    None,      ///< unconnected (edge of a mesh)
    Terminal,  ///< a core or memory controller: ejection (output) / injection (input)
    Upper,     ///< router-to-router link inside the upper (or only) layer
    Lower,     ///< router-to-router link inside the interposer layer
    Vertical,  ///< between an upper router and its interposer router (either direction)
};

/// Downstream end of a router output port.
struct PortLink {
    LinkKind kind = LinkKind::None;
    int32_t router = -1;   ///< downstream router (router-to-router kinds)
    uint8_t port = 0;      ///< its input port
    int32_t terminal = -1; ///< the terminal (kind Terminal)
    bool edge = false;     ///< Lower links into an interposer router that hosts memory controllers
};

/// A network's graph and routing. Terminals are numbered cores first (core id = y * width + x
/// on the core grid), then memory controllers. Every router has its own port count; port
/// numbers are router-local. Routes are deterministic functions of (router, flit).
///
/// * "mesh": a (width / c) x (height / c) mesh of routers, each serving a c x c block of cores
///   (c = concentration; c = 1 is the plain mesh). Memory controllers attach to extra ports of
///   the routers of the west and east edge columns, one port (terminal) per channel.
/// * "stacked" (2.5D): an upper width x height mesh with one core per router over an interposer
///   (width / c) x (height / c) concentrated mesh; each interposer router sits under a c x c
///   block of upper routers (a "grid", numbered like the interposer router) with one vertical
///   link each way to each of them. Memory controllers attach to the interposer's west and east
///   edge routers, one port (terminal) per channel. Memory packets and packets flagged `lower`
///   go down at their source's router (the vertical hop first), cross the interposer in
///   dimension order and come up at the destination's router (the vertical hop last); the rest
///   stay on the upper layer.
class Topology {
public:
    /// Builds the topology named by cfg.topology (a topologies() name). Throws
    /// sim::ConfigError on bad sizes.
    static std::unique_ptr<Topology> create(const NetworkConfig& cfg);
    /// create() without validating `cfg` first (for NetworkConfig::validate itself).
    static std::unique_ptr<Topology> build(const NetworkConfig& cfg);
    virtual ~Topology() = default;

    /// Output port of a head flit at `router` (a terminal port when the flit's destination is
    /// there). `credits`, the router's view of its outputs, lets adaptive routing functions
    /// choose; null: no router state (deterministic choice).
    virtual unsigned route(unsigned router, const Flit& f, const PortCredits* credits = nullptr) const = 0;
    /// One line: kind, sizes, terminals.
    virtual std::string describe() const = 0;

    unsigned routers() const { return static_cast<unsigned>(m_ports.size()); }
    unsigned ports(unsigned router) const { return m_ports[router]; }
    const PortLink& link(unsigned router, unsigned port) const { return m_links[router][port]; }
    unsigned terminals() const { return static_cast<unsigned>(m_term_router.size()); }
    unsigned cores() const { return m_cores; }
    /// Memory controllers; controller i's channels are terminals cores() + i * channels + k.
    unsigned memory_controllers() const { return (terminals() - m_cores) / m_channels; }
    unsigned memory_channels() const { return m_channels; }
    unsigned memory_terminals() const { return terminals() - m_cores; }
    bool is_memory(unsigned terminal) const { return terminal >= m_cores; }
    unsigned terminal_router(unsigned t) const { return m_term_router[t]; }
    unsigned terminal_port(unsigned t) const { return m_term_port[t]; }
    /// Layer of a router: 0 upper (or only), 1 interposer.
    unsigned layer(unsigned router) const { return m_layer[router]; }
    /// Two layers (policies apply).
    bool layered() const { return m_layered; }
    /// Grid of a terminal: the interposer router under it (stacked) or its router (mesh).
    unsigned grid(unsigned terminal) const { return m_grid[terminal]; }
    unsigned grids() const { return m_grids; }
    /// Grids per row (grid id = row * grid_columns() + column).
    unsigned grid_columns() const { return m_grid_cols; }
    /// Channel 0 of the memory controller whose grid is nearest (Manhattan, lowest id on ties)
    /// to `terminal`'s.
    unsigned nearest_memory_controller(unsigned terminal) const;
    /// Upper routers of a grid (stacked) / the grid's router (mesh), and the grid's lower router.
    const std::vector<unsigned>& grid_upper_routers(unsigned g) const { return m_grid_upper[g]; }
    unsigned grid_lower_router(unsigned g) const { return m_grid_lower[g]; }
    /// Router-to-router links of a kind (each direction counted).
    unsigned links(LinkKind kind) const;
    /// Lower links into an interposer router hosting controllers (the edge columns by default).
    unsigned edge_links() const;

protected:
    /// Attaches cfg's memory controllers (cfg.memory_channels terminals each) to the west/east
    /// edge routers of the w x h plane of routers first.., on ports from first_port up.
    friend void attach_controllers(Topology& t, const NetworkConfig& cfg, unsigned first, unsigned w, unsigned h,
                                   unsigned first_port);
    unsigned add_router(unsigned ports, unsigned layer);
    /// Two one-way links: (a, pa) -> (b, pb) and (b, pb) -> (a, pa).
    void connect(unsigned a, unsigned pa, unsigned b, unsigned pb, LinkKind kind);
    unsigned attach(unsigned router, unsigned port);  ///< returns the terminal id
    /// Joins routers first .. first + w*h - 1 (row-major) into a w x h mesh on ports 0..3.
    void wire_plane(unsigned first, unsigned w, unsigned h, LinkKind kind);

    std::vector<unsigned> m_ports, m_layer, m_term_router, m_term_port, m_grid;
    std::vector<std::vector<PortLink>> m_links;
    std::vector<std::vector<unsigned>> m_grid_upper;
    std::vector<unsigned> m_grid_lower;
    unsigned m_cores = 0, m_grids = 0, m_grid_cols = 1, m_channels = 1;
    bool m_layered = false;
};

/// Topologies by name (noc.topology): "mesh" and "stacked", registered in topology.cpp.
using TopologyRegistry = sim::Registry<Topology, const NetworkConfig&>;
TopologyRegistry& topologies();

}  // namespace stacksim::noc
