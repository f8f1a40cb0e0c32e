#include "limits.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <new>

#include "patterns.hpp"
#include "patterns/atomics/reference.hpp"

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
  std::ifstream f("/proc/meminfo");
  std::string key;
  std::int64_t kib = 0;
  std::string unit;
  while (f >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return -1;
}

std::string memory_refusal(std::int64_t need, std::int64_t available) {
  if (available < 0 || need <= available) return "";
  return "needs " + format_bytes(std::uintmax_t(need)) + ", this machine has " +
         format_bytes(std::uintmax_t(available)) + " free";
}

namespace {

std::int64_t elem_bytes(DType type) { return type == DType::UInt8 ? 1 : 4; }

/// Whether the run's output has one element per input element (scans, convolutions, filters).
bool array_output(const VariantInfo& v) {
  if (pattern_of(v).scalar_result) return false;
  const AtomicsKind k = v.atomics;
  return k != AtomicsKind::Counter && k != AtomicsKind::Histogram;  // filters keep up to n; histograms 256 bins
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

std::string describe_exception(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e))
    return "out of host memory: the request needs more memory than this machine could give (try a smaller n or image)";
  return e.what();
}

}  // namespace ws
