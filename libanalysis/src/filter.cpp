#include "fg/filter.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <tuple>
#include <unordered_map>

#include "fg/builder.h"
#include "fg/error.h"
#include "fg/expansion.h"
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
    nodes_.resize(p.stack_count());
    Node& root = nodes_[kRootStack.index()];
    root.named = root.placed = true;
    root.started = !show_from_;
    made_.resize(p.stack_count());
    if (!include_.empty() || !exclude_.empty()) {
      // A grep sees each stack's whole text: bounded as collapsed output is.
      check_expansion(p, "--include and --exclude (a grep of each whole call path)",
                      "--focus, --ignore, --show-from or --prune-from match frame by frame instead");
      grep_kept_.assign(p.stack_count(), -1);
    }
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
    for (std::size_t i = 0; i < p_.sample_count(); ++i) {
      const Sample& s = p_.sample(i);
      if (!window_.contains(s.timestamp) || !thread_kept(s) || !tags_.keep(s)) continue;
      const StackId kept = kept_path(s.stack);
      if (kept == kDropped) continue;
      const LabelsHere& labels = sample_labels(s);
      b_.add_sample(out_stack(kept, labels.thread), p_.values(i), labels.id, s.timestamp);
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

  // What the frame filters make of a stack of p_, worked out once per node
  // from its parent's (parents have smaller ids), so that no stack's path
  // is walked whole. In the filters' order: --focus/--ignore (any frame),
  // --hide/--show (drop frames), --show-from (from the rootmost match),
  // --prune-from (up to the leafmost match), --skip. Each matcher is asked
  // about the frames sample by sample filtering would ask about, so that
  // "matched no samples" is the same.
  struct Node {
    bool named : 1 = false;          // focused and ignored are worked out
    bool focused : 1 = false;        // some frame on the path focused (--focus, or any)
    bool ignored : 1 = false;        // some frame on the path ignored
    bool placed : 1 = false;         // the fields below are worked out
    bool shown : 1 = false;          // --hide and --show keep some frame on the path
    bool started : 1 = false;        // --show-from matched on the path (or none given)
    bool appended : 1 = false;       // this node's frame is kept, after --show-from
    std::uint32_t kept = 0;          // frames on the path kept (appended)
    StackId prune = kNoId<StackId>;  // the leafmost kept frame --prune-from matches
  };

  // The nodes from `s` up to (not including) the first for which `done`
  // holds, leaf first; the root is always done.
  template <class Done>
  const std::vector<StackId>& path_to_done(StackId s, Done done) {
    walk_.clear();
    for (; s != kRootStack && !done(nodes_[s.index()]); s = p_.parent(s)) walk_.push_back(s);
    return walk_;
  }

  void work_out_names(StackId s) {
    const std::vector<StackId>& path = path_to_done(s, [](const Node& n) { return n.named; });
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
      const StackId x = *it;
      Node& n = nodes_[x.index()];
      const Node& up = nodes_[p_.parent(x).index()];
      const FrameId f = p_.stack(x).frame;
      const bool ignored = ignore_ && ignore_.matches(f);
      n.focused = up.focused || (!ignored && (!focus_ || focus_.matches(f)));
      n.ignored = up.ignored || ignored;
      n.named = true;
    }
  }

  void work_out_placing(StackId s, bool by_name) {
    const std::vector<StackId>& path = path_to_done(s, [](const Node& n) { return n.placed; });
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
      const StackId x = *it;
      Node& n = nodes_[x.index()];
      const Node& up = nodes_[p_.parent(x).index()];
      const FrameId f = p_.stack(x).frame;
      const bool shown = !by_name || ((!hide_ || !hide_.matches(f)) && (!show_ || show_.matches(f)));
      n.shown = up.shown || shown;
      n.started = up.started || (shown && show_from_.matches(f));
      n.appended = shown && n.started;
      n.kept = up.kept + n.appended;
      n.prune = n.appended && prune_from_ && prune_from_.matches(f) ? x : up.prune;
      n.placed = true;
    }
  }

  // The node of p_ whose kept frames are `s`'s after the frame filters, or
  // kDropped.
  StackId kept_path(StackId s) {
    if (!include_.empty() || !exclude_.empty()) {
      std::int8_t& grep = grep_kept_[s.index()];
      if (grep < 0) grep = grep_filters(s);
      if (!grep) return kDropped;
    }
    const bool by_name = focus_ || ignore_ || hide_ || show_;
    if (by_name) {
      // As pprof's FilterSamplesByName: kept when some frame is focused
      // (any frame, without --focus) and none ignored.
      work_out_names(s);
      if (nodes_[s.index()].ignored || !nodes_[s.index()].focused) return kDropped;
    }
    work_out_placing(s, by_name);
    const Node& n = nodes_[s.index()];
    if ((by_name && !n.shown) || !n.started) return kDropped;
    return n.prune != kNoId<StackId> ? n.prune : s;
  }

  // --include and --exclude: grep over the folded line's text, once per
  // stack (the constructor bounds the text, see check_expansion).
  bool grep_filters(StackId s) {
    std::vector<FrameId> frames;
    p_.stack_frames(s, frames);
    const std::string text = folded_text(frames);
    auto hits = [&](const Pattern& r) { return r.search(text); };
    if (!include_.empty() && !any_marked(include_, include_matched_, hits)) return false;
    return !any_marked(exclude_, exclude_matched_, hits);
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

  // A node's stack here: its kept frames past --skip, renamed, recursion
  // collapsed, cut at --max-depth, under `base` (the thread's frame with
  // --threads frame, else the root). Worked out from the parent's, once
  // per node and base.
  struct Made {
    StackId stack = kNoId<StackId>;
    FunctionId function = kNoId<FunctionId>;  // of the last frame kept, for --collapse-recursion
    std::uint32_t depth = 0;
  };
  Made& made(StackId base, StackId s) {
    if (base == kRootStack) return made_[s.index()];
    return made_under_[std::uint64_t{base.index()} << 32 | s.index()];
  }

  StackId out_stack(StackId s, const std::string& thread) {
    Made root{kRootStack, kNoId<FunctionId>, 0};
    if (o_.threads == ThreadMode::kFrame && !thread.empty())
      root = {b_.stack(kRootStack, b_.frame(thread)), kNoId<FunctionId>, 1};
    const StackId base = root.stack;
    made(base, kRootStack) = root;
    const std::vector<StackId>& path = path_to_made(base, s);
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
      const StackId x = *it;
      Made m = made(base, p_.parent(x));
      const Node& n = nodes_[x.index()];
      if (n.appended && n.kept > o_.skip) {
        const FrameId f = p_.stack(x).frame;
        const FrameId to = renamer_.empty() ? import_.frame(f) : renamer_.frame(f, b_, import_);
        const FunctionId fn = b_.function_of(to);
        if (!o_.collapse_recursion || fn != m.function) {
          m.function = fn;
          if (!o_.max_depth || m.depth < o_.max_depth) m.stack = b_.stack(m.stack, to), ++m.depth;
        }
      }
      made(base, x) = m;
    }
    return made(base, s).stack;
  }

  const std::vector<StackId>& path_to_made(StackId base, StackId s) {
    walk_.clear();
    for (; s != kRootStack && made(base, s).stack == kNoId<StackId>; s = p_.parent(s)) walk_.push_back(s);
    return walk_;
  }

  static constexpr StackId kDropped{UINT32_MAX - 1};  // the frame filters drop the stack

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
  std::vector<Node> nodes_;             // by stack of p_
  std::vector<std::int8_t> grep_kept_;  // by stack of p_: -1 not yet, else --include/--exclude keep it
  std::vector<Made> made_;              // by stack of p_, under the root
  std::unordered_map<std::uint64_t, Made> made_under_;  // by (thread's frame, stack of p_)
  std::vector<StackId> walk_;
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
  // Where each stack is cut, in one pass in id order (parents first): a
  // stack whose ancestors all stay keeps itself when it is large enough,
  // else it is cut where its parent is.
  std::vector<StackId> kept(p.stack_count(), kRootStack);
  for (const StackId s : id_range<StackId>(StackId{1}, p.stack_count())) {
    const StackId parent = p.parent(s);
    const StackId up = kept[parent.index()];
    kept[s.index()] = up == parent && static_cast<double>(total[s.index()]) >= floor ? s : up;
  }
  for (std::size_t i = 0; i < p.sample_count(); ++i) {
    const Sample& s = p.sample(i);
    b.add_sample(import.stack(kept[s.stack.index()]), p.values(i), import.labels(s.labels), s.timestamp);
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
