// The model's ids are distinct types: one given where another is expected
// does not compile. Most checks are static_asserts, so this file failing to
// compile is the failing test.
#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include "fg/builder.h"
#include "fg/profile.h"

using namespace fg;

namespace {

// No id converts to another, nor is made from another, nor from or to an
// integer without being asked.
template <typename A, typename B>
constexpr bool mixes = std::is_convertible_v<A, B> || std::is_constructible_v<B, A>;

static_assert(!mixes<FrameId, StackId> && !mixes<StackId, FrameId>);
static_assert(!mixes<StringId, FunctionId> && !mixes<FunctionId, StringId>);
static_assert(!mixes<FrameId, FunctionId> && !mixes<FunctionId, FrameId>);
static_assert(!mixes<LabelSetId, StackId> && !mixes<StackId, LabelSetId>);
static_assert(!mixes<StringId, FrameId> && !mixes<StringId, StackId> && !mixes<StringId, LabelSetId>);
static_assert(!std::is_convertible_v<std::uint32_t, StackId> && !std::is_convertible_v<int, FrameId>);
static_assert(!std::is_convertible_v<StackId, std::uint32_t> &&
              !std::is_constructible_v<std::uint32_t, FrameId>);
static_assert(std::is_constructible_v<StackId, std::uint32_t>);  // explicitly: StackId{3}

// The model's functions take only their own ids.
template <typename T>
concept StackArgument = requires(const Profile& p, T id) {
  p.parent(id);
};
static_assert(StackArgument<StackId> && !StackArgument<FrameId> && !StackArgument<std::uint32_t>);
template <typename T>
concept FrameArgument = requires(const Profile& p, T id) {
  p.frame(id);
};
static_assert(FrameArgument<FrameId> && !FrameArgument<StackId> && !FrameArgument<FunctionId>);
template <typename S, typename F>
concept StackOf = requires(ProfileBuilder& b, S parent, F frame) {
  b.stack(parent, frame);
};
static_assert(StackOf<StackId, FrameId> && !StackOf<FrameId, StackId>);
template <typename L>
concept LabelsArgument = requires(ProfileBuilder& b, StackId s, std::vector<std::int64_t> v, L labels) {
  b.add_sample(s, v, labels);
};
static_assert(LabelsArgument<LabelSetId> && !LabelsArgument<StackId> && !LabelsArgument<StringId>);

// Ids of two kinds do not compare; ids do no arithmetic.
template <typename A, typename B>
concept Comparable = requires(A a, B b) {
  a == b;
};
static_assert(Comparable<StackId, StackId> && !Comparable<StackId, FrameId> && !Comparable<StackId, int>);
template <typename T>
concept Arithmetic = requires(T id) {
  id + 1;
};
static_assert(!Arithmetic<StackId> && !Arithmetic<FrameId>);

// And they cost what an integer costs.
static_assert(sizeof(FrameId) == 4 && sizeof(StackId) == 4 && sizeof(StringId) == 4);
static_assert(std::is_trivially_copyable_v<FrameId> && std::is_trivially_copyable_v<LabelSetId>);

}  // namespace

TEST_CASE("ids: made from an index, read back, compared, hashed") {
  const StackId s{7};
  CHECK(s.index() == 7);
  CHECK(StackId{} == kRootStack);
  CHECK(StackId{} < s);
  CHECK(kNoId<FrameId>.index() == 0xffffffffu);
  std::unordered_set<FrameId> set{FrameId{1}, FrameId{2}, FrameId{1}};
  CHECK(set.size() == 2);
}

TEST_CASE("ids: id_range counts a table's ids in order") {
  std::vector<std::uint32_t> seen;
  for (const StackId s : id_range<StackId>(4)) seen.push_back(s.index());
  CHECK(seen == std::vector<std::uint32_t>{0, 1, 2, 3});
  seen.clear();
  for (const StackId s : id_range(StackId{2}, 5)) seen.push_back(s.index());
  CHECK(seen == std::vector<std::uint32_t>{2, 3, 4});
  seen.clear();
  for (const StackId s : id_range(StackId{5}, 2)) seen.push_back(s.index());  // empty, not wrapped
  CHECK(seen.empty());
}
