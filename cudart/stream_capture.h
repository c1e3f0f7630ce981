// SPDX-License-Identifier: Apache-2.0
// Stream capture (cudaStreamBeginCapture ... cudaStreamEndCapture): work enqueued on a
// capturing stream becomes graph nodes instead of running, with dependencies in capture order;
// events recorded in a capturing stream fork the capture into the streams that wait for them
// and join them back (the CUDA programming guide's cross-stream capture).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "cudart/graph.h"
#include "cudart/runtime.h"

namespace stacksim::cudart {

/// One capture sequence: the graph it builds and the streams that take part.
struct CaptureSession {
    uint64_t id = 0;                      ///< cudaStreamGetCaptureInfo's id (never 0)
    int mode = cudaStreamCaptureModeGlobal;  ///< cudaStreamCaptureMode given to BeginCapture
    StreamObject* origin = nullptr;       ///< the stream it began on (and must end on)
    Graph* graph = nullptr;               ///< a live graph handle (Graph::adopt), filled as it goes
    bool invalidated = false;             ///< an illegal call happened: EndCapture fails
    std::vector<StreamObject*> streams;   ///< every stream that takes part, origin first
    std::vector<cudaGraphEdgeData> edge_data;  ///< zeroes for cudaStreamGetCaptureInfo
};

/// The process's capture sequences. The entry points ask it before enqueuing work.
class StreamCapture {
public:
    static StreamCapture& get();

    /// cudaStreamBeginCapture on `s` (not the legacy stream: cudaErrorStreamCaptureUnsupported;
    /// not already capturing: cudaErrorIllegalState).
    cudaError_t begin(StreamObject* s, int mode);
    /// cudaStreamEndCapture: `*out` is the graph (null when the capture was invalidated:
    /// cudaErrorStreamCaptureInvalidated; or when a forked stream did not join back:
    /// cudaErrorStreamCaptureUnjoined). Another stream of the capture than its origin:
    /// cudaErrorStreamCaptureUnmatched; a stream that does not capture: cudaErrorIllegalState.
    cudaError_t end(StreamObject* s, Graph** out);

    /// For an asynchronous call about to enqueue work on `s` (null: the default stream).
    /// cudaSuccess, with `*captured` true when `s` captures: the caller then records a node
    /// (record()) instead of running the work. Errors: `s`'s capture was invalidated
    /// (cudaErrorStreamCaptureInvalidated); `s` is the legacy stream while a blocking stream
    /// captures (cudaErrorStreamCaptureImplicit, which invalidates that capture).
    cudaError_t enqueue(StreamObject* s, bool* captured);
    /// Records a node like `proto` on capturing stream `s`, after the stream's current nodes.
    GraphNode* record(StreamObject* s, const GraphNode& proto);
    /// Records a copy of graph `g` on capturing stream `s` (cudaGraphLaunch into a capture).
    void record_graph(StreamObject* s, const Graph& g);
    /// cudaEventRecord on capturing stream `s`: `e` now stands for the stream's current nodes.
    void record_event(EventObject* e, StreamObject* s);
    /// cudaStreamWaitEvent with capture involved (`*handled` true; false: an ordinary wait). An
    /// event recorded in a capture forks `s` into it or joins it; a capturing stream waiting for
    /// an event recorded outside its capture is cudaErrorStreamCaptureIsolation.
    cudaError_t wait_event(StreamObject* s, EventObject* e, bool* handled);
    /// A potentially unsafe call (synchronous copy or memset, allocation, device
    /// synchronisation): cudaErrorStreamCaptureUnsupported, invalidating the captures, while a
    /// capture not begun in relaxed mode is active and the thread's mode is not relaxed. A call
    /// that uses the legacy stream (`legacy`) is then checked as enqueue(null).
    cudaError_t unsafe_call(bool legacy);
    /// cudaStreamSynchronize / cudaStreamQuery of `s`: a capturing stream cannot be waited for
    /// (cudaErrorStreamCaptureUnsupported, invalidating its capture); the legacy stream as
    /// enqueue(null).
    cudaError_t wait_stream(StreamObject* s);
    /// cudaDeviceSynchronize: waiting for the device while a capture is active is
    /// cudaErrorStreamCaptureUnsupported and invalidates every capture.
    cudaError_t device_wait() {
        for (auto& [id, c] : m_sessions) invalidate(c.get());
        return m_sessions.empty() ? cudaSuccess : cudaErrorStreamCaptureUnsupported;
    }
    /// cudaEventSynchronize / cudaEventQuery: cudaErrorCapturedEvent for an event last recorded
    /// in an active capture.
    cudaError_t wait_event_host(const EventObject* e) const;
    /// A call that stacksim does not capture, made on capturing stream `s`: prints one line
    /// naming it, invalidates the capture, cudaErrorStreamCaptureUnsupported.
    cudaError_t refuse(StreamObject* s, const char* what);
    /// cudaThreadExchangeStreamCaptureMode: sets the (one) thread's mode, returns the old one.
    int exchange_mode(int mode) {
        const int old = m_thread_mode;
        m_thread_mode = mode;
        return old;
    }
    /// The capture of id `id` if it is active, or null.
    CaptureSession* session(uint64_t id) const;
    /// True when an active capture builds graph `g` (which must not be destroyed then).
    bool capturing_into(const Graph* g) const {
        for (const auto& [id, c] : m_sessions)
            if (c->graph == g) return true;
        return false;
    }
    /// True while a capture is active.
    bool active() const { return !m_sessions.empty(); }

private:
    StreamCapture() = default;
    void invalidate(CaptureSession* c) { c->invalidated = true; }
    void finish(CaptureSession* c);
    std::map<uint64_t, std::unique_ptr<CaptureSession>> m_sessions;
    uint64_t m_next_id = 1;
    int m_thread_mode = cudaStreamCaptureModeGlobal;
};

/// For an asynchronous call on `stream` that stacksim does not capture: cudaSuccess when the
/// stream does not capture, else StreamCapture::refuse (remembered as the last error).
inline cudaError_t refuse_if_capturing(Runtime& rt, cudaStream_t stream, const char* what) {
    auto lk = rt.lock();
    bool ok = false;
    StreamObject* s = rt.stream(stream, &ok);
    if (!ok || !s || !s->capture) return cudaSuccess;
    return rt.set_error(StreamCapture::get().refuse(s, what));
}

}  // namespace stacksim::cudart
