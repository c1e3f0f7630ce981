// Image processing: RGBA to grey, Sobel, separable Gaussian, bilinear resize, box blur with
// shared tiles, thresholding into bytes.
__global__ void rgba_to_grey(const uchar4* in, unsigned char* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        uchar4 p = in[i];
        out[i] = (unsigned char)(0.299f * p.x + 0.587f * p.y + 0.114f * p.z);
    }
}
__global__ void sobel(const unsigned char* in, unsigned char* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) return;
    int gx = -in[(y - 1) * w + x - 1] - 2 * in[y * w + x - 1] - in[(y + 1) * w + x - 1] + in[(y - 1) * w + x + 1] + 2 * in[y * w + x + 1] + in[(y + 1) * w + x + 1];
    int gy = -in[(y - 1) * w + x - 1] - 2 * in[(y - 1) * w + x] - in[(y - 1) * w + x + 1] + in[(y + 1) * w + x - 1] + 2 * in[(y + 1) * w + x] + in[(y + 1) * w + x + 1];
    out[y * w + x] = (unsigned char)min(255, abs(gx) + abs(gy));
}
__global__ void gauss_row(const float* in, float* out, const float* k, int w, int h, int r) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= w) return;
    float s = 0.f;
    for (int d = -r; d <= r; ++d) s += k[d + r] * in[y * w + min(max(x + d, 0), w - 1)];
    out[y * w + x] = s;
}
__global__ void resize_bilinear(const float* in, float* out, int iw, int ih, int ow, int oh) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= ow || y >= oh) return;
    float fx = (x + 0.5f) * iw / ow - 0.5f, fy = (y + 0.5f) * ih / oh - 0.5f;
    int x0 = max(0, (int)floorf(fx)), y0 = max(0, (int)floorf(fy));
    int x1 = min(x0 + 1, iw - 1), y1 = min(y0 + 1, ih - 1);
    float ax = fx - x0, ay = fy - y0;
    out[y * ow + x] = (1 - ay) * ((1 - ax) * in[y0 * iw + x0] + ax * in[y0 * iw + x1]) + ay * ((1 - ax) * in[y1 * iw + x0] + ax * in[y1 * iw + x1]);
}
__global__ void box_blur_tiled(const float* in, float* out, int w, int h) {
    __shared__ float tile[18][18];
    int x = blockIdx.x * 16 + threadIdx.x - 1, y = blockIdx.y * 16 + threadIdx.y - 1;
    tile[threadIdx.y][threadIdx.x] = in[min(max(y, 0), h - 1) * w + min(max(x, 0), w - 1)];
    __syncthreads();
    if (threadIdx.x >= 1 && threadIdx.x <= 16 && threadIdx.y >= 1 && threadIdx.y <= 16 && x < w && y < h) {
        float s = 0.f;
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) s += tile[threadIdx.y + dy][threadIdx.x + dx];
        out[y * w + x] = s / 9.f;
    }
}
__global__ void threshold(const float* in, unsigned char* out, float t, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] > t ? 255 : 0;
}
