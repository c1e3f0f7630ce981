// SPDX-License-Identifier: Apache-2.0
// Streams, events and synchronisation, in simulated time.
#include "cudart/api_common.h"
#include "cudart/stream_capture.h"

using stacksim::cudart::Runtime;
using stacksim::cudart::StreamCapture;
using namespace stacksim;

namespace {

/// cudaStreamQuery / cudaEventQuery: cudaSuccess when `done` holds. The program's own code takes
/// no simulated time, so a program polling in a loop would never see the work finish: a query
/// that finds work pending lets the simulation run it to completion (`finish`) and answers
/// cudaErrorNotReady this once.
template <class Done, class Finish> cudaError_t query_once(Runtime& rt, Done done, Finish finish) {
    bool finished = true;
    if (cudaError_t e = rt.call([&](workloads::HostApi& h) {
            finished = done(h);
            if (!finished) finish(h);
        }))
        return e;
    return finished ? cudaSuccess : cudaErrorNotReady;
}

}  // namespace

extern "C" {

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!stream || (flags & ~kStreamNonBlocking)) return rt.set_error(cudaErrorInvalidValue);
    workloads::StreamId id = 0;
    if (cudaError_t e = rt.call([&](workloads::HostApi& h) { id = h.stream_create(); })) return e;
    cudart::StreamObject* s = rt.new_stream(flags);
    s->id = id;
    *stream = reinterpret_cast<cudaStream_t>(s);
    return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithFlags(stream, 0); }

cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned flags, int priority) {
    (void)priority;  // one priority for all of an application's kernels (app priority in the config)
    return cudaStreamCreateWithFlags(stream, flags);
}

cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
    if (least) *least = 0;
    if (greatest) *greatest = 0;
    return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    bool ok = false;
    cudart::StreamObject* s = rt.stream(stream, &ok);
    if (!ok || !s) return rt.set_error(cudaErrorInvalidResourceHandle);
    rt.destroy_stream(s);  // its queued work still runs (as CUDA's does)
    return cudaSuccess;
}

cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned* flags) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    bool ok = false;
    cudart::StreamObject* s = rt.stream(stream, &ok);
    if (!ok || !flags) return rt.set_error(ok ? cudaErrorInvalidValue : cudaErrorInvalidResourceHandle);
    *flags = s ? s->flags : 0;
    return cudaSuccess;
}

cudaError_t cudaStreamGetPriority(cudaStream_t stream, int* priority) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    bool ok = false;
    rt.stream(stream, &ok);
    if (!ok || !priority) return rt.set_error(ok ? cudaErrorInvalidValue : cudaErrorInvalidResourceHandle);
    *priority = 0;  // the one priority cudaDeviceGetStreamPriorityRange reports
    return cudaSuccess;
}

cudaError_t cudaStreamGetDevice(cudaStream_t stream, int* device) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    bool ok = false;
    rt.stream(stream, &ok);
    if (!ok || !device) return rt.set_error(ok ? cudaErrorInvalidValue : cudaErrorInvalidResourceHandle);
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaStreamGetId(cudaStream_t stream, unsigned long long* id) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    bool ok = false;
    cudart::StreamObject* s = rt.stream(stream, &ok);
    if (!ok || !id) return rt.set_error(ok ? cudaErrorInvalidValue : cudaErrorInvalidResourceHandle);
    *id = s ? s->id : 0;
    return cudaSuccess;
}

cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* p, size_t bytes, unsigned flags) {
    (void)p, (void)bytes, (void)flags;
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    bool ok = false;
    rt.stream(stream, &ok);
    return ok ? cudaSuccess : rt.set_error(cudaErrorInvalidResourceHandle);  // a hint (one application)
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    bool ok = false;
    cudart::StreamObject* s = rt.stream(stream, &ok);
    if (!ok) return rt.set_error(cudaErrorInvalidResourceHandle);
    if (cudaError_t e = StreamCapture::get().wait_stream(s)) return rt.set_error(e);
    const workloads::StreamId id = s ? s->id : 0;
    return rt.call([&](workloads::HostApi& h) { h.stream_synchronize(id); });
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    bool ok = false;
    cudart::StreamObject* s = rt.stream(stream, &ok);
    if (!ok) return rt.set_error(cudaErrorInvalidResourceHandle);
    if (cudaError_t e = StreamCapture::get().wait_stream(s)) return rt.set_error(e);
    const workloads::StreamId id = s ? s->id : 0;
    return query_once(
        rt, [id](workloads::HostApi& h) { return h.stream_idle(id); },
        [id](workloads::HostApi& h) { h.stream_synchronize(id); });
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags) {
    (void)flags;
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    bool ok = false;
    cudart::StreamObject* s = rt.stream(stream, &ok);
    cudart::EventObject* e = rt.event(event);
    if (!ok || !e) return rt.set_error(cudaErrorInvalidResourceHandle);
    bool handled = false;  // a fork or join of a capture
    if (cudaError_t err = StreamCapture::get().wait_event(s, e, &handled)) return rt.set_error(err);
    if (handled) return cudaSuccess;
    if (!e->id) return cudaSuccess;  // never recorded: nothing to wait for
    const workloads::StreamId id = s ? s->id : 0;
    const workloads::EventId ev = *e->id;
    return rt.call([&](workloads::HostApi& h) { h.stream_wait_event(id, ev); });
}

/// Host functions run on the program's thread once the stream's earlier work has finished: the
/// call synchronises the stream, then calls the function (the stream's later work cannot start
/// before it returns on CUDA either; a host function must not call CUDA).
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* data) {
    if (!fn) return Runtime::get().set_error(cudaErrorInvalidValue);
    {
        auto& rt = Runtime::get();
        auto lk = rt.lock();
        bool ok = false, captured = false;
        cudart::StreamObject* s = rt.stream(stream, &ok);
        if (!ok) return rt.set_error(cudaErrorInvalidResourceHandle);
        if (cudaError_t e = StreamCapture::get().enqueue(s, &captured)) return rt.set_error(e);
        if (captured) {  // a host node of the capture
            cudart::GraphNode node;
            node.type = cudaGraphNodeTypeHost;
            node.host = {fn, data};
            StreamCapture::get().record(s, node);
            return cudaSuccess;
        }
    }
    if (cudaError_t e = cudaStreamSynchronize(stream)) return e;
    fn(data);
    return cudaSuccess;
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t fn, void* data, unsigned flags) {
    if (!fn || flags != 0) return Runtime::get().set_error(cudaErrorInvalidValue);
    {
        auto& rt = Runtime::get();
        auto lk = rt.lock();
        bool ok = false;
        cudart::StreamObject* s = rt.stream(stream, &ok);
        if (ok && s && s->capture)  // CUDA does not capture it either (cudaLaunchHostFunc does)
            return rt.set_error(StreamCapture::get().refuse(s, "cudaStreamAddCallback"));
    }
    if (cudaError_t e = cudaStreamSynchronize(stream)) return e;
    fn(stream, cudaSuccess, data);
    return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!event) return rt.set_error(cudaErrorInvalidValue);
    *event = reinterpret_cast<cudaEvent_t>(rt.new_event(flags));
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, 0); }

cudaError_t cudaEventDestroy(cudaEvent_t event) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    cudart::EventObject* e = rt.event(event);
    if (!e) return rt.set_error(cudaErrorInvalidResourceHandle);
    rt.destroy_event(e);
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    bool ok = false;
    cudart::StreamObject* s = rt.stream(stream, &ok);
    cudart::EventObject* e = rt.event(event);
    if (!ok || !e) return rt.set_error(cudaErrorInvalidResourceHandle);
    const workloads::StreamId id = s ? s->id : 0;
    bool captured = false;
    if (cudaError_t err = StreamCapture::get().enqueue(s, &captured)) return rt.set_error(err);
    if (captured) {  // stands for the stream's captured work: other streams fork and join with it
        StreamCapture::get().record_event(e, s);
        return cudaSuccess;
    }
    const bool legacy = !s || !(s->flags & kStreamNonBlocking);
    const std::vector<workloads::StreamId> blocking = rt.blocking_streams();
    workloads::EventId ev = 0;
    if (cudaError_t err = rt.call([&](workloads::HostApi& h) {
            if (legacy && id == 0) cudart::order_with_legacy_stream(h, 0, blocking);
            ev = h.event_record(id);
        }))
        return err;
    e->id = ev;
    e->capture_id = 0;
    return cudaSuccess;
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned flags) {
    (void)flags;
    return cudaEventRecord(event, stream);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    cudart::EventObject* e = rt.event(event);
    if (!e) return rt.set_error(cudaErrorInvalidResourceHandle);
    if (cudaError_t err = StreamCapture::get().wait_event_host(e)) return rt.set_error(err);
    if (!e->id) return cudaSuccess;
    const workloads::EventId ev = *e->id;
    return rt.call([&](workloads::HostApi& h) { h.event_synchronize(ev); });
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    cudart::EventObject* e = rt.event(event);
    if (!e) return rt.set_error(cudaErrorInvalidResourceHandle);
    if (cudaError_t err = StreamCapture::get().wait_event_host(e)) return rt.set_error(err);
    if (!e->id) return cudaSuccess;
    const workloads::EventId ev = *e->id;
    return query_once(
        rt, [ev](workloads::HostApi& h) { return h.event_done(ev); },
        [ev](workloads::HostApi& h) { h.event_synchronize(ev); });
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    cudart::EventObject* a = rt.event(start);
    cudart::EventObject* b = rt.event(end);
    if (!ms) return rt.set_error(cudaErrorInvalidValue);
    if (!a || !b || (a->flags & kEventDisableTiming) || (b->flags & kEventDisableTiming))
        return rt.set_error(cudaErrorInvalidResourceHandle);
    if (!a->id || !b->id) return rt.set_error(cudaErrorInvalidResourceHandle);
    bool done = false;
    uint64_t ta = 0, tb = 0;
    if (cudaError_t err = rt.call([&](workloads::HostApi& h) {
            done = h.event_done(*a->id) && h.event_done(*b->id);
            ta = h.event_time_ps(*a->id);
            tb = h.event_time_ps(*b->id);
        }))
        return err;
    if (!done) return rt.set_error(cudaErrorNotReady);
    *ms = static_cast<float>((static_cast<double>(tb) - static_cast<double>(ta)) * 1e-9);
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize() {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (rt.stopped()) return cudaSuccess;
    if (cudaError_t e = StreamCapture::get().device_wait()) return rt.set_error(e);
    return rt.call([&](workloads::HostApi& h) { h.device_synchronize(); });
}

}  // extern "C"
