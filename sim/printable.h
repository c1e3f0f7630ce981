// SPDX-License-Identifier: Apache-2.0
// Makes text from untrusted input safe to print: control characters and invalid UTF-8 escaped.
#pragma once
#include <string>
#include <string_view>

namespace stacksim::sim {

/// `text` with every control character (CR, ESC, ..., and newline unless `keep_newlines`)
/// written as `\r`, `\n`, `\t` or `\xNN`, and every byte that is not part of valid UTF-8 as
/// `\xNN`; valid UTF-8 is kept. An error message built from a file name, a config value or
/// a trace field stays one readable line and cannot move the terminal's cursor.
std::string printable(std::string_view text, bool keep_newlines = false);

}  // namespace stacksim::sim
