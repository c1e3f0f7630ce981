// SPDX-License-Identifier: Apache-2.0
// The library workload bfs as an ordinary CUDA program: the library's kernels, its random graph
// (tests/cuda/lib_inputs.h) and its host calls in its order (upload the graph, the mask, visited
// flags and costs, allocate the updating mask and the flag, then per level: clear the flag,
// launch both kernels, read the flag back). Arguments: nodes, seed.
#include <vector>

#include "lib_inputs.h"
#include "workloads/kernels/bfs.cu"

int main(int argc, char** argv) {
    const int n = static_cast<int>(lib_arg(argc, argv, 1, 4096));
    const uint64_t seed = lib_arg(argc, argv, 2, 1);
    // Every node has 2..8 edges to uniformly drawn nodes (the library's generator, in its order).
    std::vector<int> nodes, edges;
    SplitMix64 rng(sub_seed(seed, 0));
    for (int v = 0; v < n; ++v) {
        const int degree = 2 + static_cast<int>(rng.next_below(7));
        nodes.push_back(static_cast<int>(edges.size()));
        nodes.push_back(degree);
        for (int e = 0; e < degree; ++e) edges.push_back(static_cast<int>(rng.next_below(n)));
    }
    std::vector<unsigned char> mask(n, 0), visited(n, 0);
    std::vector<int> cost(n, -1);
    mask[0] = visited[0] = 1;
    cost[0] = 0;
    Node* d_nodes;
    int *d_edges, *d_cost;
    bool *d_mask, *d_visited, *d_updating, *d_over;
    CHECK(cudaMalloc(&d_nodes, nodes.size() * sizeof(int)));
    CHECK(cudaMemcpy(d_nodes, nodes.data(), nodes.size() * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&d_edges, edges.size() * sizeof(int)));
    CHECK(cudaMemcpy(d_edges, edges.data(), edges.size() * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&d_mask, n));
    CHECK(cudaMemcpy(d_mask, mask.data(), n, cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&d_visited, n));
    CHECK(cudaMemcpy(d_visited, visited.data(), n, cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&d_cost, n * sizeof(int)));
    CHECK(cudaMemcpy(d_cost, cost.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&d_updating, n));
    CHECK(cudaMalloc(&d_over, 1));
    CHECK(cudaMemset(d_updating, 0, n));
    int levels = 0;
    bool over = false;
    do {  // at most n levels, even if the device misbehaves
        CHECK(cudaMemset(d_over, 0, 1));
        bfs_kernel<<<lib_ceil_div(n, 512), 512>>>(d_nodes, d_edges, d_mask, d_updating, d_visited, d_cost, n);
        CHECK(cudaGetLastError());
        bfs_kernel2<<<lib_ceil_div(n, 512), 512>>>(d_mask, d_updating, d_visited, d_over, n);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(&over, d_over, 1, cudaMemcpyDeviceToHost));
        ++levels;
    } while (over && levels <= n);
    CHECK(cudaMemcpy(cost.data(), d_cost, n * sizeof(int), cudaMemcpyDeviceToHost));
    // The CPU's breadth-first search; the device's last pair of launches finds nothing new.
    std::vector<int> want(n, -1), frontier{0}, next;
    want[0] = 0;
    int want_levels = 1;
    while (!frontier.empty()) {
        next.clear();
        for (int v : frontier)
            for (int e = 0; e < nodes[2 * v + 1]; ++e) {
                const int to = edges[nodes[2 * v] + e];
                if (want[to] < 0) {
                    want[to] = want[v] + 1;
                    next.push_back(to);
                }
            }
        frontier.swap(next);
        want_levels += frontier.empty() ? 0 : 1;
    }
    EXPECT(cost == want);
    EXPECT(levels == want_levels);
    std::printf("PASSED lib_bfs %d (%d levels)\n", n, levels);
    return 0;
}
