// SPDX-License-Identifier: Apache-2.0
// Abstract synthetic program: a seeded list of ops generated from a SyntheticConfig.
#pragma once
#include <cstdint>
#include <vector>

#include "workloads/synthetic/synthetic_config.h"

namespace stacksim::workloads {

/// What one body op does. If/Else/EndIf delimit a divergent region (properly nested).
enum class SynthOpKind : uint8_t { Alu, Sfu, Load, Store, Shared, If, Else, EndIf };

/// uint32 ALU functions on an integer chain `v` (wrapping): v+imm, v^imm, v*imm, v*imm+h
/// (h = the thread hash), rotate-left(v, imm).
enum class SynthAlu : uint8_t { Add, Xor, Mul, MadHash, Rotate };

/// SFU functions on a float chain `f` in [1/4, 4]: f = sqrt(f), f = 1/f, f = 1/sqrt(f), and
/// q = ex2(f) into the chain's sink register `q` (the chain itself is left unchanged).
enum class SynthSfu : uint8_t { Sqrt, Rcp, Rsqrt, Ex2 };

/// The memory pattern of the global loads.
enum class SynthPattern : uint8_t { Coalesced, Strided, Random, Reuse };

/// One op of the loop body.
struct SynthOp {
    SynthOpKind kind = SynthOpKind::Alu;
    uint8_t fn = 0;      ///< SynthAlu or SynthSfu
    uint32_t chain = 0;  ///< integer chain (Alu/Load/Store/Shared) or float chain (Sfu)
    uint32_t imm = 0;    ///< Alu operand; If: the region's hash key
    uint32_t slot = 0;   ///< Load/Store/Shared: index among ops of its kind; If/Else/EndIf: region
};

/// A generated program: the loop body plus every constant the PTX and the CPU model share.
struct SynthProgram {
    SynthPattern pattern = SynthPattern::Coalesced;
    uint32_t chains = 1;        ///< dependency distance = number of integer (and float) chains
    uint32_t iterations = 1;
    uint32_t threads = 1;       ///< active threads n (gtid >= n computes but does not store)
    uint32_t grid = 1, block = 1;
    uint32_t stride = 1;        ///< element stride of the load index (1 unless strided)
    uint32_t footprint_words = 32;  ///< input array words (power of two); indices wrap
    uint64_t div_threshold = 0; ///< a lane takes `then` when hash < threshold (2^32 = always)
    uint32_t neighbor = 0;      ///< shared exchange: thread t reads thread (t + neighbor) % block
    uint32_t hs_key = 0;        ///< divergence hash state = thread hash ^ hs_key
    std::vector<uint32_t> salts;  ///< per launch (two for reuse): thread hash = mix(gtid ^ salt)
    std::vector<uint32_t> init_mul, init_add, float_mul;  ///< per-chain initialisation constants
    std::vector<SynthOp> body;

    // Op counts of the body (each op's primary instruction; see docs/synthetic.md).
    uint32_t alu_ops = 0, sfu_ops = 0, loads = 0, stores = 0, shared_ops = 0, regions = 0;

    uint32_t launches() const { return pattern == SynthPattern::Reuse ? 2u : 1u; }
    uint64_t total_threads() const { return uint64_t{grid} * block; }
    /// Words of the per-launch store-slot array (at least one).
    uint64_t slot_words() const { return uint64_t{stores ? stores : 1} * threads; }
    /// Words of the per-launch result array: max(threads, footprint) so reuse can read it.
    uint64_t out_words() const { return threads > footprint_words ? threads : footprint_words; }
};

/// Constants of the generated code shared by the emitter and the CPU model.
inline constexpr uint32_t kSynthHashMul1 = 0x9E3779B1u, kSynthHashMul2 = 0x85EBCA6Bu;
inline constexpr uint32_t kSynthLcgMul = 1664525u, kSynthLcgAdd = 1013904223u;
inline constexpr uint32_t kSynthFloatBase = 0x3E800000u;  ///< 0.25f; + up to 2^24 -> [0.25, 1)

/// Splits `total` ops into alu/sfu/memory/store/shared counts by largest remainder (ties to
/// the earlier kind), in that order.
std::vector<uint32_t> apportion_mix(const SyntheticConfig& cfg, uint32_t total);

/// Generates the program for `threads` active threads (grid = ceil(threads / block)) from a
/// validated config and a seed. Same inputs, same program.
SynthProgram generate_program(const SyntheticConfig& cfg, uint32_t threads, uint64_t seed);

/// The thread hash of global thread `gtid` for `salt` (identical to the PTX prologue).
inline uint32_t synth_thread_hash(uint32_t gtid, uint32_t salt) {
    uint32_t h = (gtid ^ salt) * kSynthHashMul1;
    h ^= h >> 16;
    h *= kSynthHashMul2;
    h ^= h >> 13;
    return h;
}

/// Whether a lane with divergence state `hs` takes the `then` path of region key `key`.
inline bool synth_takes_then(uint32_t hs, uint32_t key, uint64_t threshold) {
    return uint64_t{(hs ^ key) * kSynthHashMul1} < threshold;
}

}  // namespace stacksim::workloads
