// The model's ids: dense 32-bit indices, each of its own type, so that a
// frame id given where a stack id is expected does not compile. An id costs
// what a bare std::uint32_t costs (one register, trivially copyable).
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>

namespace fg {

/// A dense index into one of the model's tables; `Tag` names the table.
/// Made from an integer only explicitly (`StackId{3}`); read back with
/// index(). The default id is 0 (the empty string, the root stack, the
/// empty label set). Ids compare and hash, but do no arithmetic.
template <typename Tag>
class Id {
 public:
  constexpr Id() = default;
  constexpr explicit Id(std::uint32_t index) : index_(index) {}
  /// The index into the table the id names.
  constexpr std::uint32_t index() const { return index_; }
  friend constexpr bool operator==(Id, Id) = default;
  friend constexpr auto operator<=>(Id, Id) = default;

 private:
  std::uint32_t index_ = 0;
};

struct StringTag;
struct FunctionTag;
struct FrameTag;
struct StackTag;
struct LabelSetTag;

using StringId = Id<StringTag>;      ///< Index into a StringPool; 0 is "".
using FunctionId = Id<FunctionTag>;  ///< Index into a profile's functions.
using FrameId = Id<FrameTag>;        ///< Index into a profile's frames.
using StackId = Id<StackTag>;        ///< 0 is the empty stack, the root of every path.
using LabelSetId = Id<LabelSetTag>;  ///< 0 is the empty label set.

/// The id that names nothing, for "absent" in tables and lookups by id:
/// the largest index, which no table reaches.
template <typename IdType>
inline constexpr IdType kNoId{0xffffffffu};

/// The ids `first` up to but not including `end`, in order: the ids of a
/// table of `end` rows are `for (StackId s : id_range<StackId>(p.stack_count()))`.
template <typename IdType>
class IdRange {
 public:
  class Iterator {
   public:
    using value_type = IdType;
    using difference_type = std::ptrdiff_t;
    constexpr Iterator() = default;
    constexpr explicit Iterator(std::uint32_t at) : at_(at) {}
    constexpr IdType operator*() const { return IdType{at_}; }
    constexpr Iterator& operator++() {
      ++at_;
      return *this;
    }
    constexpr Iterator operator++(int) { return Iterator(at_++); }
    friend constexpr bool operator==(Iterator, Iterator) = default;

   private:
    std::uint32_t at_ = 0;
  };
  constexpr IdRange(std::uint32_t first, std::uint32_t end)
      : first_(first), end_(first < end ? end : first) {}
  constexpr Iterator begin() const { return Iterator(first_); }
  constexpr Iterator end() const { return Iterator(end_); }

 private:
  std::uint32_t first_, end_;
};

/// The ids of a table of `count` rows, from 0.
template <typename IdType>
constexpr IdRange<IdType> id_range(std::size_t count) {
  return IdRange<IdType>(0, static_cast<std::uint32_t>(count));
}
/// The ids from `first` up to but not including the id `end` (a table's
/// row count): the rest of the table after `first`, `first` included.
template <typename IdType>
constexpr IdRange<IdType> id_range(IdType first, std::size_t end) {
  return IdRange<IdType>(first.index(), static_cast<std::uint32_t>(end));
}

static_assert(sizeof(StackId) == sizeof(std::uint32_t) && std::is_trivially_copyable_v<StackId>);

}  // namespace fg

/// Ids hash as their index (std::unordered_map keys).
template <typename Tag>
struct std::hash<fg::Id<Tag>> {
  std::size_t operator()(fg::Id<Tag> id) const noexcept { return std::hash<std::uint32_t>()(id.index()); }
};
