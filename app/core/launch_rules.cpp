#include "launch_rules.hpp"

#include <algorithm>
#include <cctype>
#include <string>

namespace ws {

namespace {
bool is_pow2(long long x) { return x > 0 && (x & (x - 1)) == 0; }
}  // namespace

std::int64_t round_up(std::int64_t n, std::int64_t granule) { return (n + granule - 1) / granule * granule; }

std::int64_t window_elems(const VariantInfo& v, int block) {
  return std::int64_t(block) * std::max(1, v.rules.items_per_thread);
}

std::string resolve_launch(const VariantInfo& v, std::int64_t n, DType type, const LaunchConfig& requested,
                           const DeviceShape& dev, LaunchConfig& resolved) {
  const LaunchRules& r = v.rules;
  if (n <= 0) return "n must be positive (got " + std::to_string(n) + ")";
  if (n > kMaxN) return "n = " + std::to_string(n) + " is too large (" + max_n_text() + ")";
  if (r.max_n && n > r.max_n)
    return v.id + " takes n <= " + std::to_string(r.max_n) + ", got " + std::to_string(n) +
           (r.note.empty() ? std::string() : " (" + r.note + ")");
  if (r.int_only && type != DType::Int32) return int_only_refusal(v);
  if (v.cpu_only) {  // runs on the host: block and grid mean nothing
    resolved = LaunchConfig{0, 0};
    return "";
  }
  int block = requested.block ? requested.block : (r.fixed_block ? r.fixed_block : r.default_block);
  auto rule_note = [&]() { return r.note.empty() ? std::string() : " (" + r.note + ")"; };
  if (block < 1 || block > 1024) return "block size " + std::to_string(block) + " is outside 1..1024";
  if (r.fixed_block && block != r.fixed_block)
    return v.id + " runs with " + std::to_string(r.fixed_block) + " threads per block only, got " +
           std::to_string(block) + rule_note();
  if (block < r.min_block || block > r.max_block)
    return v.id + " takes block sizes " + std::to_string(r.min_block) + ".." + std::to_string(r.max_block) + ", got " +
           std::to_string(block) + rule_note();
  if (r.pow2_block && !is_pow2(block))
    return v.id + " needs a power-of-two block size (its tree halves the stride each step), got " +
           std::to_string(block);
  if (r.warp_multiple && block % 32 != 0)
    return v.id + " needs a block size that is a multiple of 32 (a whole number of warps), got " +
           std::to_string(block);

  const std::int64_t windows = (n + window_elems(v, block) - 1) / window_elems(v, block);
  std::int64_t grid = requested.grid;
  if (grid < 0) return "grid must be positive (got " + std::to_string(grid) + ")";
  if (r.grid_stride) {
    if (grid == 0) {
      std::int64_t cap = r.max_grid;
      if (!cap)
        cap = dev.sm_count > 0 ? std::int64_t(dev.sm_count) *
                                     std::max(1, (dev.max_threads_per_sm ? dev.max_threads_per_sm : 2048) / block)
                               : 1024;
      grid = std::max<std::int64_t>(1, std::min(windows, cap));
    }
    if (grid * block > kMaxN)
      return v.id + ": grid " + std::to_string(grid) + " x block " + std::to_string(block) +
             " threads would overflow the slide's int indices (at most 2^30 threads)";
    if (r.max_grid && grid > r.max_grid)
      return v.id + " takes at most " + std::to_string(r.max_grid) + " blocks, got " + std::to_string(grid) +
             rule_note();
  } else {
    if (grid == 0) grid = windows;
    if (r.max_grid && windows > r.max_grid)
      return v.id + " takes at most " + std::to_string(r.max_grid) + " block" + (r.max_grid == 1 ? "" : "s") +
             " (n <= " + std::to_string(r.max_grid * window_elems(v, block)) + " with block " + std::to_string(block) +
             "), got n = " + std::to_string(n) + rule_note();
    if (grid != windows)
      return v.id + " derives its grid from n: it needs exactly ceil(n / " + std::to_string(window_elems(v, block)) +
             ") = " + std::to_string(windows) + " blocks, got " + std::to_string(grid);
  }
  if (grid > 2147483647LL) return "grid of " + std::to_string(grid) + " blocks exceeds the hardware limit 2^31-1";
  resolved = LaunchConfig{block, grid};
  return "";
}

std::string int_only_refusal(const VariantInfo& v) {
  return v.id + " takes int32 only: " +
         (v.rules.int_only_reason.empty() ? std::string("its kernel is written for int") : v.rules.int_only_reason);
}

namespace {
enum class Count { Ok, Malformed, TooLarge };

/// Digits only; more than 18 significant digits (beyond any int64 count we take) is TooLarge.
Count parse_digits(const std::string& t, std::int64_t& v) {
  if (t.empty()) return Count::Malformed;
  for (char c : t)
    if (!std::isdigit(static_cast<unsigned char>(c))) return Count::Malformed;
  const std::size_t first = std::min(t.find_first_not_of('0'), t.size());
  if (t.size() - first > 18) return Count::TooLarge;
  v = first == t.size() ? 0 : std::stoll(t.substr(first));
  return Count::Ok;
}

/// "1048576", "2^20", "1<<20": Ok with out > 0, Malformed (text, 0, negatives) or TooLarge (beyond 2^62).
Count parse_count_text(const std::string& s, std::int64_t& out) {
  std::int64_t a = 0, b = 0;
  for (const char* op : {"^", "<<"}) {
    const auto pos = s.find(op);
    if (pos == std::string::npos) continue;
    const std::int64_t base = op[0] == '^' ? 2 : 1;
    if (parse_digits(s.substr(0, pos), a) != Count::Ok || a != base) return Count::Malformed;
    const Count e = parse_digits(s.substr(pos + std::string(op).size()), b);
    if (e != Count::Ok) return e;
    if (b > 62) return Count::TooLarge;
    out = std::int64_t(1) << b;
    return Count::Ok;
  }
  const Count c = parse_digits(s, a);
  if (c != Count::Ok) return c;
  if (a <= 0) return Count::Malformed;
  out = a;
  return Count::Ok;
}
}  // namespace

bool parse_count(const std::string& s, std::int64_t& out) { return parse_count_text(s, out) == Count::Ok; }

std::string max_n_text() {
  return "the limit is 2^30 = " + std::to_string(kMaxN) + " elements, so the kernels' int indices cannot overflow";
}

std::string parse_count_option(const std::string& option, const std::string& s, std::int64_t& out) {
  std::int64_t n = 0;
  const Count c = parse_count_text(s, n);
  if (c == Count::TooLarge || (c == Count::Ok && n > kMaxN))
    return option + " '" + s + "' is too large (" + max_n_text() + ")";
  if (c != Count::Ok) return option + " '" + s + "' is not a positive count (examples: 1000, 2^20, 1<<20)";
  out = n;
  return "";
}

}  // namespace ws
