// SPDX-License-Identifier: Apache-2.0
// blackscholes: the CUDA SDK BlackScholes sample, European call and put prices with the
// polynomial approximation of the normal CDF; two options per thread through float2 loads,
// with the SDK's fast intrinsics (__expf, __logf, __fdividef, rsqrtf: SFU instructions).
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3` (see regen_ptx.sh).
// Plain CUDA C only: no calls, no local memory, no warp intrinsics.

__device__ inline float cndGPU(float d)
{
    const float A1 = 0.31938153f;
    const float A2 = -0.356563782f;
    const float A3 = 1.781477937f;
    const float A4 = -1.821255978f;
    const float A5 = 1.330274429f;
    const float RSQRT2PI = 0.39894228040143267793994605993438f;
    float K = __fdividef(1.0f, (1.0f + 0.2316419f * fabsf(d)));
    float cnd = RSQRT2PI * __expf(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
    if (d > 0) cnd = 1.0f - cnd;
    return cnd;
}

__device__ inline void BlackScholesBodyGPU(float& CallResult, float& PutResult, float S, float X,
                                           float T, float R, float V)
{
    float sqrtT = __fdividef(1.0f, rsqrtf(T));
    float d1 = __fdividef(__logf(S / X) + (R + 0.5f * V * V) * T, V * sqrtT);
    float d2 = d1 - V * sqrtT;
    float CNDD1 = cndGPU(d1);
    float CNDD2 = cndGPU(d2);
    float expRT = __expf(-R * T);
    CallResult = S * CNDD1 - X * expRT * CNDD2;
    PutResult = X * expRT * (1.0f - CNDD2) - S * (1.0f - CNDD1);
}

// Block 128, grid ceil(optN/2 / 128); optN must be even.
extern "C" __global__ void BlackScholesGPU(float2* __restrict__ d_CallResult, float2* __restrict__ d_PutResult,
                                           const float2* __restrict__ d_StockPrice,
                                           const float2* __restrict__ d_OptionStrike,
                                           const float2* __restrict__ d_OptionYears, float Riskfree,
                                           float Volatility, int optN)
{
    const int opt = blockDim.x * blockIdx.x + threadIdx.x;
    if (opt < (optN / 2)) {
        float callResult1, callResult2;
        float putResult1, putResult2;
        BlackScholesBodyGPU(callResult1, putResult1, d_StockPrice[opt].x, d_OptionStrike[opt].x,
                            d_OptionYears[opt].x, Riskfree, Volatility);
        BlackScholesBodyGPU(callResult2, putResult2, d_StockPrice[opt].y, d_OptionStrike[opt].y,
                            d_OptionYears[opt].y, Riskfree, Volatility);
        d_CallResult[opt] = make_float2(callResult1, callResult2);
        d_PutResult[opt] = make_float2(putResult1, putResult2);
    }
}
