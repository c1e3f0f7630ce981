// SPDX-License-Identifier: Apache-2.0
// nbody-style: all-pairs gravitational forces with float4 positions, shared-memory tiles,
// rsqrtf and #pragma unroll, integrated for a few steps with ping-pong buffers; checked against
// the CPU with a tolerance. A global RAII buffer is released after main returns.
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define SOFTENING 1e-3f
#define TILE 64

template <typename T> struct DeviceBuffer {
    T *ptr = nullptr;
    size_t n = 0;
    void alloc(size_t count) {
        n = count;
        if (cudaMalloc(&ptr, n * sizeof(T)) != cudaSuccess) {
            printf("cudaMalloc failed\n");
            exit(1);
        }
    }
    ~DeviceBuffer() {
        if (ptr) cudaFree(ptr);  // after main: the runtime may have shut down
    }
};

static DeviceBuffer<float4> g_pos[2];
static DeviceBuffer<float4> g_vel;

__device__ float3 bodyBodyInteraction(float4 bi, float4 bj, float3 ai) {
    float3 r;
    r.x = bj.x - bi.x;
    r.y = bj.y - bi.y;
    r.z = bj.z - bi.z;
    float distSqr = r.x * r.x + r.y * r.y + r.z * r.z + SOFTENING;
    float invDist = rsqrtf(distSqr);
    float invDistCube = invDist * invDist * invDist;
    float s = bj.w * invDistCube;
    ai.x += r.x * s;
    ai.y += r.y * s;
    ai.z += r.z * s;
    return ai;
}

__global__ void integrateBodies(float4 *newPos, const float4 *oldPos, float4 *vel, int n, float dt) {
    __shared__ float4 sh[TILE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 p = i < n ? oldPos[i] : make_float4(0, 0, 0, 0);
    float3 acc = {0, 0, 0};
    for (int tile = 0; tile < (n + TILE - 1) / TILE; tile++) {
        int j = tile * TILE + threadIdx.x;
        sh[threadIdx.x] = j < n ? oldPos[j] : make_float4(0, 0, 0, 0);
        __syncthreads();
#pragma unroll 8
        for (int k = 0; k < TILE; k++) acc = bodyBodyInteraction(p, sh[k], acc);
        __syncthreads();
    }
    if (i < n) {
        float4 v = vel[i];
        v.x += acc.x * dt;
        v.y += acc.y * dt;
        v.z += acc.z * dt;
        p.x += v.x * dt;
        p.y += v.y * dt;
        p.z += v.z * dt;
        vel[i] = v;
        newPos[i] = p;
    }
}

int main() {
    const int n = 256, steps = 3;
    const float dt = 0.01f;
    std::vector<float4> pos(n), vel(n);
    srand(11);
    for (int i = 0; i < n; i++) {
        pos[i] = make_float4(rand() / (float)RAND_MAX - 0.5f, rand() / (float)RAND_MAX - 0.5f,
                             rand() / (float)RAND_MAX - 0.5f, 1.0f + (i % 3));
        vel[i] = make_float4(0, 0, 0, 0);
    }
    g_pos[0].alloc(n);
    g_pos[1].alloc(n);
    g_vel.alloc(n);
    cudaMemcpy(g_pos[0].ptr, pos.data(), n * sizeof(float4), cudaMemcpyHostToDevice);
    cudaMemcpy(g_vel.ptr, vel.data(), n * sizeof(float4), cudaMemcpyHostToDevice);
    int cur = 0;
    for (int s = 0; s < steps; s++) {
        integrateBodies<<<(n + TILE - 1) / TILE, TILE>>>(g_pos[1 - cur].ptr, g_pos[cur].ptr, g_vel.ptr, n, dt);
        cur = 1 - cur;
    }
    if (cudaGetLastError() != cudaSuccess) {
        printf("FAILED: launch\n");
        return 1;
    }
    std::vector<float4> gpu(n);
    cudaMemcpy(gpu.data(), g_pos[cur].ptr, n * sizeof(float4), cudaMemcpyDeviceToHost);
    // CPU in double.
    std::vector<double> px(n), py(n), pz(n), vx(n, 0), vy(n, 0), vz(n, 0);
    for (int i = 0; i < n; i++) px[i] = pos[i].x, py[i] = pos[i].y, pz[i] = pos[i].z;
    for (int s = 0; s < steps; s++) {
        std::vector<double> nx(n), ny(n), nz(n);
        for (int i = 0; i < n; i++) {
            double ax = 0, ay = 0, az = 0;
            for (int j = 0; j < n; j++) {
                double rx = px[j] - px[i], ry = py[j] - py[i], rz = pz[j] - pz[i];
                double d = rx * rx + ry * ry + rz * rz + SOFTENING;
                double inv = 1.0 / sqrt(d);
                double sc = pos[j].w * inv * inv * inv;
                ax += rx * sc, ay += ry * sc, az += rz * sc;
            }
            vx[i] += ax * dt, vy[i] += ay * dt, vz[i] += az * dt;
            nx[i] = px[i] + vx[i] * dt, ny[i] = py[i] + vy[i] * dt, nz[i] = pz[i] + vz[i] * dt;
        }
        px = nx, py = ny, pz = nz;
    }
    int bad = 0;
    for (int i = 0; i < n; i++) {
        double e = fabs(gpu[i].x - px[i]) + fabs(gpu[i].y - py[i]) + fabs(gpu[i].z - pz[i]);
        if (e > 1e-3) {
            if (bad < 5) printf("body %d: gpu %f %f %f cpu %f %f %f\n", i, gpu[i].x, gpu[i].y, gpu[i].z, px[i], py[i], pz[i]);
            bad++;
        }
    }
    if (bad) {
        printf("FAILED nbody: %d bodies\n", bad);
        return 1;
    }
    printf("PASSED nbody\n");
    return 0;
}
