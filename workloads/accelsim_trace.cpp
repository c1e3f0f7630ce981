// SPDX-License-Identifier: Apache-2.0
// Accel-Sim .traceg reader: header, thread blocks, warp instruction lines, address decoding.
// Grammar and rules follow accel-sim-framework gpu-simulator/trace-parser/trace_parser.cc and
// the tracer (util/tracer_nvbit/tracer_tool); see docs/accelsim-traces.md.
#include "workloads/accelsim_trace.h"
#include "core/idempotence.h"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "sim/error.h"
#include "workloads/trace_text.h"

namespace stacksim::workloads {
namespace {

constexpr size_t kBufBytes = size_t{1} << 20;
constexpr size_t kMaxLineBytes = size_t{1} << 20;
constexpr size_t kMaxTokens = 64;  // longest legal line: ~5 + 4 + 1 + 9 + 3 + 32 + 1 tokens
constexpr unsigned kMaxDst = 4, kMaxSrc = 8;
constexpr uint32_t kMemoPcs = 1u << 20;  // PCs below this have a remembered line signature

using trace_text::trim;
using trace_text::parse_dec;
using trace_text::parse_hex;
using trace_text::parse_sdec;

size_t tokenize(std::string_view line, std::array<std::string_view, kMaxTokens>& tok) {
    return trace_text::tokenize(line, tok.data(), kMaxTokens);
}

/// Printable, bounded copy of a token for an error message.
std::string printable(std::string_view t) {
    std::string out;
    for (char c : t.substr(0, 48)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
    if (t.size() > 48) out += "...";
    return out;
}

core::StateSpace to_core_space(SassSpace s) {
    switch (s) {
    case SassSpace::Shared: return core::StateSpace::Shared;
    case SassSpace::None: return core::StateSpace::None;
    default: return core::StateSpace::Global;  // Global, Local (reported as Global), Generic
    }
}

}  // namespace

struct TracegReader::Span {
    uint32_t at = 0, len = 0;
};

struct TracegReader::Signature {
    std::string text;   // the tokens from the destination count to the memory width, as written
    uint32_t tokens = 0;
    const SassOpcode* op = nullptr;
    Span opcode;
    uint8_t nd = 0, ns = 0, mem_width = 0;
    std::array<uint16_t, kMaxDst + kMaxSrc> regs{};
    std::array<Span, kMaxDst + kMaxSrc> names{};
    const core::Instruction* inst = nullptr;  // the static form, when no address decides it
    std::string_view view(Span s) const { return std::string_view(text).substr(s.at, s.len); }
};

struct TracegReader::StaticKey {
    uint32_t pc;
    core::StateSpace space;
    uint8_t nd, ns;
    std::array<uint16_t, kMaxDst + kMaxSrc> regs;
    std::string opcode;
    uint32_t next_same_pc;  // index of the next key with this pc, or UINT32_MAX
};

TracegReader::TracegReader(const std::string& path, core::TraceKernel& kernel)
    : m_path(path), m_file_name(std::make_shared<const std::string>(path)), m_kernel(kernel),
      m_buf(kBufBytes) {
    m_fp = std::fopen(path.c_str(), "rb");
    if (!m_fp) throw sim::InputError(path + ":0: cannot open trace file");
    m_data = m_buf.data();
    start();
}

TracegReader::TracegReader(const std::string& path, core::TraceKernel& kernel, std::string_view text)
    : m_path(path), m_file_name(std::make_shared<const std::string>(path)), m_kernel(kernel),
      m_text(text), m_in_memory(true) {
    m_data = m_text.data();
    start();
}

void TracegReader::start() {
    try {
        read_header();
    } catch (...) {
        // The destructor does not run for a half-built reader: a bad header would leak the file.
        if (m_fp) std::fclose(m_fp);
        m_fp = nullptr;
        throw;
    }
}

TracegReader::~TracegReader() {
    if (m_fp) std::fclose(m_fp);
}

void TracegReader::fail(const std::string& msg, std::string_view token) const {
    std::string s = m_path + ":" + std::to_string(m_line_no) + ": " + msg;
    if (!token.empty()) s += " '" + printable(token) + "'";
    throw sim::InputError(s);
}

bool TracegReader::read_line() {
    m_long_line.clear();
    bool partial = false;
    for (;;) {
        if (m_buf_pos < m_buf_len) {
            const char* start = m_data + m_buf_pos;
            const size_t avail = m_buf_len - m_buf_pos;
            const char* nl = static_cast<const char*>(std::memchr(start, '\n', avail));
            if (nl) {
                const size_t n = static_cast<size_t>(nl - start);
                m_buf_pos += n + 1;
                ++m_line_no;
                if (!partial) {
                    m_line = std::string_view(start, n);
                } else {
                    m_long_line.append(start, n);
                    m_line = m_long_line;
                }
                return true;
            }
            m_long_line.append(start, avail);
            partial = true;
            m_buf_pos = m_buf_len;
            if (m_long_line.size() > kMaxLineBytes) {
                ++m_line_no;
                fail("line longer than 1 MiB (not a text trace?)");
            }
        }
        if (m_eof) break;
        refill();
    }
    if (!partial) return false;
    ++m_line_no;  // last line without a newline
    m_line = m_long_line;
    return true;
}

void TracegReader::refill() {
    m_buf_pos = 0;
    if (m_in_memory) {
        // The text in windows of the file buffer's size, so that long lines fail exactly as when
        // read from the file.
        m_data = m_text.data() + m_text_pos;
        m_buf_len = std::min(kBufBytes, m_text.size() - m_text_pos);
        m_text_pos += m_buf_len;
    } else {
        m_buf_len = std::fread(m_buf.data(), 1, m_buf.size(), m_fp);
        if (m_buf_len == 0 && std::ferror(m_fp)) fail("read error");
    }
    if (m_buf_len == 0) m_eof = true;
}

bool TracegReader::next_cta(core::CtaTrace& cta) {
    const TraceHeader& h = m_header;
    cta.id = {0, 0, 0};
    cta.warps.clear();
    cta.warps.resize(h.warps_per_cta);
    for (;;) {  // find #BEGIN_TB
        if (!m_pending && !read_line()) {
            if (!m_seen_cta) fail("truncated file: no thread blocks (#BEGIN_TB)");
            return false;
        }
        m_pending = false;
        const std::string_view line = trim(m_line);
        if (line.empty()) continue;
        if (line == "#BEGIN_TB") break;
        if (line == "#END_TB") fail("#END_TB without #BEGIN_TB");
        if (line[0] == '#') continue;  // comment, e.g. "#traces format = ..."
        fail("expected #BEGIN_TB (raw .trace files must be post-processed into .traceg)", line);
    }
    std::array<std::string_view, kMaxTokens> tok;
    bool have_id = false, want_insts = false;
    uint64_t warps_seen = 0, remaining = 0;
    core::WarpTrace* warp = nullptr;
    uint32_t warp_id = 0;
    auto check_warp_done = [&] {
        if (want_insts) fail("missing 'insts = N' after 'warp = " + std::to_string(warp_id) + "'");
        if (remaining != 0)
            fail("warp " + std::to_string(warp_id) + " has " + std::to_string(remaining) +
                 " fewer instruction lines than its 'insts = N'");
    };
    while (read_line()) {
        const std::string_view line = trim(m_line);
        if (line.empty()) continue;
        if (line[0] == '#') {
            if (line == "#BEGIN_TB") fail("#BEGIN_TB before the previous #END_TB");
            if (line != "#END_TB") fail("unexpected line inside a thread block", line);
            check_warp_done();
            if (!have_id) fail("thread block without 'thread block = x,y,z'");
            m_seen_cta = true;
            return true;
        }
        const size_t n = tokenize(line, tok);
        const std::string_view t0 = tok[0];
        if (t0 == "thread" || t0 == "warp" || t0 == "insts" || t0 == "cluster") {
            const size_t value_at = t0 == "thread" || t0 == "cluster" ? 3 : 2;
            if (n != value_at + 1 || tok[value_at - 1] != "=" || (t0 == "thread" && tok[1] != "block"))
                fail("malformed '" + std::string(t0) + "' line", line);
            const std::string_view value = tok[value_at];
            uint64_t v = 0;
            if (t0 == "cluster") continue;  // Hopper cluster ids (newer post-processing): unused
            if (t0 == "thread") {
                if (have_id || warp) fail("'thread block' must come once, before the warps");
                std::array<uint32_t, 3> id{};
                std::string_view rest = value;
                for (unsigned k = 0; k < 3; ++k) {
                    const size_t comma = rest.find(',');
                    if ((comma == std::string_view::npos) != (k == 2) ||
                        !parse_dec(rest.substr(0, comma), v, UINT32_MAX))
                        fail("bad thread block index (want x,y,z)", value);
                    if (v >= h.grid[k]) fail("thread block index outside the grid", value);
                    id[k] = static_cast<uint32_t>(v);
                    if (comma != std::string_view::npos) rest.remove_prefix(comma + 1);
                }
                const uint64_t linear = (uint64_t{id[2]} * h.grid[1] + id[1]) * h.grid[0] + id[0];
                if (!m_seen_ctas.insert(linear).second) fail("duplicate thread block", value);
                cta.id = id;
                have_id = true;
            } else if (t0 == "warp") {
                if (!have_id) fail("'warp' before 'thread block'");
                check_warp_done();
                if (!parse_dec(value, v, UINT32_MAX)) fail("bad warp id", value);
                if (v >= h.warps_per_cta)
                    fail("warp id beyond the block's " + std::to_string(h.warps_per_cta) + " warps", value);
                if (warps_seen & (uint64_t{1} << v)) fail("duplicate warp", value);
                warps_seen |= uint64_t{1} << v;
                warp_id = static_cast<uint32_t>(v);
                warp = &cta.warps[warp_id];
                want_insts = true;
            } else {
                if (!want_insts) fail("'insts' without a preceding 'warp = N'");
                if (!parse_dec(value, v, UINT32_MAX)) fail("bad instruction count", value);
                remaining = v;
                want_insts = false;
                warp->insts.reserve(static_cast<size_t>(std::min<uint64_t>(v, 1u << 16)));
            }
            continue;
        }
        if (!warp || want_insts) fail("instruction line before 'warp = N' / 'insts = N'", t0);
        if (remaining == 0)
            fail("warp " + std::to_string(warp_id) + " has more instruction lines than its 'insts = N'", t0);
        if (n > kMaxTokens) fail("too many tokens on an instruction line");
        parse_instruction_tokens(*warp, tok.data(), n);
        --remaining;
    }
    fail("truncated file: missing #END_TB");
}

TracegReader::Signature& TracegReader::signature(uint32_t pc, const std::string_view* tok, size_t n,
                                                 size_t& i) {
    // A line whose tokens from the destination count to the memory width are the same bytes as
    // those of an earlier line with this PC means the same thing: reuse that parse.
    uint32_t* slot = nullptr;
    if (pc < kMemoPcs) {
        if (pc >= m_sig_by_pc.size()) m_sig_by_pc.resize(std::max<size_t>(pc + 1, 2 * m_sig_by_pc.size()), UINT32_MAX);
        slot = &m_sig_by_pc[pc];
        if (*slot != UINT32_MAX) {
            Signature& s = m_sigs[*slot];
            if (n >= i + s.tokens) {
                const std::string_view last = tok[i + s.tokens - 1];
                const size_t len = static_cast<size_t>(last.data() + last.size() - tok[i].data());
                if (len == s.text.size() && std::memcmp(tok[i].data(), s.text.data(), len) == 0) {
                    i += s.tokens;
                    return s;
                }
            }
        }
    }
    const TraceHeader& h = m_header;
    const size_t first = i;
    auto next = [&](const char* what) -> std::string_view {
        if (i >= n) fail(std::string("truncated instruction line: missing ") + what);
        return tok[i++];
    };
    Signature sig;
    std::array<std::string_view, kMaxDst + kMaxSrc> names{};
    uint64_t v = 0;
    std::string_view t = next("destination count");
    if (!parse_dec(t, v, kMaxDst)) fail("bad destination register count", t);
    sig.nd = static_cast<uint8_t>(v);
    for (unsigned k = 0; k < sig.nd; ++k) {
        t = next("destination register");
        if (!parse_sass_register(t, sig.regs[k])) fail("bad destination register", t);
        names[k] = t;
    }
    const std::string_view opcode = next("opcode");
    const std::string_view base = opcode.substr(0, opcode.find('.'));
    sig.op = find_sass_opcode(h.family, base);
    if (!sig.op) {
        if (const char* why = sass_unsupported_reason(h.family, base))
            fail(std::string("unsupported ") + sass_family_name(h.family) + " instruction (" + why +
                     ", not modelled)", opcode);
        fail("unknown opcode for binary version " + std::to_string(h.binary_version) + " (" +
                 sass_family_name(h.family) + ")", opcode);
    }
    t = next("source count");
    if (!parse_dec(t, v, kMaxSrc)) fail("bad source register count", t);
    sig.ns = static_cast<uint8_t>(v);
    for (unsigned k = 0; k < sig.ns; ++k) {
        t = next("source register");
        if (!parse_sass_register(t, sig.regs[sig.nd + k])) fail("bad source register", t);
        names[sig.nd + k] = t;
    }
    t = next("memory width");
    if (!parse_dec(t, v, 255)) fail("bad memory width", t);
    sig.mem_width = static_cast<uint8_t>(v);
    if (sig.op->mem != SassMemKind::None && sig.mem_width == 0)
        fail("memory instruction without addresses (memory width 0)", opcode);

    const char* const begin = tok[first].data();
    sig.tokens = static_cast<uint32_t>(i - first);
    sig.text.assign(begin, static_cast<size_t>(t.data() + t.size() - begin));
    auto at = [&](std::string_view x) { return Span{static_cast<uint32_t>(x.data() - begin), static_cast<uint32_t>(x.size())}; };
    sig.opcode = at(opcode);
    for (unsigned k = 0; k < sig.nd + sig.ns; ++k) sig.names[k] = at(names[k]);
    if (!slot) {
        if (!m_scratch_sig) m_scratch_sig = std::make_unique<Signature>();
        *m_scratch_sig = std::move(sig);
        return *m_scratch_sig;
    }
    if (*slot == UINT32_MAX) {
        *slot = static_cast<uint32_t>(m_sigs.size());
        m_sigs.push_back(std::move(sig));
    } else {
        m_sigs[*slot] = std::move(sig);
    }
    return m_sigs[*slot];
}

void TracegReader::parse_instruction_tokens(core::WarpTrace& warp, const std::string_view* tok,
                                            size_t n) {
    const TraceHeader& h = m_header;
    size_t i = 0;
    auto next = [&](const char* what) -> std::string_view {
        if (i >= n) fail(std::string("truncated instruction line: missing ") + what);
        return tok[i++];
    };
    uint64_t v = 0;
    if (h.lineinfo) {
        std::string_view t = next("source line number");
        if (!parse_dec(t, v, UINT32_MAX)) fail("bad source line number", t);
    }
    core::TraceInstruction ti;
    std::string_view t = next("PC");
    if (!parse_hex(t, v) || v > UINT32_MAX) fail("bad PC", t);
    ti.pc = static_cast<uint32_t>(v);
    t = next("active mask");
    if (!parse_hex(t, v) || v > UINT32_MAX) fail("bad active mask", t);
    ti.active_mask = static_cast<uint32_t>(v);

    Signature& sig = signature(ti.pc, tok, n, i);
    const SassOpcode* op = sig.op;
    const std::string_view opcode = sig.view(sig.opcode);
    const unsigned mem_width = sig.mem_width;
    const bool is_mem = op->mem != SassMemKind::None;

    core::StateSpace space = to_core_space(op->space);
    if (mem_width > 0) {
        const unsigned active = static_cast<unsigned>(__builtin_popcount(ti.active_mask));
        t = next("address compression mode");
        const size_t trailing = h.tracer_version >= 5 ? 1 : 0;
        const size_t avail = n - i >= trailing ? n - i - trailing : 0;
        std::vector<uint64_t>& out = warp.addresses;
        const size_t first = out.size();
        uint64_t base_addr = 0;
        int64_t step = 0;
        if (t == "0") {  // list of one address per active lane
            if (avail != active)
                fail("expected " + std::to_string(active) + " addresses for " + std::to_string(active) +
                     " active lanes, found " + std::to_string(avail), opcode);
            for (unsigned k = 0; k < active; ++k) {
                t = tok[i++];
                if (!parse_hex(t, base_addr)) fail("bad address", t);
                out.push_back(base_addr);
            }
        } else if (t == "1") {  // base + stride x rank over the active lanes
            if (avail != 2)
                fail("base+stride: expected a base and a stride, found " + std::to_string(avail) +
                     " tokens", opcode);
            t = tok[i++];
            if (!parse_hex(t, base_addr)) fail("bad base address", t);
            t = tok[i++];
            if (!parse_sdec(t, step) || step < INT32_MIN || step > INT32_MAX) fail("bad stride", t);
            for (unsigned k = 0; k < active; ++k)
                out.push_back(base_addr + static_cast<uint64_t>(step) * k);
        } else if (t == "2") {  // base + (active - 1) deltas from the previous active lane
            const size_t deltas = active ? active - 1 : 0;
            if (avail != 1 + deltas)
                fail("base+delta: expected a base and " + std::to_string(deltas) + " deltas for " +
                     std::to_string(active) + " active lanes, found " + std::to_string(avail) +
                     " tokens", opcode);
            t = tok[i++];
            if (!parse_hex(t, base_addr)) fail("bad base address", t);
            if (active) out.push_back(base_addr);
            for (size_t k = 0; k < deltas; ++k) {
                t = tok[i++];
                if (!parse_sdec(t, step)) fail("bad address delta", t);
                base_addr += static_cast<uint64_t>(step);
                out.push_back(base_addr);
            }
        } else {
            fail("unknown address compression mode (want 0, 1 or 2)", t);
        }
        if (!is_mem) {
            out.resize(first);  // e.g. CCTL [R2]: addresses not modelled
        } else {
            ti.addr_index = static_cast<uint32_t>(first);
            const unsigned w = sass_width_from_modifiers(opcode);
            ti.access_bytes = static_cast<uint8_t>(w ? w : mem_width);
            ti.is_load = op->mem == SassMemKind::Load;
            ti.is_store = op->mem == SassMemKind::Store;
            ti.is_atomic = op->mem == SassMemKind::Atomic;
            if (op->space == SassSpace::Generic) {  // trace_driven.cc: resolve by first lane
                if (h.shmem_base_addr == 0 || h.local_base_addr == 0) space = core::StateSpace::Shared;
                else if (active && out[first] >= h.shmem_base_addr && out[first] < h.local_base_addr)
                    space = core::StateSpace::Shared;
                else space = core::StateSpace::Global;
            }
        }
    }
    if (h.tracer_version >= 5) {
        t = next("immediate");
        int64_t imm = 0;
        if (!parse_sdec(t, imm)) fail("bad immediate", t);
    }
    if (i != n) fail("unexpected token at the end of the instruction line", tok[i]);
    if (sig.inst) {
        ti.inst = sig.inst;
    } else {
        std::array<std::string_view, kMaxDst + kMaxSrc> names{};
        for (unsigned k = 0; k < sig.nd + sig.ns; ++k) names[k] = sig.view(sig.names[k]);
        ti.inst = intern(ti.pc, opcode, *op, space, sig.regs.data(), names.data(), sig.nd, sig.ns);
        // Only a generic access's space depends on its addresses.
        if (!is_mem || op->space != SassSpace::Generic) sig.inst = ti.inst;
    }
    warp.insts.push_back(ti);
    ++m_dyn_insts;
}

const core::Instruction* TracegReader::intern(uint32_t pc, std::string_view opcode,
                                              const SassOpcode& op, core::StateSpace space,
                                              const uint16_t* regs, const std::string_view* names,
                                              unsigned nd, unsigned ns) {
    auto same = [&](const StaticKey& k) {
        if (k.space != space || k.nd != nd || k.ns != ns || k.opcode != opcode) return false;
        return std::equal(regs, regs + nd + ns, k.regs.begin());
    };
    auto it = m_by_pc.find(pc);
    uint32_t last = UINT32_MAX;
    if (it != m_by_pc.end()) {
        for (uint32_t idx = it->second; idx != UINT32_MAX; idx = m_keys[idx].next_same_pc) {
            if (same(m_keys[idx])) return &m_kernel.static_insts[idx];
            last = idx;
        }
    }
    const uint32_t idx = static_cast<uint32_t>(m_keys.size());
    StaticKey key{pc, space, static_cast<uint8_t>(nd), static_cast<uint8_t>(ns), {},
                  std::string(opcode), UINT32_MAX};
    std::copy(regs, regs + nd + ns, key.regs.begin());
    m_keys.push_back(std::move(key));
    if (last == UINT32_MAX) m_by_pc.emplace(pc, idx);
    else m_keys[last].next_same_pc = idx;

    core::Instruction& in = m_kernel.static_insts.emplace_back();
    in.info = op.info;
    in.space = op.mem == SassMemKind::None ? core::StateSpace::None : space;
    in.line = m_line_no;
    in.file = m_file_name;
    char pc_text[16];
    std::snprintf(pc_text, sizeof pc_text, "/*%04x*/ ", pc);
    in.text = pc_text;
    in.text += opcode;
    for (unsigned k = 0; k < nd + ns; ++k) {
        in.text += k == 0 ? " " : ", ";
        in.text += names[k];
    }
    // Registers: up to 2 destinations / 4 sources as Reg operands, more packed into Vectors.
    auto fill = [&](core::Operand* ops, unsigned cap, const uint16_t* r, unsigned count) -> uint8_t {
        std::array<uint16_t, kMaxSrc> live{};
        unsigned m = 0;
        for (unsigned k = 0; k < count; ++k) {
            if (r[k] == core::kNoReg) continue;
            if (r[k] >= kSassGprCount) m_kernel.num_regs = kSassRegSpace;
            live[m++] = r[k];
        }
        if (m <= cap) {
            for (unsigned k = 0; k < m; ++k) {
                ops[k].kind = core::Operand::Kind::Reg;
                ops[k].reg = live[k];
            }
            return static_cast<uint8_t>(m);
        }
        uint8_t used = 0;
        for (unsigned k = 0; k < m; k += 4, ++used) {
            ops[used].kind = core::Operand::Kind::Vector;
            ops[used].vec_len = static_cast<uint8_t>(std::min(4u, m - k));
            for (unsigned q = 0; q < ops[used].vec_len; ++q) ops[used].vec[q] = live[k + q];
        }
        return used;
    };
    in.num_dst = fill(in.dst.data(), static_cast<unsigned>(in.dst.size()), regs, nd);
    in.num_src = fill(in.src.data(), static_cast<unsigned>(in.src.size()), regs + nd, ns);
    in.finalize_registers();
    return &in;
}

std::unique_ptr<core::TraceKernel> read_traceg(const std::string& path) {
    auto kernel = std::make_unique<core::TraceKernel>();
    TracegReader reader(path, *kernel);
    core::CtaTrace cta;
    while (reader.next_cta(cta)) kernel->ctas.push_back(std::move(cta));
    kernel->idempotent = core::is_idempotent(*kernel);
    return kernel;
}

}  // namespace stacksim::workloads
