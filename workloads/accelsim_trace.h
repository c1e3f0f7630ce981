// SPDX-License-Identifier: Apache-2.0
// Reader for Accel-Sim SASS traces (.traceg files, tracer versions 3-5).
#pragma once
#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/trace_kernel.h"
#include "workloads/sass_opcodes.h"

namespace stacksim::workloads {

/// The `-key = value` header of a .traceg file.
struct TraceHeader {
    std::string kernel_name;
    uint32_t kernel_id = 0;
    std::array<uint32_t, 3> grid{0, 0, 0};
    std::array<uint32_t, 3> block{0, 0, 0};
    uint32_t shmem_bytes = 0;
    uint32_t nregs = 0;
    uint32_t binary_version = 0;
    uint64_t cuda_stream_id = 0;
    uint64_t shmem_base_addr = 0;  ///< generic addresses in [shmem_base, local_base) are shared
    uint64_t local_base_addr = 0;
    std::string nvbit_version;
    uint32_t tracer_version = 0;   ///< 3, 4 or 5 (5 adds a trailing immediate per instruction)
    bool lineinfo = false;         ///< instruction lines start with a source line number
    SassFamily family = SassFamily::Pascal;
    uint32_t warps_per_cta = 0;    ///< ceil(block threads / 32)
    bool name_is_path = false;     ///< no (or an empty) `-kernel name`: kernel_name is the path
};

/// Streaming .traceg reader: the constructor reads the header into `kernel`, next_cta() reads
/// one `#BEGIN_TB ... #END_TB` block at a time. Static instructions are deduplicated per
/// (PC, opcode, registers, resolved space) into `kernel.static_insts`, so `kernel` must
/// outlive the CTAs read. Every error throws sim::InputError("FILE:LINE: message 'token'").
class TracegReader {
public:
    TracegReader(const std::string& path, core::TraceKernel& kernel);
    /// Reads the trace from `text` (the whole file's content, which must outlive the reader);
    /// `path` names it in errors and in the kernel. Results and errors are those of the file.
    TracegReader(const std::string& path, core::TraceKernel& kernel, std::string_view text);
    ~TracegReader();
    TracegReader(const TracegReader&) = delete;
    TracegReader& operator=(const TracegReader&) = delete;

    const TraceHeader& header() const { return m_header; }
    /// Reads the next CTA into `cta` (cleared first); false at end of file.
    bool next_cta(core::CtaTrace& cta);
    /// Dynamic warp instructions read so far.
    uint64_t instructions_read() const { return m_dyn_insts; }

private:
    struct StaticKey;
    struct Span;
    struct Signature;
    void start();
    void refill();
    bool read_line();
    [[noreturn]] void fail(const std::string& msg, std::string_view token = {}) const;
    void read_header();
    void parse_header_line(std::string_view key, std::string_view value);
    void parse_instruction_tokens(core::WarpTrace& warp, const std::string_view* tok, size_t n);
    Signature& signature(uint32_t pc, const std::string_view* tok, size_t n, size_t& i);
    const core::Instruction* intern(uint32_t pc, std::string_view opcode, const SassOpcode& op,
                                    core::StateSpace space, const uint16_t* regs,
                                    const std::string_view* names, unsigned nd, unsigned ns);

    std::string m_path;
    std::shared_ptr<const std::string> m_file_name;
    core::TraceKernel& m_kernel;
    TraceHeader m_header;
    std::FILE* m_fp = nullptr;
    std::vector<char> m_buf;
    std::string_view m_text;         // in-memory input (m_in_memory)
    size_t m_text_pos = 0;
    bool m_in_memory = false;
    const char* m_data = nullptr;    // the current window: m_buf, or a slice of m_text
    size_t m_buf_pos = 0, m_buf_len = 0;
    bool m_eof = false;
    std::string m_long_line;         // a line that straddles buffer refills
    std::string_view m_line;         // current line, without the newline
    uint32_t m_line_no = 0;
    bool m_pending = false;          // m_line holds a line not yet consumed (header -> body)
    bool m_seen_cta = false;
    uint64_t m_dyn_insts = 0;
    std::vector<StaticKey> m_keys;   // parallel to kernel.static_insts
    std::unordered_map<uint32_t, uint32_t> m_by_pc;  // pc -> first static index with that pc
    std::unordered_set<uint64_t> m_seen_ctas;        // linear CTA ids, for duplicate detection
    std::vector<Signature> m_sigs;                   // remembered line signatures
    std::vector<uint32_t> m_sig_by_pc;               // pc -> index in m_sigs (UINT32_MAX: none)
    std::unique_ptr<Signature> m_scratch_sig;        // the signature of a PC too large to remember
};

/// Reads a whole .traceg file (all CTAs) into memory.
std::unique_ptr<core::TraceKernel> read_traceg(const std::string& path);

}  // namespace stacksim::workloads
