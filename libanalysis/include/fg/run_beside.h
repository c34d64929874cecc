// Independent pieces of work on two threads, with errors as from one.
#pragma once

#include <exception>
#include <thread>
#include <utility>

namespace fg {

/// Runs `there` on a second thread while `here` runs on this one, when
/// `threaded` and the machine has a second CPU; else `there`, then `here`,
/// on this thread. The two must touch nothing the other writes. An error
/// from `here` is rethrown once `there` has ended; else one from `there`.
template <class There, class Here>
void run_beside(bool threaded, There&& there, Here&& here) {
  if (!threaded || std::thread::hardware_concurrency() < 2) {
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

/// Work started on a second thread when made, while this one goes on: it
/// must outlive the Beside, and touch nothing this one writes until join()
/// (it may hand things over with its own locking). Its end is waited for
/// by join(), or by the destructor (the work's error is then dropped: this
/// thread already has one of its own).
class Beside {
 public:
  template <class Work>
  explicit Beside(const Work& work)
      : thread_([this, &work] {
          try {
            work();
          } catch (...) {
            failed_ = std::current_exception();
          }
        }) {}
  /// A temporary would not outlive the Beside (its thread would call a
  /// destroyed lambda): name the work first.
  template <class Work>
  explicit Beside(const Work&&) = delete;
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

}  // namespace fg
