// SPDX-License-Identifier: Apache-2.0
// An instantiated graph (cudaGraphExec_t): a copy of a graph's nodes in a topological order,
// replayed on a stream by cudaGraphLaunch.
#pragma once
#include <memory>
#include <vector>

#include "cudart/graph.h"

namespace stacksim::cudart {

/// cudaGraphInstantiate's result. Launching replays the nodes one after another in a
/// topological order on the launch stream, through the same paths as the equivalent direct
/// calls (cudaLaunchKernel, cudaMemcpyAsync, cudaMemsetAsync, cudaLaunchHostFunc): a serial
/// order, so independent branches of the graph do not overlap on the simulated GPU.
class GraphExec {
public:
    /// Instantiates `g`: cudaErrorInvalidValue when it has a cycle (`*bad` names a node of it).
    static cudaError_t create(const Graph& g, GraphExec** out, GraphNode** bad);
    /// The live instance of handle `h`, or null.
    static GraphExec* find(cudaGraphExec_t h);
    /// cudaGraphExecDestroy; false when `e` is not a live handle.
    static bool destroy(GraphExec* e);

    /// Replays every node on `stream` (cudaGraphLaunch). The first failing node's error ends it.
    cudaError_t launch(cudaStream_t stream);
    /// The copy of `original` (a node of the graph instantiated), or null.
    GraphNode* node_for(const GraphNode* original);
    /// The copy (nodes in the graph's order, edges kept).
    const Graph& graph() const { return m_graph; }

private:
    GraphExec() = default;
    Graph m_graph;
    std::vector<GraphNode*> m_order;
};

}  // namespace stacksim::cudart
