// Writing files without losing the one already there: every report, CSV, output array and PNG the
// program writes goes through write_file_atomic (a temporary file beside the path, fsync, rename onto
// the path itself), so a full disk or a killed process leaves the old file whole, and a symbolic link
// at the path is never followed: its target is not replaced.
#pragma once
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace ws {

/// What a write may replace at its path. The default replaces a regular file (the GUI's exports);
/// the command line keeps an existing output unless --force (overwrite = false, replace_symlink = false).
struct OutputPolicy {
  bool overwrite = true;         ///< an existing regular file at the path may be replaced
  bool replace_symlink = false;  ///< an existing symbolic link at the path is replaced by the file (never its target)
};

/// What an output option may replace: with --force (`force`) an existing file, or a symbolic link itself (never
/// its target); without it nothing that exists (the command line's and the GUI's rule).
OutputPolicy output_policy(bool force);

/// `path` where nothing exists there (not even a dangling link), else the first free "STEM-K.EXT" beside it
/// (K = 2, 3, ...; "warpscope-compare-2.png", a folder "warpscope-steps-x-2"): a new name for a file that must
/// not replace one. Gives up after 9999 names and returns the last one tried (which a write then refuses).
std::string unused_path(const std::string& path);

/// Writes `path` atomically: `write` fills a temporary file `.NAME.PID.K.tmp` in `path`'s directory (it
/// returns false, or the stream errors, on failure), which is flushed, fsync'ed and renamed onto `path`
/// itself. A symbolic link at `path` is refused unless policy.replace_symlink (then the link itself is
/// replaced, its target left alone); an existing file is refused unless policy.overwrite (checked at the
/// rename: RENAME_NOREPLACE). SIGINT, SIGTERM, SIGHUP and SIGQUIT during the write remove the temporary
/// file before the signal takes its course; temporary files of `path` left by dead processes (SIGKILL)
/// are removed by the next write. On failure `path` is untouched. Returns "" or one line naming the path
/// and the reason (e.g. "No space left on device").
std::string write_file_atomic(const std::string& path, const std::function<bool(std::FILE*)>& write,
                              const OutputPolicy& policy = {});
/// write_file_atomic of the bytes `text`.
std::string write_file_atomic(const std::string& path, const std::string& text, const OutputPolicy& policy = {});

/// Checks that `path` can be written before any work starts: not empty, not a directory, its
/// directory exists and is writable, it is none of `inputs` (the same file, by any name), and what is
/// there is allowed by `policy` (an existing file without overwrite, a symbolic link without
/// replace_symlink: refused, naming --force). `what` names the option in the message ("--out").
/// Returns "" or one line.
std::string check_output_path(const std::string& path, const std::vector<std::string>& inputs, const std::string& what,
                              const OutputPolicy& policy = {});

/// Removes the temporary files `.NAME.PID.K.tmp` of `path` whose process PID no longer exists (a write
/// killed by SIGKILL or a power cut). Returns how many were removed. write_file_atomic calls it.
int remove_stale_temporaries(const std::string& path);

}  // namespace ws
