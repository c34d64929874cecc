#include "formats/output.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <string_view>

#include "fg/error.h"

namespace fg::formats {

namespace {

constexpr std::size_t kBufferSize = 1 << 20;

// An interrupted run (Ctrl-C, kill, a closed terminal, a reader gone from
// a pipe) must not leave its temporary behind. The handler may only call
// async-signal-safe functions: it unlinks the path kept here, restores the
// default action (SA_RESETHAND) and raises the signal again, which ends the
// process as the signal would have once the handler returns. One temporary
// is kept, the one registered last: a tool writes one output at a time, and
// fg-report, which writes pages on two threads, removes its whole temporary
// site itself. Registering and clearing take g_temp_mutex (the handler
// does not), and only the output that registered the path clears it.
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
char g_temp_path[PATH_MAX + 1];
volatile std::sig_atomic_t g_temp_set = 0;
std::mutex g_temp_mutex;
const void* g_temp_owner = nullptr;  // the Output whose temporary g_temp_path names

extern "C" void remove_temp_and_reraise(int sig) {
  const int saved = errno;
  if (g_temp_set) ::unlink(g_temp_path);
  errno = saved;
  ::raise(sig);  // blocked until the handler returns; then the default action
}

// Installs the handler for the signals whose action is the default (one
// that was ignored, as under nohup, stays ignored).
void install_cleanup_handlers() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    for (int sig : kCleanupSignals) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;
      struct sigaction sa {};
      sa.sa_handler = remove_temp_and_reraise;
      sigemptyset(&sa.sa_mask);
      sa.sa_flags = SA_RESETHAND;
      ::sigaction(sig, &sa, nullptr);
    }
  });
}

// Forgets the temporary of `owner`, if it is the one kept.
void clear_temp(const void* owner) {
  std::lock_guard<std::mutex> lock(g_temp_mutex);
  if (g_temp_owner != owner) return;
  g_temp_set = 0;
  g_temp_owner = nullptr;
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

// The name errors give the output.
std::string shown_name(const std::string& path) {
  return path.empty() || path == "-" ? "standard output" : path;
}

// "NAME: write failed: REASON", with the reason errno gives (`error`, 0
// when none is known).
[[noreturn]] void throw_write_failed(const std::string& path, int error) {
  throw Error(shown_name(path) + ": write failed" + (error ? ": " + std::string(std::strerror(error)) : ""));
}

// The file `path` names once its symbolic links are followed, the last
// one even when it dangles (the output is then created where it points),
// so that writing replaces the link's target and the link stays.
std::string follow_links(const std::string& path) {
  std::string at = path;
  for (int hops = 0; hops < 40; ++hops) {  // Linux's limit (ELOOP)
    struct stat st;
    if (::lstat(at.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return at;
    std::string to(PATH_MAX, '\0');
    const ssize_t n = ::readlink(at.c_str(), to.data(), to.size());
    if (n <= 0) return at;
    to.resize(static_cast<std::size_t>(n));
    const std::size_t slash = at.find_last_of('/');
    at = to[0] == '/' || slash == std::string::npos ? to : at.substr(0, slash + 1) + to;
  }
  throw Error(path + ": cannot write output: " + std::strerror(ELOOP));
}

// The temporary's mkstemp() pattern beside `target`: TARGET.tmp-XXXXXX,
// with the file name cut short when the suffix would take it past
// NAME_MAX, so that any name a file system takes can be written.
std::string temp_pattern(const std::string& target) {
  constexpr std::string_view kSuffix = ".tmp-XXXXXX";
  const std::size_t slash = target.find_last_of('/');
  const std::size_t name_start = slash == std::string::npos ? 0 : slash + 1;
  const std::size_t name_max = NAME_MAX - kSuffix.size();
  std::string pattern = target.substr(0, name_start + std::min(target.size() - name_start, name_max));
  return pattern += kSuffix;
}

// Gives the temporary `fd` the permissions and owner of the file it will
// replace (`replaced`), as editors and compilers do; a new file gets
// 0644 less the umask. Owners are kept where the system lets us (the
// same user, a group of theirs); the owner set first, since a change of
// owner clears the set-user-ID bits.
void copy_permissions(int fd, const struct stat* replaced) {
  if (replaced) {
    if (::fchown(fd, replaced->st_uid, replaced->st_gid) != 0 && errno == EPERM)
      (void)!::fchown(fd, static_cast<uid_t>(-1), replaced->st_gid);
    ::fchmod(fd, replaced->st_mode & 07777);
    return;
  }
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0644 & ~mask);
}

// Copies the whole of `from` over `to`, in place: the file keeps its
// inode, so its hard links still name the new content.
void copy_in_place(const std::string& from, const std::string& to) {
  const int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  const int out = in < 0 ? -1 : ::open(to.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  int error = in < 0 || out < 0 ? errno : 0;
  std::unique_ptr<char[]> buffer = std::make_unique_for_overwrite<char[]>(kBufferSize);
  for (ssize_t n; !error && (n = ::read(in, buffer.get(), kBufferSize)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    for (ssize_t done = 0; !error && n > 0 && done < n;) {
      const ssize_t w = ::write(out, buffer.get() + done, static_cast<std::size_t>(n - done));
      if (w < 0 && errno != EINTR) error = errno;
      if (w > 0) done += w;
    }
    if (n < 0) error = errno;
  }
  if (out >= 0 && ::close(out) != 0 && !error) error = errno;
  if (in >= 0) ::close(in);
  if (error) throw_write_failed(to, error);
}

}  // namespace

void Output::flush_standard_output() {
  std::cout.flush();
  if (!std::cout) throw_write_failed("-", errno);
}

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
  // it. Symbolic links are followed, so a link stays and its target is
  // replaced. Regular files and new names get a temporary and a rename.
  const std::string target = follow_links(path);
  struct stat st;
  const bool exists = ::stat(target.c_str(), &st) == 0;
  if (exists && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) throw Error(path + ": is a directory");
    if (!open_file(path)) throw Error(path + ": cannot write output: " + std::strerror(errno));
    return;
  }
  path_ = target;
  // A file with other hard links is written in place once the temporary
  // is complete (commit()): a rename would leave the other names on the
  // old content.
  in_place_ = exists && st.st_nlink > 1;
  // A unique temporary in the target's directory, so rename() stays atomic.
  std::string pattern = temp_pattern(target);
  int fd;
  {
    BlockCleanupSignals blocked;
    install_cleanup_handlers();
    fd = ::mkstemp(pattern.data());
    if (fd >= 0 && pattern.size() < sizeof g_temp_path) {
      std::lock_guard<std::mutex> lock(g_temp_mutex);
      g_temp_set = 0;  // a signal meanwhile finds no half-copied path
      std::memcpy(g_temp_path, pattern.c_str(), pattern.size() + 1);
      g_temp_owner = this;
      g_temp_set = 1;
    }
  }
  if (fd < 0) throw Error(path + ": cannot create output file: " + std::strerror(errno));
  copy_permissions(fd, exists ? &st : nullptr);
  ::close(fd);
  temp_ = pattern;
  if (!open_file(temp_)) {
    const int error = errno;
    ::unlink(temp_.c_str());
    clear_temp(this);
    throw Error(path + ": cannot write output file: " + std::strerror(error));
  }
}

bool Output::open_file(const std::string& where) {
  auto file = std::make_unique<std::ofstream>();
  file->rdbuf()->pubsetbuf(buffer_.get(), kBufferSize);
  file->open(where, std::ios::binary | std::ios::trunc);
  if (!*file) return false;
  stream_ = file.get();
  owned_ = std::move(file);
  errno = 0;  // what failed before (a stat of a new name) is no reason for a write failing later
  return true;
}

Output::~Output() {
  if (!committed_ && !temp_.empty()) {
    owned_.reset();
    ::unlink(temp_.c_str());
    clear_temp(this);  // after the unlink: a signal in between unlinks it again, harmlessly
  }
}

void Output::commit() {
  // errno as the failed write left it (the constructor cleared it): the
  // reason, a full disk or a closed pipe.
  stream_->flush();
  if (!*stream_) throw_write_failed(path_, errno);
  if (owned_) {
    static_cast<std::ofstream&>(*owned_).close();
    if (!*owned_) throw_write_failed(path_, errno);
  }
  if (temp_.empty()) {
    committed_ = true;
    return;
  }
  if (in_place_) {
    copy_in_place(temp_, path_);
    ::unlink(temp_.c_str());
  } else if (::rename(temp_.c_str(), path_.c_str()) != 0) {
    throw Error(path_ + ": cannot move output into place: " + std::strerror(errno));
  }
  clear_temp(this);  // after the rename: a signal in between finds no temporary to unlink
  committed_ = true;
}

}  // namespace fg::formats
