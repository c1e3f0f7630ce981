// SPDX-License-Identifier: Apache-2.0
// simpleCudaGraphs-style: a graph built explicitly (copy, memset, kernel, host nodes with
// dependencies; a 2-D copy node; parameters changed in the graph, a clone and an instance) and
// a graph captured from two streams that fork and join through events, each instantiated and
// launched several times and checked against a CPU reference; then the capture errors
// (a synchronous call invalidates a capture, an unjoined fork, the legacy stream).
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#define checkCudaErrors(val)                                                                  \
    do {                                                                                      \
        cudaError_t err_ = (val);                                                             \
        if (err_ != cudaSuccess) {                                                            \
            printf("CUDA error %s (%s) at %s:%d\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
                   __FILE__, __LINE__);                                                       \
            exit(EXIT_FAILURE);                                                               \
        }                                                                                     \
    } while (0)

#define expect(cond)                                             \
    do {                                                         \
        if (!(cond)) {                                           \
            printf("FAILED: %s (line %d)\n", #cond, __LINE__);   \
            exit(EXIT_FAILURE);                                  \
        }                                                        \
    } while (0)

#define THREADS 128
const int W = 64, H = 48, N = W * H;

// tmp = tmp + in * factor (tmp was set to 1.0f by a memset node)
__global__ void axpyOnes(const float *in, float *tmp, int n, float factor) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) tmp[i] = tmp[i] + in[i] * factor;
}

__global__ void square(const float *tmp, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tmp[i] * tmp[i];
}

// One partial sum per block (shared-memory tree).
__global__ void blockSums(const float *in, float *partial, int n) {
    __shared__ float s[THREADS];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}

__global__ void scale(const float *in, float *out, int n, float f) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * f;
}

__global__ void offset(const float *in, float *out, int n, float c) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] + c;
}

// c = a * b; counts its launches.
__global__ void combine(const float *a, const float *b, float *c, int n, unsigned *launches) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] * b[i];
    if (i == 0) atomicAdd(launches, 1u);
}

struct HostCheck {
    const float *sums;  // block sums copied back
    int blocks;
    double total;  // their sum, written by the host node
    int calls;
};

void CUDART_CB sumPartials(void *data) {
    HostCheck *h = (HostCheck *)data;
    double t = 0;
    for (int b = 0; b < h->blocks; ++b) t += h->sums[b];
    h->total = t;
    h->calls++;
}

void fill(float *v, int n, int seed) {
    for (int i = 0; i < n; ++i) v[i] = (float)((i * 7 + seed * 13) % 31) / 8.0f - 1.5f;
}

bool near(float a, float b) { return fabsf(a - b) <= 1e-5f * fmaxf(1.0f, fabsf(b)); }

// ---------------------------------------------------------------- explicit graph
void graphsManual(cudaStream_t stream) {
    const int blocks = (N + THREADS - 1) / THREADS;
    const size_t hpitch = W * sizeof(float) + 16;  // the host result rows are padded
    float *h_in, *h_out, *h_sums;
    checkCudaErrors(cudaMallocHost(&h_in, N * sizeof(float)));
    checkCudaErrors(cudaMallocHost(&h_out, hpitch * H));
    checkCudaErrors(cudaMallocHost(&h_sums, blocks * sizeof(float)));
    float *d_in, *d_tmp, *d_out, *d_partial;
    size_t dpitch = 0;
    checkCudaErrors(cudaMalloc(&d_in, N * sizeof(float)));
    checkCudaErrors(cudaMalloc(&d_tmp, N * sizeof(float)));
    checkCudaErrors(cudaMallocPitch(&d_out, &dpitch, W * sizeof(float), H));
    checkCudaErrors(cudaMalloc(&d_partial, blocks * sizeof(float)));
    expect(dpitch >= W * sizeof(float));

    cudaGraph_t graph;
    checkCudaErrors(cudaGraphCreate(&graph, 0));
    cudaGraphNode_t copyIn, setOnes, axpyNode, squareNode, sumsNode, copyOut, copySums, hostNode;

    cudaMemcpy3DParms cp = {0};
    cp.srcPos = make_cudaPos(0, 0, 0);
    cp.srcPtr = make_cudaPitchedPtr(h_in, N * sizeof(float), N, 1);
    cp.dstPos = make_cudaPos(0, 0, 0);
    cp.dstPtr = make_cudaPitchedPtr(d_in, N * sizeof(float), N, 1);
    cp.extent = make_cudaExtent(N * sizeof(float), 1, 1);
    cp.kind = cudaMemcpyHostToDevice;
    checkCudaErrors(cudaGraphAddMemcpyNode(&copyIn, graph, NULL, 0, &cp));

    cudaMemsetParams mp = {0};
    mp.dst = d_tmp;
    mp.value = 0x3f800000u;  // 1.0f: four different bytes
    mp.elementSize = sizeof(float);
    mp.width = N;
    mp.height = 1;
    checkCudaErrors(cudaGraphAddMemsetNode(&setOnes, graph, NULL, 0, &mp));

    float factor = 2.0f;
    int n = N;
    void *axpyArgs[] = {&d_in, &d_tmp, &n, &factor};
    cudaKernelNodeParams kp = {0};
    kp.func = (void *)axpyOnes;
    kp.gridDim = dim3(blocks);
    kp.blockDim = dim3(THREADS);
    kp.kernelParams = axpyArgs;
    std::vector<cudaGraphNode_t> deps = {copyIn, setOnes};
    checkCudaErrors(cudaGraphAddKernelNode(&axpyNode, graph, deps.data(), deps.size(), &kp));
    factor = 100.0f;  // the node copied the arguments: this does not reach it

    void *squareArgs[] = {&d_tmp, &d_tmp, &n};  // the output is replaced below (SetParams)
    kp.func = (void *)square;
    kp.kernelParams = squareArgs;
    checkCudaErrors(cudaGraphAddKernelNode(&squareNode, graph, &axpyNode, 1, &kp));

    void *sumArgs[] = {&d_in, &d_partial, &n};
    kp.func = (void *)blockSums;
    kp.kernelParams = sumArgs;
    checkCudaErrors(cudaGraphAddKernelNode(&sumsNode, graph, &copyIn, 1, &kp));

    // square's output goes to a flat buffer, then 2-D copies put it into pitched rows
    float *d_flat;
    checkCudaErrors(cudaMalloc(&d_flat, N * sizeof(float)));
    cudaKernelNodeParams got;
    checkCudaErrors(cudaGraphKernelNodeGetParams(squareNode, &got));
    expect(got.func == (void *)square && got.gridDim.x == (unsigned)blocks && got.blockDim.x == THREADS);
    void *squareArgs2[] = {&d_tmp, &d_flat, &n};
    got.kernelParams = squareArgs2;
    checkCudaErrors(cudaGraphKernelNodeSetParams(squareNode, &got));

    // flat (W floats a row) -> host rows hpitch apart, via the pitched device buffer
    cudaGraphNode_t packRows;
    memset(&cp, 0, sizeof(cp));
    cp.srcPtr = make_cudaPitchedPtr(d_flat, W * sizeof(float), W, H);
    cp.dstPtr = make_cudaPitchedPtr(d_out, dpitch, W, H);
    cp.extent = make_cudaExtent(W * sizeof(float), H, 1);
    cp.kind = cudaMemcpyDeviceToDevice;
    checkCudaErrors(cudaGraphAddMemcpyNode(&packRows, graph, &squareNode, 1, &cp));
    memset(&cp, 0, sizeof(cp));
    cp.srcPtr = make_cudaPitchedPtr(d_out, dpitch, W, H);
    cp.dstPtr = make_cudaPitchedPtr(h_out, hpitch, W, H);
    cp.extent = make_cudaExtent(W * sizeof(float), H, 1);
    cp.kind = cudaMemcpyDeviceToHost;
    checkCudaErrors(cudaGraphAddMemcpyNode(&copyOut, graph, &packRows, 1, &cp));

    checkCudaErrors(cudaGraphAddMemcpyNode1D(&copySums, graph, &sumsNode, 1, h_sums, d_partial,
                                             blocks * sizeof(float), cudaMemcpyDeviceToHost));
    HostCheck hc = {h_sums, blocks, 0.0, 0};
    cudaHostNodeParams hp = {0};
    hp.fn = sumPartials;
    hp.userData = &hc;
    deps = {copyOut, copySums};
    checkCudaErrors(cudaGraphAddHostNode(&hostNode, graph, deps.data(), deps.size(), &hp));
    cudaGraphNode_t emptyNode;
    checkCudaErrors(cudaGraphAddEmptyNode(&emptyNode, graph, &hostNode, 1));

    size_t numNodes = 0, numRoots = 0;
    checkCudaErrors(cudaGraphGetNodes(graph, NULL, &numNodes));
    checkCudaErrors(cudaGraphGetRootNodes(graph, NULL, &numRoots));
    printf("Num of nodes in the graph created manually = %zu (%zu roots)\n", numNodes, numRoots);
    expect(numNodes == 10 && numRoots == 2);
    std::vector<cudaGraphNode_t> roots(numRoots);
    checkCudaErrors(cudaGraphGetRootNodes(graph, roots.data(), &numRoots));
    enum cudaGraphNodeType type;
    checkCudaErrors(cudaGraphNodeGetType(roots[1], &type));
    expect(type == cudaGraphNodeTypeMemset);
    checkCudaErrors(cudaGraphNodeGetType(hostNode, &type));
    expect(type == cudaGraphNodeTypeHost);
    size_t numDeps = 0;
    checkCudaErrors(cudaGraphNodeGetDependencies(axpyNode, NULL, NULL, &numDeps));
    expect(numDeps == 2);

    cudaGraphExec_t exec;
    checkCudaErrors(cudaGraphInstantiate(&exec, graph, NULL, NULL, 0));
    cudaGraph_t clone;
    cudaGraphExec_t cloneExec;
    checkCudaErrors(cudaGraphClone(&clone, graph));
    checkCudaErrors(cudaGraphInstantiate(&cloneExec, clone, 0));

    const int launches = 3;
    std::vector<float> ref(N);
    for (int it = 0; it < launches + 2; ++it) {
        fill(h_in, N, it);  // the copy node reads the host input when the graph runs
        float f = 2.0f;
        cudaGraphExec_t e = exec;
        if (it == launches) {  // the instance gets a new factor; the graph keeps its own
            f = -0.5f;
            cudaKernelNodeParams np;
            checkCudaErrors(cudaGraphKernelNodeGetParams(axpyNode, &np));
            void *args[] = {&d_in, &d_tmp, &n, &f};
            np.kernelParams = args;
            checkCudaErrors(cudaGraphExecKernelNodeSetParams(exec, axpyNode, &np));
        }
        if (it == launches + 1) e = cloneExec;  // the clone has the graph's factor, 2
        checkCudaErrors(cudaGraphLaunch(e, stream));
        checkCudaErrors(cudaStreamSynchronize(stream));
        double total = 0;
        for (int i = 0; i < N; ++i) {
            const float t = 1.0f + h_in[i] * f;
            ref[i] = t * t;
            total += h_in[i];
        }
        for (int r = 0; r < H; ++r)
            for (int c = 0; c < W; ++c) {
                const float got_v = *(float *)((char *)h_out + r * hpitch + c * sizeof(float));
                if (!near(got_v, ref[r * W + c])) {
                    printf("FAILED: manual graph launch %d: out[%d][%d] = %f, expected %f\n", it, r, c, got_v,
                           ref[r * W + c]);
                    exit(EXIT_FAILURE);
                }
            }
        expect(fabs(hc.total - total) < 1e-3);
    }
    expect(hc.calls == launches + 2);
    printf("manual graph: %d launches checked, host node ran %d times\n", launches + 2, hc.calls);

    checkCudaErrors(cudaGraphExecDestroy(exec));
    checkCudaErrors(cudaGraphExecDestroy(cloneExec));
    checkCudaErrors(cudaGraphDestroy(graph));
    checkCudaErrors(cudaGraphDestroy(clone));
    checkCudaErrors(cudaFree(d_in));
    checkCudaErrors(cudaFree(d_tmp));
    checkCudaErrors(cudaFree(d_out));
    checkCudaErrors(cudaFree(d_flat));
    checkCudaErrors(cudaFree(d_partial));
    checkCudaErrors(cudaFreeHost(h_in));
    checkCudaErrors(cudaFreeHost(h_out));
    checkCudaErrors(cudaFreeHost(h_sums));
}

// ---------------------------------------------------------------- stream capture
static int hostFnCalls = 0;
void CUDART_CB countCall(void *data) { ++*(int *)data; }

void graphsUsingStreamCapture() {
    const int blocks = (N + THREADS - 1) / THREADS;
    cudaStream_t s1, s2, launchStream;
    cudaEvent_t fork, join;
    checkCudaErrors(cudaStreamCreate(&s1));
    checkCudaErrors(cudaStreamCreate(&s2));
    checkCudaErrors(cudaStreamCreate(&launchStream));
    checkCudaErrors(cudaEventCreate(&fork));
    checkCudaErrors(cudaEventCreate(&join));
    float *h_in, *h_out;
    checkCudaErrors(cudaMallocHost(&h_in, N * sizeof(float)));
    checkCudaErrors(cudaMallocHost(&h_out, N * sizeof(float)));
    float *d_in, *d_a, *d_b, *d_c;
    unsigned *d_launches;
    checkCudaErrors(cudaMalloc(&d_in, N * sizeof(float)));
    checkCudaErrors(cudaMalloc(&d_a, N * sizeof(float)));
    checkCudaErrors(cudaMalloc(&d_b, N * sizeof(float)));
    checkCudaErrors(cudaMalloc(&d_c, N * sizeof(float)));
    checkCudaErrors(cudaMalloc(&d_launches, sizeof(unsigned)));
    checkCudaErrors(cudaMemset(d_launches, 0, sizeof(unsigned)));

    cudaGraph_t graph;
    checkCudaErrors(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    checkCudaErrors(cudaMemcpyAsync(d_in, h_in, N * sizeof(float), cudaMemcpyDefault, s1));
    checkCudaErrors(cudaEventRecord(fork, s1));
    checkCudaErrors(cudaStreamWaitEvent(s2, fork, 0));
    cudaStreamCaptureStatus status;
    checkCudaErrors(cudaStreamIsCapturing(s2, &status));
    expect(status == cudaStreamCaptureStatusActive);
    unsigned long long id1 = 0, id2 = 0;
    checkCudaErrors(cudaStreamGetCaptureInfo(s1, &status, &id1));
    checkCudaErrors(cudaStreamGetCaptureInfo(s2, &status, &id2));
    expect(status == cudaStreamCaptureStatusActive && id1 != 0 && id1 == id2);
    scale<<<blocks, THREADS, 0, s1>>>(d_in, d_a, N, 3.0f);
    float c = 0.25f;
    int n = N;
    void *offsetArgs[] = {&d_in, &d_b, &n, &c};
    checkCudaErrors(cudaLaunchKernel((const void *)offset, dim3(blocks), dim3(THREADS), offsetArgs, 0, s2));
    c = 1000.0f;  // captured by value
    checkCudaErrors(cudaMemsetAsync(d_c, 0, N * sizeof(float), s2));
    checkCudaErrors(cudaEventRecord(join, s2));
    checkCudaErrors(cudaStreamWaitEvent(s1, join, 0));
    combine<<<blocks, THREADS, 0, s1>>>(d_a, d_b, d_c, N, d_launches);
    checkCudaErrors(cudaMemcpyAsync(h_out, d_c, N * sizeof(float), cudaMemcpyDeviceToHost, s1));
    checkCudaErrors(cudaLaunchHostFunc(s1, countCall, &hostFnCalls));
    checkCudaErrors(cudaStreamEndCapture(s1, &graph));
    expect(hostFnCalls == 0);  // captured, not run
    checkCudaErrors(cudaStreamIsCapturing(s1, &status));
    expect(status == cudaStreamCaptureStatusNone);
    checkCudaErrors(cudaStreamIsCapturing(s2, &status));
    expect(status == cudaStreamCaptureStatusNone);

    size_t numNodes = 0, numRoots = 0, numEdges = 0;
    checkCudaErrors(cudaGraphGetNodes(graph, NULL, &numNodes));
    checkCudaErrors(cudaGraphGetRootNodes(graph, NULL, &numRoots));
    checkCudaErrors(cudaGraphGetEdges(graph, NULL, NULL, NULL, &numEdges));
    printf("Num of nodes in the graph created using stream capture API = %zu (%zu roots, %zu edges)\n", numNodes,
           numRoots, numEdges);
    // copy -> {scale, offset -> memset} -> combine (after scale and memset) -> copy -> host
    expect(numNodes == 7 && numRoots == 1 && numEdges == 7);

    cudaGraphExec_t exec;
    checkCudaErrors(cudaGraphInstantiateWithFlags(&exec, graph, 0));
    checkCudaErrors(cudaGraphUpload(exec, launchStream));
    const int launches = 4;
    for (int it = 0; it < launches; ++it) {
        fill(h_in, N, 10 + it);
        checkCudaErrors(cudaGraphLaunch(exec, launchStream));
        checkCudaErrors(cudaStreamSynchronize(launchStream));
        for (int i = 0; i < N; ++i) {
            const float ref = (h_in[i] * 3.0f) * (h_in[i] + 0.25f);
            if (!near(h_out[i], ref)) {
                printf("FAILED: captured graph launch %d: c[%d] = %f, expected %f\n", it, i, h_out[i], ref);
                exit(EXIT_FAILURE);
            }
        }
    }
    unsigned counted = 0;
    checkCudaErrors(cudaMemcpy(&counted, d_launches, sizeof(unsigned), cudaMemcpyDeviceToHost));
    expect(counted == launches && hostFnCalls == launches);
    printf("captured graph: %d launches checked, combine ran %u times\n", launches, counted);

    checkCudaErrors(cudaGraphExecDestroy(exec));
    checkCudaErrors(cudaGraphDestroy(graph));
    checkCudaErrors(cudaFree(d_in));
    checkCudaErrors(cudaFree(d_a));
    checkCudaErrors(cudaFree(d_b));
    checkCudaErrors(cudaFree(d_c));
    checkCudaErrors(cudaFree(d_launches));
    checkCudaErrors(cudaFreeHost(h_in));
    checkCudaErrors(cudaFreeHost(h_out));
    checkCudaErrors(cudaEventDestroy(fork));
    checkCudaErrors(cudaEventDestroy(join));
    checkCudaErrors(cudaStreamDestroy(s1));
    checkCudaErrors(cudaStreamDestroy(s2));
    checkCudaErrors(cudaStreamDestroy(launchStream));
}

// ---------------------------------------------------------------- capture errors
void captureErrors() {
    cudaStream_t s1, s2;
    cudaEvent_t fork;
    checkCudaErrors(cudaStreamCreate(&s1));
    checkCudaErrors(cudaStreamCreate(&s2));
    checkCudaErrors(cudaEventCreate(&fork));
    float *d, h[4] = {1, 2, 3, 4};
    checkCudaErrors(cudaMalloc(&d, sizeof(h)));
    cudaGraph_t graph = (cudaGraph_t)1;
    cudaStreamCaptureStatus status;

    // A synchronous copy (legacy stream) during a global capture: refused, the capture invalidated.
    checkCudaErrors(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    scale<<<1, 4, 0, s1>>>(d, d, 4, 2.0f);
    expect(cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice) == cudaErrorStreamCaptureUnsupported);
    checkCudaErrors(cudaStreamIsCapturing(s1, &status));
    expect(status == cudaStreamCaptureStatusInvalidated);
    expect(cudaStreamEndCapture(s1, &graph) == cudaErrorStreamCaptureInvalidated && graph == NULL);
    expect(cudaGetLastError() == cudaErrorStreamCaptureInvalidated);

    // Synchronising a capturing stream.
    checkCudaErrors(cudaStreamBeginCapture(s1, cudaStreamCaptureModeThreadLocal));
    expect(cudaStreamSynchronize(s1) == cudaErrorStreamCaptureUnsupported);
    expect(cudaStreamEndCapture(s1, &graph) == cudaErrorStreamCaptureInvalidated && graph == NULL);

    // A fork that does not join back.
    checkCudaErrors(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    checkCudaErrors(cudaEventRecord(fork, s1));
    checkCudaErrors(cudaStreamWaitEvent(s2, fork, 0));
    scale<<<1, 4, 0, s2>>>(d, d, 4, 2.0f);
    expect(cudaStreamEndCapture(s2, &graph) == cudaErrorStreamCaptureUnmatched);
    expect(cudaStreamEndCapture(s1, &graph) == cudaErrorStreamCaptureUnjoined && graph == NULL);

    // Relaxed mode allows cudaMalloc; the legacy stream cannot capture; ending twice is illegal.
    checkCudaErrors(cudaStreamBeginCapture(s1, cudaStreamCaptureModeRelaxed));
    float *d2;
    checkCudaErrors(cudaMalloc(&d2, 16));
    checkCudaErrors(cudaStreamEndCapture(s1, &graph));
    size_t numNodes = 1;
    checkCudaErrors(cudaGraphGetNodes(graph, NULL, &numNodes));
    expect(numNodes == 0);
    checkCudaErrors(cudaGraphDestroy(graph));
    expect(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal) == cudaErrorStreamCaptureUnsupported);
    expect(cudaStreamEndCapture(s1, &graph) == cudaErrorIllegalState);
    cudaGetLastError();

    // Everything works again afterwards.
    checkCudaErrors(cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice));
    scale<<<1, 4>>>(d, d, 4, 2.0f);
    float back[4];
    checkCudaErrors(cudaMemcpy(back, d, sizeof(back), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 4; ++i) expect(back[i] == 2 * h[i]);
    checkCudaErrors(cudaFree(d));
    checkCudaErrors(cudaFree(d2));
    checkCudaErrors(cudaEventDestroy(fork));
    checkCudaErrors(cudaStreamDestroy(s1));
    checkCudaErrors(cudaStreamDestroy(s2));
    printf("capture errors: as documented\n");
}

int main() {
    printf("%d elements, %d threads per block\n", N, THREADS);
    cudaStream_t stream;
    checkCudaErrors(cudaStreamCreate(&stream));
    graphsManual(stream);
    graphsUsingStreamCapture();
    captureErrors();
    checkCudaErrors(cudaStreamDestroy(stream));
    printf("PASSED cuda_graphs\n");
    return 0;
}
