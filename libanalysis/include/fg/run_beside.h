// Two independent pieces of work on two threads, with errors as from one.
#pragma once

#include <exception>
#include <thread>

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

}  // namespace fg
