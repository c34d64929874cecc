// The one driver of threads. Every thread fg starts is started here, by
// run_beside(), Beside, handoff() or for_each_part(), and each asks one
// question first (for_each_part() through parts_for()): is this work worth
// a thread? The answer depends on two settings
// only, the process's job count (--jobs, FG_JOBS) and the amount of the
// work; with one job, everything runs on the calling thread. What work does
// on a thread must not change what it computes: output is the same bytes at
// any job count.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace fg {

/// The most threads that one piece of work keeps busy at once; 1 means
/// every piece runs on the calling thread. Until set_jobs(): the machine's
/// cores (at least 1). (Most work splits in two at most, so any count
/// above 2 behaves as 2 for it; work split by for_each_part() takes them
/// all. A thread that mostly waits for another, as JFR's parsing thread
/// while its chunk's pools are read beside it, is not counted.)
unsigned jobs();

/// Sets jobs() for the whole process; `n` >= 1 (0 is taken as 1). Meant for
/// a tool's start, before any work.
void set_jobs(unsigned n);

/// The job count asked for by `option` (the value of --jobs; nullopt when
/// not given), else by `env` (the value of the FG_JOBS environment variable;
/// nullptr when unset), else the machine's cores. Throws UsageError naming
/// --jobs or FG_JOBS when the value is not a whole number of at least 1.
unsigned jobs_from(std::optional<std::string_view> option, const char* env);

/// Input bytes worth a thread (Work::bytes), before nesting: a reader of a
/// stream whose size is unknown may look this far ahead to learn whether
/// the whole input is smaller.
inline constexpr std::uint64_t kBytesWorthAThread = std::uint64_t{1} << 20;

/// An amount of work, in the unit that measures it best (fill in one).
/// The units differ in what one of them costs, so each has its own
/// threshold, chosen by one rule: the work takes about a millisecond on one
/// core, some twenty times what starting and joining a thread costs.
struct Work {
  std::uint64_t bytes = 0;  ///< input bytes to parse: worth a thread from 1 MiB
  std::uint64_t items = 0;  ///< samples, stacks or tree nodes to visit: from 100,000
  std::uint64_t files = 0;  ///< files to open and read (binaries' symbols): from 1
  /// Threads already busy with the work beside the one asking (0: none). A
  /// further thread shares the cores with them and slows them: each one
  /// multiplies the thresholds by 4.
  unsigned nesting = 0;
};

/// Whether `work` is worth a thread of its own: jobs() is 2 or more and one
/// of its amounts reaches its threshold (or the testing minimum, when set).
/// The one place that decides; the helpers below ask it.
bool worth_a_thread(const Work& work);

/// Testing knob: with a value, work whose bytes, items or files reach `min`
/// is worth a thread too (0: all work, when jobs() >= 2), so that small
/// inputs take the threaded paths; nullopt leaves the thresholds of Work.
/// The tools set it from the FG_PARALLEL_MIN environment variable.
void set_parallel_min(std::optional<std::uint64_t> min);

/// The testing minimum asked for by `env` (FG_PARALLEL_MIN's value; nullptr
/// when unset: nullopt). Throws UsageError naming FG_PARALLEL_MIN when the
/// value is not a whole number.
std::optional<std::uint64_t> parallel_min_from(const char* env);

/// Runs `there` on a second thread while `here` runs on this one, when
/// `work` (both together) is worth a thread; else `there`, then `here`, on
/// this thread. The two must touch nothing the other writes. An error from
/// `here` is rethrown once `there` has ended; else one from `there`.
template <class There, class Here>
void run_beside(const Work& work, There&& there, Here&& here) {
  if (!worth_a_thread(work)) {
    there();
    here();
    return;
  }
  std::exception_ptr failed;
  std::thread second([&] {
    try {
      there();
    } catch (...) {
      failed = std::current_exception();
    }
  });
  try {
    here();
  } catch (...) {
    second.join();
    throw;
  }
  second.join();
  if (failed) std::rethrow_exception(failed);
}

/// Work started when the Beside is made, while this thread goes on: on a
/// second thread when `work` is worth one, else at once on this thread (its
/// error, then, comes out of the constructor). The work must outlive the
/// Beside, and touch nothing this thread writes until join() (it may hand
/// things over with its own locking). Its end is waited for by join(), or
/// by the destructor (the work's error is then dropped: this thread already
/// has one of its own).
class Beside {
 public:
  template <class Run>
  Beside(const Work& work, const Run& run) {
    if (!worth_a_thread(work)) {
      run();
      return;
    }
    thread_ = std::thread([this, &run] {
      try {
        run();
      } catch (...) {
        failed_ = std::current_exception();
      }
    });
  }
  /// A temporary would not outlive the Beside (its thread would call a
  /// destroyed lambda): name the work first.
  template <class Run>
  Beside(const Work&, const Run&&) = delete;
  ~Beside() {
    if (thread_.joinable()) thread_.join();
  }
  Beside(const Beside&) = delete;
  Beside& operator=(const Beside&) = delete;
  /// Waits for the work to end, and rethrows its error (if it failed) the
  /// first time; again, it does nothing.
  void join() {
    if (!thread_.joinable()) return;
    thread_.join();
    if (failed_) std::rethrow_exception(std::exchange(failed_, nullptr));
  }

 private:
  std::exception_ptr failed_;
  std::thread thread_;
};

/// Two stages on two threads: runs `produce(emit)` and hands each item it
/// passes to `emit` to `consume(item)`, in order. When `work` is worth a
/// thread, `produce` runs on a second thread at most `ahead` items in front
/// of `consume`, which runs on this one (the hand-off is bounded, so memory
/// does not grow with the input); otherwise each emit calls `consume`
/// directly.
///
/// Errors come out as they would without the thread: an exception from
/// `produce` is rethrown here once every item emitted before it has been
/// consumed, and one from `consume` stops `produce` at its next emit and is
/// rethrown. `produce` must touch nothing `consume` writes.
template <typename T, typename Produce, typename Consume>
void handoff(const Work& work, std::size_t ahead, Produce&& produce, Consume&& consume) {
  if (!worth_a_thread(work)) {
    produce([&](T&& item) { consume(std::move(item)); });
    return;
  }
  struct Stopped {};  // unwinds `produce` once the consumer has failed
  std::mutex m;
  std::condition_variable changed;
  std::deque<T> items;
  bool done = false, stopped = false;
  std::exception_ptr error;
  std::thread producer([&] {
    try {
      produce([&](T&& item) {
        std::unique_lock lock(m);
        changed.wait(lock, [&] { return stopped || items.size() < ahead; });
        if (stopped) throw Stopped{};
        items.push_back(std::move(item));
        lock.unlock();
        changed.notify_all();
      });
    } catch (const Stopped&) {
    } catch (...) {
      std::lock_guard lock(m);
      error = std::current_exception();
    }
    {
      std::lock_guard lock(m);
      done = true;
    }
    changed.notify_all();
  });
  try {
    for (;;) {
      std::unique_lock lock(m);
      changed.wait(lock, [&] { return done || !items.empty(); });
      if (items.empty()) break;  // done, and every item consumed
      T item = std::move(items.front());
      items.pop_front();
      lock.unlock();
      changed.notify_all();
      consume(std::move(item));
    }
  } catch (...) {
    {
      std::lock_guard lock(m);
      stopped = true;
    }
    changed.notify_all();
    producer.join();
    throw;
  }
  producer.join();
  if (error) std::rethrow_exception(error);
}

/// How many parts to split `work` into, one per thread: jobs() when it is
/// worth a thread, else 1.
unsigned parts_for(const Work& work);

/// Runs `run(i)` for each part i in [0, parts): part 0 on this thread, each
/// other on a thread of its own (ask parts_for() how many parts pay). The
/// parts must touch nothing another writes. Once all have ended, the error
/// of the first part (in order) that failed is rethrown.
template <class Run>
void for_each_part(std::size_t parts, const Run& run) {
  std::vector<std::exception_ptr> failed(parts);
  std::vector<std::thread> threads;
  threads.reserve(parts);
  const auto part = [&](std::size_t i) {
    try {
      run(i);
    } catch (...) {
      failed[i] = std::current_exception();
    }
  };
  for (std::size_t i = 1; i < parts; ++i) threads.emplace_back(part, i);
  if (parts > 0) part(0);
  for (std::thread& t : threads) t.join();
  for (std::exception_ptr& e : failed)
    if (e) std::rethrow_exception(e);
}

}  // namespace fg
