// SPDX-License-Identifier: Apache-2.0
// A CUDA graph (cudaGraph_t): nodes (kernel, copy, memset, host function, empty) and the
// dependencies between them, built explicitly (cudart/api_graph.cpp) or by stream capture
// (cudart/stream_capture.h).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "cudart/cuda_abi.h"

namespace stacksim::cudart {

class Graph;
class Runtime;

/// A kernel node's launch: the function, its configuration and its argument values, copied
/// when the node was made (as CUDA does: the program may reuse its argument variables).
struct KernelLaunch {
    const void* func = nullptr;  ///< the host stub nvcc registered
    dim3 grid{1, 1, 1};
    dim3 block{1, 1, 1};
    uint32_t shared = 0;  ///< dynamic shared memory per CTA, bytes
    bool cooperative = false;
    std::vector<std::vector<uint8_t>> args;  ///< each argument's bytes, in parameter order
    std::vector<void*> pointers;             ///< into `args` (kernelParams); refreshed by refresh()
    /// Points `pointers` at `args` and returns them (cudaKernelNodeParams::kernelParams).
    void** refresh();
};

/// A copy node: `height` rows of `width` bytes, rows `dpitch`/`spitch` bytes apart (height 1:
/// a plain copy).
struct MemcpyOp {
    void* dst = nullptr;
    const void* src = nullptr;
    size_t dpitch = 0, spitch = 0, width = 0, height = 1;
    int kind = cudaMemcpyDefault;
};

/// A memset node: `height` rows of `width` elements of `element_size` bytes (1, 2 or 4), each
/// `value`; rows `pitch` bytes apart.
struct MemsetOp {
    void* dst = nullptr;
    size_t pitch = 0;
    unsigned value = 0, element_size = 1;
    size_t width = 0, height = 1;
};

/// One node of a graph (a cudaGraphNode_t is a pointer to it).
struct GraphNode {
    int type = cudaGraphNodeTypeEmpty;  ///< cudaGraphNodeType
    Graph* graph = nullptr;             ///< the graph that holds it
    const GraphNode* origin = nullptr;  ///< the node it was copied from (clone, instantiate)
    KernelLaunch kernel;
    MemcpyOp copy;
    MemsetOp set;
    cudaHostNodeParams host{nullptr, nullptr};
    std::vector<GraphNode*> deps;        ///< nodes it waits for
    std::vector<GraphNode*> dependents;  ///< nodes that wait for it
};

/// A graph: owns its nodes. Handles given to the program (cudaGraph_t, cudaGraphNode_t) are
/// checked against the live graphs and nodes (find, find_node).
class Graph {
public:
    Graph() = default;
    ~Graph();
    Graph(const Graph&) = delete;
    Graph& operator=(const Graph&) = delete;

    /// A new graph whose handle the program holds (cudaGraphCreate, cudaStreamEndCapture).
    static Graph* adopt(std::unique_ptr<Graph> g);
    /// The live graph of handle `h`, or null.
    static Graph* find(cudaGraph_t h);
    /// The live node of handle `h` (of any graph, also those of instantiated graphs), or null.
    static GraphNode* find_node(cudaGraphNode_t h);
    /// cudaGraphDestroy: frees the graph and its nodes. False when `g` is not a live handle.
    static bool destroy(Graph* g);

    /// Adds a node like `proto` (its edges are ignored) after `deps` (nodes of this graph).
    GraphNode* add(const GraphNode& proto, const std::vector<GraphNode*>& deps);
    /// Adds the edge `from` -> `to` (both of this graph); a duplicate is cudaErrorInvalidValue.
    cudaError_t add_edge(GraphNode* from, GraphNode* to);
    /// Removes the edge `from` -> `to`; cudaErrorInvalidValue when there is none.
    cudaError_t remove_edge(GraphNode* from, GraphNode* to);
    /// Removes `n` and its edges.
    void remove(GraphNode* n);
    /// Copies every node and edge of `other` into this graph; the copies' `origin` is the node
    /// copied, and nodes without dependencies in `other` wait for `roots_after`. Returns the
    /// copies in `other`'s node order.
    std::vector<GraphNode*> append(const Graph& other, const std::vector<GraphNode*>& roots_after = {});

    /// The nodes in the order they were added.
    const std::vector<std::unique_ptr<GraphNode>>& nodes() const { return m_nodes; }
    /// Nodes without dependencies.
    std::vector<GraphNode*> roots() const;
    /// Nodes no other node waits for.
    std::vector<GraphNode*> leaves() const;
    /// A topological order (Kahn's, ties in the order of addition); nullopt when the graph has a
    /// cycle.
    std::optional<std::vector<GraphNode*>> topological_order() const;
    /// True when `n` is an ancestor of, or is, `of` (edges followed backwards from `of`).
    static bool reaches(const GraphNode* n, const GraphNode* of);

private:
    std::vector<std::unique_ptr<GraphNode>> m_nodes;
};

/// Makes a kernel node's launch from the program's arguments: the function must be registered
/// (cudaErrorInvalidDeviceFunction) and its module loadable; each argument's bytes are copied
/// by the kernel's parameter sizes.
cudaError_t make_kernel_launch(Runtime& rt, const void* func, dim3 grid, dim3 block, size_t shared, void** args,
                               KernelLaunch& out);

/// A copy node from cudaMemcpy3DParms: linear memory only (no CUDA arrays), one slice (depth 1),
/// positions within the slice. What is not served is cudaErrorNotSupported with one line.
cudaError_t memcpy_op_from(const cudaMemcpy3DParms& p, MemcpyOp& out);
/// cudaMemcpy3DParms of a copy node (zero positions; the extent in bytes and rows).
cudaMemcpy3DParms memcpy_params_of(const MemcpyOp& op);
/// A memset node from cudaMemsetParams: element size 1, 2 or 4, a pitch that holds a row, the
/// range inside one device allocation (cudaErrorInvalidValue otherwise).
cudaError_t memset_op_from(Runtime& rt, const cudaMemsetParams& p, MemsetOp& out);
/// cudaMemsetParams of a memset node.
cudaMemsetParams memset_params_of(const MemsetOp& op);

}  // namespace stacksim::cudart
