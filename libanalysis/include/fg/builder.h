// The only writer of a Profile. Readers push frames and samples; the
// builder interns strings, functions, frames, stacks and label sets, and
// merges samples with equal stack and labels (unless they carry timestamps).
//
// Start here: a reader needs only the constructor, metadata() and
// add_sample(frames, values, labels), with frames as names (NamedFrame:
// a name, or a name and a FrameKind) root first, and labels as key/value
// pairs (NamedLabel: a string, or a number with a unit):
//
//   ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
//   b.add_sample(std::vector<NamedFrame>{"main", {"read", FrameKind::kKernel}},
//                std::vector<std::int64_t>{3}, std::vector<NamedLabel>{{"thread", "main"}});
//   Profile p = std::move(b).finish();
//
// The builder interns what it is given; the reader never sees an id. The
// id-based calls below (intern, function, frame, stack, labels, and the
// add_sample taking a StackId) are the same thing in steps, for a reader
// that makes millions of samples and keeps ids to skip the interning.
// A fast reader that wants still more (cache hints, stacks looked up ahead
// of making them, stand-in frames) finds it in fg/bulk_builder.h; nothing
// here needs it, and the private members below are internals
// (fg/detail/...) a reader never touches.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fg/detail/u64_map.h"
#include "fg/profile.h"
#include "fg/string_pool.h"

namespace fg {

namespace bulk {
struct Access;  // fg/bulk_builder.h: the fast readers' paths
}  // namespace bulk

/// A frame by its name, as the simple add_sample() takes it: the function
/// `name` (its display name), of `kind`. Made from a name alone
/// (`"main"`), or a name and a kind (`{"read", FrameKind::kKernel}`).
struct NamedFrame {
  NamedFrame(std::string_view name, FrameKind kind = FrameKind::kNative) : name(name), kind(kind) {}
  NamedFrame(const char* name, FrameKind kind = FrameKind::kNative) : name(name), kind(kind) {}
  NamedFrame(const std::string& name, FrameKind kind = FrameKind::kNative) : name(name), kind(kind) {}
  std::string_view name;
  FrameKind kind;
};

/// A label by its text, as the simple add_sample() takes it: `key` and
/// either a string (`{"thread", "main"}`) or a number with an optional
/// unit (`{"bytes", 64, "bytes"}`).
struct NamedLabel {
  NamedLabel(std::string_view key, std::string_view str) : key(key), str(str) {}
  NamedLabel(std::string_view key, std::int64_t num, std::string_view unit = {})
      : key(key), num(num), unit(unit), numeric(true) {}
  std::string_view key, str;
  std::int64_t num = 0;
  std::string_view unit;
  bool numeric = false;
};

class ProfileBuilder {
 public:
  /// Starts a profile with the given value columns (at least one).
  explicit ProfileBuilder(std::vector<ValueType> value_types);

  Metadata& metadata() { return profile_.metadata_; }
  std::size_t value_count() const { return profile_.value_types_.size(); }

  StringId intern(std::string_view s) { return profile_.strings_.intern(s); }
  /// intern() with hash_bytes(s) already computed.
  StringId intern(std::string_view s, std::uint64_t hash) { return profile_.strings_.intern(s, hash); }
  /// The function named by an interned string, when only a name is known.
  FunctionId function(StringId name);
  FunctionId function(std::string_view name, std::string_view system_name = {},
                      std::string_view filename = {}, std::int64_t start_line = 0);
  FrameId frame(FunctionId function, FrameKind kind = FrameKind::kNative, std::int64_t line = 0,
                std::uint64_t address = 0, StringId module = {});
  /// Shorthand for frame(function(name), kind).
  FrameId frame(std::string_view name, FrameKind kind = FrameKind::kNative);

  /// The stack `parent` extended by `frame` at its leaf.
  StackId stack(StackId parent, FrameId frame);
  /// The stack of frames given root first.
  StackId stack(std::span<const FrameId> root_to_leaf);
  /// A string interned so far.
  std::string_view str_of(StringId id) const { return profile_.str(id); }
  /// The function of a frame made so far.
  FunctionId function_of(FrameId frame) const { return profile_.frame(frame).function; }
  /// The labels of a set made by labels().
  const std::vector<Label>& label_set(LabelSetId id) const { return profile_.labels(id); }
  /// Interns a label set; the labels are sorted by key first.
  LabelSetId labels(std::vector<Label> labels);

  /// Adds `values` (one per column) to the sample of (stack, labels), or
  /// appends a new sample. With a timestamp the sample is always appended.
  /// Throws Error when the magnitudes of all values added so far (every
  /// column together) would pass 2^63 - 1: that bound keeps every sum,
  /// total and difference computed from the profile inside 64 bits.
  void add_sample(StackId stack, std::span<const std::int64_t> values, LabelSetId labels = {},
                  std::int64_t timestamp = kNoTimestamp);
  /// The simple path (start here): adds `values` (one per column) to the
  /// sample of the stack of `root_to_leaf` and the label set of `labels`,
  /// interning every name; the same profile as the id-based calls give.
  /// Merges and throws as add_sample(StackId, ...) does.
  void add_sample(std::span<const NamedFrame> root_to_leaf, std::span<const std::int64_t> values,
                  std::span<const NamedLabel> labels = {}, std::int64_t timestamp = kNoTimestamp);
  /// Interns a label set given by text (labels() of the interned labels).
  LabelSetId labels(std::span<const NamedLabel> labels);
  /// Gives every column `decimals` decimal digits (ValueType::decimals;
  /// fewer than they have is a no-op): the values added so far are
  /// multiplied to match. The columns must share their decimals. Throws
  /// Error when the values would pass the bound add_sample keeps.
  void set_decimals(int decimals);
  /// add_sample on the stack of `root_to_leaf`.
  void add_sample(std::span<const FrameId> root_to_leaf, std::span<const std::int64_t> values,
                  LabelSetId labels = {}, std::int64_t timestamp = kNoTimestamp);
  /// For tree-shaped inputs: the node `frame` under `parent`, with its self
  /// values added as a sample. Returns the node's stack.
  StackId add_node(StackId parent, FrameId frame, std::span<const std::int64_t> self_values,
                   LabelSetId labels = {});

  std::size_t stack_count() const { return profile_.stack_count(); }

  /// Keeps the call graph a graph-shaped input recorded (see
  /// RecordedCallGraph); its frames must be frames of this builder.
  void set_recorded_graph(RecordedCallGraph graph);
  /// The finished profile; the builder must not be used afterwards.
  Profile finish() &&;

 private:
  friend struct bulk::Access;
  Profile profile_;
  std::vector<FunctionId> function_of_name_;  // by name id, when only a name is known; kNoId: none
  std::map<std::tuple<StringId, StringId, StringId, std::int64_t>, FunctionId> full_functions_;
  std::vector<FrameId> native_frame_;  // by function id: its plain kNative frame; kNoId: none
  U64Map plain_frames_;                // function | kind << 32 -> frame, other kinds, no line/address/module
  std::map<std::tuple<FunctionId, int, std::int64_t, std::uint64_t, StringId>, FrameId> full_frames_;
  U64Map stacks_;  // stack_key(parent, frame) -> stack
  static std::uint64_t stack_key(StackId parent, FrameId frame) {
    return std::uint64_t(parent.index()) << 32 | frame.index();
  }
  // Two flags per stack, 32 stacks a word: kUnindexedChild (the child
  // stack+1 is not in stacks_ yet), kHasSample (an untimed sample of this
  // stack exists).
  static constexpr unsigned kUnindexedChild = 1, kHasSample = 2;
  BigVector<std::uint64_t> stack_flags_;
  bool flag(StackId s, unsigned f) const { return stack_flags_[s.index() >> 5] >> (s.index() & 31) * 2 & f; }
  void set_flag(StackId s, unsigned f) {
    stack_flags_[s.index() >> 5] |= std::uint64_t(f) << (s.index() & 31) * 2;
  }
  void clear_flag(StackId s, unsigned f) {
    stack_flags_[s.index() >> 5] &= ~(std::uint64_t(f) << (s.index() & 31) * 2);
  }
  // An untimed sample without labels is found by its stack in a table
  // (most readers, and a JFR reader whose output shows no threads, add
  // only those); one with labels by a hash of both.
  static constexpr std::uint32_t kNoSample = U64Map::kMissing;
  BigVector<std::uint32_t> unlabeled_sample_;  // by stack: its sample, or kNoSample
  U64Map samples_by_key_;  // sample_key(stack, labels) -> sample, for untimed samples with labels
  static std::uint64_t sample_key(StackId stack, LabelSetId labels) {
    return std::uint64_t(labels.index()) << 32 | stack.index();
  }
  std::size_t samples_indexed_ = 0;  // samples before this one are in samples_by_key_ (if they have labels)
  void index_samples();
  std::map<std::vector<std::tuple<StringId, StringId, std::int64_t, StringId, bool>>, LabelSetId>
      label_index_;
};

/// Makes stacks of frames given root first with a ProfileBuilder, reusing
/// what a stack shares from the root with the one made just before it: a
/// reader whose consecutive stacks share their outer frames (heap dumps,
/// sorted inputs) skips a lookup per shared frame. Same ids as
/// ProfileBuilder::stack(root_to_leaf).
class PrefixStacks {
 public:
  explicit PrefixStacks(ProfileBuilder& builder) : b_(builder) {}
  StackId stack(std::span<const FrameId> root_to_leaf);

 private:
  ProfileBuilder& b_;
  std::vector<FrameId> frames_;  // the previous stack, root first
  std::vector<StackId> ids_;     // ids_[i]: the stack of frames_[0..i]
};

}  // namespace fg
