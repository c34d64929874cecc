// What a newcomer sees in fg/builder.h and fg/profile.h, compiled against
// builder.h alone: the model, the simple add_sample, the documented id path
// (intern, function, frame, stack(parent, frame), add_sample by ids,
// finish()), and none of the fast readers' machinery, which lives in
// fg/bulk_builder.h as free functions (fg::bulk), not as members.
#include <doctest/doctest.h>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "fg/builder.h"

using namespace fg;

namespace {

template <typename B>
concept IdPath = requires(B& b, std::span<const std::int64_t> values) {
  { b.intern("main") } -> std::same_as<StringId>;
  { b.function("main") } -> std::same_as<FunctionId>;
  { b.frame(FunctionId{}) } -> std::same_as<FrameId>;
  { b.stack(kRootStack, FrameId{}) } -> std::same_as<StackId>;
  b.add_sample(kRootStack, values);
  { std::move(b).finish() } -> std::same_as<Profile>;
};
static_assert(IdPath<ProfileBuilder>);

// Each of these was a member before fg/bulk_builder.h; none may come back.
template <typename B>
concept StringsMember = requires(const B& b) {
  b.strings();
};
template <typename B>
concept ReserveStacksMember = requires(B& b) {
  b.reserve_stacks(std::size_t{1});
};
template <typename B>
concept FindStackMember = requires(const B& b) {
  b.find_stack(kRootStack, FrameId{});
};
template <typename B>
concept ExtendMember = requires(B& b, std::span<const FrameId> f) {
  b.extend(kRootStack, f);
};
template <typename B>
concept PrefetchStackMember = requires(const B& b) {
  b.prefetch_stack(kRootStack, FrameId{});
};
template <typename B>
concept PrefetchSampleMember = requires(const B& b) {
  b.prefetch_sample(kRootStack, LabelSetId{});
};
template <typename B>
concept PrefetchValuesMember = requires(const B& b) {
  b.prefetch_unlabeled_values(kRootStack);
};
template <typename B>
concept PeekMember = requires(const B& b) {
  b.peek();
};
template <typename B>
concept FinishWithFramesMember = requires(B& b, std::span<const FrameId> f) {
  std::move(b).finish(f);
};
template <typename P>
concept ProfilePrefetchMember = requires(const P& p) {
  p.prefetch_stack(kRootStack);
};

static_assert(!StringsMember<ProfileBuilder>);
static_assert(!ReserveStacksMember<ProfileBuilder>);
static_assert(!FindStackMember<ProfileBuilder>);
static_assert(!ExtendMember<ProfileBuilder>);
static_assert(!PrefetchStackMember<ProfileBuilder>);
static_assert(!PrefetchSampleMember<ProfileBuilder>);
static_assert(!PrefetchValuesMember<ProfileBuilder>);
static_assert(!PeekMember<ProfileBuilder>);
static_assert(!FinishWithFramesMember<ProfileBuilder>);
static_assert(!ProfilePrefetchMember<Profile>);

}  // namespace

TEST_CASE("the example of builder.h's comment builds, as written") {
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
  b.add_sample(std::vector<NamedFrame>{"main", {"read", FrameKind::kKernel}}, std::vector<std::int64_t>{3},
               std::vector<NamedLabel>{{"thread", "main"}});
  Profile p = std::move(b).finish();
  REQUIRE(p.sample_count() == 1);
  CHECK(p.values(0)[0] == 3);
  CHECK(p.frame_name(p.stack(p.sample(0).stack).frame) == "read");
}

TEST_CASE("builder.h alone builds a profile by the id path") {
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
  const StackId main = b.stack(kRootStack, b.frame(b.function("main")));
  const StackId read = b.stack(main, b.frame("read", FrameKind::kKernel));
  const std::int64_t three[] = {3}, two[] = {2};
  b.add_sample(read, three);
  b.add_sample(std::vector<NamedFrame>{"main", {"read", FrameKind::kKernel}}, two);  // the same stack
  Profile p = std::move(b).finish();
  REQUIRE(p.sample_count() == 1);
  CHECK(p.sample(0).stack == read);
  CHECK(p.values(0)[0] == 5);
  CHECK(p.parent(read) == main);
  CHECK(p.frame_name(p.stack(read).frame) == "read");
}
