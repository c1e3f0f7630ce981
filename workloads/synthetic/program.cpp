// SPDX-License-Identifier: Apache-2.0
// Seeded generation of the abstract synthetic program (op mix, order, chains, regions).
#include "workloads/synthetic/program.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "workloads/host_data.h"

namespace stacksim::workloads {
namespace {

SynthPattern parse_pattern(const std::string& p) {
    if (p == "strided") return SynthPattern::Strided;
    if (p == "random") return SynthPattern::Random;
    if (p == "reuse") return SynthPattern::Reuse;
    return SynthPattern::Coalesced;
}

uint32_t rand32(SplitMix64& rng) { return static_cast<uint32_t>(rng.next() >> 32); }

/// A body op of `kind` with random function and operand.
SynthOp make_op(SynthOpKind kind, SplitMix64& rng) {
    SynthOp op;
    op.kind = kind;
    if (kind == SynthOpKind::Alu) {
        const auto fn = static_cast<SynthAlu>(rng.next_below(5));
        op.fn = static_cast<uint8_t>(fn);
        op.imm = rand32(rng);
        if (fn == SynthAlu::Mul || fn == SynthAlu::MadHash) op.imm |= 1u;  // keep v bijective
        if (fn == SynthAlu::Rotate) op.imm = 1 + rng.next_below(31);
    } else if (kind == SynthOpKind::Sfu) {
        op.fn = static_cast<uint8_t>(rng.next_below(4));
    }
    return op;
}

/// Places `ops` (shuffled, any kinds) into top-level code with one nested divergent region
/// of `depth` levels holding about 2*depth/(2*depth+2) of the non-shared ops: P, if1 { T1,
/// if2 { T2 ... } else { E2 } } else { E1 }, S. Shared ops (with bar.sync) stay top level.
std::vector<SynthOp> place_regions(const std::vector<SynthOp>& ops, uint32_t depth,
                                   SplitMix64& rng, uint32_t& regions) {
    regions = 0;
    if (depth == 0) return ops;
    uint32_t movable = 0;
    for (const auto& op : ops) movable += op.kind != SynthOpKind::Shared;
    const uint32_t in_region = static_cast<uint32_t>(
        std::lround(double(movable) * (2.0 * depth) / (2.0 * depth + 2.0)));
    const uint32_t before = (movable - in_region) / 2;

    std::vector<SynthOp> pre, reg, post;
    uint32_t rank = 0;
    for (const auto& op : ops) {
        if (op.kind == SynthOpKind::Shared) {
            (rank < before ? pre : post).push_back(op);
            continue;
        }
        if (rank < before) pre.push_back(op);
        else if (rank < before + in_region) reg.push_back(op);
        else post.push_back(op);
        ++rank;
    }
    // Region blocks in emission order: T1..TD, ED..E1; chunk c gets [c*n/2D, (c+1)*n/2D).
    const uint32_t blocks = 2 * depth;
    auto chunk = [&](uint32_t c, std::vector<SynthOp>& out) {
        const size_t lo = size_t{c} * reg.size() / blocks, hi = size_t{c + 1} * reg.size() / blocks;
        out.insert(out.end(), reg.begin() + long(lo), reg.begin() + long(hi));
    };
    std::vector<SynthOp> body = std::move(pre);
    for (uint32_t level = 0; level < depth; ++level) {
        SynthOp open;
        open.kind = SynthOpKind::If;
        open.slot = level;
        open.imm = rand32(rng);
        body.push_back(open);
        chunk(level, body);
    }
    for (uint32_t level = depth; level-- > 0;) {
        SynthOp mark;
        mark.kind = SynthOpKind::Else;
        mark.slot = level;
        body.push_back(mark);
        chunk(blocks - 1 - level, body);
        mark.kind = SynthOpKind::EndIf;
        body.push_back(mark);
    }
    body.insert(body.end(), post.begin(), post.end());
    regions = depth;
    return body;
}

}  // namespace

std::vector<uint32_t> apportion_mix(const SyntheticConfig& cfg, uint32_t total) {
    const double f[5] = {cfg.alu_fraction, cfg.sfu_fraction, cfg.memory_fraction,
                         cfg.store_fraction, cfg.shared_fraction};
    double sum = 0;
    for (double x : f) sum += x;
    std::vector<uint32_t> n(5);
    std::vector<std::pair<double, int>> rest;
    uint32_t given = 0;
    for (int i = 0; i < 5; ++i) {
        const double want = sum > 0 ? f[i] / sum * total : 0.0;
        n[size_t(i)] = static_cast<uint32_t>(std::floor(want + 1e-9));
        given += n[size_t(i)];
        rest.push_back({want - n[size_t(i)], -i});
    }
    std::sort(rest.begin(), rest.end(), std::greater<>());
    for (size_t k = 0; given < total && k < rest.size(); ++k, ++given) ++n[size_t(-rest[k].second)];
    return n;
}

SynthProgram generate_program(const SyntheticConfig& cfg, uint32_t threads, uint64_t seed) {
    SplitMix64 rng(seed ^ 0x5ca1ab1e0ddba11ull);
    SynthProgram p;
    p.pattern = parse_pattern(cfg.pattern);
    p.chains = cfg.dependency_distance;
    p.iterations = cfg.iterations;
    p.block = cfg.block;
    p.threads = threads ? threads : cfg.grid * cfg.block;
    p.grid = (p.threads + p.block - 1) / p.block;
    p.stride = p.pattern == SynthPattern::Strided ? cfg.stride_elements : 1;
    p.footprint_words = static_cast<uint32_t>(cfg.footprint_bytes / 4);
    p.div_threshold = static_cast<uint64_t>(std::llround(cfg.divergence_probability * 4294967296.0));
    p.neighbor = p.block > 1 ? 1 + rng.next_below(p.block - 1) : 0;
    p.hs_key = rand32(rng);
    for (uint32_t l = 0; l < p.launches(); ++l) p.salts.push_back(rand32(rng));
    for (uint32_t c = 0; c < p.chains; ++c) {
        p.init_mul.push_back(rand32(rng) | 1u);
        p.init_add.push_back(rand32(rng));
        p.float_mul.push_back(rand32(rng) | 1u);
    }

    const std::vector<uint32_t> mix = apportion_mix(cfg, cfg.body_instructions);
    const SynthOpKind kinds[5] = {SynthOpKind::Alu, SynthOpKind::Sfu, SynthOpKind::Load,
                                  SynthOpKind::Store, SynthOpKind::Shared};
    std::vector<SynthOp> ops;
    for (int k = 0; k < 5; ++k)
        for (uint32_t i = 0; i < mix[size_t(k)]; ++i) ops.push_back(make_op(kinds[k], rng));
    for (size_t i = ops.size(); i > 1; --i) std::swap(ops[i - 1], ops[rng.next_below(i)]);
    p.body = place_regions(ops, cfg.divergence_depth, rng, p.regions);

    // Chains and slots in program order: an op reads the value written `chains` ops of its
    // stream (integer or float) earlier.
    uint32_t int_pos = 0, float_pos = 0;
    for (auto& op : p.body) {
        switch (op.kind) {
        case SynthOpKind::Alu: ++p.alu_ops; op.chain = int_pos++ % p.chains; break;
        case SynthOpKind::Sfu: ++p.sfu_ops; op.chain = float_pos++ % p.chains; break;
        case SynthOpKind::Load: op.slot = p.loads++; op.chain = int_pos++ % p.chains; break;
        case SynthOpKind::Store: op.slot = p.stores++; op.chain = int_pos++ % p.chains; break;
        case SynthOpKind::Shared: op.slot = p.shared_ops++; op.chain = int_pos++ % p.chains; break;
        default: break;
        }
    }
    return p;
}

}  // namespace stacksim::workloads
