// SPDX-License-Identifier: Apache-2.0
// CPU model of a synthetic program, CTA by CTA with per-thread divergence masks.
#include "workloads/synthetic/cpu_model.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

namespace stacksim::workloads {
namespace {

uint32_t rotl(uint32_t x, uint32_t n) { return n ? (x << n) | (x >> (32 - n)) : x; }

uint32_t alu(const SynthOp& op, uint32_t v, uint32_t h) {
    switch (static_cast<SynthAlu>(op.fn)) {
    case SynthAlu::Add: return v + op.imm;
    case SynthAlu::Xor: return v ^ op.imm;
    case SynthAlu::Mul: return v * op.imm;
    case SynthAlu::MadHash: return v * op.imm + h;
    case SynthAlu::Rotate: return rotl(v, op.imm & 31);
    }
    return v;
}

/// Per-thread state of one CTA (chain values are thread-major: [t * chains + c]).
struct CtaState {
    std::vector<uint32_t> v, h, hs, e;
    std::vector<float> f, q;
};

}  // namespace

SynthOutputs run_cpu_model(const SynthProgram& p, const std::vector<uint32_t>& in, uint32_t launch) {
    if (in.size() < p.footprint_words) throw std::invalid_argument("run_cpu_model: input too small");
    if (launch >= p.salts.size()) throw std::invalid_argument("run_cpu_model: no such launch");
    const uint32_t B = p.block, D = p.chains, n = p.threads, mask = p.footprint_words - 1;
    const uint32_t salt = p.salts[launch];
    SynthOutputs o;
    o.out.assign(p.out_words(), 0);
    o.fout.assign(n, 0.0f);
    o.slots.assign(p.slot_words(), 0);

    CtaState s;
    std::vector<uint8_t> active(B);
    std::vector<uint32_t> exchange(B);
    struct Frame {
        std::vector<uint8_t> parent, cond;
    };
    std::vector<Frame> stack;

    for (uint32_t cta = 0; cta < p.grid; ++cta) {
        s.v.assign(size_t{B} * D, 0);
        s.f.assign(size_t{B} * D, 0.0f);
        s.q.assign(size_t{B} * D, 0.0f);
        s.h.assign(B, 0);
        s.hs.assign(B, 0);
        s.e.assign(B, 0);
        for (uint32_t t = 0; t < B; ++t) {
            const uint32_t g = cta * B + t, h = synth_thread_hash(g, salt);
            s.h[t] = h;
            s.hs[t] = h ^ p.hs_key;
            s.e[t] = g * p.stride;
            for (uint32_t c = 0; c < D; ++c) {
                s.v[t * D + c] = h * p.init_mul[c] + p.init_add[c];
                const uint32_t bits = ((h * p.float_mul[c]) >> 8) + kSynthFloatBase;
                float x;
                std::memcpy(&x, &bits, 4);
                s.f[t * D + c] = x;
            }
        }
        for (uint32_t it = 0; it < p.iterations; ++it) {
            active.assign(B, 1);
            stack.clear();
            for (const SynthOp& op : p.body) {
                const uint32_t c = op.chain;
                switch (op.kind) {
                case SynthOpKind::If: {
                    Frame fr{active, std::vector<uint8_t>(B)};
                    for (uint32_t t = 0; t < B; ++t) {
                        fr.cond[t] = synth_takes_then(s.hs[t], op.imm, p.div_threshold);
                        active[t] = fr.parent[t] && fr.cond[t];
                    }
                    stack.push_back(std::move(fr));
                    break;
                }
                case SynthOpKind::Else:
                    for (uint32_t t = 0; t < B; ++t)
                        active[t] = stack.back().parent[t] && !stack.back().cond[t];
                    break;
                case SynthOpKind::EndIf:
                    active = std::move(stack.back().parent);
                    stack.pop_back();
                    break;
                case SynthOpKind::Shared:  // top level only: every thread takes part
                    for (uint32_t t = 0; t < B; ++t) exchange[t] = s.v[t * D + c];
                    for (uint32_t t = 0; t < B; ++t) s.v[t * D + c] += exchange[(t + p.neighbor) % B];
                    break;
                default:
                    for (uint32_t t = 0; t < B; ++t) {
                        if (!active[t]) continue;
                        const uint32_t g = cta * B + t;
                        uint32_t& v = s.v[t * D + c];
                        switch (op.kind) {
                        case SynthOpKind::Alu: v = alu(op, v, s.h[t]); break;
                        case SynthOpKind::Load:
                            if (p.pattern == SynthPattern::Random) {
                                v += in[v & mask];
                            } else {
                                v ^= in[(s.e[t] + op.slot * n * p.stride) & mask];
                            }
                            break;
                        case SynthOpKind::Store:
                            if (g < n) o.slots[size_t{op.slot} * n + g] = v;
                            break;
                        case SynthOpKind::Sfu: {
                            float& x = s.f[t * D + c];
                            switch (static_cast<SynthSfu>(op.fn)) {
                            case SynthSfu::Sqrt: x = std::sqrt(x); break;
                            case SynthSfu::Rcp: x = 1.0f / x; break;
                            case SynthSfu::Rsqrt: x = float(1.0 / std::sqrt(double(x))); break;
                            case SynthSfu::Ex2: s.q[t * D + c] = std::exp2(x); break;
                            }
                            break;
                        }
                        default: break;
                        }
                    }
                    break;
                }
            }
            for (uint32_t t = 0; t < B; ++t) {
                s.e[t] += p.loads * n * p.stride;
                s.hs[t] = s.hs[t] * kSynthLcgMul + kSynthLcgAdd;
            }
        }
        for (uint32_t t = 0; t < B; ++t) {
            const uint32_t g = cta * B + t;
            if (g >= n) continue;
            uint32_t r = s.v[t * D];
            for (uint32_t c = 1; c < D; ++c) r ^= s.v[t * D + c];
            o.out[g] = r;
            float sum = s.f[t * D];
            for (uint32_t c = 1; c < D; ++c) sum += s.f[t * D + c];
            for (uint32_t c = 0; c < D; ++c) sum += s.q[t * D + c];
            o.fout[g] = sum;
        }
    }
    return o;
}

}  // namespace stacksim::workloads
