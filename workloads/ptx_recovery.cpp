// SPDX-License-Identifier: Apache-2.0
// PTX parser, collect mode (`stacksim ptx check`): record a problem, skip past the construct
// and go on, so that one pass lists every unsupported construct of a module.
#include "workloads/ptx_parser_impl.h"

#include <algorithm>

namespace stacksim::workloads {

PtxCheck check_ptx(std::string_view text, const std::string& file_name) {
    PtxCheck r;
    detail::PtxParser p(text, file_name);
    p.collect_problems(&r.problems);
    r.module = p.parse();
    r.kernel_clean = p.kernel_clean();
    // Symbols are resolved at the end of each kernel: report in source order.
    std::stable_sort(r.problems.begin(), r.problems.end(),
                     [](const PtxError& a, const PtxError& b) { return a.line() < b.line(); });
    return r;
}

namespace detail {

void PtxParser::report(const PtxError& e) {
    if (!m_problems) throw e;
    m_problems->push_back(e);
}

void PtxParser::recover_module() {
    // Skip to the end of the directive: its ';' or its balanced { } block (and a ';' after it,
    // as in `.global .b8 x[2] = {1, 2};`).
    int depth = 0;
    while (peek().kind != TokKind::End) {
        const Token& t = next();
        if (t.is('{')) ++depth;
        if (t.is('}') && --depth <= 0) {
            accept(';');
            return;
        }
        if (t.is(';') && depth == 0) return;
    }
}

void PtxParser::recover_statement() {
    // Skip to the statement's ';'. Braces opened on the way (vector operands, initializers)
    // are skipped whole; a '}' that closes the enclosing scope stops the skip unread.
    int depth = 0;
    while (peek().kind != TokKind::End) {
        const Token& t = peek();
        if (t.is('}') && depth == 0) return;
        next();
        if (t.is('{')) ++depth;
        if (t.is('}')) --depth;
        if (t.is(';') && depth == 0) return;
    }
}

}  // namespace detail
}  // namespace stacksim::workloads
