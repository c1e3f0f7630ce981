// SPDX-License-Identifier: Apache-2.0
// bfs: Rodinia BFS, level-synchronous breadth-first search over a CSR graph: Kernel expands
// the frontier (mask) into the next one (updating mask), Kernel2 makes it the new frontier
// and raises the `over` flag; the host relaunches both until the flag stays clear.
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3` (see regen_ptx.sh).
// Plain CUDA C only: no calls, no local memory, no warp intrinsics.

// A CSR node: its edges are g_graph_edges[starting .. starting + no_of_edges).
struct Node {
    int starting;
    int no_of_edges;
};

// Block 512 (Rodinia's MAX_THREADS_PER_BLOCK), grid ceil(nodes/512).
extern "C" __global__ void bfs_kernel(const Node* g_graph_nodes, const int* g_graph_edges,
                                      bool* g_graph_mask, bool* g_updating_graph_mask,
                                      const bool* g_graph_visited, int* g_cost, int no_of_nodes)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < no_of_nodes && g_graph_mask[tid]) {
        g_graph_mask[tid] = false;
        for (int i = g_graph_nodes[tid].starting;
             i < (g_graph_nodes[tid].no_of_edges + g_graph_nodes[tid].starting); i++) {
            int id = g_graph_edges[i];
            if (!g_graph_visited[id]) {
                g_cost[id] = g_cost[tid] + 1;
                g_updating_graph_mask[id] = true;
            }
        }
    }
}

// Block 512, grid ceil(nodes/512).
extern "C" __global__ void bfs_kernel2(bool* g_graph_mask, bool* g_updating_graph_mask,
                                       bool* g_graph_visited, bool* g_over, int no_of_nodes)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < no_of_nodes && g_updating_graph_mask[tid]) {
        g_graph_mask[tid] = true;
        g_graph_visited[tid] = true;
        *g_over = true;
        g_updating_graph_mask[tid] = false;
    }
}
