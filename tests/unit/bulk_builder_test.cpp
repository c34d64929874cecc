// The fast readers' paths (fg/bulk_builder.h): the same stacks and
// profiles as the plain calls of fg/builder.h give.
#include "fg/bulk_builder.h"

#include <doctest/doctest.h>

#include <random>
#include <span>
#include <string>
#include <vector>

#include "fg/error.h"

using namespace fg;

namespace {
std::vector<ValueType> counts() { return {{"samples", "count"}}; }
}  // namespace

TEST_CASE("bulk::extend makes the stacks stack() makes, a frame at a time, and finds them again") {
  // Two builders fed the same random paths: one a frame at a time, one
  // through bulk::extend() from a random existing prefix. Paths run deep (new
  // runs cross 64-node words), share prefixes, and branch from nodes an
  // earlier run made without indexing them.
  ProfileBuilder one(counts()), run(counts());
  std::mt19937 rng(5);
  std::vector<FrameId> frames;
  for (int i = 0; i < 6; ++i) {
    frames.push_back(one.frame("f" + std::to_string(i)));
    REQUIRE(run.frame("f" + std::to_string(i)) == frames.back());
  }
  std::vector<std::vector<FrameId>> made;
  for (int i = 0; i < 3000; ++i) {
    std::vector<FrameId> path;
    if (!made.empty() && rng() % 3 != 0) {  // a prefix of an earlier path
      const auto& earlier = made[rng() % made.size()];
      path.assign(earlier.begin(),
                  earlier.begin() + static_cast<std::ptrdiff_t>(rng() % (earlier.size() + 1)));
    }
    for (std::size_t d = 0, extra = rng() % 200; d < extra; ++d)
      path.push_back(frames[rng() % (d < 2 ? 6 : 2)]);
    StackId want = kRootStack;
    for (FrameId f : path) want = one.stack(want, f);
    // bulk::extend() from the stack of a random prefix, as a reader that knows it.
    const std::size_t cut = rng() % (path.size() + 1);
    const StackId from = run.stack(std::span<const FrameId>(path.data(), cut));
    CAPTURE(i);
    REQUIRE(bulk::extend(run, from, std::span<const FrameId>(path.data() + cut, path.size() - cut)) == want);
    REQUIRE(run.stack(path) == want);
    made.push_back(std::move(path));
  }
  Profile a = std::move(one).finish(), b = std::move(run).finish();
  REQUIRE(a.stack_count() == b.stack_count());
  CHECK(a.stack_count() > 100000);
  for (const StackId s : id_range(StackId{1}, a.stack_count())) {
    REQUIRE(b.parent(s) == a.parent(s));
    REQUIRE(b.stack(s).frame == a.stack(s).frame);
  }
}

TEST_CASE("bulk::finish(frames) gives each stack its frame in place of a stand-in, the tree kept") {
  ProfileBuilder b(counts());
  const FrameId main = b.frame("main"), stand_in = b.frame("work", FrameKind::kJit);
  const StackId a = b.stack(std::vector<FrameId>{main, stand_in});
  const StackId c = b.stack(std::vector<FrameId>{stand_in});
  const std::int64_t one[] = {1}, two[] = {2};
  b.add_sample(a, one);
  b.add_sample(c, two);
  const FrameId inlined = b.frame("work", FrameKind::kInlined);
  std::vector<FrameId> frames(b.stack_count());
  for (const StackId s : id_range<StackId>(frames.size())) frames[s.index()] = bulk::peek(b).stack(s).frame;
  frames[a.index()] = inlined;
  frames[kRootStack.index()] = FrameId{12345};  // the root's is ignored
  Profile p = bulk::finish(std::move(b), frames);
  CHECK(p.stack(a).frame == inlined);
  CHECK(p.stack(p.stack(a).parent).frame == main);
  CHECK(p.stack(c).parent == kRootStack);
  CHECK(p.stack(c).frame == stand_in);
  CHECK(p.frame(p.stack(a).frame).kind == FrameKind::kInlined);
  CHECK(p.sample_count() == 2);

  ProfileBuilder wrong(counts());
  wrong.stack(kRootStack, wrong.frame("x"));
  CHECK_THROWS_AS(bulk::finish(std::move(wrong), std::vector<FrameId>{FrameId{0}}), Error);  // one per stack
  ProfileBuilder far(counts());
  far.stack(kRootStack, far.frame("x"));
  CHECK_THROWS_AS(bulk::finish(std::move(far), std::vector<FrameId>{FrameId{0}, FrameId{7}}),
                  Error);  // no frame 7
}

TEST_CASE("bulk::find_stack finds a stack made already, indexed or not, and makes nothing") {
  ProfileBuilder b(counts());
  const FrameId m = b.frame("main"), a = b.frame("a"), c = b.frame("c");
  // main.a is made as the newest node's child, so it is not indexed yet;
  // main.c is a second child, made through the index.
  const StackId main = b.stack(kRootStack, m), main_a = b.stack(main, a), main_c = b.stack(main, c);
  CHECK(bulk::find_stack(b, kRootStack, m) == main);
  CHECK(bulk::find_stack(b, main, a) == main_a);
  CHECK(bulk::find_stack(b, main, c) == main_c);
  CHECK(bulk::find_stack(b, main_a, c) == kNoId<StackId>);
  CHECK(bulk::find_stack(b, kRootStack, a) == kNoId<StackId>);
  CHECK(b.stack_count() == 4);  // root, main, main.a, main.c: nothing made by looking
  // The hints change nothing either.
  bulk::prefetch_stack(b, main, a);
  bulk::prefetch_sample(b, main_a, {});
  bulk::prefetch_unlabeled_values(b, main_a);
  bulk::reserve_stacks(b, 1000);
  CHECK(bulk::peek(b).stack_count() == 4);
  CHECK(bulk::strings(b).find("main") == b.intern("main"));
  const std::int64_t one[] = {1};
  b.add_sample(main_a, one);
  bulk::prefetch_sample(b, main_a, {});
  bulk::prefetch_unlabeled_values(b, main_a);
  Profile p = std::move(b).finish();
  bulk::prefetch_stack(p, main_a);
  CHECK(p.stack(main_a).parent == main);
  CHECK(p.sample_count() == 1);
}
