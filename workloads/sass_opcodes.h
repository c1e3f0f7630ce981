// SPDX-License-Identifier: Apache-2.0
// SASS opcode classification per GPU architecture family, for Accel-Sim trace input.
#pragma once
#include <cstdint>
#include <string_view>

#include "core/instruction.h"
#include "core/op_table.h"

namespace stacksim::workloads {

/// ISA family selected by a trace's `-binary version` (Accel-Sim's ISA_Def tables).
enum class SassFamily : uint8_t { Pascal, Volta, Turing, Ampere, Hopper };

/// Memory behaviour of an opcode (TraceInstruction::is_load / is_store / is_atomic).
enum class SassMemKind : uint8_t { None, Load, Store, Atomic };

/// State space of a memory opcode before address resolution. Generic (LD/ST) is resolved per
/// dynamic instance from the kernel's shared-memory window; Local is reported as Global.
enum class SassSpace : uint8_t { None, Global, Shared, Local, Generic };

/// One row of the SASS opcode table.
struct SassOpcode {
    const core::OpInfo* info;  ///< name = base opcode, unit, control; exec = nullptr
    SassMemKind mem;
    SassSpace space;
};

/// The family of compute capability `binary_version` (60/61 Pascal, 70 Volta, 75 Turing,
/// 80/86 Ampere, 90 Hopper, as accepted by Accel-Sim); false if unsupported.
bool sass_family_of(uint32_t binary_version, SassFamily& family);

/// Printable family name ("Pascal", ...).
const char* sass_family_name(SassFamily family);

/// The row of `base_opcode` (the text before the first '.', e.g. "XMAD" of "XMAD.PSL.CBCC")
/// in `family`'s table, or nullptr if that family has no such opcode.
const SassOpcode* find_sass_opcode(SassFamily family, std::string_view base_opcode);

/// For an opcode of `family` that Accel-Sim's map knows but stacksim does not model (Hopper's
/// TMA, mbarrier, cluster-barrier and warpgroup-MMA instructions), what it is ("TMA bulk
/// copy", ...); nullptr otherwise.
const char* sass_unsupported_reason(SassFamily family, std::string_view base_opcode);

/// Access width in bytes (per lane) named by the modifiers of `opcode` ("LDG.E.128" -> 16,
/// "LDS.U8" -> 1, "LDG.E.S16" -> 2), or 0 if no modifier gives a width. Follows Accel-Sim's
/// get_datawidth_from_opcode (first all-digit or U<bits> token), plus S<bits>.
unsigned sass_width_from_modifiers(std::string_view opcode);

/// Dense scoreboard register ids for SASS register names. R0..R254 -> 0..254,
/// UR0..UR62 -> 256..318, P0..P6 -> 320..326, UP0..UP6 -> 328..334; RZ (R255), URZ (UR63),
/// PT (P7) and UPT (UP7) are constants and map to core::kNoReg.
constexpr uint16_t kSassUniformBase = 256, kSassPredBase = 320, kSassUniformPredBase = 328;
constexpr uint32_t kSassGprCount = 256;   ///< TraceKernel::num_regs when only R registers appear
constexpr uint32_t kSassRegSpace = 336;   ///< TraceKernel::num_regs when UR/P/UP registers appear

/// Parses a register token ("R12", "RZ", "UR4", "P0", "PT", "UP1"): true and `id` (kNoReg for
/// the zero/true registers) on success, false if `token` is not a register name.
bool parse_sass_register(std::string_view token, uint16_t& id);

}  // namespace stacksim::workloads
