// SPDX-License-Identifier: Apache-2.0
#include "cudart/graph_exec.h"

#include <map>

#include "cudart/api_common.h"

extern "C" {
cudaError_t cudaLaunchKernel(const void*, dim3, dim3, void**, size_t, cudaStream_t);
cudaError_t cudaLaunchCooperativeKernel(const void*, dim3, dim3, void**, size_t, cudaStream_t);
cudaError_t cudaMemcpyAsync(void*, const void*, size_t, int, cudaStream_t);
cudaError_t cudaMemcpy2DAsync(void*, size_t, const void*, size_t, size_t, size_t, int, cudaStream_t);
cudaError_t cudaLaunchHostFunc(cudaStream_t, cudaHostFn_t, void*);
}

namespace stacksim::cudart {

namespace {

std::map<GraphExec*, std::unique_ptr<GraphExec>>& live_execs() {
    static std::map<GraphExec*, std::unique_ptr<GraphExec>> execs;
    return execs;
}

/// A memset node: `element_size`-byte elements (cudaMemset only has bytes). The simulated
/// memset of each row takes the time; a value whose bytes differ is then written in place.
cudaError_t run_memset(const MemsetOp& m, cudaStream_t stream) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    bool ok = false;
    rt.stream(stream, &ok);
    if (!ok) return rt.set_error(cudaErrorInvalidResourceHandle);
    const uint64_t row = uint64_t{m.width} * m.element_size;
    if (row == 0 || m.height == 0) return cudaSuccess;
    const uint64_t pitch = m.height > 1 ? m.pitch : row;
    const uint64_t span = pitch * (m.height - 1) + row;
    const auto dst = reinterpret_cast<uint64_t>(m.dst);
    if (!rt.is_device_range(dst, span) && !rt.is_mirrored(dst, span)) return rt.set_error(cudaErrorInvalidValue);
    std::vector<uint8_t> pattern(row);
    for (uint64_t i = 0; i < row; ++i) pattern[i] = static_cast<uint8_t>(m.value >> (8 * (i % m.element_size)));
    bool uniform = true;
    for (uint8_t b : pattern) uniform = uniform && b == pattern[0];
    return rt.call([&](workloads::HostApi& h) {
        for (size_t r = 0; r < m.height; ++r) {
            h.memset(dst + r * pitch, pattern[0], row);
            if (!uniform) h.poke(dst + r * pitch, pattern.data(), row);
        }
    });
}

cudaError_t replay(GraphNode& n, cudaStream_t stream) {
    switch (n.type) {
    case cudaGraphNodeTypeKernel: {
        KernelLaunch& k = n.kernel;
        void** args = k.refresh();
        return k.cooperative ? cudaLaunchCooperativeKernel(k.func, k.grid, k.block, args, k.shared, stream)
                             : cudaLaunchKernel(k.func, k.grid, k.block, args, k.shared, stream);
    }
    case cudaGraphNodeTypeMemcpy: {
        const MemcpyOp& c = n.copy;
        if (c.height <= 1) return cudaMemcpyAsync(c.dst, c.src, c.width, c.kind, stream);
        return cudaMemcpy2DAsync(c.dst, c.dpitch, c.src, c.spitch, c.width, c.height, c.kind, stream);
    }
    case cudaGraphNodeTypeMemset: return run_memset(n.set, stream);
    case cudaGraphNodeTypeHost: return cudaLaunchHostFunc(stream, n.host.fn, n.host.userData);
    default: return cudaSuccess;  // empty
    }
}

}  // namespace

cudaError_t GraphExec::create(const Graph& g, GraphExec** out, GraphNode** bad) {
    std::unique_ptr<GraphExec> e(new GraphExec());
    e->m_graph.append(g);
    auto order = e->m_graph.topological_order();
    if (!order) {
        if (bad && !g.nodes().empty()) *bad = g.nodes().front().get();
        return cudaErrorInvalidValue;
    }
    e->m_order = std::move(*order);
    *out = e.get();
    live_execs()[e.get()] = std::move(e);
    return cudaSuccess;
}

GraphExec* GraphExec::find(cudaGraphExec_t h) {
    auto* e = reinterpret_cast<GraphExec*>(h);
    return live_execs().count(e) ? e : nullptr;
}

bool GraphExec::destroy(GraphExec* e) { return live_execs().erase(e) != 0; }

cudaError_t GraphExec::launch(cudaStream_t stream) {
    for (GraphNode* n : m_order)
        if (cudaError_t e = replay(*n, stream)) return e;
    return cudaSuccess;
}

GraphNode* GraphExec::node_for(const GraphNode* original) {
    for (const auto& n : m_graph.nodes())
        if (n->origin == original) return n.get();
    return nullptr;
}

}  // namespace stacksim::cudart
