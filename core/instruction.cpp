// SPDX-License-Identifier: Apache-2.0
// Instruction helpers: type sizes, pipeline/control classification, register lists.
#include "core/instruction.h"

#include "core/op_table.h"

namespace stacksim::core {

unsigned type_bytes(DataType t) {
    switch (t) {
    case DataType::B8: case DataType::U8: case DataType::S8: case DataType::Pred: return 1;
    case DataType::B16: case DataType::U16: case DataType::S16: case DataType::F16: return 2;
    case DataType::B32: case DataType::U32: case DataType::S32: case DataType::F32: return 4;
    case DataType::B64: case DataType::U64: case DataType::S64: case DataType::F64: return 8;
    case DataType::BF16: return 2;
    case DataType::F16x2: case DataType::BF16x2: return 4;
    case DataType::None: return 0;
    }
    return 0;
}

// Refinements of the table's unit: ld.param reads the constant bank, so it issues to the ALU
// pipe and is not a memory access; div.approx.f32 is an SFU reciprocal + multiply; f64
// arithmetic and conversions from or to f64 use the FP64 pipes.
UnitClass Instruction::unit() const {
    if (!info) return UnitClass::Alu;
    if ((info->form == OpForm::Load || info->form == OpForm::Store) && space == StateSpace::Param) return UnitClass::Alu;
    if (approx && type == DataType::F32 && info->name == "div") return UnitClass::Sfu;
    // Double-precision arithmetic runs on the FP64 pipes (a fraction of the FP32 rate).
    if (info->unit == UnitClass::Alu && info->form != OpForm::Load &&
        (type == DataType::F64 || src_type == DataType::F64))
        return UnitClass::Fp64;
    return info->unit;
}

ControlKind Instruction::control() const { return info ? info->control : ControlKind::None; }

const char* Instruction::name() const { return info ? info->name.data() : "?"; }

void Instruction::finalize_registers() {
    num_reads = 0;
    num_writes = 0;
    auto add_read = [&](uint16_t r) {
        if (r == kNoReg || num_reads >= reads.size()) return;
        for (unsigned i = 0; i < num_reads; ++i)
            if (reads[i] == r) return;
        reads[num_reads++] = r;
    };
    auto add_write = [&](uint16_t r) {
        if (r == kNoReg || num_writes >= writes.size()) return;
        for (unsigned i = 0; i < num_writes; ++i)
            if (writes[i] == r) return;
        writes[num_writes++] = r;
    };
    for (unsigned i = 0; i < num_src; ++i) {
        const Operand& o = src[i];
        if (o.kind == Operand::Kind::Reg || o.kind == Operand::Kind::Addr) add_read(o.reg);
        if (o.kind == Operand::Kind::Vector)
            for (unsigned k = 0; k < o.vec_len; ++k) add_read(o.vec[k]);
    }
    add_read(guard);
    for (unsigned i = 0; i < num_dst; ++i) {
        const Operand& o = dst[i];
        if (o.kind == Operand::Kind::Reg) add_write(o.reg);
        if (o.kind == Operand::Kind::Vector)
            for (unsigned k = 0; k < o.vec_len; ++k) add_write(o.vec[k]);
        if (o.kind == Operand::Kind::Addr) add_read(o.reg);
    }
}

}  // namespace stacksim::core
