// SPDX-License-Identifier: Apache-2.0
// Where kernels' code lives in device memory (I-cache fills are sim::TrafficClass::Instruction).
#pragma once
#include <cstdint>

namespace stacksim::common {


/// Start of the code area. A kernel's code (its code identity) has its own 16 MiB window
/// there, at kCodeAreaBase + (code id << 24); instruction addresses inside it are the PTX
/// index times gpu.sm.instruction_bytes, or the traced PC.
constexpr uint64_t kCodeAreaBase = 0xD000'0000'0000;

}  // namespace stacksim::common
