// SPDX-License-Identifier: Apache-2.0
// The shell blocks of the Markdown docs, with the doc-test markers that say how to run and check them.
#include "tests/system/doc_blocks.h"

#include <sstream>
#include <stdexcept>

namespace stacksim::test {

namespace {

std::string trim(const std::string& s) {
    const auto a = s.find_first_not_of(" \t");
    if (a == std::string::npos) return "";
    return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

std::string rtrim(const std::string& s) {
    const auto b = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? "" : s.substr(0, b + 1);
}

/// `s` with every run of spaces and tabs made one space (column widths vary with the names).
std::string squeeze_spaces(const std::string& s) {
    std::string out;
    for (char c : s) {
        const bool blank = c == ' ' || c == '\t';
        if (!(blank && !out.empty() && out.back() == ' ')) out += blank ? ' ' : c;
    }
    return out;
}

bool is_shell(const std::string& info) { return info == "sh" || info == "bash" || info == "shell"; }

/// `line` matches `pattern`, whose "..." parts match any text.
bool line_matches(const std::string& line, const std::string& pattern) {
    std::vector<std::string> pieces;
    size_t from = 0;
    for (size_t dots; (dots = pattern.find("...", from)) != std::string::npos; from = dots + 3)
        pieces.push_back(pattern.substr(from, dots - from));
    pieces.push_back(pattern.substr(from));
    if (line.compare(0, pieces.front().size(), pieces.front()) != 0) return false;
    size_t at = pieces.front().size();
    for (size_t i = 1; i < pieces.size(); ++i) {
        if (i + 1 == pieces.size()) {
            const std::string& last = pieces.back();
            return line.size() >= at + last.size() && line.compare(line.size() - last.size(), last.size(), last) == 0;
        }
        at = line.find(pieces[i], at);
        if (at == std::string::npos) return false;
        at += pieces[i].size();
    }
    return at == line.size();
}

}  // namespace

int DocBlock::commands() const {
    int n = 0;
    bool continued = false;
    std::string heredoc_end;
    for (const auto& raw : body) {
        const std::string l = trim(raw);
        if (!heredoc_end.empty()) {
            if (l == heredoc_end) heredoc_end.clear();
            continue;
        }
        const bool counts = !continued && !l.empty() && l[0] != '#';
        if (counts) ++n;
        continued = !l.empty() && l.back() == '\\';
        if (const auto h = l.find("<<"); h != std::string::npos) {
            std::string tok = trim(l.substr(h + 2));
            if (!tok.empty() && tok[0] == '-') tok = trim(tok.substr(1));
            if (!tok.empty() && (tok[0] == '\'' || tok[0] == '"')) tok = tok.substr(1, tok.find(tok[0], 1) - 1);
            heredoc_end = tok.substr(0, tok.find_first_of(" \t;&|"));
        }
    }
    return n;
}

std::string DocBlock::script() const {
    std::string s;
    for (const auto& l : body) s += l + "\n";
    return s;
}

std::vector<DocBlock> doc_blocks(const std::string& text, const std::string& file) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    std::vector<DocBlock> blocks;
    DocBlock pending;  // markers seen since the last block
    int pending_line = 0;
    bool want_output = false;
    auto where = [&](size_t i) { return file + ":" + std::to_string(i + 1) + ": "; };
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string l = trim(lines[i]);
        const std::string open = "<!-- doc-test:";
        if (l.rfind(open, 0) == 0) {
            if (l.size() < open.size() + 3 || l.compare(l.size() - 3, 3, "-->") != 0)
                throw std::runtime_error(where(i) + "a doc-test marker is one line ending in -->");
            const std::string m = trim(l.substr(open.size(), l.size() - open.size() - 3));
            const std::string kind = m.substr(0, m.find(' '));
            const std::string arg = m.size() > kind.size() ? trim(m.substr(kind.size())) : "";
            if (kind == "skip" && !arg.empty()) {
                pending.skip = true;
                pending.skip_reason = arg;
            } else if (kind == "needs" && !arg.empty()) {
                pending.needs = arg;
            } else if (kind == "replace") {
                // A shrunk command is not the documented one: the page shows what is tested.
                throw std::runtime_error(where(i) + "doc-test replace is not supported: write the command that is "
                                                    "tested, and skip (with a reason) a bigger one");
            } else if (kind == "expect" && !arg.empty()) {
                pending.expects.push_back(arg);
            } else if (kind == "output" && arg.empty()) {
                if (blocks.empty()) throw std::runtime_error(where(i) + "doc-test output: no shell block before it");
                want_output = true;
            } else {
                throw std::runtime_error(where(i) + "unknown doc-test marker '" + m +
                                         "' (skip REASON, needs PATH, expect TEXT, output)");
            }
            if (!pending_line && kind != "output") pending_line = static_cast<int>(i + 1);
            continue;
        }
        if (l.rfind("```", 0) != 0) continue;
        const std::string info = trim(l.substr(3));
        size_t end = i + 1;
        while (end < lines.size() && trim(lines[end]).rfind("```", 0) != 0) ++end;
        std::vector<std::string> body(lines.begin() + static_cast<long>(i) + 1,
                                      lines.begin() + static_cast<long>(std::min(end, lines.size())));
        if (want_output) {
            if (info != "text") throw std::runtime_error(where(i) + "doc-test output: expected a ```text block");
            for (auto& b : body) blocks.back().expected_output.push_back(rtrim(b));
            want_output = false;
        } else if (is_shell(info)) {
            pending.file = file;
            pending.line = static_cast<int>(i + 1);
            pending.body = body;
            blocks.push_back(pending);
            pending = DocBlock();
            pending_line = 0;
        } else if (pending_line) {
            throw std::runtime_error(file + ":" + std::to_string(pending_line) +
                                     ": doc-test marker before a block that is not a shell block");
        }
        i = end;
    }
    if (pending_line) throw std::runtime_error(file + ":" + std::to_string(pending_line) + ": doc-test marker without a block");
    if (want_output) throw std::runtime_error(file + ": doc-test output: no ```text block after it");
    return blocks;
}

std::string check_doc_output(const DocBlock& block, const std::string& output) {
    std::string missing;
    const std::string squeezed = squeeze_spaces(output);
    for (const auto& e : block.expects)
        if (squeezed.find(squeeze_spaces(e)) == std::string::npos)
            missing += "  expected text not in the output: " + e + "\n";
    std::vector<std::string> out;
    std::istringstream in(output);
    for (std::string l; std::getline(in, l);) out.push_back(rtrim(l));
    size_t at = 0;
    bool gap = false;  // a "..." line: the next expected line may come after any lines
    bool first = true;
    for (const auto& want : block.expected_output) {
        if (want == "...") {
            gap = true;
            continue;
        }
        size_t found = at;
        // The first expected line, and one after "...", may be anywhere further on; the others
        // follow the line before them directly.
        if (first || gap) {
            while (found < out.size() && !line_matches(out[found], want)) ++found;
        } else if (found < out.size() && !line_matches(out[found], want)) {
            found = out.size();
        }
        if (found >= out.size()) {
            missing += "  expected output line not found (in order): " + want + "\n";
            break;
        }
        at = found + 1;
        gap = first = false;
    }
    return missing;
}

}  // namespace stacksim::test
