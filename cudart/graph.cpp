// SPDX-License-Identifier: Apache-2.0
#include "cudart/graph.h"

#include <algorithm>
#include <map>
#include <set>

#include "cudart/runtime.h"

namespace stacksim::cudart {

namespace {

/// The graphs whose handles the program holds, and every live node (handles are checked
/// against them, so that a stale or foreign handle is an error, not a crash).
std::map<Graph*, std::unique_ptr<Graph>>& live_graphs() {
    static std::map<Graph*, std::unique_ptr<Graph>> graphs;
    return graphs;
}
std::set<GraphNode*>& live_nodes() {
    static std::set<GraphNode*> nodes;
    return nodes;
}

void erase_one(std::vector<GraphNode*>& v, const GraphNode* n) {
    auto it = std::find(v.begin(), v.end(), n);
    if (it != v.end()) v.erase(it);
}

}  // namespace

void** KernelLaunch::refresh() {
    pointers.clear();
    for (auto& a : args) pointers.push_back(a.data());
    return pointers.data();
}

Graph::~Graph() {
    for (auto& n : m_nodes) live_nodes().erase(n.get());
}

Graph* Graph::adopt(std::unique_ptr<Graph> g) {
    Graph* p = g.get();
    live_graphs()[p] = std::move(g);
    return p;
}

Graph* Graph::find(cudaGraph_t h) {
    auto* g = reinterpret_cast<Graph*>(h);
    return live_graphs().count(g) ? g : nullptr;
}

GraphNode* Graph::find_node(cudaGraphNode_t h) {
    auto* n = reinterpret_cast<GraphNode*>(h);
    return live_nodes().count(n) ? n : nullptr;
}

bool Graph::destroy(Graph* g) { return live_graphs().erase(g) != 0; }

GraphNode* Graph::add(const GraphNode& proto, const std::vector<GraphNode*>& deps) {
    auto n = std::make_unique<GraphNode>(proto);
    n->graph = this;
    n->deps.clear();
    n->dependents.clear();
    GraphNode* p = n.get();
    m_nodes.push_back(std::move(n));
    live_nodes().insert(p);
    for (GraphNode* d : deps)
        if (std::find(p->deps.begin(), p->deps.end(), d) == p->deps.end()) add_edge(d, p);
    return p;
}

cudaError_t Graph::add_edge(GraphNode* from, GraphNode* to) {
    if (!from || !to || from == to || from->graph != this || to->graph != this) return cudaErrorInvalidValue;
    if (std::find(to->deps.begin(), to->deps.end(), from) != to->deps.end()) return cudaErrorInvalidValue;
    to->deps.push_back(from);
    from->dependents.push_back(to);
    return cudaSuccess;
}

cudaError_t Graph::remove_edge(GraphNode* from, GraphNode* to) {
    if (!from || !to || from->graph != this || to->graph != this) return cudaErrorInvalidValue;
    if (std::find(to->deps.begin(), to->deps.end(), from) == to->deps.end()) return cudaErrorInvalidValue;
    erase_one(to->deps, from);
    erase_one(from->dependents, to);
    return cudaSuccess;
}

void Graph::remove(GraphNode* n) {
    for (GraphNode* d : n->deps) erase_one(d->dependents, n);
    for (GraphNode* d : n->dependents) erase_one(d->deps, n);
    live_nodes().erase(n);
    m_nodes.erase(std::find_if(m_nodes.begin(), m_nodes.end(), [n](const auto& p) { return p.get() == n; }));
}

std::vector<GraphNode*> Graph::append(const Graph& other, const std::vector<GraphNode*>& roots_after) {
    std::map<const GraphNode*, GraphNode*> copy_of;
    std::vector<GraphNode*> copies;
    for (const auto& n : other.m_nodes) {
        GraphNode* c = add(*n, n->deps.empty() ? roots_after : std::vector<GraphNode*>{});
        c->origin = n.get();
        copy_of[n.get()] = c;
        copies.push_back(c);
    }
    for (const auto& n : other.m_nodes)
        for (const GraphNode* d : n->deps) add_edge(copy_of.at(d), copy_of.at(n.get()));
    return copies;
}

std::vector<GraphNode*> Graph::roots() const {
    std::vector<GraphNode*> out;
    for (const auto& n : m_nodes)
        if (n->deps.empty()) out.push_back(n.get());
    return out;
}

std::vector<GraphNode*> Graph::leaves() const {
    std::vector<GraphNode*> out;
    for (const auto& n : m_nodes)
        if (n->dependents.empty()) out.push_back(n.get());
    return out;
}

std::optional<std::vector<GraphNode*>> Graph::topological_order() const {
    std::map<const GraphNode*, size_t> waiting;
    for (const auto& n : m_nodes) waiting[n.get()] = n->deps.size();
    std::vector<GraphNode*> order;
    std::vector<bool> done(m_nodes.size(), false);
    // Repeatedly takes the first node (in the order of addition) whose dependencies have run:
    // deterministic, and the order of a captured sequence is its capture order.
    while (order.size() < m_nodes.size()) {
        bool progress = false;
        for (size_t i = 0; i < m_nodes.size(); ++i) {
            GraphNode* n = m_nodes[i].get();
            if (done[i] || waiting[n] != 0) continue;
            done[i] = true;
            order.push_back(n);
            for (const GraphNode* d : n->dependents) --waiting[d];
            progress = true;
            break;
        }
        if (!progress) return std::nullopt;  // a cycle
    }
    return order;
}

bool Graph::reaches(const GraphNode* n, const GraphNode* of) {
    std::vector<const GraphNode*> todo{of};
    std::set<const GraphNode*> seen;
    while (!todo.empty()) {
        const GraphNode* x = todo.back();
        todo.pop_back();
        if (x == n) return true;
        if (!seen.insert(x).second) continue;
        for (const GraphNode* d : x->deps) todo.push_back(d);
    }
    return false;
}

cudaError_t make_kernel_launch(Runtime& rt, const void* func, dim3 grid, dim3 block, size_t shared, void** args,
                               KernelLaunch& out) {
    Function* f = rt.function(func);
    if (!f) return cudaErrorInvalidDeviceFunction;
    if (cudaError_t e = rt.load(*f)) return e;
    const auto& params = f->kernel->params;
    if (!params.empty() && !args) return cudaErrorInvalidValue;
    out = KernelLaunch{};
    out.func = func;
    out.grid = grid;
    out.block = block;
    out.shared = static_cast<uint32_t>(shared);
    for (size_t i = 0; i < params.size(); ++i) {
        if (!args[i]) return cudaErrorInvalidValue;
        const auto* p = static_cast<const uint8_t*>(args[i]);
        out.args.emplace_back(p, p + params[i].bytes);
    }
    out.refresh();
    return cudaSuccess;
}

cudaError_t memcpy_op_from(const cudaMemcpy3DParms& p, MemcpyOp& out) {
    if (p.srcArray || p.dstArray) {
        Runtime::say("graph copy nodes with CUDA arrays are not supported (linear memory only)");
        return cudaErrorNotSupported;
    }
    if (p.extent.depth > 1 || p.srcPos.z || p.dstPos.z) {
        Runtime::say("graph copy nodes of more than one slice (depth > 1) are not supported (1-D and 2-D only)");
        return cudaErrorNotSupported;
    }
    if (p.extent.width == 0 || p.extent.height == 0 || p.extent.depth == 0 || !p.srcPtr.ptr || !p.dstPtr.ptr ||
        p.kind < cudaMemcpyHostToHost || p.kind > cudaMemcpyDefault)
        return cudaErrorInvalidValue;
    const size_t rows = p.extent.height;
    if (rows > 1 && (p.extent.width + p.srcPos.x > p.srcPtr.pitch || p.extent.width + p.dstPos.x > p.dstPtr.pitch))
        return cudaErrorInvalidPitchValue;
    out = MemcpyOp{};
    out.src = static_cast<const char*>(p.srcPtr.ptr) + p.srcPos.y * p.srcPtr.pitch + p.srcPos.x;
    out.dst = static_cast<char*>(p.dstPtr.ptr) + p.dstPos.y * p.dstPtr.pitch + p.dstPos.x;
    out.spitch = p.srcPtr.pitch;
    out.dpitch = p.dstPtr.pitch;
    out.width = p.extent.width;
    out.height = rows;
    out.kind = p.kind;
    return cudaSuccess;
}

cudaMemcpy3DParms memcpy_params_of(const MemcpyOp& op) {
    cudaMemcpy3DParms p{};
    p.srcPtr = {const_cast<void*>(op.src), op.height > 1 ? op.spitch : op.width, op.width, op.height};
    p.dstPtr = {op.dst, op.height > 1 ? op.dpitch : op.width, op.width, op.height};
    p.extent = {op.width, op.height, 1};
    p.kind = op.kind;
    return p;
}

cudaError_t memset_op_from(Runtime& rt, const cudaMemsetParams& p, MemsetOp& out) {
    if ((p.elementSize != 1 && p.elementSize != 2 && p.elementSize != 4) || p.width == 0 || p.height == 0 || !p.dst)
        return cudaErrorInvalidValue;
    const uint64_t row = uint64_t{p.width} * p.elementSize;
    if (p.height > 1 && p.pitch < row) return cudaErrorInvalidValue;
    const uint64_t span = (p.height > 1 ? p.pitch * (p.height - 1) : 0) + row;
    const auto dst = reinterpret_cast<uint64_t>(p.dst);
    if (!rt.is_device_range(dst, span) && !rt.is_mirrored(dst, span)) return cudaErrorInvalidValue;
    out = MemsetOp{p.dst, p.pitch, p.value, p.elementSize, p.width, p.height};
    return cudaSuccess;
}

cudaMemsetParams memset_params_of(const MemsetOp& op) {
    return cudaMemsetParams{op.dst, op.pitch, op.value, op.element_size, op.width, op.height};
}

}  // namespace stacksim::cudart
