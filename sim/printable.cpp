// SPDX-License-Identifier: Apache-2.0
// Makes text from untrusted input safe to print: control characters and invalid UTF-8 escaped.
#include "sim/printable.h"

#include <cstdio>

namespace stacksim::sim {

namespace {

/// Length of the valid UTF-8 sequence starting at s[i], or 0 if it is not one.
size_t utf8_length(std::string_view s, size_t i) {
    const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    size_t n = 0;
    unsigned min_second = 0x80, max_second = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) n = 3;
    else if (c >= 0xF0 && c <= 0xF4) n = 4;
    else return 0;
    // Overlong forms, UTF-16 surrogates and code points above U+10FFFF are not valid.
    if (c == 0xE0) min_second = 0xA0;
    if (c == 0xED) max_second = 0x9F;
    if (c == 0xF0) min_second = 0x90;
    if (c == 0xF4) max_second = 0x8F;
    if (i + n > s.size()) return 0;
    if (b(i + 1) < min_second || b(i + 1) > max_second) return 0;
    for (size_t k = 2; k < n; ++k)
        if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
    return n;
}

}  // namespace

std::string printable(std::string_view text, bool keep_newlines) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c < 0x7F) {
            out += static_cast<char>(c);
            ++i;
        } else if (c == '\n' && keep_newlines) {
            out += '\n';
            ++i;
        } else if (c == '\n' || c == '\r' || c == '\t') {
            out += c == '\n' ? "\\n" : c == '\r' ? "\\r" : "\\t";
            ++i;
        } else if (size_t n = c >= 0x80 ? utf8_length(text, i) : 0) {
            out.append(text.substr(i, n));
            i += n;
        } else {
            char buf[5];
            std::snprintf(buf, sizeof buf, "\\x%02X", c);
            out += buf;
            ++i;
        }
    }
    return out;
}

}  // namespace stacksim::sim
