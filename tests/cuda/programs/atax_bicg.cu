// SPDX-License-Identifier: Apache-2.0
// atax and bicg (PolyBench/GPU style): y = A^T (A x); s = A^T r, q = A p. Four kernels, one
// thread per row or column, double precision, checked against the CPU.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#define NX 128
#define NY 112
#define DIM_THREAD_BLOCK_X 64

#define gpuErrchk(ans) { gpuAssert((ans), __FILE__, __LINE__); }
inline void gpuAssert(cudaError_t code, const char *file, int line, bool abort = true) {
    if (code != cudaSuccess) {
        fprintf(stderr, "GPUassert: %s %s %d\n", cudaGetErrorString(code), file, line);
        if (abort) exit(code);
    }
}

typedef double DATA_TYPE;

__global__ void atax_kernel1(const DATA_TYPE *A, const DATA_TYPE *x, DATA_TYPE *tmp) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < NX) {
        DATA_TYPE s = 0;
        for (int j = 0; j < NY; j++) s += A[i * NY + j] * x[j];
        tmp[i] = s;
    }
}

__global__ void atax_kernel2(const DATA_TYPE *A, DATA_TYPE *y, const DATA_TYPE *tmp) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < NY) {
        DATA_TYPE s = 0;
        for (int i = 0; i < NX; i++) s += A[i * NY + j] * tmp[i];
        y[j] = s;
    }
}

__global__ void bicg_kernel1(const DATA_TYPE *A, const DATA_TYPE *r, DATA_TYPE *s) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < NY) {
        s[j] = 0.0;
        for (int i = 0; i < NX; i++) s[j] += A[i * NY + j] * r[i];
    }
}

__global__ void bicg_kernel2(const DATA_TYPE *A, const DATA_TYPE *p, DATA_TYPE *q) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < NX) {
        q[i] = 0.0;
        for (int j = 0; j < NY; j++) q[i] += A[i * NY + j] * p[j];
    }
}

static int compare(const char *what, const std::vector<DATA_TYPE> &cpu, const std::vector<DATA_TYPE> &gpu) {
    int bad = 0;
    for (size_t i = 0; i < cpu.size(); i++) {
        double d = fabs(cpu[i] - gpu[i]) / (fabs(cpu[i]) + 1e-12);
        if (d > 1e-9) {
            if (bad < 5) printf("%s[%zu]: cpu %f gpu %f\n", what, i, cpu[i], gpu[i]);
            bad++;
        }
    }
    return bad;
}

int main() {
    std::vector<DATA_TYPE> A(NX * NY), x(NY), r(NX), p(NY);
    for (int i = 0; i < NX; i++) {
        r[i] = i * M_PI;
        for (int j = 0; j < NY; j++) A[i * NY + j] = ((DATA_TYPE)i * (j + 1)) / NX;
    }
    for (int j = 0; j < NY; j++) {
        x[j] = j * M_PI;
        p[j] = j * M_PI / 3.0;
    }
    DATA_TYPE *dA, *dx, *dy, *dtmp, *dr, *dp, *ds, *dq;
    gpuErrchk(cudaMalloc(&dA, sizeof(DATA_TYPE) * NX * NY));
    gpuErrchk(cudaMalloc(&dx, sizeof(DATA_TYPE) * NY));
    gpuErrchk(cudaMalloc(&dy, sizeof(DATA_TYPE) * NY));
    gpuErrchk(cudaMalloc(&dtmp, sizeof(DATA_TYPE) * NX));
    gpuErrchk(cudaMalloc(&dr, sizeof(DATA_TYPE) * NX));
    gpuErrchk(cudaMalloc(&dp, sizeof(DATA_TYPE) * NY));
    gpuErrchk(cudaMalloc(&ds, sizeof(DATA_TYPE) * NY));
    gpuErrchk(cudaMalloc(&dq, sizeof(DATA_TYPE) * NX));
    gpuErrchk(cudaMemcpy(dA, A.data(), sizeof(DATA_TYPE) * NX * NY, cudaMemcpyHostToDevice));
    gpuErrchk(cudaMemcpy(dx, x.data(), sizeof(DATA_TYPE) * NY, cudaMemcpyHostToDevice));
    gpuErrchk(cudaMemcpy(dr, r.data(), sizeof(DATA_TYPE) * NX, cudaMemcpyHostToDevice));
    gpuErrchk(cudaMemcpy(dp, p.data(), sizeof(DATA_TYPE) * NY, cudaMemcpyHostToDevice));
    gpuErrchk(cudaMemset(dy, 0, sizeof(DATA_TYPE) * NY));

    dim3 block(DIM_THREAD_BLOCK_X, 1);
    dim3 gridX((NX + block.x - 1) / block.x, 1), gridY((NY + block.x - 1) / block.x, 1);
    atax_kernel1<<<gridX, block>>>(dA, dx, dtmp);
    gpuErrchk(cudaPeekAtLastError());
    atax_kernel2<<<gridY, block>>>(dA, dy, dtmp);
    gpuErrchk(cudaPeekAtLastError());
    bicg_kernel1<<<gridY, block>>>(dA, dr, ds);
    bicg_kernel2<<<gridX, block>>>(dA, dp, dq);
    gpuErrchk(cudaGetLastError());
    gpuErrchk(cudaDeviceSynchronize());

    std::vector<DATA_TYPE> gy(NY), gs(NY), gq(NX);
    gpuErrchk(cudaMemcpy(gy.data(), dy, sizeof(DATA_TYPE) * NY, cudaMemcpyDeviceToHost));
    gpuErrchk(cudaMemcpy(gs.data(), ds, sizeof(DATA_TYPE) * NY, cudaMemcpyDeviceToHost));
    gpuErrchk(cudaMemcpy(gq.data(), dq, sizeof(DATA_TYPE) * NX, cudaMemcpyDeviceToHost));

    std::vector<DATA_TYPE> tmp(NX), y(NY), s(NY), q(NX);
    for (int i = 0; i < NX; i++) {
        DATA_TYPE t = 0;
        for (int j = 0; j < NY; j++) t += A[i * NY + j] * x[j];
        tmp[i] = t;
    }
    for (int j = 0; j < NY; j++) {
        DATA_TYPE t = 0;
        for (int i = 0; i < NX; i++) t += A[i * NY + j] * tmp[i];
        y[j] = t;
        s[j] = 0;
        for (int i = 0; i < NX; i++) s[j] += A[i * NY + j] * r[i];
    }
    for (int i = 0; i < NX; i++) {
        q[i] = 0;
        for (int j = 0; j < NY; j++) q[i] += A[i * NY + j] * p[j];
    }
    int bad = compare("atax y", y, gy) + compare("bicg s", s, gs) + compare("bicg q", q, gq);
    cudaFree(dA), cudaFree(dx), cudaFree(dy), cudaFree(dtmp), cudaFree(dr), cudaFree(dp), cudaFree(ds), cudaFree(dq);
    if (bad) {
        printf("FAILED: %d mismatches\n", bad);
        return 1;
    }
    printf("PASSED atax_bicg\n");
    return 0;
}
