// SPDX-License-Identifier: Apache-2.0
// bfs workload (Rodinia BFS): level-synchronous BFS from node 0 of a seeded random CSR graph;
// per level bfs_kernel + bfs_kernel2 (block 512, grid ceil(n/512)) until no node is added.
#include <cstdint>
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 512;                    // Rodinia's MAX_THREADS_PER_BLOCK
constexpr uint32_t kMinDegree = 2, kMaxDegree = 8;  // out-degree of every node, uniform
constexpr uint32_t kMaxN = 1u << 24;

class Bfs final : public LibraryWorkload {
public:
    Bfs(uint32_t n, uint64_t seed) : LibraryWorkload("bfs.ptx"), m_n(n) {
        SplitMix64 rng(sub_seed(seed, 0));
        m_nodes.reserve(size_t{2} * n);
        for (uint32_t v = 0; v < n; ++v) {
            const uint32_t degree = kMinDegree + rng.next_below(kMaxDegree - kMinDegree + 1);
            m_nodes.push_back(static_cast<int32_t>(m_edges.size()));  // starting
            m_nodes.push_back(static_cast<int32_t>(degree));           // no_of_edges
            for (uint32_t e = 0; e < degree; ++e) m_edges.push_back(static_cast<int32_t>(rng.next_below(n)));
        }
    }

    void execute(Device& dev) override {
        std::vector<uint8_t> mask(m_n, 0), visited(m_n, 0);
        std::vector<int32_t> cost(m_n, -1);
        mask[0] = visited[0] = 1;
        cost[0] = 0;
        const DevPtr nodes = dev.upload(m_nodes), edges = dev.upload(m_edges);
        const DevPtr d_mask = dev.upload(mask), d_visited = dev.upload(visited), d_cost = dev.upload(cost);
        const DevPtr d_updating = dev.alloc<uint8_t>(m_n), d_over = dev.alloc<uint8_t>(1);
        dev.zero(d_updating);
        const Shape shape = linear(m_n, kBlock);
        const auto n = static_cast<int32_t>(m_n);
        std::vector<uint8_t> over;
        m_levels = 0;
        do {  // at most n levels, even if the device misbehaves
            dev.zero(d_over);
            dev.launch("bfs_kernel", shape,
                       LaunchArgs().ptr(nodes).ptr(edges).ptr(d_mask).ptr(d_updating).ptr(d_visited).ptr(d_cost)
                           .i32(n));
            dev.launch("bfs_kernel2", shape,
                       LaunchArgs().ptr(d_mask).ptr(d_updating).ptr(d_visited).ptr(d_over).i32(n));
            dev.download(over, d_over);
            ++m_levels;
        } while (over[0] != 0 && m_levels <= m_n);
        dev.download(m_cost, d_cost);
    }

    void compare(Checker& check) const override {
        std::vector<int32_t> cost(m_n, -1), frontier{0}, next;
        cost[0] = 0;
        uint32_t levels = 1;  // the device's last launch pair finds nothing new
        while (!frontier.empty()) {
            next.clear();
            for (int32_t v : frontier)
                for (int32_t e = 0; e < m_nodes[2 * v + 1]; ++e) {
                    const int32_t to = m_edges[m_nodes[2 * v] + e];
                    if (cost[to] < 0) {
                        cost[to] = cost[v] + 1;
                        next.push_back(to);
                    }
                }
            frontier.swap(next);
            levels += frontier.empty() ? 0 : 1;
        }
        check.exact_all("cost", m_cost, cost);
        check.exact("levels", 0, m_levels, levels);
    }

private:
    uint32_t m_n;
    std::vector<int32_t> m_nodes, m_edges, m_cost;  // m_nodes: (starting, no_of_edges) pairs
    uint32_t m_levels = 0;
};

const bool registered = workload_registry().add(
    {"bfs", "Rodinia BFS: level-synchronous frontier BFS of a seeded random graph",
     WorkloadClass::Irregular, {"bfs.ptx"}, {"graph nodes", 4096, kMaxN, 1,
       [](uint64_t n) { return 96 * n; }}},
    construct<Bfs>);

}  // namespace

}  // namespace stacksim::workloads
