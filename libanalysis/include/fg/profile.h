// The model every reader fills and every writer draws from: a sample table,
// as in pprof, whose stacks form a prefix tree. Ids are dense 32-bit
// indices, each kind its own type (fg/ids.h: a FrameId is no StackId);
// parents get smaller stack ids than their children, so one
// reverse pass over the stacks sums totals. Only ProfileBuilder writes it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fg/detail/parent_index.h"
#include "fg/ids.h"
#include "fg/string_pool.h"

namespace fg {

inline constexpr StackId kRootStack{0};
inline constexpr std::int64_t kNoTimestamp = INT64_MIN;

/// What kind of code a frame ran. A field, never a suffix in the name:
/// writers add suffixes (`_[k]`) where a format wants them.
enum class FrameKind : std::uint8_t {
  kNative,       ///< ordinary compiled code, or unknown
  kKernel,       ///< operating-system kernel (`_[k]`)
  kJit,          ///< JIT-compiled code (`_[j]`)
  kInlined,      ///< inlined into its caller (`_[i]`)
  kInterpreted,  ///< interpreted (bytecode) code (`_[0]`)
  kC1Compiled,   ///< JIT-compiled at a lower tier, HotSpot C1 (`_[1]`)
  kCpp,          ///< C++ runtime code inside a managed runtime (the JVM)
  kWaker,        ///< waker stack of an off-CPU chain graph (`_[w]`)
  kLibrary,      ///< a dynamic (shared) library's code (DeepFlow's `[l]`)
  /// Code at an address that no symbol names (a pprof location without
  /// lines): its function is named after its module and offset, or its
  /// address. The frame keeps its module at every granularity but files:
  /// per function, pprof knows such frames by their module alone
  /// ("[module]", "<unknown>" without one), and so do call graphs.
  kUnsymbolized,
};

/// A short lower-case name for a kind, e.g. "kernel"; used in dumps.
std::string_view frame_kind_name(FrameKind kind);
/// The collapsed-stack annotation for a kind ("_[k]"; async-profiler's
/// "_[0]" for interpreted and "_[1]" for C1-compiled frames), or "" when
/// the kind has none (kNative, kCpp, kLibrary).
std::string_view frame_kind_suffix(FrameKind kind);
/// The kind of a collapsed-stack annotation, if `suffix` is one ("_[j]").
std::optional<FrameKind> frame_kind_from_suffix(std::string_view suffix);

/// How a value column takes part in a comparison.
enum class ValueRole : std::uint8_t {
  kPlain,  ///< an ordinary measurement
  kBase,   ///< the "before" side of a diff
  kNew,    ///< the "after" side of a diff; its base has the same type name
};

/// One measured quantity: "samples"/"count", "cpu"/"nanoseconds", ...
struct ValueType {
  std::string type;
  std::string unit;
  ValueRole role = ValueRole::kPlain;
  /// Fixed point: a stored value v is v / 10^decimals of the unit, so that
  /// fractional counts (flamegraph.pl sums them as numbers) stay exact.
  /// 0 for every format but collapsed stacks read with fractions kept.
  int decimals = 0;
  bool operator==(const ValueType&) const = default;
  /// The same quantity, perhaps with another number of decimals.
  bool same_quantity(const ValueType& o) const { return type == o.type && unit == o.unit && role == o.role; }
};

/// 10^decimals, the factor of a fixed-point column (decimals 0..18).
std::int64_t decimal_factor(int decimals);
/// A fixed-point value as decimal text, trailing zeros of the fraction
/// dropped: (5, 1) is "0.5", (150, 2) "1.5", (-3, 0) "-3".
std::string fixed_point_text(std::int64_t value, int decimals);

struct Function {
  StringId name{};         ///< the display name (demangled)
  StringId system_name{};  ///< the raw or mangled name, when it differs
  StringId filename{};
  std::int64_t start_line = 0;
};

struct Frame {
  FunctionId function{};
  std::int64_t line = 0;      ///< 0 when unknown
  std::uint64_t address = 0;  ///< 0 when unknown
  StringId module{};          ///< binary or library, "" when unknown
  FrameKind kind = FrameKind::kNative;
};

/// A node of the stack tree, as Profile::stack() gives it.
struct StackNode {
  FrameId frame{};   ///< the leaf frame of this path (meaningless for the root)
  StackId parent{};  ///< always smaller than this node's id
};

/// A label: key=value, either a string or a number with an optional unit.
struct Label {
  StringId key{};
  StringId str{};
  std::int64_t num = 0;
  StringId unit{};
  bool numeric = false;
  bool operator==(const Label&) const = default;
};

struct Sample {
  StackId stack{};
  LabelSetId labels{};
  std::int64_t timestamp = kNoTimestamp;  ///< nanoseconds since the epoch, or kNoTimestamp
};

/// Facts about the recording as a whole.
struct Metadata {
  std::string source_format;         ///< registry name of the reader, e.g. "collapsed"
  std::vector<std::string> sources;  ///< input names, in reading order
  ValueType period_type;
  std::int64_t period = 0;
  std::int64_t start_time_ns = 0;  ///< 0 when unknown
  std::int64_t duration_ns = 0;    ///< 0 when unknown
  std::string default_value;       ///< preferred value column type name, "" for the last
  std::vector<std::string> comments;
  /// After filtering: each value column's total (sum of |value|) before
  /// it, so that reports keep percentages of the whole profile, as pprof
  /// does; empty when nothing was filtered (or with --relative).
  std::vector<std::int64_t> unfiltered_totals;
  /// The filters applied, as "focus=main\.parse", for report headers.
  std::vector<std::string> filters;
  /// Format-specific facts ("jvm" -> "17.0.15", ...), printed by dump.
  std::vector<std::pair<std::string, std::string>> properties;
};

/// The call graph of a graph-shaped input (fg/recorded_call_graph.h).
struct RecordedCallGraph;

class ProfileBuilder;
namespace bulk {
struct Access;  // fg/bulk_builder.h
}  // namespace bulk

/// An immutable profile. Create with ProfileBuilder.
class Profile {
 public:
  Profile(Profile&&) noexcept = default;
  Profile& operator=(Profile&&) noexcept = default;

  const std::vector<ValueType>& value_types() const { return value_types_; }
  std::size_t value_count() const { return value_types_.size(); }
  const Metadata& metadata() const { return metadata_; }

  std::string_view str(StringId id) const { return strings_.view(id); }
  const Function& function(FunctionId id) const { return functions_[id.index()]; }
  std::size_t function_count() const { return functions_.size(); }
  const Frame& frame(FrameId id) const { return frames_[id.index()]; }
  std::size_t frame_count() const { return frames_.size(); }
  /// The display name of a frame's function.
  std::string_view frame_name(FrameId id) const { return str(function(frame(id).function).name); }

  StackNode stack(StackId id) const { return {stack_frames_[id.index()], parent(id)}; }
  /// The stack `id` less its leaf frame (the root's parent is the root).
  StackId parent(StackId id) const { return parents_.parent(id); }
  std::size_t stack_count() const { return stack_frames_.size(); }
  /// Number of frames on the path of `id` (0 for the root); walks to the root.
  std::size_t depth(StackId id) const;
  /// Appends the frames of `id` root first (clears `out` first).
  void stack_frames(StackId id, std::vector<FrameId>& out) const;

  std::size_t sample_count() const { return samples_.size(); }
  const Sample& sample(std::size_t i) const { return samples_[i]; }
  std::span<const std::int64_t> values(std::size_t sample) const {
    return {values_.data() + sample * value_types_.size(), value_types_.size()};
  }
  const std::vector<Label>& labels(LabelSetId id) const { return label_sets_[id.index()]; }
  std::size_t label_set_count() const { return label_sets_.size(); }

  /// Sum of each value column over all samples.
  std::vector<std::int64_t> totals() const;
  /// Sum of |value| over every value added while building (every column):
  /// below 2^63, and no sum or total of the profile's values is larger.
  std::int64_t magnitude() const { return magnitude_; }
  /// The column pprof would show by default: Metadata::default_value when it
  /// names a column, else the last column.
  std::size_t default_value_index() const;
  /// Resolves a `--value` argument: a type name ("alloc_space"), "type/unit",
  /// or a 0-based index. Throws UsageError naming the available columns.
  std::size_t find_value(std::string_view name_or_index) const;
  /// The base column paired with a kNew column, if any.
  std::optional<std::size_t> base_of(std::size_t new_column) const;
  /// The call graph the input recorded, when it was graph-shaped; null
  /// otherwise (see RecordedCallGraph, fg/recorded_call_graph.h).
  const RecordedCallGraph* recorded_graph() const { return recorded_graph_.get(); }

 private:
  friend class ProfileBuilder;
  friend struct bulk::Access;
  Profile() = default;

  std::vector<ValueType> value_types_;
  Metadata metadata_;
  StringPool strings_;
  std::vector<Function> functions_;
  std::vector<Frame> frames_;
  // The stack tree: each node's leaf frame, and its parent.
  BigVector<FrameId> stack_frames_;
  detail::ParentIndex parents_;
  void add_stack(FrameId frame, StackId parent);
  // Nodes of `frames`, each the child of the node before it (the first,
  // of the newest node).
  void add_chain(std::span<const FrameId> frames);
  void reserve_stacks(std::size_t n);
  BigVector<Sample> samples_;
  BigVector<std::int64_t> values_;
  std::int64_t magnitude_ = 0;
  std::vector<std::vector<Label>> label_sets_;
  std::shared_ptr<const RecordedCallGraph> recorded_graph_;
};

/// The frames a format that spells out each stack whole (collapsed, dump,
/// pprof) writes for `profile`: the depths of its distinct stacks that
/// carry samples, summed. A tree-shaped input (a DeepFlow chain N nodes
/// deep) holds N stacks but N(N+1)/2 such frames. O(stacks + samples).
std::uint64_t expanded_frames(const Profile& profile);

/// Above both, check_expansion() refuses: kMaxExpandedFrames frames in all,
/// and kMaxExpansion frames per stack the profile holds (real profiles share
/// most of their paths, so they stay far below it however large they are).
inline constexpr std::uint64_t kMaxExpandedFrames = 100'000'000;
inline constexpr std::uint64_t kMaxExpansion = 256;

/// Throws Error when spelling out every stack of `profile` whole would take
/// more than kMaxExpandedFrames frames and more than kMaxExpansion per
/// stack: output and time out of proportion to the profile. `format`
/// names the output in the message, which says what to do instead.
void check_expansion(const Profile& profile, std::string_view format);

}  // namespace fg
