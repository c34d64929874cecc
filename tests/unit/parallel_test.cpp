// fg/parallel.h: the job count from --jobs and FG_JOBS, the one decision
// of what is worth a thread, and the helpers that ask it: on a second
// thread when it is worth one (errors rethrown on this one), on the
// calling thread with one job.
#include "fg/parallel.h"

#include <doctest/doctest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "fg/error.h"

namespace {

struct Run {
  void operator()() const {}
};
// The Beside's thread calls its work after the constructor returns: a
// temporary would be gone by then, so only a named work is taken.
static_assert(std::is_constructible_v<fg::Beside, fg::Work, const Run&>);
static_assert(std::is_constructible_v<fg::Beside, fg::Work, Run&>);
static_assert(!std::is_constructible_v<fg::Beside, fg::Work, Run&&>);
static_assert(!std::is_constructible_v<fg::Beside, fg::Work, Run>);

// Sets the job count and the testing minimum for one test, and restores
// the defaults after it.
struct Settings {
  Settings(unsigned jobs, std::optional<std::uint64_t> min) {
    fg::set_jobs(jobs);
    fg::set_parallel_min(min);
  }
  ~Settings() {
    fg::set_jobs(fg::jobs_from(std::nullopt, nullptr));
    fg::set_parallel_min(std::nullopt);
  }
};

const fg::Work kSmall{.items = 1};
const fg::Work kLarge{.items = 1'000'000};

}  // namespace

TEST_CASE("jobs_from: --jobs wins over FG_JOBS, neither: the cores") {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  CHECK(fg::jobs_from(std::nullopt, nullptr) == cores);
  CHECK(fg::jobs_from(std::nullopt, "3") == 3);
  CHECK(fg::jobs_from("1", "3") == 1);
  CHECK(fg::jobs_from("16", nullptr) == 16);
  // The option wins even over a bad variable, which is then not read.
  CHECK(fg::jobs_from("2", "lots") == 2);
}

TEST_CASE("jobs_from: a value that is not a whole number of at least 1 is a usage error naming its source") {
  CHECK_THROWS_WITH_AS(fg::jobs_from("0", nullptr), "--jobs 0: expected a number of threads, 1 or more",
                       fg::UsageError);
  CHECK_THROWS_WITH_AS(fg::jobs_from("-2", nullptr), "--jobs -2: expected a number of threads, 1 or more",
                       fg::UsageError);
  CHECK_THROWS_WITH_AS(fg::jobs_from("", nullptr), "--jobs : expected a number of threads, 1 or more",
                       fg::UsageError);
  CHECK_THROWS_WITH_AS(fg::jobs_from("4x", nullptr), "--jobs 4x: expected a number of threads, 1 or more",
                       fg::UsageError);
  CHECK_THROWS_WITH_AS(fg::jobs_from(std::nullopt, "two"),
                       "FG_JOBS=two: expected a number of threads, 1 or more", fg::UsageError);
  CHECK_THROWS_WITH_AS(fg::jobs_from(std::nullopt, " 2"),
                       "FG_JOBS= 2: expected a number of threads, 1 or more", fg::UsageError);
  CHECK_THROWS_WITH_AS(fg::jobs_from(std::nullopt, "99999999999"),
                       "FG_JOBS=99999999999: expected a number of threads, 1 or more", fg::UsageError);
}

TEST_CASE("parallel_min_from: unset is none, else a whole number") {
  CHECK(fg::parallel_min_from(nullptr) == std::nullopt);
  CHECK(fg::parallel_min_from("0") == 0u);
  CHECK(fg::parallel_min_from("4096") == 4096u);
  CHECK_THROWS_WITH_AS(fg::parallel_min_from("-1"), "FG_PARALLEL_MIN=-1: expected a whole number, 0 or more",
                       fg::UsageError);
}

TEST_CASE("worth_a_thread: one job never, else from each unit's threshold, or the testing minimum") {
  {
    Settings one(1, 0);
    CHECK_FALSE(fg::worth_a_thread(kLarge));
    CHECK_FALSE(fg::worth_a_thread({.bytes = std::uint64_t{1} << 40}));
  }
  Settings two(2, std::nullopt);
  CHECK(fg::jobs() == 2);
  CHECK_FALSE(fg::worth_a_thread({}));
  CHECK_FALSE(fg::worth_a_thread({.bytes = (1 << 20) - 1}));
  CHECK(fg::worth_a_thread({.bytes = 1 << 20}));
  CHECK_FALSE(fg::worth_a_thread({.items = 99'999}));
  CHECK(fg::worth_a_thread({.items = 100'000}));
  CHECK_FALSE(fg::worth_a_thread({.files = 0}));
  CHECK(fg::worth_a_thread({.files = 1}));
  // A thread beside threads already busy: four times the work.
  CHECK_FALSE(fg::worth_a_thread({.bytes = (4 << 20) - 1, .nesting = 1}));
  CHECK(fg::worth_a_thread({.bytes = 4 << 20, .nesting = 1}));
  fg::set_parallel_min(0);
  CHECK(fg::worth_a_thread({}));
  CHECK(fg::worth_a_thread(kSmall));
  fg::set_parallel_min(10);
  CHECK_FALSE(fg::worth_a_thread({.items = 9}));
  CHECK(fg::worth_a_thread({.bytes = 10}));
}

TEST_CASE(
    "Beside: worth a thread, the work runs on its own, join() waits for it and rethrows its error once") {
  Settings two(2, std::nullopt);
  std::atomic<int> ran{0};
  std::thread::id where;
  const auto work = [&] {
    where = std::this_thread::get_id();
    ++ran;
  };
  {
    fg::Beside b(kLarge, work);
    b.join();
    CHECK(ran == 1);
    CHECK(where != std::this_thread::get_id());
  }
  const auto failing = [] { throw std::runtime_error("beside"); };
  fg::Beside f(kLarge, failing);
  CHECK_THROWS_WITH_AS(f.join(), "beside", std::runtime_error);
  CHECK_NOTHROW(f.join());
}

TEST_CASE(
    "Beside: with one job, the work runs at once on the calling thread, its error from the constructor") {
  Settings one(1, 0);
  std::thread::id where;
  const auto work = [&] { where = std::this_thread::get_id(); };
  fg::Beside b(kLarge, work);
  CHECK(where == std::this_thread::get_id());
  CHECK_NOTHROW(b.join());
  const auto failing = [] { throw std::runtime_error("at once"); };
  CHECK_THROWS_WITH_AS((fg::Beside(kLarge, failing)), "at once", std::runtime_error);
}

TEST_CASE(
    "run_beside: both halves run, and the error of the one on the second thread is rethrown after both end") {
  Settings two(2, std::nullopt);
  std::atomic<int> ran{0};
  std::thread::id there;
  fg::run_beside(
      kLarge,
      [&] {
        there = std::this_thread::get_id();
        ++ran;
      },
      [&] { ++ran; });
  CHECK(ran == 2);
  CHECK(there != std::this_thread::get_id());
  CHECK_THROWS_WITH_AS(fg::run_beside(
                           kLarge, [] { throw std::runtime_error("second"); }, [&] { ++ran; }),
                       "second", std::runtime_error);
  CHECK(ran == 3);
  // Too little work: both on this thread, in order.
  std::vector<int> order;
  fg::run_beside(
      kSmall, [&] { order.push_back(1); }, [&] { order.push_back(2); });
  CHECK(order == std::vector<int>{1, 2});
}

TEST_CASE("run_beside and handoff: with one job, everything runs on the calling thread") {
  Settings one(1, 0);
  const std::thread::id here = std::this_thread::get_id();
  std::vector<std::thread::id> seen;
  fg::run_beside(
      kLarge, [&] { seen.push_back(std::this_thread::get_id()); },
      [&] { seen.push_back(std::this_thread::get_id()); });
  fg::handoff<int>(
      kLarge, 2,
      [&](auto&& emit) {
        seen.push_back(std::this_thread::get_id());
        emit(1);
      },
      [&](int) { seen.push_back(std::this_thread::get_id()); });
  CHECK(seen == std::vector<std::thread::id>(4, here));
}

TEST_CASE("handoff: items arrive in order across threads, a producer's error after those before it") {
  Settings two(2, 0);
  std::vector<int> got;
  std::thread::id producer;
  const auto produce = [&](auto&& emit) {
    producer = std::this_thread::get_id();
    for (int i = 0; i < 1000; ++i) emit(int(i));
    throw std::runtime_error("cut off");
  };
  CHECK_THROWS_WITH_AS(fg::handoff<int>(kSmall, 3, produce, [&](int i) { got.push_back(i); }), "cut off",
                       std::runtime_error);
  CHECK(producer != std::this_thread::get_id());
  REQUIRE(got.size() == 1000);
  for (int i = 0; i < 1000; ++i) CHECK(got[std::size_t(i)] == i);
}

TEST_CASE("for_each_part: every part runs once, and the first failing part's error comes out") {
  Settings s(4, std::nullopt);
  CHECK(fg::parts_for(kSmall) == 1);
  CHECK(fg::parts_for(kLarge) == 4);
  std::vector<std::atomic<int>> ran(5);
  fg::for_each_part(5, [&](std::size_t i) { ++ran[i]; });
  for (const auto& r : ran) CHECK(r == 1);
  CHECK_THROWS_WITH(fg::for_each_part(4,
                                      [](std::size_t i) {
                                        if (i >= 2) throw std::runtime_error("part " + std::to_string(i));
                                      }),
                    "part 2");
  Settings one(1, std::nullopt);
  CHECK(fg::parts_for(kLarge) == 1);
}
