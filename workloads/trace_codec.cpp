// SPDX-License-Identifier: Apache-2.0
// The binary form of a parsed trace kernel: layout, hash, encoder and a checking decoder.
#include "workloads/trace_codec.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <vector>

#include "core/op_table.h"
#include "workloads/sass_opcodes.h"

namespace stacksim::workloads {
namespace {

// Layout (native byte order, recorded by kEndianMark): FileHeader, then the payload:
//   kernel: u32 flags, u32 grid[3], block[3], shared_bytes, regs_per_thread, binary_version,
//           num_regs, str name (empty when the name is the trace's path)
//   u32 statics; per static: u32 line, u8 space, u8 num_dst, u8 num_src, u8 pad,
//           Operand dst[num_dst], src[num_src] as OperandRecord, str base opcode, str text
//   u32 ctas, u32 warps per CTA; per CTA: u32 id[3]; per warp: u32 insts, u32 addresses,
//           InstRecord[insts], u64 addresses[]
// str = u32 length + bytes. Every count is checked against the bytes left before use.
constexpr char kMagic[8] = {'S', 'T', 'K', 'T', 'R', 'C', 'G', '\n'};
constexpr uint32_t kEndianMark = 0x01020304;
constexpr uint32_t kFlagIdempotent = 1, kFlagNameIsPath = 2;
constexpr uint8_t kLoad = 1, kStore = 2, kAtomic = 4;

struct FileHeader {
    char magic[8];
    uint32_t format;
    uint32_t endian;
    uint64_t size;
    int64_t mtime_s, mtime_ns;
    uint64_t content_hash, build_hash;
    uint64_t payload_bytes, payload_hash;
};

struct OperandRecord {
    uint8_t kind, vec_len;
    uint16_t reg;
    std::array<uint16_t, 4> vec;
};

struct InstRecord {
    uint32_t static_index, active_mask, addr_index;
    uint8_t access_bytes, flags;
    uint16_t pad;
};
static_assert(sizeof(InstRecord) == 16 && sizeof(OperandRecord) == 12, "packed records");

constexpr uint64_t kP1 = 0x9E3779B185EBCA87ull, kP2 = 0xC2B2AE3D27D4EB4Full, kP3 = 0x165667B19E3779F9ull;
inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
inline uint64_t load64(const unsigned char* p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}
inline uint64_t round64(uint64_t acc, uint64_t in) { return rotl(acc + in * kP2, 31) * kP1; }

class Writer {
public:
    template <typename T> void put(const T& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        const auto* p = reinterpret_cast<const char*>(&v);
        m_out.append(p, sizeof v);
    }
    void put_bytes(const void* p, size_t n) { m_out.append(static_cast<const char*>(p), n); }
    void put_str(std::string_view s) {
        put(static_cast<uint32_t>(s.size()));
        m_out.append(s.data(), s.size());
    }
    std::string& out() { return m_out; }

private:
    std::string m_out;
};

/// Bounds-checked reads; the first failure sticks (every later read fails too).
class Reader {
public:
    explicit Reader(std::string_view in) : m_p(in.data()), m_end(in.data() + in.size()) {}
    template <typename T> bool get(T& v) {
        if (!room(sizeof v)) return false;
        std::memcpy(&v, m_p, sizeof v);
        m_p += sizeof v;
        return true;
    }
    /// Pointer to `n` items of `size` bytes, or nullptr when fewer bytes are left.
    const char* take(uint64_t n, size_t size) {
        if (size != 0 && n > static_cast<uint64_t>(m_end - m_p) / size) return fail();
        const char* at = m_p;
        m_p += n * size;
        return at;
    }
    bool get_str(std::string& s) {
        uint32_t n = 0;
        if (!get(n)) return false;
        const char* at = take(n, 1);
        if (!at) return false;
        s.assign(at, n);
        return true;
    }
    /// Whether `n` items of `size` bytes are left (nothing is consumed).
    bool has(uint64_t n, size_t size) const { return m_p && (size == 0 || n <= static_cast<uint64_t>(m_end - m_p) / size); }
    bool at_end() const { return m_p && m_p == m_end; }

private:
    bool room(size_t n) {
        if (static_cast<size_t>(m_end - m_p) >= n) return true;
        fail();
        return false;
    }
    const char* fail() {
        m_p = m_end = nullptr;
        return nullptr;
    }
    const char* m_p;
    const char* m_end;
};

/// The PC of a static trace instruction: its text starts "/*%04x*/ ".
bool pc_of(const core::Instruction& i, uint32_t& pc) {
    unsigned v = 0;
    if (i.text.size() < 6 || std::sscanf(i.text.c_str(), "/*%x*/", &v) != 1) return false;
    pc = v;
    return true;
}

bool decode_operand(const OperandRecord& r, core::Operand& o) {
    using K = core::Operand::Kind;
    if (r.kind != static_cast<uint8_t>(K::Reg) && r.kind != static_cast<uint8_t>(K::Vector)) return false;
    if (r.vec_len > 4) return false;
    o.kind = static_cast<K>(r.kind);
    o.reg = r.reg;
    o.vec_len = r.vec_len;
    o.vec = r.vec;
    return true;
}

bool decode_payload(Reader& in, core::TraceKernel& k, const std::string& path) {
    uint32_t flags = 0;
    std::string name;
    if (!in.get(flags) || !in.get(k.grid) || !in.get(k.block) || !in.get(k.shared_bytes) ||
        !in.get(k.regs_per_thread) || !in.get(k.binary_version) || !in.get(k.num_regs) || !in.get_str(name))
        return false;
    SassFamily family{};
    if (!sass_family_of(k.binary_version, family) || (flags & ~(kFlagIdempotent | kFlagNameIsPath))) return false;
    k.idempotent = flags & kFlagIdempotent;
    k.name = flags & kFlagNameIsPath ? path : name;
    k.file = path;
    const auto file = std::make_shared<const std::string>(path);

    uint32_t statics = 0;
    if (!in.get(statics) || !in.has(statics, 16)) return false;  // every static needs >= 16 bytes
    std::vector<const core::Instruction*> by_index(statics);
    std::vector<uint32_t> pcs(statics);
    std::vector<uint8_t> is_mem(statics);
    std::string opcode;
    for (uint32_t s = 0; s < statics; ++s) {
        uint32_t line = 0;
        uint8_t space = 0, nd = 0, ns = 0, pad = 0;
        if (!in.get(line) || !in.get(space) || !in.get(nd) || !in.get(ns) || !in.get(pad)) return false;
        if (space > static_cast<uint8_t>(core::StateSpace::Const) || nd > 2 || ns > 4) return false;
        core::Instruction& i = k.static_insts.emplace_back();
        OperandRecord r{};
        for (unsigned d = 0; d < nd + ns; ++d)
            if (!in.get(r) || !decode_operand(r, d < nd ? i.dst[d] : i.src[d - nd])) return false;
        if (!in.get_str(opcode) || !in.get_str(i.text)) return false;
        const SassOpcode* op = find_sass_opcode(family, opcode);
        if (!op) return false;
        i.info = op->info;
        i.space = static_cast<core::StateSpace>(space);
        i.num_dst = nd;
        i.num_src = ns;
        i.line = line;
        i.file = file;
        i.finalize_registers();
        if (!pc_of(i, pcs[s])) return false;
        is_mem[s] = op->mem != SassMemKind::None;
        by_index[s] = &i;
    }

    uint32_t ctas = 0, warps = 0;
    if (!in.get(ctas) || !in.get(warps) || warps > 32) return false;
    if (!in.has(ctas, 12 + size_t{8} * warps)) return false;  // ids and per-warp counts
    k.ctas.resize(ctas);
    for (core::CtaTrace& cta : k.ctas) {
        if (!in.get(cta.id)) return false;
        for (unsigned d = 0; d < 3; ++d)
            if (cta.id[d] >= k.grid[d]) return false;
        cta.warps.resize(warps);
        for (core::WarpTrace& w : cta.warps) {
            uint32_t n = 0, naddr = 0;
            if (!in.get(n) || !in.get(naddr)) return false;
            const char* recs = in.take(n, sizeof(InstRecord));
            const char* addrs = recs ? in.take(naddr, 8) : nullptr;
            if (!addrs) return false;
            w.insts.reserve(n);
            for (uint32_t j = 0; j < n; ++j) {
                InstRecord r;
                std::memcpy(&r, recs + size_t{j} * sizeof r, sizeof r);
                if (r.static_index >= statics) return false;
                core::TraceInstruction& t = w.insts.emplace_back();
                t.inst = by_index[r.static_index];
                t.pc = pcs[r.static_index];
                t.active_mask = r.active_mask;
                t.addr_index = r.addr_index;
                t.access_bytes = r.access_bytes;
                if (r.addr_index != core::kNoAddresses) {
                    // One kind of access, on a memory opcode, with its addresses inside the warp's.
                    if ((r.flags != kLoad && r.flags != kStore && r.flags != kAtomic) || !is_mem[r.static_index] ||
                        r.addr_index > naddr ||
                        static_cast<uint32_t>(__builtin_popcount(r.active_mask)) > naddr - r.addr_index)
                        return false;
                    t.is_load = r.flags == kLoad;
                    t.is_store = r.flags == kStore;
                    t.is_atomic = r.flags == kAtomic;
                } else if (r.flags != 0) {
                    return false;
                }
            }
            w.addresses.resize(naddr);
            if (naddr) std::memcpy(w.addresses.data(), addrs, size_t{naddr} * 8);
        }
    }
    return in.at_end();
}

}  // namespace

uint64_t trace_hash(const void* data, size_t size, uint64_t seed) {
    const auto* p = static_cast<const unsigned char*>(data);
    const unsigned char* const end = p + size;
    uint64_t h;
    if (size >= 32) {
        uint64_t a = seed + kP1 + kP2, b = seed + kP2, c = seed, d = seed - kP1;
        for (const unsigned char* limit = end - 32; p <= limit; p += 32) {
            a = round64(a, load64(p));
            b = round64(b, load64(p + 8));
            c = round64(c, load64(p + 16));
            d = round64(d, load64(p + 24));
        }
        h = rotl(a, 1) + rotl(b, 7) + rotl(c, 12) + rotl(d, 18);
        for (uint64_t v : {a, b, c, d}) h = (h ^ round64(0, v)) * kP1 + kP3;
    } else {
        h = seed + kP3;
    }
    h += static_cast<uint64_t>(size);
    for (; p + 8 <= end; p += 8) h = rotl(h ^ round64(0, load64(p)), 27) * kP1 + kP3;
    for (; p < end; ++p) h = rotl(h ^ (*p * kP3), 11) * kP1;
    h ^= h >> 33;
    h *= kP2;
    h ^= h >> 29;
    h *= kP3;
    return h ^ (h >> 32);
}

std::string encode_trace_kernel(const core::TraceKernel& k, const TraceKey& key, bool name_is_path) {
    SassFamily family{};
    if (!sass_family_of(k.binary_version, family)) return "";
    Writer w;
    w.put(FileHeader{});  // filled in at the end
    const uint32_t flags = (k.idempotent ? kFlagIdempotent : 0) | (name_is_path ? kFlagNameIsPath : 0);
    w.put(flags);
    w.put(k.grid);
    w.put(k.block);
    w.put(k.shared_bytes);
    w.put(k.regs_per_thread);
    w.put(k.binary_version);
    w.put(k.num_regs);
    w.put_str(name_is_path ? std::string_view() : std::string_view(k.name));

    std::vector<const core::Instruction*> statics;
    std::vector<uint32_t> pcs;
    for (const core::Instruction& i : k.static_insts) {
        statics.push_back(&i);
        if (!pc_of(i, pcs.emplace_back())) return "";
    }
    w.put(static_cast<uint32_t>(statics.size()));
    for (const core::Instruction* i : statics) {
        const std::string_view name = i->info ? i->info->name : std::string_view();
        const SassOpcode* op = find_sass_opcode(family, name);
        if (!op || op->info != i->info || i->num_dst > 2 || i->num_src > 4) return "";
        w.put(i->line);
        w.put(static_cast<uint8_t>(i->space));
        w.put(i->num_dst);
        w.put(i->num_src);
        w.put(uint8_t{0});
        for (unsigned d = 0; d < unsigned{i->num_dst} + i->num_src; ++d) {
            const core::Operand& o = d < i->num_dst ? i->dst[d] : i->src[d - i->num_dst];
            w.put(OperandRecord{static_cast<uint8_t>(o.kind), o.vec_len, o.reg, o.vec});
        }
        w.put_str(name);
        w.put_str(i->text);
    }
    // Static instructions by address, for the records' indices (deque: no arithmetic on it).
    std::vector<std::pair<const core::Instruction*, uint32_t>> index;
    for (uint32_t s = 0; s < statics.size(); ++s) index.emplace_back(statics[s], s);
    std::sort(index.begin(), index.end());
    auto index_of = [&](const core::Instruction* p) -> int64_t {
        auto it = std::lower_bound(index.begin(), index.end(), std::make_pair(p, uint32_t{0}));
        return it != index.end() && it->first == p ? it->second : -1;
    };

    const uint32_t warps = k.ctas.empty() ? 0 : static_cast<uint32_t>(k.ctas[0].warps.size());
    w.put(static_cast<uint32_t>(k.ctas.size()));
    w.put(warps);
    const core::Instruction* last = nullptr;
    int64_t last_index = -1;
    for (const core::CtaTrace& cta : k.ctas) {
        if (cta.warps.size() != warps) return "";
        w.put(cta.id);
        for (const core::WarpTrace& warp : cta.warps) {
            w.put(static_cast<uint32_t>(warp.insts.size()));
            w.put(static_cast<uint32_t>(warp.addresses.size()));
            for (const core::TraceInstruction& t : warp.insts) {
                if (t.inst != last) last = t.inst, last_index = index_of(t.inst);
                if (last_index < 0 || t.pc != pcs[static_cast<size_t>(last_index)]) return "";
                const uint8_t f = static_cast<uint8_t>((t.is_load ? kLoad : 0) | (t.is_store ? kStore : 0) |
                                                       (t.is_atomic ? kAtomic : 0));
                w.put(InstRecord{static_cast<uint32_t>(last_index), t.active_mask, t.addr_index, t.access_bytes, f, 0});
            }
            w.put_bytes(warp.addresses.data(), warp.addresses.size() * 8);
        }
    }
    std::string& out = w.out();
    FileHeader h{};
    std::memcpy(h.magic, kMagic, sizeof kMagic);
    h.format = kTraceCacheFormat;
    h.endian = kEndianMark;
    h.size = key.size;
    h.mtime_s = key.mtime_s;
    h.mtime_ns = key.mtime_ns;
    h.content_hash = key.content_hash;
    h.build_hash = key.build_hash;
    h.payload_bytes = out.size() - sizeof h;
    h.payload_hash = trace_hash(out.data() + sizeof h, out.size() - sizeof h);
    std::memcpy(out.data(), &h, sizeof h);
    return std::move(out);
}

std::unique_ptr<core::TraceKernel> decode_trace_kernel(std::string_view data, const TraceKey& key,
                                                       const std::string& path) {
    FileHeader h;
    if (data.size() < sizeof h) return nullptr;
    std::memcpy(&h, data.data(), sizeof h);
    if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0 || h.format != kTraceCacheFormat ||
        h.endian != kEndianMark)
        return nullptr;
    const TraceKey stored{h.size, h.mtime_s, h.mtime_ns, h.content_hash, h.build_hash};
    const std::string_view payload = data.substr(sizeof h);
    if (!(stored == key) || h.payload_bytes != payload.size() ||
        h.payload_hash != trace_hash(payload.data(), payload.size()))
        return nullptr;
    auto k = std::make_unique<core::TraceKernel>();
    Reader in(payload);
    if (!decode_payload(in, *k, path)) return nullptr;
    return k;
}

}  // namespace stacksim::workloads
