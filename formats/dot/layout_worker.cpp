#include "formats/dot/layout_worker.h"

#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

#include "fg/error.h"

extern char** environ;

namespace fg::formats::dot {

namespace {

constexpr int kWorkerInput = 0;
constexpr int kWorkerOutput = 1;

// send() with MSG_NOSIGNAL: a worker that died makes this fail with EPIPE
// instead of killing the caller with SIGPIPE.
bool send_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t sent = ::send(fd, data, size, MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent <= 0) return false;
    data += sent;
    size -= static_cast<std::size_t>(sent);
  }
  return true;
}

// The bytes read into data[0, size): fewer at the end of the stream or on
// an error.
std::size_t receive_all(int fd, char* data, std::size_t size) {
  std::size_t got = 0;
  while (got < size) {
    const ssize_t n = ::recv(fd, data + got, size - got, 0);
    if (n < 0 && errno == EINTR) continue;  // fg-report's interrupt handler; it checks after the page
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  return got;
}

bool send_length(int fd, std::uint64_t length) {
  std::array<char, 8> bytes;
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(length >> (8 * i));
  return send_all(fd, bytes.data(), bytes.size());
}

// The length that opens a message; false at the end of the stream, after a
// short header, or past kMaxLayoutMessage. `empty` tells the clean end.
bool receive_length(int fd, std::uint64_t& length, bool* empty = nullptr) {
  std::array<char, 8> bytes;
  const std::size_t got = receive_all(fd, bytes.data(), bytes.size());
  if (empty) *empty = got == 0;
  if (got != bytes.size()) return false;
  length = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i)
    length |= std::uint64_t{static_cast<unsigned char>(bytes[i])} << (8 * i);
  return length <= kMaxLayoutMessage;
}

bool receive_text(int fd, std::uint64_t length, std::string& text) {
  text.resize(length);
  return receive_all(fd, text.data(), text.size()) == text.size();
}

// One request's reply: the status byte and the SVG or the error message.
bool reply(int fd, const std::string& dot) {
  char status = 0;
  std::string text;
  try {
    const GraphvizSession session;
    text = graphviz_svg(session, dot);
    if (text.size() > kMaxLayoutMessage)
      throw Error("callgraph-svg: the SVG is over " + std::to_string(kMaxLayoutMessage) + " bytes");
  } catch (const std::exception& e) {
    status = 1;
    text = e.what();
  }
  return send_all(fd, &status, 1) && send_length(fd, text.size()) && send_all(fd, text.data(), text.size());
}

// The worker's loop. Interrupts from the terminal go to the whole process
// group: the worker leaves them to its parent and ends when the parent
// closes its end.
int serve_layouts() {
  ::signal(SIGINT, SIG_IGN);
  ::signal(SIGHUP, SIG_IGN);
  std::string dot;
  for (;;) {
    std::uint64_t length = 0;
    bool closed = false;
    if (!receive_length(kWorkerInput, length, &closed)) return closed ? 0 : 1;
    if (!receive_text(kWorkerInput, length, dot) || !reply(kWorkerOutput, dot)) return 1;
  }
}

std::string exit_text(int status) {
  if (WIFSIGNALED(status)) return "died: signal " + std::to_string(WTERMSIG(status));
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
    return "died: exit status " + std::to_string(WEXITSTATUS(status));
  return "died: it closed its connection";
}

}  // namespace

int run_layout_worker_if_asked(int argc, char** argv) {
  if (argc < 2 || argv[1] != kLayoutWorkerFlag) return -1;
  return serve_layouts();
}

bool layout_workers_always() {
  static const bool always = [] {
    const char* value = std::getenv("FG_LAYOUT_WORKERS");
    return value && std::string_view(value) == "always";
  }();
  return always;
}

LayoutWorkers::LayoutWorkers(std::vector<std::string> command) : command_(std::move(command)) {}

LayoutWorkers::~LayoutWorkers() {
  for (const Worker& worker : idle_) end(worker, false);
}

LayoutWorkers& LayoutWorkers::of_process() {
  static LayoutWorkers workers({"/proc/self/exe", std::string(kLayoutWorkerFlag)});
  return workers;
}

// The worker's standard input and output are its end of a socket pair;
// no other descriptor of ours reaches it (ours are close-on-exec, and
// descriptors from 3 up are closed in the child).
LayoutWorkers::Worker LayoutWorkers::start() const {
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
    throw Error(std::string("callgraph-svg: cannot start a Graphviz layout worker: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawn_file_actions_adddup2(&actions, ends[1], kWorkerInput);
  ::posix_spawn_file_actions_adddup2(&actions, ends[1], kWorkerOutput);
  ::posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  std::vector<char*> argv;
  for (const std::string& arg : command_) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  Worker worker;
  const int failed = ::posix_spawn(&worker.pid, command_[0].c_str(), &actions, nullptr, argv.data(), environ);
  ::posix_spawn_file_actions_destroy(&actions);
  ::close(ends[1]);
  if (failed != 0) {
    ::close(ends[0]);
    throw Error("callgraph-svg: cannot start a Graphviz layout worker (" + command_[0] +
                "): " + std::strerror(failed));
  }
  worker.socket = ends[0];
  return worker;
}

// Closes the connection and reaps the worker; says how it ended.
std::string LayoutWorkers::end(Worker worker, bool kill_first) {
  ::close(worker.socket);
  if (kill_first) ::kill(worker.pid, SIGKILL);
  int status = 0;
  while (::waitpid(worker.pid, &status, 0) < 0 && errno == EINTR) {
  }
  return exit_text(status);
}

std::string LayoutWorkers::layout(std::string_view dot) {
  if (dot.size() > kMaxLayoutMessage)
    throw Error("callgraph-svg: the call graph's DOT is over " + std::to_string(kMaxLayoutMessage) +
                " bytes");
  Worker worker;
  {
    const std::lock_guard lock(mutex_);
    if (!idle_.empty()) {
      worker = idle_.back();
      idle_.pop_back();
    }
  }
  if (worker.pid < 0) worker = start();
  char status = 0;
  std::uint64_t length = 0;
  std::string text;
  const bool asked =
      send_length(worker.socket, dot.size()) && send_all(worker.socket, dot.data(), dot.size());
  const bool answered = asked && receive_all(worker.socket, &status, 1) == 1;
  const bool sane = answered && (status == 0 || status == 1) && receive_length(worker.socket, length);
  if (!sane || !receive_text(worker.socket, length, text))
    throw Error("callgraph-svg: Graphviz layout worker " + end(worker, answered && !sane));
  {
    const std::lock_guard lock(mutex_);
    idle_.push_back(worker);
  }
  if (status != 0) throw Error(text);
  return text;
}

}  // namespace fg::formats::dot
