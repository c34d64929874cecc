// Two stages of a reader on two threads: one parses the file and hands
// what it parsed, in order, to the other, which builds the profile. The
// hand-off is bounded, so the parsing side runs at most a few items ahead
// and memory does not grow with the file.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>

namespace fg::formats {

/// Runs `produce(emit)` and hands each item it passes to `emit` to
/// `consume(item)`, in order. With `threaded` (and a second CPU), `produce`
/// runs on a second thread at most `ahead` items in front of `consume`,
/// which runs on this one; otherwise each emit calls `consume` directly.
///
/// Errors come out as they would without the thread: an exception from
/// `produce` is rethrown here once every item emitted before it has been
/// consumed, and one from `consume` stops `produce` at its next emit and is
/// rethrown. `produce` must touch nothing `consume` writes.
template <typename T, typename Produce, typename Consume>
void handoff(bool threaded, std::size_t ahead, Produce&& produce, Consume&& consume) {
  if (!threaded || std::thread::hardware_concurrency() < 2) {
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

}  // namespace fg::formats
