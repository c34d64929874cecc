// Graphviz serialises its users (formats/common/graphviz_session.h), so a
// second thread that needs a call graph laid out while the lock is taken
// hands the DOT text to a layout worker: this same executable started
// again with kLayoutWorkerFlag, which lays graphs out one after another
// with the very code used in-process (graphviz_svg()), so the SVG is the
// same byte for byte. Requests and replies travel over one socket pair as
// a length (8 bytes, little-endian) and the bytes; a reply starts with a
// status byte (0: SVG follows, 1: an error message follows).
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "formats/common/graphviz_session.h"

namespace fg::formats::dot {

/// The hidden first argument that makes a tool a layout worker.
inline constexpr std::string_view kLayoutWorkerFlag = "--graphviz-worker";

/// The largest request (DOT text) or reply (SVG or error text), in bytes.
inline constexpr std::size_t kMaxLayoutMessage = std::size_t{256} << 20;

/// Reads `dot` (bounded_dot()), lays it out with dot and renders SVG, under
/// `session` (which must hold the lock). The one layout path, in-process
/// and in workers. Throws Error with Graphviz's messages.
std::string graphviz_svg(const GraphvizSession& session, std::string_view dot);

/// When argv[1] is kLayoutWorkerFlag, serves layout requests on standard
/// input and output until standard input closes and returns the exit
/// status (0, or 1 after a broken request); else returns -1 at once.
int run_layout_worker_if_asked(int argc, char** argv);

/// Layout worker processes, started when needed (one per caller at a
/// time, so as many as threads wanted one at once), kept for the next
/// request and reaped on destruction. Thread-safe.
class LayoutWorkers {
 public:
  /// Workers run `command` (argv; command[0] a path, not searched).
  explicit LayoutWorkers(std::vector<std::string> command);
  ~LayoutWorkers();
  LayoutWorkers(const LayoutWorkers&) = delete;
  LayoutWorkers& operator=(const LayoutWorkers&) = delete;

  /// graphviz_svg(`dot`) in a worker. Throws Error with the worker's error,
  /// or "callgraph-svg: Graphviz layout worker died: ..." when it died (it
  /// is replaced for the next request).
  std::string layout(std::string_view dot);

  /// The workers of this process: /proc/self/exe kLayoutWorkerFlag.
  static LayoutWorkers& of_process();

 private:
  struct Worker {
    pid_t pid = -1;
    int socket = -1;
  };
  Worker start() const;
  static std::string end(Worker worker, bool kill_first);

  std::vector<std::string> command_;
  std::mutex mutex_;
  std::vector<Worker> idle_;  // guarded by mutex_
};

/// Whether FG_LAYOUT_WORKERS=always asks every layout to go to a worker
/// (tests use it to compare worker and in-process output).
bool layout_workers_always();

}  // namespace fg::formats::dot
