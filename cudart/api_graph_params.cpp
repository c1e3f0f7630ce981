// SPDX-License-Identifier: Apache-2.0
// Graph node parameters: reading and changing them in a graph (cudaGraph*NodeGet/SetParams) and
// in an instantiated graph (cudaGraphExec*NodeSetParams, for the instance's later launches).
#include "cudart/api_common.h"
#include "cudart/graph_exec.h"

using stacksim::cudart::Graph;
using stacksim::cudart::GraphExec;
using stacksim::cudart::GraphNode;
using stacksim::cudart::Runtime;
using namespace stacksim;

namespace {

/// The node of handle `node` if it has type `type`, or null.
GraphNode* typed(cudaGraphNode_t node, int type) {
    GraphNode* n = Graph::find_node(node);
    return n && n->type == type ? n : nullptr;
}

/// The copy in `exec` of the graph node `node` of type `type`, or null.
GraphNode* exec_node(cudaGraphExec_t exec, cudaGraphNode_t node, int type) {
    GraphExec* e = GraphExec::find(exec);
    GraphNode* n = typed(node, type);
    return e && n ? e->node_for(n) : nullptr;
}

cudaError_t set_kernel(GraphNode* n, const cudaKernelNodeParams* p) {
    auto& rt = Runtime::get();
    if (!n || !p) return rt.set_error(cudaErrorInvalidValue);
    if (!p->kernelParams && p->extra) return rt.unsupported("kernel node arguments in `extra`");
    cudart::KernelLaunch k;
    if (cudaError_t e = cudart::make_kernel_launch(rt, p->func, p->gridDim, p->blockDim, p->sharedMemBytes,
                                                   p->kernelParams, k))
        return rt.set_error(e);
    k.cooperative = n->kernel.cooperative;
    n->kernel = std::move(k);
    n->kernel.refresh();
    return cudaSuccess;
}

cudaError_t set_memcpy(GraphNode* n, const cudaMemcpy3DParms* p) {
    auto& rt = Runtime::get();
    if (!n || !p) return rt.set_error(cudaErrorInvalidValue);
    cudart::MemcpyOp op;
    if (cudaError_t e = cudart::memcpy_op_from(*p, op)) return rt.set_error(e);
    n->copy = op;
    return cudaSuccess;
}

cudaError_t set_memcpy_1d(GraphNode* n, void* dst, const void* src, size_t count, int kind) {
    auto& rt = Runtime::get();
    if (!n || !dst || !src || count == 0 || kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
        return rt.set_error(cudaErrorInvalidValue);
    n->copy = cudart::MemcpyOp{dst, src, count, count, count, 1, kind};
    return cudaSuccess;
}

cudaError_t set_memset(GraphNode* n, const cudaMemsetParams* p) {
    auto& rt = Runtime::get();
    if (!n || !p) return rt.set_error(cudaErrorInvalidValue);
    cudart::MemsetOp op;
    if (cudaError_t e = cudart::memset_op_from(rt, *p, op)) return rt.set_error(e);
    n->set = op;
    return cudaSuccess;
}

cudaError_t set_host(GraphNode* n, const cudaHostNodeParams* p) {
    if (!n || !p || !p->fn) return Runtime::get().set_error(cudaErrorInvalidValue);
    n->host = *p;
    return cudaSuccess;
}

}  // namespace

extern "C" {

/// The arguments' pointers lead to the node's own copies (valid until its parameters change).
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams* p) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    GraphNode* n = typed(node, cudaGraphNodeTypeKernel);
    if (!n || !p) return rt.set_error(cudaErrorInvalidValue);
    cudart::KernelLaunch& k = n->kernel;
    *p = cudaKernelNodeParams{const_cast<void*>(k.func), k.grid, k.block, k.shared, k.refresh(), nullptr};
    return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams* p) {
    auto lk = Runtime::get().lock();
    return set_kernel(typed(node, cudaGraphNodeTypeKernel), p);
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node, const cudaKernelNodeParams* p) {
    auto lk = Runtime::get().lock();
    return set_kernel(exec_node(exec, node, cudaGraphNodeTypeKernel), p);
}

cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, cudaMemcpy3DParms* p) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    GraphNode* n = typed(node, cudaGraphNodeTypeMemcpy);
    if (!n || !p) return rt.set_error(cudaErrorInvalidValue);
    *p = cudart::memcpy_params_of(n->copy);
    return cudaSuccess;
}

cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const cudaMemcpy3DParms* p) {
    auto lk = Runtime::get().lock();
    return set_memcpy(typed(node, cudaGraphNodeTypeMemcpy), p);
}

cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void* dst, const void* src, size_t count, int kind) {
    auto lk = Runtime::get().lock();
    return set_memcpy_1d(typed(node, cudaGraphNodeTypeMemcpy), dst, src, count, kind);
}

cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node, const cudaMemcpy3DParms* p) {
    auto lk = Runtime::get().lock();
    return set_memcpy(exec_node(exec, node, cudaGraphNodeTypeMemcpy), p);
}

cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t exec, cudaGraphNode_t node, void* dst, const void* src,
                                               size_t count, int kind) {
    auto lk = Runtime::get().lock();
    return set_memcpy_1d(exec_node(exec, node, cudaGraphNodeTypeMemcpy), dst, src, count, kind);
}

cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, cudaMemsetParams* p) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    GraphNode* n = typed(node, cudaGraphNodeTypeMemset);
    if (!n || !p) return rt.set_error(cudaErrorInvalidValue);
    *p = cudart::memset_params_of(n->set);
    return cudaSuccess;
}

cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const cudaMemsetParams* p) {
    auto lk = Runtime::get().lock();
    return set_memset(typed(node, cudaGraphNodeTypeMemset), p);
}

cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node, const cudaMemsetParams* p) {
    auto lk = Runtime::get().lock();
    return set_memset(exec_node(exec, node, cudaGraphNodeTypeMemset), p);
}

cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, cudaHostNodeParams* p) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    GraphNode* n = typed(node, cudaGraphNodeTypeHost);
    if (!n || !p) return rt.set_error(cudaErrorInvalidValue);
    *p = n->host;
    return cudaSuccess;
}

cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const cudaHostNodeParams* p) {
    auto lk = Runtime::get().lock();
    return set_host(typed(node, cudaGraphNodeTypeHost), p);
}

cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node, const cudaHostNodeParams* p) {
    auto lk = Runtime::get().lock();
    return set_host(exec_node(exec, node, cudaGraphNodeTypeHost), p);
}

}  // extern "C"
