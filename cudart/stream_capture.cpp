// SPDX-License-Identifier: Apache-2.0
#include "cudart/stream_capture.h"

#include <fmt/format.h>

#include <algorithm>

namespace stacksim::cudart {

StreamCapture& StreamCapture::get() {
    static StreamCapture capture;
    return capture;
}

CaptureSession* StreamCapture::session(uint64_t id) const {
    auto it = m_sessions.find(id);
    return it == m_sessions.end() ? nullptr : it->second.get();
}

cudaError_t StreamCapture::begin(StreamObject* s, int mode) {
    if (mode < cudaStreamCaptureModeGlobal || mode > cudaStreamCaptureModeRelaxed) return cudaErrorInvalidValue;
    if (!s) return cudaErrorStreamCaptureUnsupported;  // the legacy stream cannot capture
    if (s->capture) return cudaErrorIllegalState;
    auto c = std::make_unique<CaptureSession>();
    c->id = m_next_id++;
    c->mode = mode;
    c->origin = s;
    c->graph = Graph::adopt(std::make_unique<Graph>());
    c->streams.push_back(s);
    s->capture = c.get();
    s->capture_deps.clear();
    m_sessions[c->id] = std::move(c);
    return cudaSuccess;
}

void StreamCapture::finish(CaptureSession* c) {
    for (StreamObject* t : c->streams) {
        t->capture = nullptr;
        t->capture_deps.clear();
    }
    m_sessions.erase(c->id);
}

cudaError_t StreamCapture::end(StreamObject* s, Graph** out) {
    *out = nullptr;
    if (!s || !s->capture) return cudaErrorIllegalState;
    CaptureSession* c = s->capture;
    if (c->origin != s) return cudaErrorStreamCaptureUnmatched;
    Graph* g = c->graph;
    if (c->invalidated) {
        finish(c);
        Graph::destroy(g);
        return cudaErrorStreamCaptureInvalidated;
    }
    // Every stream forked into the capture must have joined back: its last nodes are the
    // origin's last nodes or come before them.
    for (StreamObject* t : c->streams) {
        if (t == s) continue;
        for (const GraphNode* n : t->capture_deps) {
            const bool joined = std::any_of(s->capture_deps.begin(), s->capture_deps.end(),
                                            [n](const GraphNode* o) { return Graph::reaches(n, o); });
            if (!joined) {
                finish(c);
                Graph::destroy(g);
                return cudaErrorStreamCaptureUnjoined;
            }
        }
    }
    finish(c);
    *out = g;
    return cudaSuccess;
}

cudaError_t StreamCapture::enqueue(StreamObject* s, bool* captured) {
    *captured = false;
    if (m_sessions.empty()) return cudaSuccess;
    if (s && s->capture) {
        if (s->capture->invalidated) return cudaErrorStreamCaptureInvalidated;
        *captured = true;
        return cudaSuccess;
    }
    if (s) return cudaSuccess;
    // The legacy stream waits for every blocking stream: it cannot wait for a capturing one.
    cudaError_t e = cudaSuccess;
    for (auto& [id, c] : m_sessions)
        for (StreamObject* t : c->streams)
            if (!(t->flags & kStreamNonBlocking)) {
                invalidate(c.get());
                e = cudaErrorStreamCaptureImplicit;
            }
    return e;
}

GraphNode* StreamCapture::record(StreamObject* s, const GraphNode& proto) {
    GraphNode* n = s->capture->graph->add(proto, s->capture_deps);
    s->capture_deps = {n};
    return n;
}

void StreamCapture::record_graph(StreamObject* s, const Graph& g) {
    Graph& into = *s->capture->graph;
    const size_t first = into.nodes().size();
    into.append(g, s->capture_deps);
    std::vector<GraphNode*> last;
    for (size_t i = first; i < into.nodes().size(); ++i)
        if (into.nodes()[i]->dependents.empty()) last.push_back(into.nodes()[i].get());
    if (!last.empty()) s->capture_deps = last;
}

void StreamCapture::record_event(EventObject* e, StreamObject* s) {
    e->capture_id = s->capture->id;
    e->capture_deps = s->capture_deps;
    e->id.reset();  // not a record in simulated time: waiting for it outside the capture is a no-op
}

cudaError_t StreamCapture::wait_event(StreamObject* s, EventObject* e, bool* handled) {
    *handled = false;
    CaptureSession* from = e->capture_id ? session(e->capture_id) : nullptr;
    if (!from) {
        if (!s || !s->capture) return cudaSuccess;  // an ordinary wait
        *handled = true;
        if (s->capture->invalidated) return cudaErrorStreamCaptureInvalidated;
        if (!e->id) return cudaSuccess;  // never recorded: nothing to wait for
        invalidate(s->capture);
        return cudaErrorStreamCaptureIsolation;
    }
    *handled = true;
    if (from->invalidated) return cudaErrorStreamCaptureInvalidated;
    if (!s) {  // the legacy stream would wait for captured work
        invalidate(from);
        return cudaErrorStreamCaptureImplicit;
    }
    if (!s->capture) {  // fork: `s` joins the capture after the event's nodes
        s->capture = from;
        s->capture_deps = e->capture_deps;
        from->streams.push_back(s);
        return cudaSuccess;
    }
    if (s->capture != from) {
        invalidate(from);
        invalidate(s->capture);
        return cudaErrorStreamCaptureMerge;
    }
    for (GraphNode* n : e->capture_deps)  // join: the stream's next node waits for both
        if (std::find(s->capture_deps.begin(), s->capture_deps.end(), n) == s->capture_deps.end())
            s->capture_deps.push_back(n);
    return cudaSuccess;
}

cudaError_t StreamCapture::unsafe_call(bool legacy) {
    if (m_sessions.empty()) return cudaSuccess;
    if (m_thread_mode != cudaStreamCaptureModeRelaxed) {
        bool prohibited = false;
        for (auto& [id, c] : m_sessions)
            if (c->mode != cudaStreamCaptureModeRelaxed) {
                invalidate(c.get());
                prohibited = true;
            }
        if (prohibited) return cudaErrorStreamCaptureUnsupported;
    }
    if (!legacy) return cudaSuccess;
    bool captured = false;
    return enqueue(nullptr, &captured);
}

cudaError_t StreamCapture::wait_stream(StreamObject* s) {
    if (m_sessions.empty()) return cudaSuccess;
    if (s && s->capture) {
        invalidate(s->capture);
        return cudaErrorStreamCaptureUnsupported;
    }
    bool captured = false;
    return enqueue(s, &captured);
}

cudaError_t StreamCapture::wait_event_host(const EventObject* e) const {
    return e->capture_id && session(e->capture_id) ? cudaErrorCapturedEvent : cudaSuccess;
}

cudaError_t StreamCapture::refuse(StreamObject* s, const char* what) {
    Runtime::say(fmt::format("{} on a capturing stream is not captured by stacksim (the capture is invalidated)", what));
    invalidate(s->capture);
    return cudaErrorStreamCaptureUnsupported;
}

}  // namespace stacksim::cudart
