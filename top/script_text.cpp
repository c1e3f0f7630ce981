// SPDX-License-Identifier: Apache-2.0
// The one place strings reach generated scripts (Slurm job scripts): quoted or refused here.
#include "top/script_text.h"

#include <fmt/format.h>

#include "sim/error.h"

namespace stacksim::top {

namespace {

/// The first control character of `text` as "\uXXXX at character N", or "".
std::string control_character(const std::string& text) {
    for (size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c == 0x7f) return fmt::format("\\u{:04x} at character {}", c, i + 1);
    }
    return "";
}

}  // namespace

std::string shell_word(const std::string& text, const std::string& what) {
    if (text.find('\0') != std::string::npos)
        throw sim::InputError(fmt::format("{}: holds a NUL character, which no command argument can", what));
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string slurm_literal_path(const std::string& path, const std::string& what) {
    one_script_line(path, what);
    std::string out;
    for (char c : path) out += c == '%' ? std::string("%%") : std::string(1, c);
    return out;
}

const std::string& one_script_line(const std::string& text, const std::string& what) {
    const std::string bad = control_character(text);
    if (!bad.empty())
        throw sim::InputError(fmt::format("{}: holds a control character ({}); it cannot be passed to a job script",
                                          what, bad));
    return text;
}

}  // namespace stacksim::top
