// What one request or one file may cost: size limits per kind of file (checked before a byte is read),
// the host memory a run will need (checked before it allocates), and the words an out-of-memory
// failure is told to a user in. README "Files from elsewhere" lists the limits.
#pragma once
#include <cstdint>
#include <exception>
#include <string>

#include "types.hpp"
#include "variant.hpp"

namespace ws {

constexpr std::uintmax_t kMiB = std::uintmax_t(1) << 20;
constexpr std::uintmax_t kGiB = std::uintmax_t(1) << 30;
/// Number files (--input PATH, 1-D and 2-D text): 2^30 values of up to 16 characters.
constexpr std::uintmax_t kMaxNumberFileBytes = 16 * kGiB;
/// Mask files (--mask PATH): at most 15 x 15 values; generous for comments and spacing.
constexpr std::uintmax_t kMaxMaskFileBytes = 1 * kMiB;
/// Image files (--input photo.png/.jpg): the compressed file; the decoded size is bounded by kMaxN pixels.
constexpr std::uintmax_t kMaxImageFileBytes = 1 * kGiB;
/// Report files (--report, Open): the reports recorded here are a few MiB.
constexpr std::uintmax_t kMaxReportFileBytes = 256 * kMiB;
/// The longest token a number file may hold (a float32 needs fewer than 20 characters).
constexpr std::size_t kMaxNumberToken = 64;

/// Checks `path` before reading it: it exists, is a regular file (not a directory, /dev/zero or a
/// pipe) and holds at most `max_bytes`. `what` names it ("input file", "report"). Returns "" or one line.
std::string check_input_file(const std::string& path, std::uintmax_t max_bytes, const std::string& what);

/// Reads the whole file at `path` into `out`: check_input_file first, then at most `max_bytes` (a file
/// that grows while it is read is refused, not read on). Returns "" or one line naming `what`, the
/// path and the reason ("cannot open report 'r.json': Permission denied").
std::string read_file_bounded(const std::string& path, std::uintmax_t max_bytes, const std::string& what,
                              std::string& out);
/// The reason the last failed open of `path` gave, from errno: "cannot open report 'r.json': Permission denied".
std::string cannot_open(const std::string& what, const std::string& path);

/// "12.0 GiB", "512.0 MiB", "3.2 KiB", "17 bytes".
std::string format_bytes(std::uintmax_t bytes);
/// The host memory the kernel would give a new allocation now: /proc/meminfo MemAvailable, capped by
/// what this process's address-space limit (RLIMIT_AS, ulimit -v) leaves; -1 if unknown.
std::int64_t host_memory_available();
/// "" when `need` bytes fit in `available` (or available < 0: unknown), else
/// "needs 12.0 GiB, this machine has 7.8 GiB free".
std::string memory_refusal(std::int64_t need, std::int64_t available);
/// Host bytes a run of `v` on n elements of `type` allocates at its peak: the input, and for the
/// array patterns the output, its reference and the copy the check compares (8-byte doubles each).
std::int64_t estimate_run_host_bytes(const VariantInfo& v, std::int64_t n, DType type);
/// Device bytes the same run allocates: the input, the output (array patterns) or partials (n / 32).
std::int64_t estimate_run_device_bytes(const VariantInfo& v, std::int64_t n, DType type);

/// Checks the text of a floating option before it is converted: a finite number in [lo, hi]. NaN,
/// infinities, 1e309 (beyond a double), '' and trailing text are refused. Returns "" or one line
/// "--watchdog must be a number of seconds in 0..86400 (got 'nan')"; `unit` is "seconds", "" ...
/// An empty `option` leaves the name out (CLI11 puts "--watchdog: " before a validator's message).
std::string check_number_option(const std::string& option, const std::string& text, double lo, double hi,
                                const std::string& unit = "");
/// Checks the text of a whole-number option: not empty, digits only (an optional sign). Returns "" or one line.
std::string check_integer_text(const std::string& option, const std::string& text);

/// A caught exception in a user's words: std::bad_alloc becomes "out of host memory: needs about 4.0 GiB
/// (`need` bytes, the work's estimate; left out when < 0), this machine has 1.2 GiB free, address space
/// limited to 2.0 GiB (ulimit -v, when one is set) (try a smaller n or image)"; others what().
std::string describe_exception(const std::exception& e, std::int64_t need = -1);

}  // namespace ws
