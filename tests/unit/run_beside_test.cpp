// fg::run_beside and fg::Beside: work on a second thread, its error
// rethrown on this one, and no Beside made from a temporary work.
#include "fg/run_beside.h"

#include <doctest/doctest.h>

#include <atomic>
#include <stdexcept>
#include <type_traits>

namespace {

struct Work {
  void operator()() const {}
};
// The Beside's thread calls its work after the constructor returns: a
// temporary would be gone by then, so only a named work is taken.
static_assert(std::is_constructible_v<fg::Beside, const Work&>);
static_assert(std::is_constructible_v<fg::Beside, Work&>);
static_assert(!std::is_constructible_v<fg::Beside, Work&&>);
static_assert(!std::is_constructible_v<fg::Beside, Work>);

}  // namespace

TEST_CASE("Beside: the work runs on its own thread, join() waits for it and rethrows its error once") {
  std::atomic<int> ran{0};
  const auto work = [&] { ++ran; };
  {
    fg::Beside b(work);
    b.join();
    CHECK(ran == 1);
  }
  const auto failing = [] { throw std::runtime_error("beside"); };
  fg::Beside f(failing);
  CHECK_THROWS_WITH_AS(f.join(), "beside", std::runtime_error);
  CHECK_NOTHROW(f.join());
}

TEST_CASE(
    "run_beside: both halves run, and the error of the one on the second thread is rethrown after both end") {
  std::atomic<int> ran{0};
  fg::run_beside(
      true, [&] { ++ran; }, [&] { ++ran; });
  CHECK(ran == 2);
  CHECK_THROWS_WITH_AS(fg::run_beside(
                           true, [] { throw std::runtime_error("second"); }, [&] { ++ran; }),
                       "second", std::runtime_error);
  CHECK(ran == 3);
}
