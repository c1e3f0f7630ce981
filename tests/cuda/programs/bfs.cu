// SPDX-License-Identifier: Apache-2.0
// bfs (Rodinia style): breadth-first search with Node structs, a frontier mask, an updating mask
// and a stop flag copied back each level; checked against a CPU BFS.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <queue>

#define MAX_THREADS_PER_BLOCK 128

struct Node {
    int starting;
    int no_of_edges;
};

__global__ void Kernel(Node *g_graph_nodes, int *g_graph_edges, bool *g_graph_mask, bool *g_updating_graph_mask,
                       bool *g_graph_visited, int *g_cost, int no_of_nodes) {
    int tid = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
    if (tid < no_of_nodes && g_graph_mask[tid]) {
        g_graph_mask[tid] = false;
        for (int i = g_graph_nodes[tid].starting; i < (g_graph_nodes[tid].no_of_edges + g_graph_nodes[tid].starting);
             i++) {
            int id = g_graph_edges[i];
            if (!g_graph_visited[id]) {
                g_cost[id] = g_cost[tid] + 1;
                g_updating_graph_mask[id] = true;
            }
        }
    }
}

__global__ void Kernel2(bool *g_graph_mask, bool *g_updating_graph_mask, bool *g_graph_visited, bool *g_over,
                        int no_of_nodes) {
    int tid = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
    if (tid < no_of_nodes && g_updating_graph_mask[tid]) {
        g_graph_mask[tid] = true;
        g_graph_visited[tid] = true;
        *g_over = true;
        g_updating_graph_mask[tid] = false;
    }
}

int main(int argc, char **argv) {
    int no_of_nodes = 3000;
    int edges_per_node = 3;
    srand(12345);
    Node *h_graph_nodes = (Node *)malloc(sizeof(Node) * no_of_nodes);
    bool *h_graph_mask = (bool *)malloc(sizeof(bool) * no_of_nodes);
    bool *h_updating_graph_mask = (bool *)malloc(sizeof(bool) * no_of_nodes);
    bool *h_graph_visited = (bool *)malloc(sizeof(bool) * no_of_nodes);
    int edge_list_size = no_of_nodes * edges_per_node;
    int *h_graph_edges = (int *)malloc(sizeof(int) * edge_list_size);
    for (int i = 0; i < no_of_nodes; i++) {
        h_graph_nodes[i].starting = i * edges_per_node;
        h_graph_nodes[i].no_of_edges = edges_per_node;
        h_graph_mask[i] = false;
        h_updating_graph_mask[i] = false;
        h_graph_visited[i] = false;
        for (int e = 0; e < edges_per_node; e++) {
            // A chain plus random long edges: several levels.
            h_graph_edges[i * edges_per_node + e] = e == 0 ? (i + 1) % no_of_nodes : rand() % no_of_nodes;
        }
    }
    int source = 0;
    h_graph_mask[source] = true;
    h_graph_visited[source] = true;

    Node *d_graph_nodes;
    cudaMalloc((void **)&d_graph_nodes, sizeof(Node) * no_of_nodes);
    cudaMemcpy(d_graph_nodes, h_graph_nodes, sizeof(Node) * no_of_nodes, cudaMemcpyHostToDevice);
    int *d_graph_edges;
    cudaMalloc((void **)&d_graph_edges, sizeof(int) * edge_list_size);
    cudaMemcpy(d_graph_edges, h_graph_edges, sizeof(int) * edge_list_size, cudaMemcpyHostToDevice);
    bool *d_graph_mask, *d_updating_graph_mask, *d_graph_visited;
    cudaMalloc((void **)&d_graph_mask, sizeof(bool) * no_of_nodes);
    cudaMemcpy(d_graph_mask, h_graph_mask, sizeof(bool) * no_of_nodes, cudaMemcpyHostToDevice);
    cudaMalloc((void **)&d_updating_graph_mask, sizeof(bool) * no_of_nodes);
    cudaMemcpy(d_updating_graph_mask, h_updating_graph_mask, sizeof(bool) * no_of_nodes, cudaMemcpyHostToDevice);
    cudaMalloc((void **)&d_graph_visited, sizeof(bool) * no_of_nodes);
    cudaMemcpy(d_graph_visited, h_graph_visited, sizeof(bool) * no_of_nodes, cudaMemcpyHostToDevice);
    int *h_cost = (int *)malloc(sizeof(int) * no_of_nodes);
    for (int i = 0; i < no_of_nodes; i++) h_cost[i] = -1;
    h_cost[source] = 0;
    int *d_cost;
    cudaMalloc((void **)&d_cost, sizeof(int) * no_of_nodes);
    cudaMemcpy(d_cost, h_cost, sizeof(int) * no_of_nodes, cudaMemcpyHostToDevice);
    bool *d_over;
    cudaMalloc((void **)&d_over, sizeof(bool));

    int num_of_blocks = (no_of_nodes + MAX_THREADS_PER_BLOCK - 1) / MAX_THREADS_PER_BLOCK;
    dim3 grid(num_of_blocks, 1, 1);
    dim3 threads(MAX_THREADS_PER_BLOCK, 1, 1);
    int k = 0;
    bool stop;
    do {
        stop = false;
        cudaMemcpy(d_over, &stop, sizeof(bool), cudaMemcpyHostToDevice);
        Kernel<<<grid, threads, 0>>>(d_graph_nodes, d_graph_edges, d_graph_mask, d_updating_graph_mask,
                                     d_graph_visited, d_cost, no_of_nodes);
        Kernel2<<<grid, threads, 0>>>(d_graph_mask, d_updating_graph_mask, d_graph_visited, d_over, no_of_nodes);
        cudaMemcpy(&stop, d_over, sizeof(bool), cudaMemcpyDeviceToHost);
        k++;
    } while (stop && k < 1000);
    printf("Kernel Executed %d times\n", k);
    cudaMemcpy(h_cost, d_cost, sizeof(int) * no_of_nodes, cudaMemcpyDeviceToHost);

    // CPU BFS.
    int *ref = (int *)malloc(sizeof(int) * no_of_nodes);
    for (int i = 0; i < no_of_nodes; i++) ref[i] = -1;
    ref[source] = 0;
    std::queue<int> q;
    q.push(source);
    while (!q.empty()) {
        int u = q.front();
        q.pop();
        for (int e = 0; e < edges_per_node; e++) {
            int v = h_graph_edges[u * edges_per_node + e];
            if (ref[v] < 0) {
                ref[v] = ref[u] + 1;
                q.push(v);
            }
        }
    }
    int bad = 0, maxlevel = 0;
    for (int i = 0; i < no_of_nodes; i++) {
        if (ref[i] != h_cost[i]) {
            if (bad < 5) printf("node %d: gpu %d cpu %d\n", i, h_cost[i], ref[i]);
            bad++;
        }
        if (ref[i] > maxlevel) maxlevel = ref[i];
    }
    cudaFree(d_graph_nodes), cudaFree(d_graph_edges), cudaFree(d_graph_mask), cudaFree(d_updating_graph_mask);
    cudaFree(d_graph_visited), cudaFree(d_cost), cudaFree(d_over);
    if (bad || maxlevel < 3) {
        printf("FAILED: %d nodes differ (levels %d)\n", bad, maxlevel);
        return 1;
    }
    printf("PASSED bfs (%d levels)\n", maxlevel);
    return 0;
}
