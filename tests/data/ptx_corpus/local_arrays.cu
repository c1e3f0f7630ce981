// Per-thread arrays: indexed at run time (local memory), sorted in registers, small stacks.
__global__ void local_sort8(const int* in, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v[8];
    for (int k = 0; k < 8; ++k) v[k] = in[i * 8 + k];
    for (int a = 1; a < 8; ++a) {
        int x = v[a], b = a - 1;
        while (b >= 0 && v[b] > x) { v[b + 1] = v[b]; --b; }
        v[b + 1] = x;
    }
    for (int k = 0; k < 8; ++k) out[i * 8 + k] = v[k];
}
__global__ void local_histogram(const unsigned char* in, int* out, int n) {
    int h[16] = {0};
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = i; k < n; k += gridDim.x * blockDim.x) h[in[k] & 15]++;
    for (int b = 0; b < 16; ++b) atomicAdd(&out[b], h[b]);
}
__global__ void unrolled_registers(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float r[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) r[k] = in[i * 4 + k];
    out[i] = r[0] * r[3] - r[1] * r[2];
}
__global__ void stack_dfs(const int* child, int* depth_out, int nodes) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nodes) return;
    int stack[32], sp = 0, maxd = 0;
    stack[sp++] = i;
    int d = 0;
    while (sp > 0 && sp < 32) {
        int node = stack[--sp];
        ++d;
        if (d > maxd) maxd = d;
        int c = child[node];
        if (c >= 0 && c < nodes && d < 30) stack[sp++] = c;
    }
    depth_out[i] = maxd;
}
