// SPDX-License-Identifier: Apache-2.0
// PTX tokenizer: words, numbers, strings and punctuation with line numbers; comments dropped.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "workloads/ptx_parser.h"

namespace stacksim::workloads {

/// Token classes. Words include directives (.reg), opcodes with modifiers (ld.global.v4.f32),
/// registers (%r1, %tid.x), labels and identifiers.
enum class TokKind : uint8_t { Word, Number, String, Punct, End };

/// One token; `text` points into the source text.
struct Token {
    TokKind kind = TokKind::End;
    std::string_view text;
    uint32_t line = 0;
    /// True for the punctuation character `c`.
    bool is(char c) const { return kind == TokKind::Punct && text.size() == 1 && text[0] == c; }
    /// True for the word `w`.
    bool is_word(std::string_view w) const { return kind == TokKind::Word && text == w; }
};

/// Splits `text` into tokens ending with one End token. Throws PtxError on a character that
/// cannot start a token or an unterminated comment/string.
std::vector<Token> tokenize_ptx(std::string_view text, const std::string& file);

}  // namespace stacksim::workloads
