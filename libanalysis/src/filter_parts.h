// The pieces of apply_filters() (fg/filter.h): regular expressions with
// option-named errors, per-frame matching with a cache, the time window,
// pprof's tag filters and renaming. Internal to libanalysis.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fg/builder.h"
#include "fg/filter.h"
#include "fg/import.h"
#include "fg/pattern.h"

namespace fg::filter {

/// The pattern `text` of `option` ("" matches everything). Throws
/// UsageError naming the option when it does not compile.
Pattern compile(const std::string& option, const std::string& text);
/// The same, none for "" (an option not given).
std::optional<Pattern> compile_if_given(const std::string& option, const std::string& text);

/// Whether a frame matches, as pprof matches locations: the pattern found in
/// the function name, its file or its module (the name alone with
/// `name_only`); cached per frame.
class FrameMatcher {
 public:
  FrameMatcher(const Profile& p, std::optional<Pattern> re, bool name_only = false);
  explicit operator bool() const { return re_.has_value(); }
  bool matches(FrameId f);
  /// Whether matches() has said yes to any frame yet.
  bool matched() const { return matched_; }

 private:
  const Profile& p_;
  std::optional<Pattern> re_;
  bool name_only_;
  std::vector<std::int8_t> cache_;  // -1 unknown, 0 no, 1 yes
  bool matched_ = false;
};

/// --time-from/--time-to as absolute nanoseconds.
struct TimeWindow {
  bool active = false;
  std::int64_t from = INT64_MIN, to = INT64_MAX;
  bool contains(std::int64_t t) const { return !active || (t != kNoTimestamp && t >= from && t <= to); }
};
TimeWindow time_window(const Profile& p, const FilterOptions& o);

/// pprof's -tagfocus and -tagignore.
class TagFilter {
 public:
  TagFilter(const Profile& p, const FilterOptions& o);
  bool keep(const Sample& s);
  /// Whether --tagfocus (--tagignore) has matched a sample given to keep().
  bool focus_matched() const { return focus_matched_; }
  bool ignore_matched() const { return ignore_matched_; }

 private:
  struct Match {
    std::string key;                // "" for any key
    std::vector<Pattern> patterns;  // string labels
    bool numeric = false;           // a range instead
    double lo = 0, hi = 0;          // in `unit`
    bool has_lo = false, has_hi = false;
    std::string unit;
  };
  static std::optional<Match> parse(const std::string& option, const std::string& text);
  bool matches(const Match& m, const Sample& s) const;
  const Profile& p_;
  std::optional<Match> focus_, ignore_;
  bool focus_matched_ = false, ignore_matched_ = false;
};

/// --rename RE=REPLACEMENT rules applied to function names.
class Renamer {
 public:
  Renamer(const Profile& p, const std::vector<std::string>& rules);
  bool empty() const { return rules_.empty(); }
  /// The frame in the destination, renamed.
  FrameId frame(FrameId f, ProfileBuilder& b, ProfileImporter& import);

 private:
  const Profile& p_;
  std::vector<std::pair<Pattern, std::string>> rules_;
  std::vector<FrameId> done_;  // per source frame, UINT32_MAX until made
};

}  // namespace fg::filter
