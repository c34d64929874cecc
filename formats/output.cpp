#include "formats/output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>

#include "fg/error.h"

namespace fg::formats {

namespace {
constexpr std::size_t kBufferSize = 1 << 20;
}

void Output::refuse_terminal(const std::string& path, bool binary) {
  if (binary && (path.empty() || path == "-") && ::isatty(1))
    throw UsageError("refusing to write binary output to a terminal; use -o FILE or a pipe");
}

Output::Output(const std::string& path, bool binary) : path_(path) {
  buffer_ = std::make_unique_for_overwrite<char[]>(kBufferSize);  // pages touched only if used
  if (path.empty() || path == "-") {
    refuse_terminal(path, binary);
    std::cout.rdbuf()->pubsetbuf(buffer_.get(), kBufferSize);
    stream_ = &std::cout;
    return;
  }
  // Where the output really goes. A device or FIFO (/dev/null, a pipe made
  // with mkfifo) is written directly: renaming a file over it would replace
  // it. A symbolic link is followed, so the link stays and its target is
  // replaced. Regular files and new names get a temporary and a rename.
  std::string target = path;
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    char* real = ::realpath(path.c_str(), nullptr);
    if (real) {
      target = real;
      std::free(real);
    }
  }
  if (::stat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) throw Error(path + ": is a directory");
    if (!open_file(path)) throw Error(path + ": cannot write output: " + std::strerror(errno));
    return;
  }
  path_ = target;
  // A unique temporary in the target's directory, so rename() stays atomic.
  std::string pattern = target + ".tmp-XXXXXX";
  int fd = ::mkstemp(pattern.data());
  if (fd < 0) throw Error(path + ": cannot create output file: " + std::strerror(errno));
  ::fchmod(fd, 0644 & ~[] { mode_t m = ::umask(0); ::umask(m); return m; }());
  ::close(fd);
  temp_ = pattern;
  if (!open_file(temp_)) {
    ::unlink(temp_.c_str());
    throw Error(path + ": cannot write output file");
  }
}

bool Output::open_file(const std::string& where) {
  auto file = std::make_unique<std::ofstream>();
  file->rdbuf()->pubsetbuf(buffer_.get(), kBufferSize);
  file->open(where, std::ios::binary | std::ios::trunc);
  if (!*file) return false;
  stream_ = file.get();
  owned_ = std::move(file);
  return true;
}

Output::~Output() {
  if (!committed_ && !temp_.empty()) {
    owned_.reset();
    ::unlink(temp_.c_str());
  }
}

void Output::commit() {
  stream_->flush();
  if (!*stream_) throw Error((temp_.empty() ? std::string("<stdout>") : path_) + ": write failed");
  if (temp_.empty()) {
    if (owned_) static_cast<std::ofstream&>(*owned_).close();
    committed_ = true;
    return;
  }
  static_cast<std::ofstream&>(*owned_).close();
  if (!*owned_) throw Error(path_ + ": write failed");
  if (::rename(temp_.c_str(), path_.c_str()) != 0)
    throw Error(path_ + ": cannot move output into place: " + std::strerror(errno));
  committed_ = true;
}

}  // namespace fg::formats
