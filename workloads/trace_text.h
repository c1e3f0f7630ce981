// SPDX-License-Identifier: Apache-2.0
// Fast number and token scanners of the .traceg reader (same acceptance as std::from_chars).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace stacksim::workloads::trace_text {

/// Character classes: bit 0 = token separator (space, tab, CR); the digit tables hold the value
/// of a hex digit or 0xFF.
struct Tables {
    std::array<uint8_t, 256> space{};
    std::array<uint8_t, 256> hex{};
    constexpr Tables() {
        for (auto& h : hex) h = 0xFF;
        space[' '] = space['\t'] = space['\r'] = 1;
        for (int c = '0'; c <= '9'; ++c) hex[static_cast<size_t>(c)] = static_cast<uint8_t>(c - '0');
        for (int c = 'a'; c <= 'f'; ++c) hex[static_cast<size_t>(c)] = static_cast<uint8_t>(c - 'a' + 10);
        for (int c = 'A'; c <= 'F'; ++c) hex[static_cast<size_t>(c)] = static_cast<uint8_t>(c - 'A' + 10);
    }
};
inline constexpr Tables kTables{};

/// True for the separators of a trace line: space, tab and CR.
inline bool is_space(char c) { return kTables.space[static_cast<unsigned char>(c)] != 0; }

/// `s` without leading and trailing separators.
inline std::string_view trim(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

/// Hex number with an optional 0x/0X prefix and 1..16 digits (nothing else).
inline bool parse_hex(std::string_view s, uint64_t& v) {
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
    if (s.empty() || s.size() > 16) return false;
    uint64_t x = 0;
    for (char c : s) {
        const uint8_t d = kTables.hex[static_cast<unsigned char>(c)];
        if (d == 0xFF) return false;
        x = (x << 4) | d;
    }
    v = x;
    return true;
}

/// Unsigned decimal without a sign, no overflow of 64 bits, at most `max`.
inline bool parse_dec(std::string_view s, uint64_t& v, uint64_t max = UINT64_MAX) {
    if (s.empty()) return false;
    uint64_t x = 0;
    for (char c : s) {
        const unsigned d = static_cast<unsigned>(static_cast<unsigned char>(c)) - '0';
        if (d > 9) return false;
        if (__builtin_mul_overflow(x, uint64_t{10}, &x) || __builtin_add_overflow(x, uint64_t{d}, &x)) return false;
    }
    if (x > max) return false;
    v = x;
    return true;
}

/// Signed decimal: an optional '-' (no '+'), digits, within int64.
inline bool parse_sdec(std::string_view s, int64_t& v) {
    const bool neg = !s.empty() && s[0] == '-';
    if (neg) s.remove_prefix(1);
    uint64_t mag = 0;
    if (!parse_dec(s, mag, neg ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1)) return false;
    v = neg ? static_cast<int64_t>(0 - mag) : static_cast<int64_t>(mag);
    return true;
}

/// Splits `line` at separators into `tok` (at most `cap`); returns the token count, or cap + 1
/// when there are more.
inline size_t tokenize(std::string_view line, std::string_view* tok, size_t cap) {
    const char* p = line.data();
    const char* const end = p + line.size();
    size_t n = 0;
    for (;;) {
        while (p != end && is_space(*p)) ++p;
        if (p == end) return n;
        const char* q = p;
        while (q != end && !is_space(*q)) ++q;
        if (n == cap) return n + 1;
        tok[n++] = std::string_view(p, static_cast<size_t>(q - p));
        p = q;
    }
}

}  // namespace stacksim::workloads::trace_text
