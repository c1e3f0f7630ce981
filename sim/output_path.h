// SPDX-License-Identifier: Apache-2.0
// The rule for every file the user names as an output: regular files are replaced atomically,
// FIFOs and character devices are written directly, nothing else is touched.
#pragma once
#include <string>

namespace stacksim::sim {

/// How an output path is written (see docs/outputs.md).
enum class OutputKind {
    Replace,  ///< missing or a regular file: written to a new temporary beside it, renamed over it
    Stream,   ///< a FIFO, a character device (/dev/null) or the process's own stdout/stderr:
              ///< written in place, never created, truncated, renamed over or removed
};

/// Decides how `path` is written, without following a link at `path` except to a FIFO or a
/// character device (/dev/stdout). Throws InputError starting with `what` for a folder, a
/// symbolic link to anything else, a block device or a socket.
OutputKind classify_output(const std::string& path, const std::string& what);

/// Opens `path` (classified Stream) for writing: /dev/stdout, /dev/stderr and /dev/fd/N
/// duplicate the descriptor already open; others are opened without O_CREAT or O_TRUNC (a FIFO
/// blocks until a reader opens it). Returns the descriptor; throws InputError naming `what`.
int open_stream_output(const std::string& path, const std::string& what);

/// Creates a new file beside `path` named `path`.XXXXXX`suffix` (random letters) with
/// O_CREAT|O_EXCL|O_NOFOLLOW, mode 0666 less the umask: a file or link planted at any name is
/// never opened. Sets `tmp` to its name and returns the descriptor; throws InputError.
int create_temp_beside(const std::string& path, const std::string& suffix, const std::string& what,
                       std::string& tmp);

/// Renames `tmp` over `path` after checking again that `path` is missing or a regular file
/// (or a link, replaced itself, never followed). Removes `tmp` and throws InputError otherwise.
void rename_into_place(const std::string& tmp, const std::string& path, const std::string& what);

/// Writes all of `data` to `fd`; throws InputError naming `what` on failure (ENOSPC...).
void write_all(int fd, const char* data, size_t size, const std::string& what);

}  // namespace stacksim::sim
