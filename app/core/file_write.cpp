#include "file_write.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <mutex>

namespace ws {

namespace fs = std::filesystem;

namespace {

std::string dir_of(const fs::path& p) {
  const fs::path d = p.parent_path();
  return d.empty() ? std::string(".") : d.string();
}

// Temporary files being written, for the signal handler to remove. A slot is 0 free, 1 being filled,
// 2 live: the handler reads only live slots, whose path is complete (async-signal-safe: no allocation).
constexpr int kTempSlots = 64;
constexpr std::size_t kTempPathMax = 4096;
struct TempSlot {
  std::atomic<int> state{0};
  char path[kTempPathMax];
};
std::array<TempSlot, kTempSlots> g_temps;
constexpr std::array<int, 4> kCleanupSignals = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
std::array<struct sigaction, 4> g_previous{};

extern "C" void remove_temporaries_on_signal(int sig) {
  const int saved = errno;
  for (auto& slot : g_temps)
    if (slot.state.load() == 2) ::unlink(slot.path);
  for (std::size_t i = 0; i < kCleanupSignals.size(); ++i) {
    if (kCleanupSignals[i] != sig) continue;
    const struct sigaction& prev = g_previous[i];
    if (prev.sa_handler == SIG_DFL) {  // the signal takes its default course (ends the process) on return
      ::sigaction(sig, &prev, nullptr);
      ::raise(sig);
    } else if ((prev.sa_flags & SA_SIGINFO) == 0 && prev.sa_handler != SIG_IGN) {
      prev.sa_handler(sig);
    }
  }
  errno = saved;
}

/// Installs remove_temporaries_on_signal once per process, chained to the handlers already there; a
/// signal that is ignored (nohup's SIGHUP) stays ignored.
void install_cleanup_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (std::size_t i = 0; i < kCleanupSignals.size(); ++i) {
      struct sigaction prev {};
      if (::sigaction(kCleanupSignals[i], nullptr, &prev) != 0 || prev.sa_handler == SIG_IGN) continue;
      if ((prev.sa_flags & SA_SIGINFO) != 0) continue;  // a three-argument handler is not ours to chain
      g_previous[i] = prev;
      struct sigaction sa {};
      sa.sa_handler = remove_temporaries_on_signal;
      sigemptyset(&sa.sa_mask);
      sa.sa_flags = SA_RESTART;
      ::sigaction(kCleanupSignals[i], &sa, nullptr);
    }
  });
}

/// Registers `tmp` for removal on a signal; returns its slot, or -1 when every slot is taken (the file is
/// then left to remove_stale_temporaries).
int register_temporary(const std::string& tmp) {
  if (tmp.size() >= kTempPathMax) return -1;
  install_cleanup_handlers();
  for (int i = 0; i < kTempSlots; ++i) {
    int expected = 0;
    if (!g_temps[i].state.compare_exchange_strong(expected, 1)) continue;
    std::memcpy(g_temps[i].path, tmp.c_str(), tmp.size() + 1);
    g_temps[i].state.store(2);
    return i;
  }
  return -1;
}

void release_temporary(int slot) {
  if (slot >= 0) g_temps[slot].state.store(0);
}

/// Renames `from` onto `to` (never through a symbolic link at `to`: rename replaces the link itself).
/// Without `overwrite` an existing `to` is kept: EEXIST.
int rename_onto(const std::string& from, const std::string& to, bool overwrite) {
  if (overwrite) return ::rename(from.c_str(), to.c_str()) == 0 ? 0 : errno;
#ifdef __EMSCRIPTEN__
  // The browser's file system: no renameat2 and no link(), and nothing else writes there meanwhile.
  if (::access(to.c_str(), F_OK) == 0) return EEXIST;
  return ::rename(from.c_str(), to.c_str()) == 0 ? 0 : errno;
#else
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return errno;
  // A file system without RENAME_NOREPLACE: link() refuses an existing name too.
  if (::link(from.c_str(), to.c_str()) != 0) return errno;
  ::unlink(from.c_str());
  return 0;
#endif
}

}  // namespace

int remove_stale_temporaries(const std::string& path) {
  const fs::path p(path);
  const std::string prefix = "." + p.filename().string() + ".";
  std::error_code ec;
  int removed = 0;
  for (fs::directory_iterator it(dir_of(p), ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() + 4 || name.compare(0, prefix.size(), prefix) != 0 ||
        name.compare(name.size() - 4, 4, ".tmp") != 0)
      continue;
    // The middle is PID.K
    const std::string middle = name.substr(prefix.size(), name.size() - prefix.size() - 4);
    const std::size_t dot = middle.find('.');
    if (dot == 0 || dot == std::string::npos || middle.find_first_not_of("0123456789.") != std::string::npos) continue;
    const long pid = std::strtol(middle.substr(0, dot).c_str(), nullptr, 10);
    if (pid <= 0 || pid == long(::getpid())) continue;
    if (::kill(pid_t(pid), 0) == 0 || errno != ESRCH) continue;  // alive (or not ours to ask): keep
    if (::unlink(it->path().c_str()) == 0) ++removed;
  }
  return removed;
}

std::string write_file_atomic(const std::string& path, const std::function<bool(std::FILE*)>& write,
                              const OutputPolicy& policy) {
  if (path.empty()) return "no file name to write";
  struct stat there {};
  const bool exists = ::lstat(path.c_str(), &there) == 0;
  if (exists && S_ISLNK(there.st_mode) && !policy.replace_symlink)
    return "cannot write '" + path +
           "': it is a symbolic link, which is not followed (remove it or choose another name)";
  if (exists && !S_ISLNK(there.st_mode) && !policy.overwrite)
    return "cannot write '" + path + "': it exists and is kept";
  const std::string dir = dir_of(fs::path(path));
  remove_stale_temporaries(path);
  static std::atomic<unsigned> counter{0};
  std::string tmp;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    tmp = dir + "/." + fs::path(path).filename().string() + "." + std::to_string(::getpid()) + "." +
          std::to_string(counter.fetch_add(1)) + ".tmp";
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);  // 0666 & ~umask, as any new file
    if (fd < 0 && errno != EEXIST) return "cannot write '" + path + "': " + std::strerror(errno);
  }
  if (fd < 0) return "cannot write '" + path + "': no free temporary name in " + dir;
  const int slot = register_temporary(tmp);
  // Keep the permissions of the file being replaced (not those of a link's target).
  if (exists && S_ISREG(there.st_mode)) (void)::fchmod(fd, there.st_mode & 07777);
  std::FILE* f = ::fdopen(fd, "wb");
  if (!f) {
    const int e = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    release_temporary(slot);
    return "cannot write '" + path + "': " + std::strerror(e);
  }
  errno = 0;
  bool ok = write(f);
  int err = ok && !std::ferror(f) ? 0 : (errno ? errno : EIO);
  if (err == 0 && std::fflush(f) != 0) err = errno;
  if (err == 0 && ::fsync(::fileno(f)) != 0) err = errno;
  if (std::fclose(f) != 0 && err == 0) err = errno;
  const bool may_replace = policy.overwrite || (exists && S_ISLNK(there.st_mode));
  if (err == 0) err = rename_onto(tmp, path, may_replace);
  if (err != 0) {
    ::unlink(tmp.c_str());
    release_temporary(slot);
    if (err == EEXIST) return "cannot write '" + path + "': it appeared while writing and is kept";
    return "cannot write '" + path + "': " + std::strerror(err) + " (the previous file, if any, is unchanged)";
  }
  release_temporary(slot);
  // The rename itself must reach the disk too.
  if (int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
    (void)::fsync(dfd);
    ::close(dfd);
  }
  return "";
}

std::string write_file_atomic(const std::string& path, const std::string& text, const OutputPolicy& policy) {
  return write_file_atomic(
      path, [&](std::FILE* f) { return std::fwrite(text.data(), 1, text.size(), f) == text.size(); }, policy);
}

OutputPolicy output_policy(bool force) {
  OutputPolicy p;
  p.overwrite = force;
  p.replace_symlink = force;
  return p;
}

std::string unused_path(const std::string& path) {
  struct stat there {};
  if (::lstat(path.c_str(), &there) != 0) return path;
  const fs::path p(path);
  const std::string dir = p.parent_path().string(), stem = p.stem().string(), ext = p.extension().string();
  std::string candidate = path;
  for (int k = 2; k <= 9999; ++k) {
    candidate = (dir.empty() ? fs::path(stem + "-" + std::to_string(k) + ext)
                             : fs::path(dir) / (stem + "-" + std::to_string(k) + ext))
                    .string();
    if (::lstat(candidate.c_str(), &there) != 0) return candidate;
  }
  return candidate;
}

std::string check_output_path(const std::string& path, const std::vector<std::string>& inputs, const std::string& what,
                              const OutputPolicy& policy) {
  if (path.empty()) return what + " needs a file name";
  std::error_code ec;
  struct stat there {};
  const bool exists = ::lstat(path.c_str(), &there) == 0;
  const bool link = exists && S_ISLNK(there.st_mode);
  if (!link && fs::is_directory(path, ec)) return what + " '" + path + "' is a directory; give a file name in it";
  const std::string dir = dir_of(fs::path(path));
  if (!fs::is_directory(dir, ec)) return what + " '" + path + "': the directory '" + dir + "' does not exist";
  if (::access(dir.c_str(), W_OK) != 0) return what + " '" + path + "': the directory '" + dir + "' is not writable";
  if (exists && !link && !S_ISREG(there.st_mode)) return what + " '" + path + "' is not a regular file";
  for (const std::string& in : inputs) {
    if (in.empty()) continue;
    if (fs::exists(in, ec) && fs::exists(path, ec) && fs::equivalent(in, path, ec))
      return what + " '" + path + "' is the input file '" + in + "': writing it would destroy the input";
  }
  if (link && !policy.replace_symlink)
    return what + " '" + path + "' is a symbolic link: it is not followed (give --force to replace the link itself)";
  if (exists && !link && !policy.overwrite)
    return what + " '" + path + "' exists: it is kept (give --force to replace it, or another name)";
  return "";
}

}  // namespace ws
