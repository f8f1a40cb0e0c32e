#include "limits.hpp"

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>

#include "patterns.hpp"

namespace ws {

std::string check_input_file(const std::string& path, std::uintmax_t max_bytes, const std::string& what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "cannot open " + what + " '" + path + "': " + std::strerror(errno);
  if (S_ISDIR(st.st_mode)) return what + " '" + path + "' is a directory, not a file";
  if (!S_ISREG(st.st_mode))
    return what + " '" + path + "' is not a regular file (a device, pipe or socket cannot be read to its end)";
  if (std::uintmax_t(st.st_size) > max_bytes)
    return what + " '" + path + "' is " + format_bytes(std::uintmax_t(st.st_size)) + ", more than the " +
           format_bytes(max_bytes) + " a " + what + " may have";
  return "";
}

std::string cannot_open(const std::string& what, const std::string& path) {
  return "cannot open " + what + " '" + path + "': " + std::strerror(errno);
}

std::string read_file_bounded(const std::string& path, std::uintmax_t max_bytes, const std::string& what,
                              std::string& out) {
  out.clear();
  if (std::string err = check_input_file(path, max_bytes, what); !err.empty()) return err;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return cannot_open(what, path);
  std::string text;
  char buf[1 << 16];
  std::size_t got = 0;
  bool failed = false;
  while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) {
    if (text.size() + got > max_bytes) {
      std::fclose(f);
      return what + " '" + path + "' grew past the " + format_bytes(max_bytes) + " a " + what + " may have";
    }
    text.append(buf, got);
  }
  failed = std::ferror(f) != 0;
  const int read_errno = errno;
  std::fclose(f);
  if (failed) return "cannot read " + what + " '" + path + "': " + std::strerror(read_errno);
  out = std::move(text);
  return "";
}

std::string format_bytes(std::uintmax_t bytes) {
  char buf[48];
  if (bytes >= kGiB)
    std::snprintf(buf, sizeof buf, "%.1f GiB", double(bytes) / double(kGiB));
  else if (bytes >= kMiB)
    std::snprintf(buf, sizeof buf, "%.1f MiB", double(bytes) / double(kMiB));
  else if (bytes >= 1024)
    std::snprintf(buf, sizeof buf, "%.1f KiB", double(bytes) / 1024.0);
  else
    std::snprintf(buf, sizeof buf, "%ju bytes", bytes);
  return buf;
}

std::int64_t host_memory_available() {
  std::int64_t available = -1;
  {
    std::ifstream f("/proc/meminfo");
    std::string key;
    std::int64_t kib = 0;
    std::string unit;
    while (f >> key >> kib >> unit)
      if (key == "MemAvailable:") {
        available = kib * 1024;
        break;
      }
  }
  // A limit on this process's address space (ulimit -v, a job's cgroup-free sandbox) caps it too:
  // MemAvailable alone promised 8 GiB where 4 GiB of address space was all there was.
  rlimit as{};
  if (::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) {
    std::ifstream statm("/proc/self/statm");
    std::int64_t pages = 0;
    if (statm >> pages) {
      const std::int64_t left =
          std::max<std::int64_t>(0, std::int64_t(as.rlim_cur) - pages * std::int64_t(::sysconf(_SC_PAGESIZE)));
      available = available < 0 ? left : std::min(available, left);
    }
  }
  return available;
}

std::string memory_refusal(std::int64_t need, std::int64_t available) {
  if (available < 0 || need <= available) return "";
  return "needs " + format_bytes(std::uintmax_t(need)) + ", this machine has " +
         format_bytes(std::uintmax_t(available)) + " free";
}

namespace {

std::int64_t elem_bytes(DType type) { return type == DType::UInt8 ? 1 : 4; }

/// Whether the run's output has one element per input element (scans, convolutions, filters):
/// PatternSpec::array_output.
bool array_output(const VariantInfo& v) {
  const PatternSpec& spec = pattern_of(v);
  if (spec.scalar_result) return false;
  return spec.array_output ? spec.array_output(v) : true;
}

}  // namespace

std::int64_t estimate_run_host_bytes(const VariantInfo& v, std::int64_t n, DType type) {
  const std::int64_t input = n * elem_bytes(type);
  // Output (RunResult::output), the reference and the checked copy are doubles; the backend's raw output 4 bytes.
  const std::int64_t output = array_output(v) ? n * (8 + 8 + 8 + 4) : 0;
  return input + output;
}

std::int64_t estimate_run_device_bytes(const VariantInfo& v, std::int64_t n, DType type) {
  const std::int64_t input = n * elem_bytes(type);
  return input + (array_output(v) ? n * 4 : n / 32 * 4);
}

std::string check_number_option(const std::string& option, const std::string& text, double lo, double hi,
                                const std::string& unit) {
  char range[96];
  std::snprintf(range, sizeof range, "%.10g..%.10g", lo, hi);
  const std::string refusal = (option.empty() ? "" : option + " ") + "must be a " +
                              (unit.empty() ? "number" : "number of " + unit) + " in " + range + " (got '" + text +
                              "')";
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return refusal;
  errno = 0;
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  // strtod reads "nan", "inf" and "infinity", and gives HUGE_VAL with ERANGE for 1e309.
  if (end == text.c_str() || *end != '\0' || errno == ERANGE || !std::isfinite(x) || x < lo || x > hi) return refusal;
  return "";
}

std::string check_integer_text(const std::string& option, const std::string& text) {
  const std::size_t first = !text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0;
  if (text.size() <= first) return (option.empty() ? "" : option + " ") + "needs a whole number (got '" + text + "')";
  return "";
}

std::string describe_exception(const std::exception& e, std::int64_t need) {
  if (dynamic_cast<const std::bad_alloc*>(&e)) {
    const std::int64_t free_bytes = host_memory_available();
    std::string line = "out of host memory: " + (need > 0 ? "needs about " + format_bytes(std::uintmax_t(need))
                                                          : std::string("an allocation failed"));
    if (free_bytes >= 0) line += ", this machine has " + format_bytes(std::uintmax_t(free_bytes)) + " free";
    rlimit as{};
    if (::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
      line += ", address space limited to " + format_bytes(std::uintmax_t(as.rlim_cur)) + " (ulimit -v)";
    return line + " (try a smaller n or image)";
  }
  return e.what();
}

}  // namespace ws
