// SPDX-License-Identifier: Apache-2.0
// Stream capture entry points (cudart/stream_capture.h holds the rules).
#include <algorithm>

#include "cudart/api_common.h"
#include "cudart/stream_capture.h"

using stacksim::cudart::Runtime;
using stacksim::cudart::StreamCapture;
using namespace stacksim;

extern "C" {

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, int mode) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    bool ok = false;
    cudart::StreamObject* s = rt.stream(stream, &ok);
    if (!ok) return rt.set_error(cudaErrorInvalidResourceHandle);
    return rt.set_error(StreamCapture::get().begin(s, mode));
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    bool ok = false;
    cudart::StreamObject* s = rt.stream(stream, &ok);
    if (!ok) return rt.set_error(cudaErrorInvalidResourceHandle);
    if (!graph) return rt.set_error(cudaErrorInvalidValue);
    cudart::Graph* g = nullptr;
    const cudaError_t e = StreamCapture::get().end(s, &g);
    *graph = reinterpret_cast<cudaGraph_t>(g);
    return rt.set_error(e);
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, int* status) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    bool ok = false;
    cudart::StreamObject* s = rt.stream(stream, &ok);
    if (!ok || !status) return rt.set_error(ok ? cudaErrorInvalidValue : cudaErrorInvalidResourceHandle);
    *status = cudaStreamCaptureStatusNone;
    if (!s) {  // asking the legacy stream while a blocking stream captures is an implicit dependency
        bool captured = false;
        return rt.set_error(StreamCapture::get().enqueue(nullptr, &captured));
    }
    if (s->capture)
        *status = s->capture->invalidated ? cudaStreamCaptureStatusInvalidated : cudaStreamCaptureStatusActive;
    return cudaSuccess;
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, int* status, unsigned long long* id, cudaGraph_t* graph,
                                     const cudaGraphNode_t** deps, const cudaGraphEdgeData** edge_data,
                                     size_t* num_deps) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (cudaError_t e = cudaStreamIsCapturing(stream, status)) return e;
    bool ok = false;
    cudart::StreamObject* s = rt.stream(stream, &ok);
    cudart::CaptureSession* c = s ? s->capture : nullptr;
    if (edge_data && !deps) return rt.set_error(cudaErrorInvalidValue);
    if (id) *id = c ? c->id : 0;
    if (graph) *graph = c ? reinterpret_cast<cudaGraph_t>(c->graph) : nullptr;
    if (deps) *deps = c ? reinterpret_cast<const cudaGraphNode_t*>(s->capture_deps.data()) : nullptr;
    if (edge_data) {
        if (c) c->edge_data.assign(s->capture_deps.size(), cudaGraphEdgeData{});
        *edge_data = c ? c->edge_data.data() : nullptr;
    }
    if (num_deps) *num_deps = c ? s->capture_deps.size() : 0;
    return cudaSuccess;
}

/// flags: cudaStreamAddCaptureDependencies (0) or cudaStreamSetCaptureDependencies (1).
cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t* deps,
                                                const cudaGraphEdgeData* edge_data, size_t n, unsigned flags) {
    (void)edge_data;
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    bool ok = false;
    cudart::StreamObject* s = rt.stream(stream, &ok);
    if (!ok) return rt.set_error(cudaErrorInvalidResourceHandle);
    if (!s || !s->capture) return rt.set_error(cudaErrorIllegalState);
    if (flags > 1 || (n && !deps)) return rt.set_error(cudaErrorInvalidValue);
    std::vector<cudart::GraphNode*> nodes;
    for (size_t i = 0; i < n; ++i) {
        cudart::GraphNode* node = cudart::Graph::find_node(deps[i]);
        if (!node || node->graph != s->capture->graph) return rt.set_error(cudaErrorInvalidValue);
        nodes.push_back(node);
    }
    if (flags == 1) s->capture_deps.clear();
    for (cudart::GraphNode* node : nodes)
        if (std::find(s->capture_deps.begin(), s->capture_deps.end(), node) == s->capture_deps.end())
            s->capture_deps.push_back(node);
    return cudaSuccess;
}

cudaError_t cudaThreadExchangeStreamCaptureMode(int* mode) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!mode || *mode < cudaStreamCaptureModeGlobal || *mode > cudaStreamCaptureModeRelaxed)
        return rt.set_error(cudaErrorInvalidValue);
    *mode = StreamCapture::get().exchange_mode(*mode);
    return cudaSuccess;
}

// The per-thread default stream entry points (served as the default stream, api_per_thread.cpp).
cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream, int mode) { return cudaStreamBeginCapture(stream, mode); }
cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t* graph) {
    return cudaStreamEndCapture(stream, graph);
}
cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream, int* status, unsigned long long* id,
                                          cudaGraph_t* graph, const cudaGraphNode_t** deps,
                                          const cudaGraphEdgeData** edge_data, size_t* num_deps) {
    return cudaStreamGetCaptureInfo(stream, status, id, graph, deps, edge_data, num_deps);
}
cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream, cudaGraphNode_t* deps,
                                                     const cudaGraphEdgeData* edge_data, size_t n, unsigned flags) {
    return cudaStreamUpdateCaptureDependencies(stream, deps, edge_data, n, flags);
}

}  // extern "C"
