#include "file_write.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace ws {

namespace fs = std::filesystem;

namespace {

/// The file a write to `path` must replace: the target of a symlink, else `path` itself.
fs::path target_of(const std::string& path) {
  std::error_code ec;
  if (fs::is_symlink(path, ec)) {
    const fs::path t = fs::canonical(path, ec);
    if (!ec) return t;
  }
  return fs::path(path);
}

std::string dir_of(const fs::path& p) {
  const fs::path d = p.parent_path();
  return d.empty() ? std::string(".") : d.string();
}

}  // namespace

std::string write_file_atomic(const std::string& path, const std::function<bool(std::FILE*)>& write) {
  if (path.empty()) return "no file name to write";
  const fs::path target = target_of(path);
  const std::string dir = dir_of(target);
  static std::atomic<unsigned> counter{0};
  std::string tmp;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    tmp = dir + "/." + target.filename().string() + "." + std::to_string(::getpid()) + "." +
          std::to_string(counter.fetch_add(1)) + ".tmp";
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);  // 0666 & ~umask, as any new file
    if (fd < 0 && errno != EEXIST) return "cannot write '" + path + "': " + std::strerror(errno);
  }
  if (fd < 0) return "cannot write '" + path + "': no free temporary name in " + dir;
  // Keep the permissions of the file being replaced.
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) (void)::fchmod(fd, st.st_mode & 07777);
  std::FILE* f = ::fdopen(fd, "wb");
  if (!f) {
    const int e = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    return "cannot write '" + path + "': " + std::strerror(e);
  }
  errno = 0;
  bool ok = write(f);
  int err = ok && !std::ferror(f) ? 0 : (errno ? errno : EIO);
  if (err == 0 && std::fflush(f) != 0) err = errno;
  if (err == 0 && ::fsync(::fileno(f)) != 0) err = errno;
  if (std::fclose(f) != 0 && err == 0) err = errno;
  if (err == 0 && ::rename(tmp.c_str(), target.c_str()) != 0) err = errno;
  if (err != 0) {
    ::unlink(tmp.c_str());
    return "cannot write '" + path + "': " + std::strerror(err) + " (the previous file, if any, is unchanged)";
  }
  // The rename itself must reach the disk too.
  if (int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
    (void)::fsync(dfd);
    ::close(dfd);
  }
  return "";
}

std::string write_file_atomic(const std::string& path, const std::string& text) {
  return write_file_atomic(path,
                           [&](std::FILE* f) { return std::fwrite(text.data(), 1, text.size(), f) == text.size(); });
}

std::string check_output_path(const std::string& path, const std::vector<std::string>& inputs,
                              const std::string& what) {
  if (path.empty()) return what + " needs a file name";
  std::error_code ec;
  if (fs::is_directory(path, ec)) return what + " '" + path + "' is a directory; give a file name in it";
  const fs::path target = target_of(path);
  const std::string dir = dir_of(target);
  if (!fs::is_directory(dir, ec)) return what + " '" + path + "': the directory '" + dir + "' does not exist";
  if (::access(dir.c_str(), W_OK) != 0) return what + " '" + path + "': the directory '" + dir + "' is not writable";
  if (fs::exists(target, ec) && !fs::is_regular_file(target, ec)) return what + " '" + path + "' is not a regular file";
  for (const std::string& in : inputs) {
    if (in.empty()) continue;
    if (fs::exists(in, ec) && fs::exists(target, ec) && fs::equivalent(in, target, ec))
      return what + " '" + path + "' is the input file '" + in + "': writing it would destroy the input";
  }
  return "";
}

}  // namespace ws
