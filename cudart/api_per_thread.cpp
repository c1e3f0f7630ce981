// SPDX-License-Identifier: Apache-2.0
// The per-thread default stream entry points (`nvcc --default-stream per-thread` programs call
// the `_ptds`/`_ptsz` names): the program has one host thread (runtime.h), so its per-thread
// default stream is served as the default stream, whose ordering is stricter (results equal).
#include "cudart/api_common.h"

extern "C" {
cudaError_t cudaMemcpy(void*, const void*, size_t, int);
cudaError_t cudaMemcpyAsync(void*, const void*, size_t, int, cudaStream_t);
cudaError_t cudaMemcpy2D(void*, size_t, const void*, size_t, size_t, size_t, int);
cudaError_t cudaMemcpy2DAsync(void*, size_t, const void*, size_t, size_t, size_t, int, cudaStream_t);
cudaError_t cudaMemcpyToSymbol(const void*, const void*, size_t, size_t, int);
cudaError_t cudaMemcpyFromSymbol(void*, const void*, size_t, size_t, int);
cudaError_t cudaMemcpyToSymbolAsync(const void*, const void*, size_t, size_t, int, cudaStream_t);
cudaError_t cudaMemcpyFromSymbolAsync(void*, const void*, size_t, size_t, int, cudaStream_t);
cudaError_t cudaMemset(void*, int, size_t);
cudaError_t cudaMemsetAsync(void*, int, size_t, cudaStream_t);
cudaError_t cudaMemset2D(void*, size_t, int, size_t, size_t);
cudaError_t cudaMemset2DAsync(void*, size_t, int, size_t, size_t, cudaStream_t);
cudaError_t cudaMallocAsync(void**, size_t, cudaStream_t);
cudaError_t cudaFreeAsync(void*, cudaStream_t);
cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t);
cudaError_t cudaEventRecordWithFlags(cudaEvent_t, cudaStream_t, unsigned);
cudaError_t cudaStreamQuery(cudaStream_t);
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned);
cudaError_t cudaStreamGetFlags(cudaStream_t, unsigned*);
cudaError_t cudaStreamGetPriority(cudaStream_t, int*);
cudaError_t cudaStreamGetDevice(cudaStream_t, int*);
cudaError_t cudaStreamGetId(cudaStream_t, unsigned long long*);
cudaError_t cudaStreamIsCapturing(cudaStream_t, int*);
cudaError_t cudaStreamAttachMemAsync(cudaStream_t, void*, size_t, unsigned);
cudaError_t cudaLaunchHostFunc(cudaStream_t, cudaHostFn_t, void*);
cudaError_t cudaStreamAddCallback(cudaStream_t, cudaStreamCallback_t, void*, unsigned);

cudaError_t cudaMemcpy_ptds(void* d, const void* s, size_t n, int k) { return cudaMemcpy(d, s, n, k); }
cudaError_t cudaMemcpyAsync_ptsz(void* d, const void* s, size_t n, int k, cudaStream_t st) {
    return cudaMemcpyAsync(d, s, n, k, st);
}
cudaError_t cudaMemcpy2D_ptds(void* d, size_t dp, const void* s, size_t sp, size_t w, size_t h, int k) {
    return cudaMemcpy2D(d, dp, s, sp, w, h, k);
}
cudaError_t cudaMemcpy2DAsync_ptsz(void* d, size_t dp, const void* s, size_t sp, size_t w, size_t h, int k,
                                   cudaStream_t st) {
    return cudaMemcpy2DAsync(d, dp, s, sp, w, h, k, st);
}
cudaError_t cudaMemcpyToSymbol_ptds(const void* sym, const void* s, size_t n, size_t off, int k) {
    return cudaMemcpyToSymbol(sym, s, n, off, k);
}
cudaError_t cudaMemcpyFromSymbol_ptds(void* d, const void* sym, size_t n, size_t off, int k) {
    return cudaMemcpyFromSymbol(d, sym, n, off, k);
}
cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void* sym, const void* s, size_t n, size_t off, int k, cudaStream_t st) {
    return cudaMemcpyToSymbolAsync(sym, s, n, off, k, st);
}
cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void* d, const void* sym, size_t n, size_t off, int k, cudaStream_t st) {
    return cudaMemcpyFromSymbolAsync(d, sym, n, off, k, st);
}
cudaError_t cudaMemset_ptds(void* d, int v, size_t n) { return cudaMemset(d, v, n); }
cudaError_t cudaMemsetAsync_ptsz(void* d, int v, size_t n, cudaStream_t st) { return cudaMemsetAsync(d, v, n, st); }
cudaError_t cudaMemset2D_ptds(void* d, size_t p, int v, size_t w, size_t h) { return cudaMemset2D(d, p, v, w, h); }
cudaError_t cudaMemset2DAsync_ptsz(void* d, size_t p, int v, size_t w, size_t h, cudaStream_t st) {
    return cudaMemset2DAsync(d, p, v, w, h, st);
}
cudaError_t cudaMallocAsync_ptsz(void** p, size_t n, cudaStream_t st) { return cudaMallocAsync(p, n, st); }
cudaError_t cudaFreeAsync_ptsz(void* p, cudaStream_t st) { return cudaFreeAsync(p, st); }
cudaError_t cudaEventRecord_ptsz(cudaEvent_t e, cudaStream_t st) { return cudaEventRecord(e, st); }
cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t e, cudaStream_t st, unsigned f) {
    return cudaEventRecordWithFlags(e, st, f);
}
cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t st) { return cudaStreamSynchronize(st); }
cudaError_t cudaStreamQuery_ptsz(cudaStream_t st) { return cudaStreamQuery(st); }
cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t st, cudaEvent_t e, unsigned f) { return cudaStreamWaitEvent(st, e, f); }
cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t st, unsigned* f) { return cudaStreamGetFlags(st, f); }
cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t st, int* p) { return cudaStreamGetPriority(st, p); }
cudaError_t cudaStreamGetDevice_ptsz(cudaStream_t st, int* d) { return cudaStreamGetDevice(st, d); }
cudaError_t cudaStreamGetId_ptsz(cudaStream_t st, unsigned long long* id) { return cudaStreamGetId(st, id); }
cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t st, int* c) { return cudaStreamIsCapturing(st, c); }
cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t st, void* p, size_t n, unsigned f) {
    return cudaStreamAttachMemAsync(st, p, n, f);
}
cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t st, cudaHostFn_t fn, void* d) { return cudaLaunchHostFunc(st, fn, d); }
cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t st, cudaStreamCallback_t fn, void* d, unsigned f) {
    return cudaStreamAddCallback(st, fn, d, f);
}

}  // extern "C"
