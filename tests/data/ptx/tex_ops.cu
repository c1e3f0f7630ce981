// Test kernel: texture objects. tex1Dfetch over linear memory (float4 and int texels, out of
// range reads 0) and tex2D over pitched 2-D memory with point sampling and border addressing,
// linear filtering with clamp, and normalised coordinates with wrap. Six floats per thread.
extern "C" __global__ void tex_ops(cudaTextureObject_t lin4, cudaTextureObject_t lin_int,
                                   cudaTextureObject_t img_point, cudaTextureObject_t img_linear,
                                   cudaTextureObject_t img_wrap, float* out, int n, float sx, float sy) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float4 v = tex1Dfetch<float4>(lin4, i - 3);
    const int k = tex1Dfetch<int>(lin_int, i);
    const float x = i * sx - 2.0f, y = (i % 7) * sy - 1.0f;
    float* o = out + 6 * i;
    o[0] = v.x;
    o[1] = v.y + v.w;
    o[2] = float(k);
    o[3] = tex2D<float>(img_point, x, y);
    o[4] = tex2D<float>(img_linear, x, y);
    o[5] = tex2D<float>(img_wrap, x * 0.05f, y * 0.1f);
}
