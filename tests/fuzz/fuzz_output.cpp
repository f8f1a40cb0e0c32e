// Outputs (--out, --output, --screenshot, --export-view): what a write finds at its path and the policy it
// writes under, chosen by the input. Byte 0 picks what sits at the path (nothing, a file, a symbolic link to
// a file, a dangling link, a directory, a link to a directory, a link to itself), byte 1 the policy
// (overwrite, replace_symlink), the rest is the text written. The class the hand-made cases found and the
// other fuzzers could not reach: a write must never go through a symbolic link, never replace what the
// policy keeps, and leave no temporary file behind.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "file_write.hpp"

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// What is at `p` (not following a link) and, for a file, its bytes: the state a refused write keeps.
std::string state_of(const fs::path& p) {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(p, ec);
  if (ec || st.type() == fs::file_type::not_found) return "none";
  if (st.type() == fs::file_type::symlink) return "link:" + fs::read_symlink(p, ec).string();
  if (st.type() == fs::file_type::directory) return "dir";
  return "file:" + slurp(p);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  static const fs::path dir = fs::path(access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp") /
                              ("warpscope-fuzz-output-" + std::to_string(getpid()));
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir / "victim_dir");
  const fs::path victim = dir / "victim", out = dir / "out";
  std::ofstream(victim) << "VICTIM";
  switch (data[0] % 7) {
    case 0: break;
    case 1: std::ofstream(out) << "OLD"; break;
    case 2: fs::create_symlink(victim, out); break;
    case 3: fs::create_symlink(dir / "missing", out); break;
    case 4: fs::create_directory(out); break;
    case 5: fs::create_directory_symlink(dir / "victim_dir", out); break;
    default: fs::create_symlink(out, out); break;
  }
  ws::OutputPolicy policy;
  policy.overwrite = data[1] & 1;
  policy.replace_symlink = data[1] & 2;
  const std::string text(reinterpret_cast<const char*>(data + 2), size - 2);
  const std::string before = state_of(out);
  std::string err = ws::check_output_path(out.string(), {victim.string()}, "--out", policy);
  if (err.empty()) err = ws::write_file_atomic(out.string(), text, policy);
  if (err.find('\n') != std::string::npos) __builtin_trap();             // one line
  if (slurp(victim) != "VICTIM") __builtin_trap();                       // never written through a link
  if (!fs::is_empty(dir / "victim_dir")) __builtin_trap();               // nor into a linked directory
  if (!err.empty() && state_of(out) != before) __builtin_trap();         // a refused write changes nothing
  if (err.empty() && state_of(out) != "file:" + text) __builtin_trap();  // a write leaves the file itself
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".tmp") __builtin_trap();  // no temporary left behind
  return 0;
}
