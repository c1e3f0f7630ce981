// SPDX-License-Identifier: Apache-2.0
// lps: Laplace 3D solver (GPGPU-Sim benchmark suite, M. Giles' laplace3d): one Jacobi sweep.
// Generated PTX: `nvcc -ptx -arch=sm_75 -O3 -o lps.ptx lps.cu` (see regen_ptx.sh).

// Launch with block (32,4) over nx x ny; each thread walks its (i, j) column through k.
// Boundary points are copied; interior points become the mean of their six neighbours.
extern "C" __global__ void laplace3d(int nx, int ny, int nz, const float* u1, float* u2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= nx || j >= ny) return;
    const float sixth = 1.0f / 6.0f;
    long joff = nx;
    long koff = (long)nx * ny;
    long indg = i + j * joff;
    for (int k = 0; k < nz; ++k) {
        float u3;
        if (i == 0 || i == nx - 1 || j == 0 || j == ny - 1 || k == 0 || k == nz - 1) {
            u3 = u1[indg];
        } else {
            u3 = (u1[indg - 1] + u1[indg + 1] + u1[indg - joff] + u1[indg + joff] + u1[indg - koff] +
                  u1[indg + koff]) * sixth;
        }
        u2[indg] = u3;
        indg += koff;
    }
}
