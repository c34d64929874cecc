#include "formats/output.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>

#include "fg/error.h"

namespace fg::formats {

namespace {

constexpr std::size_t kBufferSize = 1 << 20;

// An interrupted run (Ctrl-C, kill, a closed terminal, a reader gone from
// a pipe) must not leave its temporary behind. The handler may only call
// async-signal-safe functions: it unlinks the path kept here, restores the
// default action (SA_RESETHAND) and raises the signal again, which ends the
// process as the signal would have once the handler returns. One temporary
// at a time: a tool writes one output.
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
char g_temp_path[PATH_MAX + 1];
volatile std::sig_atomic_t g_temp_set = 0;

extern "C" void remove_temp_and_reraise(int sig) {
  const int saved = errno;
  if (g_temp_set) ::unlink(g_temp_path);
  errno = saved;
  ::raise(sig);  // blocked until the handler returns; then the default action
}

// Installs the handler for the signals whose action is the default (one
// that was ignored, as under nohup, stays ignored).
void install_cleanup_handlers() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  for (int sig : kCleanupSignals) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;
    struct sigaction sa {};
    sa.sa_handler = remove_temp_and_reraise;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    ::sigaction(sig, &sa, nullptr);
  }
}

// Blocks the cleanup signals while a temporary is created and registered,
// so that none lands between the two.
class BlockCleanupSignals {
 public:
  BlockCleanupSignals() {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : kCleanupSignals) sigaddset(&set, sig);
    ::pthread_sigmask(SIG_BLOCK, &set, &old_);
  }
  ~BlockCleanupSignals() { ::pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  BlockCleanupSignals(const BlockCleanupSignals&) = delete;
  BlockCleanupSignals& operator=(const BlockCleanupSignals&) = delete;

 private:
  sigset_t old_;
};

}  // namespace

void Output::refuse_terminal(const std::string& path, bool binary) {
  if (binary && (path.empty() || path == "-") && ::isatty(1))
    throw UsageError("refusing to write binary output to a terminal; use -o FILE or a pipe");
}

void Output::check_path(const std::string& path) {
  if (path.empty() || path == "-") return;
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw UsageError("-o " + path + ": is a directory");
    return;  // an existing file, device or pipe: opened when written
  }
  const std::size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw UsageError("-o " + path + ": cannot create a file in " + dir + ": " + std::strerror(errno));
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
  int fd;
  {
    BlockCleanupSignals blocked;
    install_cleanup_handlers();
    fd = ::mkstemp(pattern.data());
    if (fd >= 0 && pattern.size() < sizeof g_temp_path) {
      std::memcpy(g_temp_path, pattern.c_str(), pattern.size() + 1);
      g_temp_set = 1;
    }
  }
  if (fd < 0) throw Error(path + ": cannot create output file: " + std::strerror(errno));
  ::fchmod(
      fd, 0644 & ~[] {
        mode_t m = ::umask(0);
        ::umask(m);
        return m;
      }());
  ::close(fd);
  temp_ = pattern;
  if (!open_file(temp_)) {
    ::unlink(temp_.c_str());
    g_temp_set = 0;
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
    g_temp_set = 0;  // after the unlink: a signal in between unlinks it again, harmlessly
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
  g_temp_set = 0;  // after the rename: a signal in between finds no temporary to unlink
  committed_ = true;
}

}  // namespace fg::formats
