#include "fg/filter.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <tuple>

#include "fg/builder.h"
#include "fg/error.h"
#include "fg/import.h"
#include "fg/names.h"
#include "fg/normalize_names.h"
#include "fg/reverse.h"
#include "fg/units.h"
#include "filter_parts.h"

namespace fg {

bool FilterOptions::empty() const {
  return !normalize_names && focus.empty() && ignore.empty() && hide.empty() && show.empty() &&
         show_from.empty() && prune_from.empty() && tag_focus.empty() && tag_ignore.empty() &&
         include.empty() && exclude.empty() && skip == 0 && threads == ThreadMode::kLabel && thread.empty() &&
         time_from.empty() && time_to.empty() && !collapse_recursion && rename.empty() && max_depth == 0 &&
         !invert && min_percent == 0;
}

namespace {

using filter::compile;
using filter::compile_if_given;
using filter::FrameMatcher;

// The filters in words, as pprof's "Active filters" legend lists them.
std::vector<std::string> describe(const FilterOptions& o) {
  std::vector<std::string> d;
  auto add = [&d](const char* key, const std::string& v) {
    if (!v.empty()) d.push_back(std::string(key) + "=" + v);
  };
  if (o.normalize_names) d.emplace_back("norm");
  add("time_from", o.time_from);
  add("time_to", o.time_to);
  add("thread", o.thread);
  add("tagfocus", o.tag_focus);
  add("tagignore", o.tag_ignore);
  for (const std::string& i : o.include) add("include", i);
  for (const std::string& e : o.exclude) add("exclude", e);
  add("focus", o.focus);
  add("ignore", o.ignore);
  add("hide", o.hide);
  add("show", o.show);
  add("show_from", o.show_from);
  add("prune_from", o.prune_from);
  if (o.skip) add("skip", std::to_string(o.skip));
  for (const std::string& r : o.rename) add("rename", r);
  if (o.collapse_recursion) d.emplace_back("collapse_recursion");
  if (o.threads == ThreadMode::kFrame) d.emplace_back("threads=frame");
  if (o.threads == ThreadMode::kFold) d.emplace_back("threads=fold");
  if (o.max_depth) add("max_depth", std::to_string(o.max_depth));
  if (o.invert) d.emplace_back("invert");
  if (o.min_percent > 0) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", o.min_percent);
    add("min_percent", buf);
  }
  return d;
}

std::vector<std::int64_t> abs_totals(const Profile& p) {
  std::vector<std::int64_t> t(p.value_count(), 0);
  for (std::size_t i = 0; i < p.sample_count(); ++i) {
    auto v = p.values(i);
    for (std::size_t c = 0; c < v.size(); ++c) t[c] += v[c] < 0 ? -v[c] : v[c];
  }
  return t;
}

// Everything but --invert and --min-percent, sample by sample.
class SampleFilter {
 public:
  SampleFilter(const Profile& p, const FilterOptions& o)
      : labels_here_(p.label_set_count()),
        p_(p),
        o_(o),
        b_(p.value_types()),
        import_(b_, p),
        window_(filter::time_window(p, o)),
        tags_(p, o),
        focus_(p, compile_if_given("--focus", o.focus)),
        ignore_(p, compile_if_given("--ignore", o.ignore)),
        hide_(p, compile_if_given("--hide", o.hide)),
        show_(p, compile_if_given("--show", o.show)),
        show_from_(p, compile_if_given("--show-from", o.show_from)),
        prune_from_(p, compile_if_given("--prune-from", o.prune_from), true),
        renamer_(p, o.rename) {
    thread_ = compile_if_given("--thread", o.thread);
    for (const std::string& i : o.include) include_.push_back(compile("--include", i));
    for (const std::string& e : o.exclude) exclude_.push_back(compile("--exclude", e));
    include_matched_.assign(include_.size(), false);
    exclude_matched_.assign(exclude_.size(), false);
  }

  /// After run(): each expression that matched nothing among the samples
  /// that reached it, as "--focus expression matched no samples: RE".
  std::vector<std::string> unmatched() const {
    std::vector<std::string> out;
    auto add = [&out](bool matched, const char* option, const std::string& re) {
      if (!matched) out.push_back(std::string(option) + " expression matched no samples: " + re);
    };
    if (thread_) add(thread_matched_, "--thread", o_.thread);
    if (!o_.tag_focus.empty()) add(tags_.focus_matched(), "--tagfocus", o_.tag_focus);
    if (!o_.tag_ignore.empty()) add(tags_.ignore_matched(), "--tagignore", o_.tag_ignore);
    for (std::size_t i = 0; i < include_.size(); ++i) add(include_matched_[i], "--include", o_.include[i]);
    for (std::size_t i = 0; i < exclude_.size(); ++i) add(exclude_matched_[i], "--exclude", o_.exclude[i]);
    const std::tuple<const FrameMatcher*, const char*, const std::string*> by_frame[] = {
        {&focus_, "--focus", &o_.focus},
        {&ignore_, "--ignore", &o_.ignore},
        {&hide_, "--hide", &o_.hide},
        {&show_, "--show", &o_.show},
        {&show_from_, "--show-from", &o_.show_from},
        {&prune_from_, "--prune-from", &o_.prune_from}};
    for (const auto& [matcher, option, re] : by_frame)
      if (*matcher) add(matcher->matched(), option, *re);
    return out;
  }

  Profile run() {
    // What the frame filters make of a stack depends on the stack alone,
    // but with --threads frame (the sample's thread becomes its root): each
    // is worked out once, at its first sample, in the same order as sample
    // by sample, so the ids are the same.
    const bool by_stack = o_.threads != ThreadMode::kFrame;
    std::vector<StackId> made(by_stack ? p_.stack_count() : 0, kNotMade);
    std::vector<FrameId> frames;
    for (std::size_t i = 0; i < p_.sample_count(); ++i) {
      const Sample& s = p_.sample(i);
      if (!window_.contains(s.timestamp) || !thread_kept(s) || !tags_.keep(s)) continue;
      StackId stack = by_stack ? made[s.stack.index()] : kNotMade;
      if (stack == kDropped) continue;
      if (stack == kNotMade) {
        frames.clear();
        for (StackId at = s.stack; at != kRootStack; at = p_.stack(at).parent)
          frames.push_back(p_.stack(at).frame);
        std::reverse(frames.begin(), frames.end());  // root first
        if (!stack_filters(frames)) {
          if (by_stack) made[s.stack.index()] = kDropped;
          continue;
        }
      }
      const LabelsHere& labels = sample_labels(s);
      if (stack == kNotMade) {
        stack = new_stack(frames, labels.thread);
        if (by_stack) made[s.stack.index()] = stack;
      }
      b_.add_sample(stack, p_.values(i), labels.id, s.timestamp);
    }
    return std::move(b_).finish();
  }

  ProfileBuilder& builder() { return b_; }

 private:
  bool thread_kept(const Sample& s) {
    if (!thread_) return true;
    for (const Label& l : p_.labels(s.labels))
      if (!l.numeric && p_.str(l.key) == kThreadLabel && thread_->search(p_.str(l.str)))
        return thread_matched_ = true;
    return false;
  }

  // Whether any pattern of `list` matches (`hits`). Every pattern that
  // does is marked in `matched`: once one has, only the patterns not
  // marked yet are tried, so each expression's "matched no samples" is
  // true at little cost.
  template <class Hits>
  static bool any_marked(const std::vector<Pattern>& list, std::vector<bool>& matched, Hits hits) {
    bool any = false;
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (any && matched[i]) continue;
      if (hits(list[i])) any = matched[i] = true;
    }
    return any;
  }

  // The frame filters, in order; false drops the sample.
  bool stack_filters(std::vector<FrameId>& frames) {
    if (!include_.empty() || !exclude_.empty()) {
      // The folded line's text, as grep sees it.
      const std::string text = folded_text(frames);
      auto hits = [&](const Pattern& r) { return r.search(text); };
      if (!include_.empty() && !any_marked(include_, include_matched_, hits)) return false;
      if (any_marked(exclude_, exclude_matched_, hits)) return false;
    }
    const bool by_name = focus_ || ignore_ || hide_ || show_;
    if (by_name) {
      // As pprof's FilterSamplesByName: kept when some frame is focused
      // (any frame, without --focus) and none ignored. Every frame is
      // looked at (matches are cached by frame), so that each expression
      // that matches a frame is known to.
      bool focused = false, ignored = false;
      for (FrameId f : frames) {
        if (ignore_ && ignore_.matches(f))
          ignored = true;
        else if (!focus_ || focus_.matches(f))
          focused = true;
      }
      if (ignored || !focused) return false;
      if (hide_) std::erase_if(frames, [&](FrameId f) { return hide_.matches(f); });
      if (show_) std::erase_if(frames, [&](FrameId f) { return !show_.matches(f); });
      if (frames.empty()) return false;
    }
    if (show_from_) {  // from the rootmost match down
      auto it = std::find_if(frames.begin(), frames.end(), [&](FrameId f) { return show_from_.matches(f); });
      if (it == frames.end()) return false;
      frames.erase(frames.begin(), it);
    }
    if (prune_from_) {  // up to the leafmost match
      auto it =
          std::find_if(frames.rbegin(), frames.rend(), [&](FrameId f) { return prune_from_.matches(f); });
      if (it != frames.rend()) frames.erase(it.base(), frames.end());
    }
    if (o_.skip)
      frames.erase(frames.begin(),
                   frames.begin() + static_cast<std::ptrdiff_t>(std::min(o_.skip, frames.size())));
    return true;
  }

  std::string folded_text(const std::vector<FrameId>& frames) const {
    std::string text;
    for (FrameId f : frames) {
      if (!text.empty()) text += ';';
      text += p_.frame_name(f);
      text += frame_kind_suffix(p_.frame(f).kind);
    }
    return text;
  }

  // A label set here, worked out once per set; with --threads frame or
  // fold, its thread (the label's text) apart and, folded, out of the set.
  struct LabelsHere {
    bool made = false;
    LabelSetId id{};
    std::string thread;
  };
  const LabelsHere& sample_labels(const Sample& s) {
    LabelsHere& here = labels_here_[s.labels.index()];
    if (here.made) return here;
    here.made = true;
    here.id = import_.labels(s.labels);
    if (o_.threads != ThreadMode::kLabel) {
      std::vector<Label> kept;
      for (const Label& l : b_.label_set(here.id)) {
        if (!l.numeric && b_.str_of(l.key) == kThreadLabel)
          here.thread = std::string(b_.str_of(l.str));
        else if (b_.str_of(l.key) != kThreadIdLabel)
          kept.push_back(l);
      }
      if (o_.threads == ThreadMode::kFold) here.id = b_.labels(std::move(kept));
    }
    return here;
  }

  // The stack of `frames` (root first, kept by the filters) here: renamed,
  // recursion collapsed, cut at --max-depth, under the thread's frame with
  // --threads frame.
  StackId new_stack(const std::vector<FrameId>& frames, const std::string& thread) {
    std::vector<FrameId> out;
    if (o_.threads == ThreadMode::kFrame && !thread.empty()) out.push_back(b_.frame(thread));
    FunctionId previous = kNoId<FunctionId>;
    for (FrameId f : frames) {
      const FrameId to = renamer_.empty() ? import_.frame(f) : renamer_.frame(f, b_, import_);
      const FunctionId fn = b_.function_of(to);
      if (o_.collapse_recursion && fn == previous) continue;
      previous = fn;
      out.push_back(to);
    }
    if (o_.max_depth && out.size() > o_.max_depth) out.resize(o_.max_depth);
    return b_.stack(out);
  }

  static constexpr StackId kNotMade{UINT32_MAX};      // by_stack: not seen yet
  static constexpr StackId kDropped{UINT32_MAX - 1};  // by_stack: the filters drop it

  std::vector<LabelsHere> labels_here_;  // by label set of p_
  const Profile& p_;
  const FilterOptions& o_;
  ProfileBuilder b_;
  ProfileImporter import_;
  filter::TimeWindow window_;
  filter::TagFilter tags_;
  std::optional<Pattern> thread_;
  bool thread_matched_ = false;
  std::vector<Pattern> include_, exclude_;
  std::vector<bool> include_matched_, exclude_matched_;
  FrameMatcher focus_, ignore_, hide_, show_, show_from_, prune_from_;
  filter::Renamer renamer_;
};

// --min-percent: each stack cut at its first frame (from the root) whose
// subtree holds less than the share of the default column's total.
Profile cut_small(const Profile& p, double percent) {
  const std::size_t col = p.default_value_index();
  std::vector<std::int64_t> total(p.stack_count(), 0);
  std::int64_t all = 0;
  for (std::size_t i = 0; i < p.sample_count(); ++i) {
    const std::int64_t v = std::llabs(p.values(i)[col]);
    total[p.sample(i).stack.index()] += v;
    all += v;
  }
  for (auto s = static_cast<std::uint32_t>(p.stack_count()); s-- > 1;)
    total[p.parent(StackId{s}).index()] += total[s];
  const double floor = static_cast<double>(all) * percent / 100.0;
  ProfileBuilder b(p.value_types());
  b.metadata() = p.metadata();
  ProfileImporter import(b, p);
  std::vector<StackId> path;
  for (std::size_t i = 0; i < p.sample_count(); ++i) {
    const Sample& s = p.sample(i);
    path.clear();
    for (StackId at = s.stack; at != kRootStack; at = p.stack(at).parent) path.push_back(at);
    StackId kept = kRootStack;
    for (auto it = path.rbegin(); it != path.rend() && static_cast<double>(total[it->index()]) >= floor; ++it)
      kept = *it;
    b.add_sample(import.stack(kept), p.values(i), import.labels(s.labels), s.timestamp);
  }
  return std::move(b).finish();
}

}  // namespace

Profile apply_filters(const Profile& p, const FilterOptions& o) {
  Diagnostics quiet;
  return apply_filters(p, o, quiet);
}

Profile apply_filters(const Profile& input, const FilterOptions& o, Diagnostics& diagnostics) {
  if (o.min_percent < 0 || o.min_percent > 100 || std::isnan(o.min_percent))
    throw UsageError("--min-percent: expected a percentage from 0 to 100");
  // First, so that every pattern sees the names a user sees.
  std::optional<Profile> normalized;
  if (o.normalize_names) normalized = normalized_names(input);
  const Profile& p = normalized ? *normalized : input;
  SampleFilter f(p, o);
  ProfileBuilder& b = f.builder();
  b.metadata() = p.metadata();
  Metadata& m = b.metadata();
  const std::vector<std::string> words = describe(o);
  m.filters.insert(m.filters.end(), words.begin(), words.end());
  if (!o.relative && m.unfiltered_totals.empty() && !o.empty()) m.unfiltered_totals = abs_totals(p);
  if (o.relative) m.unfiltered_totals.clear();
  Profile out = f.run();
  std::string where;  // the inputs, so that fg-diff's two sides are told apart
  for (const std::string& s : p.metadata().sources) where += (where.empty() ? "" : ", ") + s;
  for (const std::string& m : f.unmatched())
    diagnostics.warn("filter matched nothing", (where.empty() ? "" : where + ": ") + m);
  if (o.invert) out = reverse_stacks(out);
  if (o.min_percent > 0) out = cut_small(out, o.min_percent);
  return out;
}

}  // namespace fg
