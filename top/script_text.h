// SPDX-License-Identifier: Apache-2.0
// The one place strings reach generated scripts (Slurm job scripts): quoted or refused here.
#pragma once
#include <string>

namespace stacksim::top {

/// `text` as one bash word: in single quotes, each ' written '\''. Whatever `text` holds
/// (newlines, quotes, $(...), backticks, globs, spaces) bash reads it back unchanged as one word.
/// Throws sim::InputError naming `what` when `text` holds a NUL (no argument can).
std::string shell_word(const std::string& text, const std::string& what);

/// `path` as a Slurm file name pattern (sbatch --output) that names exactly `path`: each '%'
/// doubled, so that Slurm expands none of it. Throws sim::InputError naming `what` when `path`
/// holds a NUL or a control character (a newline would end a script line if it ever reached one).
std::string slurm_literal_path(const std::string& path, const std::string& what);

/// Throws sim::InputError naming `what` unless `text` can stand inside one line of a script (no
/// control character: newline, carriage return, NUL, ...). Returns `text`.
const std::string& one_script_line(const std::string& text, const std::string& what);

}  // namespace stacksim::top
