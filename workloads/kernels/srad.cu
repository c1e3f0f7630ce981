// SPDX-License-Identifier: Apache-2.0
// srad: Rodinia SRAD (v2), speckle-reducing anisotropic diffusion of an n x n image; each
// iteration is srad_cuda_1 (derivatives and diffusion coefficient) then srad_cuda_2 (update),
// both on 16 x 16 shared-memory tiles. Differences from Rodinia: the halo loads are selected
// before reading (Rodinia reads out of bounds, then overwrites), and its double literals are
// float literals.
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3` (see regen_ptx.sh).
// Plain CUDA C only: no calls, no local memory, no warp intrinsics.

#define SR_BS 16

// Block (16,16), grid (cols/16, rows/16).
extern "C" __global__ void srad_cuda_1(float* E_C, float* W_C, float* N_C, float* S_C,
                                       const float* J_cuda, float* C_cuda, int cols, int rows,
                                       float q0sqr)
{
    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int base = cols * SR_BS * by + SR_BS * bx;
    int index = base + cols * ty + tx;
    int index_n = by == 0 ? SR_BS * bx + tx : base + tx - cols;
    int index_s = by == gridDim.y - 1 ? base + cols * (SR_BS - 1) + tx : base + cols * SR_BS + tx;
    int index_w = bx == 0 ? base + cols * ty : base + cols * ty - 1;
    int index_e = bx == gridDim.x - 1 ? base + cols * ty + SR_BS - 1 : base + cols * ty + SR_BS;
    float n, w, e, s, jc, g2, l, num, den, qsqr, c;
    __shared__ float temp[SR_BS][SR_BS];
    __shared__ float temp_result[SR_BS][SR_BS];
    __shared__ float north[SR_BS][SR_BS];
    __shared__ float south[SR_BS][SR_BS];
    __shared__ float east[SR_BS][SR_BS];
    __shared__ float west[SR_BS][SR_BS];
    north[ty][tx] = J_cuda[index_n];
    south[ty][tx] = J_cuda[index_s];
    __syncthreads();
    west[ty][tx] = J_cuda[index_w];
    east[ty][tx] = J_cuda[index_e];
    __syncthreads();
    temp[ty][tx] = J_cuda[index];
    __syncthreads();
    jc = temp[ty][tx];
    n = (ty == 0 ? north[ty][tx] : temp[ty - 1][tx]) - jc;
    s = (ty == SR_BS - 1 ? south[ty][tx] : temp[ty + 1][tx]) - jc;
    w = (tx == 0 ? west[ty][tx] : temp[ty][tx - 1]) - jc;
    e = (tx == SR_BS - 1 ? east[ty][tx] : temp[ty][tx + 1]) - jc;
    g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
    l = (n + s + w + e) / jc;
    num = (0.5f * g2) - ((1.0f / 16.0f) * (l * l));
    den = 1 + (.25f * l);
    qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
    c = 1.0f / (1.0f + den);
    if (c < 0) {
        temp_result[ty][tx] = 0;
    } else if (c > 1) {
        temp_result[ty][tx] = 1;
    } else {
        temp_result[ty][tx] = c;
    }
    __syncthreads();
    C_cuda[index] = temp_result[ty][tx];
    E_C[index] = e;
    W_C[index] = w;
    S_C[index] = s;
    N_C[index] = n;
}

// Block (16,16), grid (cols/16, rows/16).
extern "C" __global__ void srad_cuda_2(const float* E_C, const float* W_C, const float* N_C,
                                       const float* S_C, float* J_cuda, const float* C_cuda,
                                       int cols, int rows, float lambda, float q0sqr)
{
    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int base = cols * SR_BS * by + SR_BS * bx;
    int index = base + cols * ty + tx;
    int index_s = by == gridDim.y - 1 ? base + cols * (SR_BS - 1) + tx : base + cols * SR_BS + tx;
    int index_e = bx == gridDim.x - 1 ? base + cols * ty + SR_BS - 1 : base + cols * ty + SR_BS;
    float cc, cn, cs, ce, cw, d_sum;
    __shared__ float south_c[SR_BS][SR_BS];
    __shared__ float east_c[SR_BS][SR_BS];
    __shared__ float c_cuda_temp[SR_BS][SR_BS];
    __shared__ float c_cuda_result[SR_BS][SR_BS];
    __shared__ float temp[SR_BS][SR_BS];
    temp[ty][tx] = J_cuda[index];
    __syncthreads();
    south_c[ty][tx] = C_cuda[index_s];
    __syncthreads();
    east_c[ty][tx] = C_cuda[index_e];
    __syncthreads();
    c_cuda_temp[ty][tx] = C_cuda[index];
    __syncthreads();
    cc = c_cuda_temp[ty][tx];
    cn = cc;
    cw = cc;
    cs = ty == SR_BS - 1 ? south_c[ty][tx] : c_cuda_temp[ty + 1][tx];
    ce = tx == SR_BS - 1 ? east_c[ty][tx] : c_cuda_temp[ty][tx + 1];
    d_sum = cn * N_C[index] + cs * S_C[index] + cw * W_C[index] + ce * E_C[index];
    c_cuda_result[ty][tx] = temp[ty][tx] + 0.25f * lambda * d_sum;
    __syncthreads();
    J_cuda[index] = c_cuda_result[ty][tx];
}
