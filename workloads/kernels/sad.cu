// SPDX-License-Identifier: Apache-2.0
// sad: Parboil SAD (motion estimation), sums of absolute differences of 4x4 blocks over a search window.
// Generated PTX: `nvcc -ptx -arch=sm_75 -O3 -o sad.ptx sad.cu` (see regen_ptx.sh). Parboil's
// mb_sad_calc with the reference frame read through global memory instead of a texture
// (coordinates clamped to the frame, as the texture's clamp addressing does).

// One thread per (4x4 macroblock, search position): positions = (2r+1)^2, macroblock =
// thread / positions. sads[mb * positions + pos] = sum |cur - ref(shifted)| over the block.
// Frames are w x h 16-bit pixels, w and h multiples of 4.
extern "C" __global__ void mb_sad_calc(const unsigned short* cur, const unsigned short* ref,
                                       unsigned short* sads, int w, int h, int r)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int side = 2 * r + 1;
    int positions = side * side;
    int mbs_x = w / 4;
    int mbs = mbs_x * (h / 4);
    if (t >= mbs * positions) return;
    int mb = t / positions;
    int pos = t - mb * positions;
    int dy = pos / side - r;
    int dx = pos - (pos / side) * side - r;
    int x0 = (mb % mbs_x) * 4;
    int y0 = (mb / mbs_x) * 4;
    unsigned int sum = 0;
    for (int y = 0; y < 4; ++y) {
        int ry = min(max(y0 + y + dy, 0), h - 1);
        for (int x = 0; x < 4; ++x) {
            int rx = min(max(x0 + x + dx, 0), w - 1);
            int a = cur[(y0 + y) * w + x0 + x];
            int b = ref[ry * w + rx];
            sum += (unsigned int)abs(a - b);
        }
    }
    sads[t] = (unsigned short)sum;
}
