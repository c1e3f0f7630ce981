// SPDX-License-Identifier: Apache-2.0
// CUDA graphs: building them (nodes and dependencies), instantiating and launching them
// (cudart/graph.h, cudart/graph_exec.h). Node parameters: cudart/api_graph_params.cpp.
#include <fmt/format.h>

#include "cudart/api_common.h"
#include "cudart/graph_exec.h"
#include "cudart/stream_capture.h"

using stacksim::cudart::Graph;
using stacksim::cudart::GraphExec;
using stacksim::cudart::GraphNode;
using stacksim::cudart::Runtime;
using namespace stacksim;

static_assert(sizeof(cudaMemcpy3DParms) == 160 && sizeof(cudaKernelNodeParams) == 56 &&
                  sizeof(cudaMemsetParams) == 40 && sizeof(cudaGraphInstantiateParams) == 32 &&
                  sizeof(cudaGraphEdgeData) == 8,
              "CUDA 13's graph parameter layouts");

namespace {

cudaGraphNode_t handle(GraphNode* n) { return reinterpret_cast<cudaGraphNode_t>(n); }

/// Adds a node like `proto` to `graph` after `deps` (nodes of that graph).
cudaError_t add_node(cudaGraphNode_t* out, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t n,
                     const GraphNode& proto) {
    auto& rt = Runtime::get();
    Graph* g = Graph::find(graph);
    if (!out || !g || (n && !deps)) return rt.set_error(cudaErrorInvalidValue);
    std::vector<GraphNode*> after;
    for (size_t i = 0; i < n; ++i) {
        GraphNode* d = Graph::find_node(deps[i]);
        if (!d || d->graph != g) return rt.set_error(cudaErrorInvalidValue);
        after.push_back(d);
    }
    *out = handle(g->add(proto, after));
    return cudaSuccess;
}

/// The node-list answer of cudaGraphGetNodes and its kind: `*count` nodes at most into `out`
/// (the rest of `out` zeroed), `*count` set to how many there are; only the count without `out`.
cudaError_t list(const std::vector<GraphNode*>& nodes, cudaGraphNode_t* out, size_t* count) {
    if (!count) return Runtime::get().set_error(cudaErrorInvalidValue);
    if (out) {
        for (size_t i = 0; i < *count; ++i) out[i] = i < nodes.size() ? handle(nodes[i]) : nullptr;
    }
    *count = nodes.size();
    return cudaSuccess;
}

/// cudaGraphAddDependencies / cudaGraphRemoveDependencies.
cudaError_t edges(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to, size_t n, bool add) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    Graph* g = Graph::find(graph);
    if (!g || (n && (!from || !to))) return rt.set_error(cudaErrorInvalidValue);
    for (size_t i = 0; i < n; ++i) {
        GraphNode* a = Graph::find_node(from[i]);
        GraphNode* b = Graph::find_node(to[i]);
        if (!a || !b) return rt.set_error(cudaErrorInvalidValue);
        if (cudaError_t e = add ? g->add_edge(a, b) : g->remove_edge(a, b)) return rt.set_error(e);
    }
    return cudaSuccess;
}

cudaError_t instantiate(cudaGraphExec_t* out, cudaGraph_t graph, unsigned long long flags, GraphNode** bad) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    Graph* g = Graph::find(graph);
    if (!out || !g) return rt.set_error(cudaErrorInvalidValue);
    (void)flags;  // auto-free, upload, device launch, priority: no effect on the serial replay
    GraphExec* e = nullptr;
    if (cudaError_t err = GraphExec::create(*g, &e, bad)) return rt.set_error(err);
    *out = reinterpret_cast<cudaGraphExec_t>(e);
    return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t cudaGraphCreate(cudaGraph_t* graph, unsigned flags) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!graph || flags != 0) return rt.set_error(cudaErrorInvalidValue);
    *graph = reinterpret_cast<cudaGraph_t>(Graph::adopt(std::make_unique<Graph>()));
    return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    Graph* g = Graph::find(graph);
    if (g && cudart::StreamCapture::get().capturing_into(g)) return rt.set_error(cudaErrorIllegalState);
    return g && Graph::destroy(g) ? cudaSuccess : rt.set_error(cudaErrorInvalidValue);
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* out, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t n,
                                   const cudaKernelNodeParams* p) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!p) return rt.set_error(cudaErrorInvalidValue);
    if (!p->kernelParams && p->extra) return rt.unsupported("cudaGraphAddKernelNode with arguments in `extra`");
    GraphNode proto;
    proto.type = cudaGraphNodeTypeKernel;
    if (cudaError_t e = cudart::make_kernel_launch(rt, p->func, p->gridDim, p->blockDim, p->sharedMemBytes,
                                                   p->kernelParams, proto.kernel))
        return rt.set_error(e);
    return add_node(out, graph, deps, n, proto);
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* out, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t n,
                                   const cudaMemcpy3DParms* p) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!p) return rt.set_error(cudaErrorInvalidValue);
    GraphNode proto;
    proto.type = cudaGraphNodeTypeMemcpy;
    if (cudaError_t e = cudart::memcpy_op_from(*p, proto.copy)) return rt.set_error(e);
    return add_node(out, graph, deps, n, proto);
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* out, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t n,
                                     void* dst, const void* src, size_t count, int kind) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!dst || !src || count == 0 || kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
        return rt.set_error(cudaErrorInvalidValue);
    GraphNode proto;
    proto.type = cudaGraphNodeTypeMemcpy;
    proto.copy = cudart::MemcpyOp{dst, src, count, count, count, 1, kind};
    return add_node(out, graph, deps, n, proto);
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* out, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t n,
                                   const cudaMemsetParams* p) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!p) return rt.set_error(cudaErrorInvalidValue);
    GraphNode proto;
    proto.type = cudaGraphNodeTypeMemset;
    if (cudaError_t e = cudart::memset_op_from(rt, *p, proto.set)) return rt.set_error(e);
    return add_node(out, graph, deps, n, proto);
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* out, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t n,
                                 const cudaHostNodeParams* p) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!p || !p->fn) return rt.set_error(cudaErrorInvalidValue);
    GraphNode proto;
    proto.type = cudaGraphNodeTypeHost;
    proto.host = *p;
    return add_node(out, graph, deps, n, proto);
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* out, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t n) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    return add_node(out, graph, deps, n, GraphNode{});
}

/// CUDA 13's signature (with edge data: only default, all-zero edges are served).
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                     const cudaGraphEdgeData* edge_data, size_t n) {
    (void)edge_data;
    return edges(graph, from, to, n, true);
}

cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                        const cudaGraphEdgeData* edge_data, size_t n) {
    (void)edge_data;
    return edges(graph, from, to, n, false);
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    Graph* g = Graph::find(graph);
    if (!g) return rt.set_error(cudaErrorInvalidValue);
    std::vector<GraphNode*> all;
    for (const auto& node : g->nodes()) all.push_back(node.get());
    return list(all, nodes, count);
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    Graph* g = Graph::find(graph);
    if (!g) return rt.set_error(cudaErrorInvalidValue);
    return list(g->roots(), nodes, count);
}

cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to,
                              cudaGraphEdgeData* edge_data, size_t* count) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    Graph* g = Graph::find(graph);
    if (!g || !count || (!from != !to) || (edge_data && !from)) return rt.set_error(cudaErrorInvalidValue);
    std::vector<std::pair<GraphNode*, GraphNode*>> all;
    for (const auto& node : g->nodes())
        for (GraphNode* d : node->deps) all.emplace_back(d, node.get());
    if (from) {
        for (size_t i = 0; i < *count; ++i) {
            from[i] = i < all.size() ? handle(all[i].first) : nullptr;
            to[i] = i < all.size() ? handle(all[i].second) : nullptr;
            if (edge_data) edge_data[i] = cudaGraphEdgeData{};
        }
    }
    *count = all.size();
    return cudaSuccess;
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t* deps, cudaGraphEdgeData* edge_data,
                                         size_t* count) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    GraphNode* n = Graph::find_node(node);
    if (!n) return rt.set_error(cudaErrorInvalidValue);
    if (edge_data && deps && count)
        for (size_t i = 0; i < *count; ++i) edge_data[i] = cudaGraphEdgeData{};
    return list(n->deps, deps, count);
}

cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t* nodes, cudaGraphEdgeData* edge_data,
                                           size_t* count) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    GraphNode* n = Graph::find_node(node);
    if (!n) return rt.set_error(cudaErrorInvalidValue);
    if (edge_data && nodes && count)
        for (size_t i = 0; i < *count; ++i) edge_data[i] = cudaGraphEdgeData{};
    return list(n->dependents, nodes, count);
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, int* type) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    GraphNode* n = Graph::find_node(node);
    if (!n || !type) return rt.set_error(cudaErrorInvalidValue);
    *type = n->type;
    return cudaSuccess;
}

cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    GraphNode* n = Graph::find_node(node);
    if (!n) return rt.set_error(cudaErrorInvalidValue);
    n->graph->remove(n);
    return cudaSuccess;
}

cudaError_t cudaGraphClone(cudaGraph_t* clone, cudaGraph_t original) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    Graph* g = Graph::find(original);
    if (!clone || !g) return rt.set_error(cudaErrorInvalidValue);
    auto copy = std::make_unique<Graph>();
    copy->append(*g);
    *clone = reinterpret_cast<cudaGraph_t>(Graph::adopt(std::move(copy)));
    return cudaSuccess;
}

cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t* out, cudaGraphNode_t original, cudaGraph_t clone) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    Graph* g = Graph::find(clone);
    const GraphNode* o = Graph::find_node(original);
    if (!out || !g || !o) return rt.set_error(cudaErrorInvalidValue);
    for (const auto& n : g->nodes())
        if (n->origin == o) {
            *out = handle(n.get());
            return cudaSuccess;
        }
    return rt.set_error(cudaErrorInvalidValue);
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags) {
    return instantiate(exec, graph, flags, nullptr);
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags) {
    return instantiate(exec, graph, flags, nullptr);
}

cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t* exec, cudaGraph_t graph, cudaGraphInstantiateParams* p) {
    if (!p) return Runtime::get().set_error(cudaErrorInvalidValue);
    GraphNode* bad = nullptr;
    const cudaError_t e = instantiate(exec, graph, p->flags, &bad);
    constexpr int kSuccess = 0, kError = 1, kInvalidStructure = 2;
    p->result_out = e == cudaSuccess ? kSuccess : bad ? kInvalidStructure : kError;
    p->errNode_out = handle(bad);
    return e;
}

cudaError_t cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t* exec, cudaGraph_t graph,
                                                cudaGraphInstantiateParams* p) {
    return cudaGraphInstantiateWithParams(exec, graph, p);
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    GraphExec* e = GraphExec::find(exec);
    return e && GraphExec::destroy(e) ? cudaSuccess : rt.set_error(cudaErrorInvalidValue);
}

/// Replays the instance's nodes on `stream` (into the capture when `stream` captures).
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (rt.stopped()) return rt.set_error(cudaErrorCudartUnloading);
    GraphExec* e = GraphExec::find(exec);
    if (!e) return rt.set_error(cudaErrorInvalidValue);
    bool ok = false;
    cudart::StreamObject* s = rt.stream(stream, &ok);
    if (!ok) return rt.set_error(cudaErrorInvalidResourceHandle);
    bool captured = false;
    if (cudaError_t err = cudart::StreamCapture::get().enqueue(s, &captured)) return rt.set_error(err);
    if (captured) {
        cudart::StreamCapture::get().record_graph(s, e->graph());
        return cudaSuccess;
    }
    return e->launch(stream);
}

cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t exec, cudaStream_t stream) { return cudaGraphLaunch(exec, stream); }

/// Nothing to upload: the replay makes the direct calls.
cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t stream) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    bool ok = false;
    rt.stream(stream, &ok);
    if (!GraphExec::find(exec)) return rt.set_error(cudaErrorInvalidValue);
    return ok ? cudaSuccess : rt.set_error(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t exec, cudaStream_t stream) { return cudaGraphUpload(exec, stream); }

}  // extern "C"
