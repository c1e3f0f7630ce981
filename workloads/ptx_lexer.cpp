// SPDX-License-Identifier: Apache-2.0
// PTX tokenizer implementation and the PtxError message format.
#include "workloads/ptx_lexer.h"

namespace stacksim::workloads {

PtxError::PtxError(const std::string& file, uint32_t line, const std::string& message,
                   std::string_view token)
    : std::runtime_error(file + ":" + std::to_string(line) + ": " + message + " '" +
                         std::string(token) + "'"),
      m_line(line), m_message(message), m_token(token) {}

namespace {

bool word_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%' ||
           c == '.';
}
bool word_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '$' || c == '.';
}
bool digit(char c) { return c >= '0' && c <= '9'; }
bool alnum(char c) { return digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

}  // namespace

std::vector<Token> tokenize_ptx(std::string_view s, const std::string& file) {
    std::vector<Token> out;
    out.reserve(s.size() / 4 + 1);
    uint32_t line = 1;
    size_t i = 0;
    const size_t n = s.size();
    while (i < n) {
        char c = s[i];
        if (c == '\n') {
            ++line;
            ++i;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            ++i;
        } else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i < n && s[i] != '\n') ++i;
        } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            uint32_t start = line;
            i += 2;
            while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) {
                if (s[i] == '\n') ++line;
                ++i;
            }
            if (i + 1 >= n) throw PtxError(file, start, "unterminated comment", "/*");
            i += 2;
        } else if (c == '"') {
            size_t b = i++;
            while (i < n && s[i] != '"' && s[i] != '\n') i += (s[i] == '\\' && i + 1 < n) ? 2 : 1;
            if (i >= n || s[i] != '"') throw PtxError(file, line, "unterminated string", s.substr(b, i - b));
            ++i;
            out.push_back({TokKind::String, s.substr(b, i - b), line});
        } else if (word_start(c)) {
            size_t b = i++;
            // "::" joins qualifiers such as .L2::128B and .shared::cta into the word.
            while (i < n && (word_char(s[i]) || (s[i] == ':' && i + 1 < n && s[i + 1] == ':' &&
                                                 i + 2 < n && word_char(s[i + 2])))) {
                i += s[i] == ':' ? 2 : 1;
            }
            out.push_back({TokKind::Word, s.substr(b, i - b), line});
        } else if (digit(c)) {
            size_t b = i++;
            const bool prefixed = c == '0' && i < n && (s[i] == 'x' || s[i] == 'X' || s[i] == 'f' ||
                                                       s[i] == 'F' || s[i] == 'd' || s[i] == 'D' ||
                                                       s[i] == 'b' || s[i] == 'B');
            while (i < n) {
                if (alnum(s[i]) || s[i] == '.') {
                    ++i;
                } else if (!prefixed && (s[i] == '+' || s[i] == '-') && (s[i - 1] == 'e' || s[i - 1] == 'E')) {
                    ++i;
                } else {
                    break;
                }
            }
            out.push_back({TokKind::Number, s.substr(b, i - b), line});
        } else if (std::string_view(",;{}[]()<>@!|+-:=").find(c) != std::string_view::npos) {
            out.push_back({TokKind::Punct, s.substr(i, 1), line});
            ++i;
        } else {
            throw PtxError(file, line, "unexpected character", s.substr(i, 1));
        }
    }
    out.push_back({TokKind::End, std::string_view(), line});
    return out;
}

}  // namespace stacksim::workloads
