// SPDX-License-Identifier: Apache-2.0
// The shell blocks of the Markdown docs, with the doc-test markers that say how to run and check them.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace stacksim::test {

/// One fenced shell block (```sh, ```bash, ```shell) of a Markdown file. Markers are HTML
/// comments, invisible on the rendered page, in the lines before the block:
///   <!-- doc-test: skip REASON -->        the block is not run (REASON is reported)
///   <!-- doc-test: needs PATH -->         the block runs only where PATH (from the checkout,
///                                          e.g. ../shared/traces) exists: third-party inputs
///   <!-- doc-test: expect TEXT -->         the block's output must contain TEXT (a quoted figure;
///                                          a run of spaces matches any run of spaces and tabs)
///   <!-- doc-test: output -->              before a ```text block after the shell block: the
///                                          output must hold its lines, in order; "..." inside a
///                                          line matches any text, a line of only "..." any lines
struct DocBlock {
    std::string file;
    int line = 0;  ///< of the opening fence
    std::vector<std::string> body;
    bool skip = false;
    std::string skip_reason;
    std::string needs;  ///< a path the block reads, relative to the checkout; empty: none
    std::vector<std::string> expects;
    std::vector<std::string> expected_output;
    /// The commands in the block: lines joined at trailing backslashes, without blank and
    /// comment lines and here-document contents.
    int commands() const;
    /// The body as a script: the block runs as written (no marker changes a command).
    std::string script() const;
};

/// The shell blocks of the Markdown `text` (named `file` in errors). Throws std::runtime_error
/// naming file and line for an unknown marker or a marker that belongs to no block.
std::vector<DocBlock> doc_blocks(const std::string& text, const std::string& file);

/// Empty when `output` satisfies the block's expects and expected output; else what is missing.
std::string check_doc_output(const DocBlock& block, const std::string& output);

}  // namespace stacksim::test
