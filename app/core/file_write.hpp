// Writing files without losing the one already there: every report, CSV, output array and PNG the
// program writes goes through write_file_atomic (a temporary file in the same directory, fsync,
// rename over the target), so a full disk or a killed process leaves the old file whole.
#pragma once
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace ws {

/// Writes `path` atomically: `write` fills a temporary file in `path`'s directory (it returns false,
/// or the stream errors, on failure), which is flushed, fsync'ed and renamed over `path`; a symlink is
/// followed and its target replaced. On failure the temporary file is removed and `path` is untouched.
/// Returns "" or one line naming the path and the reason (e.g. "No space left on device").
std::string write_file_atomic(const std::string& path, const std::function<bool(std::FILE*)>& write);
/// write_file_atomic of the bytes `text`.
std::string write_file_atomic(const std::string& path, const std::string& text);

/// Checks that `path` can be written before any work starts: not empty, not a directory, its
/// directory exists and is writable, and it is none of `inputs` (the same file, by any name).
/// `what` names the option in the message ("--out"). Returns "" or one line.
std::string check_output_path(const std::string& path, const std::vector<std::string>& inputs, const std::string& what);

}  // namespace ws
