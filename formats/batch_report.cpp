#include "formats/batch_report.h"

#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <csignal>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string_view>
#include <system_error>

#include "fg/builder.h"
#include "fg/call_graph.h"
#include "fg/diff.h"
#include "fg/error.h"
#include "fg/expansion.h"
#include "fg/filter.h"
#include "fg/import.h"
#include "fg/label_totals.h"
#include "fg/normalize_names.h"
#include "fg/parallel.h"
#include "formats/batch_groups.h"
#include "formats/batch_part.h"
#include "formats/batch_reuse.h"
#include "formats/batch_site.h"
#include "formats/common/number_format.h"
#include "formats/common/table_text.h"
#include "formats/input.h"
#include "formats/output.h"
#include "formats/registry.h"

namespace fg::formats {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kTopFunctions = 3;
constexpr std::size_t kBusiestThreads = 20;

// Whether `ext` (".pb") ends the names of some format's files, or of
// compressed or text ones.
bool profile_extension(std::string_view ext) {
  if (ext == ".gz" || ext == ".txt") return true;
  for (const Format& f : all_formats())
    if (std::find(f.extensions.begin(), f.extensions.end(), ext) != f.extensions.end()) return true;
  return false;
}

// "cpu" of "cpu.pb.gz", "host1.example.com" of "host1.example.com.folded",
// "go_cpu.default" of "go_cpu.default.svg": a file name without the
// extensions of profile files at its end, whatever other dots it has (a
// name up to its first dot made 7 flamegraph.pl renderings of one profile
// all "go_cpu"). A leading dot starts no extension.
std::string without_extensions(const std::string& file) {
  std::size_t end = file.size();
  for (std::size_t dot = file.rfind('.', end - 1); end > 0 && dot != 0 && dot != std::string::npos;
       dot = file.rfind('.', end - 1)) {
    if (!profile_extension(std::string_view(file).substr(dot, end - dot))) break;
    end = dot;
  }
  return end == 0 ? file : file.substr(0, end);
}

// The files of `dir` and its sub-folders that some reader recognises, in
// sorted order, named by their path relative to `dir`; each other file
// counts in `skipped`.
void add_directory(const fs::path& dir, std::vector<ReportInput>& out, std::size_t& skipped) {
  std::vector<std::string> found;
  for (const auto& e : fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied))
    if (e.is_regular_file()) found.push_back(e.path().string());
  std::sort(found.begin(), found.end());
  for (const std::string& f : found) {
    bool keep = true;  // one that cannot be opened or inflated is listed with its error
    try {
      keep = sniffs_as_profile(*Input::open(f));
    } catch (const Error&) {
    }
    if (!keep) {
      ++skipped;
      continue;
    }
    const fs::path relative = fs::path(f).lexically_relative(dir);
    out.push_back({f, (relative.parent_path() / without_extensions(relative.filename().string())).string()});
  }
}

void add_input(const std::string& arg, std::vector<ReportInput>& out, std::size_t& skipped) {
  std::error_code ec;
  if (fs::is_directory(arg, ec)) return add_directory(arg, out, skipped);
  out.push_back({arg, report_name(arg)});  // a missing file is that input's error, listed with the others
}

}  // namespace

std::vector<ReportInput> expand_report_inputs(const std::vector<std::string>& args, std::istream& paths_in,
                                              std::size_t* skipped) {
  std::vector<ReportInput> out;
  std::size_t left_out = 0;
  for (const std::string& arg : args) {
    if (arg != "-") {
      add_input(arg, out, left_out);
      continue;
    }
    for (std::string line; std::getline(paths_in, line);) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (!line.empty()) add_input(line, out, left_out);
    }
  }
  if (skipped) *skipped += left_out;
  return out;
}

std::string report_name(const std::string& path) {
  return without_extensions(fs::path(path).filename().string());
}

namespace {

// A page folder name from a profile's name: safe in a URL and a path.
std::string folder_name(const std::string& name, std::set<std::string>& used) {
  std::string base;
  for (char c : name) base += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
  if (base.empty()) base = "profile";
  std::string folder = base;
  for (int n = 2; !used.insert(folder).second; ++n) folder = base + "-" + std::to_string(n);
  return folder;
}

// SIGINT, SIGTERM and SIGHUP while the site is built: noted, so that the
// workers stop at the next page and the temporary folder is removed before
// the signal ends the process as it would have.
volatile std::sig_atomic_t g_signal = 0;

class InterruptGuard {
 public:
  InterruptGuard() {
    for (std::size_t i = 0; i < std::size(kSignals); ++i) {
      struct sigaction sa {};
      sa.sa_handler = [](int sig) { g_signal = sig; };
      ::sigemptyset(&sa.sa_mask);
      ::sigaction(kSignals[i], nullptr, &old_[i]);
      if (old_[i].sa_handler != SIG_IGN) ::sigaction(kSignals[i], &sa, nullptr);
    }
  }
  ~InterruptGuard() {
    for (std::size_t i = 0; i < std::size(kSignals); ++i) ::sigaction(kSignals[i], &old_[i], nullptr);
    if (g_signal) std::raise(g_signal);
  }
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  static void check() {
    if (g_signal) throw Error("interrupted");
  }

 private:
  static constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction old_[std::size(kSignals)]{};
};

// The site's folder: a temporary beside the target, renamed into place by
// commit(), removed otherwise. A folder already at the target is replaced
// only when it is empty or an earlier report or part (summary.json, or a
// part's facts).
class SiteFolder {
 public:
  explicit SiteFolder(const std::string& target) : target_(target) {
    while (!target_.has_filename() && target_.has_parent_path() && target_ != target_.root_path())
      target_ = target_.parent_path();  // "report/": the folder itself, not a file in it
    std::error_code ec;
    if (fs::exists(target_, ec) &&
        (!fs::is_directory(target_, ec) ||
         (!fs::is_empty(target_, ec) && !fs::exists(target_ / "summary.json", ec) &&
          !fs::exists(target_ / kPartFacts, ec))))
      throw UsageError("-o " + target + ": exists and is not an fg-report site; name a new folder");
    temp_ = make_temp(".tmp-");
  }
  ~SiteFolder() {
    std::error_code ec;
    if (!committed_) fs::remove_all(temp_, ec);
  }
  SiteFolder(const SiteFolder&) = delete;
  SiteFolder& operator=(const SiteFolder&) = delete;
  const fs::path& path() const { return temp_; }
  /// The folder the site goes to (an earlier site may be there).
  const fs::path& target() const { return target_; }
  void commit() {
    std::error_code ec;
    fs::path old;
    if (fs::exists(target_, ec)) {
      old = make_temp(".old-");
      fs::rename(target_, old, ec);  // onto the empty temporary
      if (ec) throw Error(target_.string() + ": cannot replace: " + ec.message());
    }
    fs::rename(temp_, target_, ec);
    if (ec) throw Error(target_.string() + ": cannot rename the site into place: " + ec.message());
    committed_ = true;
    if (!old.empty()) fs::remove_all(old, ec);
  }

 private:
  fs::path make_temp(const std::string& infix) const {
    const fs::path parent = target_.has_parent_path() ? target_.parent_path() : fs::path(".");
    std::string templ = (parent / (target_.filename().string() + infix + "XXXXXX")).string();
    if (!::mkdtemp(templ.data()))
      throw Error(target_.string() + ": cannot create a folder beside it: " +
                  std::error_code(errno, std::generic_category()).message());
    return templ;
  }
  fs::path target_;
  fs::path temp_;
  bool committed_ = false;
};

const Format& writer(std::string_view name) {
  const Format* f = find_format(name);
  if (!f) throw Error("fg-report: no writer " + std::string(name));
  return *f;
}

// Writes one file of a page with `write` (into a stream), recording it.
template <typename Write>
void write_file(const fs::path& folder, const std::string& file, bool binary, ProfileFacts& facts,
                const Write& write) {
  InterruptGuard::check();
  Output out((folder / file).string(), binary);
  write(out.stream());
  out.commit();
  facts.files.push_back(file);
}

void describe(const Profile& profile, ProfileFacts& facts) {
  facts.format = profile.metadata().source_format;
  const std::vector<std::int64_t> totals = profile.totals();
  for (std::size_t i = 0; i < profile.value_count(); ++i) {
    const ValueType& t = profile.value_types()[i];
    facts.columns.push_back({t.type, t.unit, fixed_point_text(totals[i], t.decimals)});
  }
  facts.default_column = profile.default_value_index();
  facts.samples = profile.sample_count();
  facts.duration_ns = profile.metadata().duration_ns;
}

// The top functions of the default column per function (describe()'s
// facts, listed by write_pages() from the call graph its top table drew
// from when that is per function too; else from a graph of their own, not
// kept).
void list_top_functions(const Profile& profile, Granularity pages, CallGraphCache& graphs,
                        ProfileFacts& facts) {
  const CallGraphOptions options{.column = facts.default_column, .edges = false};
  std::optional<CallGraph> own;
  const CallGraph& graph = pages == Granularity::kFunction ? *graphs.find(profile, options)
                                                           : own.emplace(build_call_graph(profile, options));
  const int decimals = profile.value_types()[facts.default_column].decimals;
  facts.top.clear();
  for (const std::uint32_t n : top_order(graph)) {  // fg-top's order: by |flat|, then name
    if (facts.top.size() == kTopFunctions || graph.nodes[n].flat == 0) break;
    facts.top.push_back({graph.nodes[n].name, fixed_point_text(graph.nodes[n].flat, decimals)});
  }
}

// Profiles of this many stacks or more hand the heap's free pages back
// after their call graph page (below that, the views' builds are small and
// the calls to the allocator cost more than they return).
constexpr std::size_t kTrimmedStacks = std::size_t{1} << 14;

// Hands the heap's free pages back to the system after the call graph
// page of a large profile. The call graph (kept from the top table for
// that page) and its build free many small blocks among live ones, which
// the allocator keeps; the reversed view's build would grow the process
// past them.
void release_free_memory(const Profile& profile) {
#if defined(__GLIBC__)
  if (profile.stack_count() >= kTrimmedStacks) ::malloc_trim(0);
#else
  (void)profile;
#endif
}

// One view of one value column: `f` with `w`, into PREFIX<column>EXTENSION.
void write_view(const Profile& profile, const Format& f, const WriteOptions& w, std::string_view prefix,
                std::string_view extension, const fs::path& folder, ProfileFacts& facts,
                Diagnostics& diagnostics) {
  if (f.check) f.check(w);
  const std::string file = std::string(prefix) + *w.value + std::string(extension);
  write_file(folder, file, f.binary, facts,
             [&](std::ostream& out) { f.write(profile, w, out, diagnostics); });
}

// Whether the reversed views can be drawn: reversing spells out every
// call path, which a hostile profile (a long chain) makes quadratic.
// A refusal is this profile's warning; its other views are still drawn.
bool reversible(const Profile& profile, Diagnostics& diagnostics) {
  try {
    check_expansion(profile, "the reversed view (reversed-N.svg)", "the page has its other views");
    return true;
  } catch (const UsageError&) {
    throw;
  } catch (const Error& e) {
    diagnostics.warn("view left out", e.what());
    return false;
  }
}

// The icicle (fg-convert --inverted) and reversed (--reverse) views of
// one column, as SVG flame graphs (whose estimated stacks, when the
// profile is a call graph, the flame graph's warning already told).
void write_turned_views(const Profile& profile, const WriteOptions& column, bool reverse,
                        const fs::path& folder, ProfileFacts& facts, Diagnostics& diagnostics) {
  const Format& svg = writer("svg");
  WriteOptions icicle = column;
  icicle.flame.inverted = true;
  icicle.flame.reverse = false;
  write_view(profile, svg, icicle, "icicle-", ".svg", folder, facts, diagnostics);
  if (!reverse) return;
  WriteOptions reversed = column;
  reversed.flame.inverted = false;
  reversed.flame.reverse = true;
  write_view(profile, svg, reversed, "reversed-", ".svg", folder, facts, diagnostics);
}

// The busiest threads of one column as a plain-text table: the threads
// (their `thread` labels, as the JFR reader and others label samples) by
// the column's total, largest first.
std::string thread_table(const Profile& profile, std::size_t column, const std::vector<LabelTotal>& threads) {
  const ValueType& t = profile.value_types()[column];
  const std::int64_t total = profile.totals()[column];
  std::string out = "Busiest threads by " + text_cell(t.type) + " (" + text_cell(t.unit) + "), of " +
                    fixed_point_text(total, t.decimals) + " in all\n";
  const auto pad = [](std::string s, std::size_t width) {
    return std::string(width - std::min(width, s.size()), ' ') + s;
  };
  out += pad("value", 14) + pad("share", 9) + pad("records", 10) + "  thread\n";
  for (std::size_t i = 0; i < threads.size() && i < kBusiestThreads; ++i) {
    const LabelTotal& l = threads[i];
    out += pad(fixed_point_text(l.total, t.decimals), 14) +
           pad(total ? fixed(100.0 * static_cast<double>(l.total) / static_cast<double>(total), 2) + "%" : "",
               9) +
           pad(std::to_string(l.records), 10) + "  " + text_cell(l.value) + "\n";
  }
  if (threads.size() > kBusiestThreads)
    out += "(" + std::to_string(threads.size() - kBusiestThreads) + " more threads)\n";
  return out;
}

// threads-N.txt for each column whose samples carry thread labels.
void write_thread_tables(const Profile& profile, const fs::path& folder, ProfileFacts& facts) {
  for (std::size_t column = 0; column < profile.value_count(); ++column) {
    const std::vector<LabelTotal> threads = totals_by_label(profile, kThreadLabel, column);
    if (threads.empty()) continue;
    write_file(folder, "threads-" + std::to_string(column) + ".txt", false, facts,
               [&](std::ostream& out) { out << thread_table(profile, column, threads); });
  }
}

// The flame graph, its icicle and reversed views, the top table and the
// call graph of each value column; and the top functions (describe()).
// A column's call graph is built once: the top table draws from it, the
// top functions are listed from it, and the call graph page takes it.
void write_column(const Profile& profile, const WriteOptions& w, bool reverse, const fs::path& folder,
                  ProfileFacts& facts, Diagnostics& diagnostics, bool& listed) {
  struct View {
    std::string_view writer, prefix, extension;
  };
  static constexpr View kViews[] = {
      {"html", "flame-", ".html"}, {"top", "top-", ".txt"}, {"callgraph-svg", "callgraph-", ".svg"}};
  for (const View& v : kViews) {
    const Format& f = writer(v.writer);
    warn_if_stacks_estimated(profile, f, w.granularity, diagnostics);
    write_view(profile, f, w, v.prefix, v.extension, folder, facts, diagnostics);
    if (!listed && v.writer == "top" && *w.value == std::to_string(facts.default_column)) {
      list_top_functions(profile, w.granularity, *w.call_graphs, facts);
      listed = true;
    }
  }
  release_free_memory(profile);  // the call graph's, before the turned views build theirs
  write_turned_views(profile, w, reverse, folder, facts, diagnostics);
}

void write_pages(const Profile& profile, const WriteOptions& options, const fs::path& folder,
                 ProfileFacts& facts, Diagnostics& diagnostics) {
  const bool reverse = profile.value_count() > 0 && reversible(profile, diagnostics);
  CallGraphCache graphs(profile);
  bool listed = profile.value_count() == 0;
  try {
    for (std::size_t column = 0; column < profile.value_count(); ++column) {
      WriteOptions w = options;
      w.value = std::to_string(column);
      w.call_graphs = &graphs;
      write_column(profile, w, reverse, folder, facts, diagnostics, listed);
    }
  } catch (...) {
    if (!listed)
      list_top_functions(profile, options.granularity, graphs, facts);  // a failed page's facts list them too
    throw;
  }
}

std::size_t column_of(const Profile& p, const std::optional<std::string>& value) {
  return value ? p.find_value(*value) : p.default_value_index();
}

// Writes what `diff` looks like with `f`: its own view of both sides, else
// the diff's profile.
void write_diff_view(const Format& f, const Diff& diff, const WriteOptions& w, std::ostream& out,
                     Diagnostics& diagnostics) {
  if (f.write_diff)
    f.write_diff(diff, w, out, diagnostics);
  else
    f.write(diff.profile, w, out, diagnostics);
}

// One condition on one pair. A function pattern that matches nothing here
// holds (another profile of the batch may have the function), with a
// warning, where fg-diff, which has one pair, refuses it.
GateVerdict verdict(const Diff& diff, const GateCondition& condition, const BatchReportOptions& options,
                    Diagnostics& diagnostics) {
  try {
    const std::vector<std::string> tripped = evaluate_gate(diff, {condition}, options.min_delta);
    return {condition.text, tripped.empty() ? "" : tripped.front()};
  } catch (const UsageError& e) {
    diagnostics.warn("gate", e.what());
    return {condition.text, ""};
  }
}

// The one baseline of every input (--baseline given once), read once,
// names made equal across builds; or why it could not be read.
struct SharedBaseline {
  std::optional<Profile> profile;
  std::string error;
  std::vector<std::string> warnings;
};

SharedBaseline read_shared_baseline(const std::string& path, const BatchReportOptions& options) {
  SharedBaseline b;
  Diagnostics diagnostics(options.strict, [&](const std::string& m) { b.warnings.push_back(m); });
  try {
    b.profile = normalize_names(options.read(path, diagnostics));
  } catch (const UsageError&) {
    throw;
  } catch (const std::exception& e) {
    if (g_signal) throw;
    b.error = e.what();
  }
  for (const std::string& line : diagnostics.summary()) b.warnings.push_back(line);
  return b;
}

// The baseline comparison: fg-diff's defaults (names made equal across
// builds, the base scaled to the new total), its two views and the gate.
// `shared`: the baseline already read, else it is read here.
// `kind`: the kind of event of facts.format read from the baseline (""
// its one reading). `base_kinds`, when given, receives the baseline's
// kinds; then, when the baseline's reading is of another kind than
// facts.kind, its reading of facts.kind is compared, or, when it holds
// none, nothing (a note).
void compare(Profile next, const std::string& baseline, const SharedBaseline* shared,
             const BatchReportOptions& options, const fs::path& folder, ProfileFacts& facts,
             Diagnostics& diagnostics, const std::string& kind = "",
             std::vector<std::string>* base_kinds = nullptr) {
  ComparisonFacts& c = facts.comparison;
  c.baseline = baseline;
  try {
    std::optional<Profile> own;
    if (shared) {
      facts.warnings.insert(facts.warnings.end(), shared->warnings.begin(), shared->warnings.end());
      if (!shared->error.empty()) throw Error(shared->error);
    } else if (!kind.empty()) {
      own = normalize_names(options.read_kind(baseline, facts.format, kind, diagnostics));
    } else {
      own = normalize_names(options.read(baseline, diagnostics));
    }
    const Profile* base = shared ? &*shared->profile : &*own;
    if (base_kinds) *base_kinds = event_kinds(*base);
    if (base_kinds && !base_kinds->empty() && !facts.kind.empty() && event_kind(*base) != facts.kind) {
      if (std::find(base_kinds->begin(), base_kinds->end(), facts.kind) == base_kinds->end()) {
        facts.compared = false;
        facts.comparison = {};
        facts.warnings.push_back("not compared: the baseline " + baseline + " holds no " + facts.kind +
                                 " events");
        return;
      }
      own = normalize_names(options.read_kind(baseline, facts.format, facts.kind, diagnostics));
      base = &*own;
    }
    next = normalize_names(std::move(next));
    DiffOptions o;
    o.base_column = column_of(*base, options.write.value);
    o.new_column = column_of(next, options.write.value);
    o.granularity = options.write.granularity;
    const Diff diff = diff_profiles(*base, next, o);
    c.base_total = diff.base_total_raw;
    c.new_total = diff.new_total;
    c.unit = next.value_types()[o.new_column].unit;
    for (const GateCondition& g : options.gate) c.gate.push_back(verdict(diff, g, options, diagnostics));
    WriteOptions w = options.write;
    w.value.reset();  // the diff has its own columns
    w.flame.show_removed = true;
    w.report.base_name = baseline;
    w.report.new_name = facts.path;
    const Format& svg = writer("svg");
    write_file(folder, "diff.svg", svg.binary, facts,
               [&](std::ostream& out) { write_diff_view(svg, diff, w, out, diagnostics); });
    const Format& top = writer("top");
    write_file(folder, "delta.txt", top.binary, facts,
               [&](std::ostream& out) { write_diff_view(top, diff, w, out, diagnostics); });
  } catch (const std::exception& e) {
    // UsageError included: a unit mismatch or a pattern that matches nothing
    // is this pair's problem, not the run's.
    if (g_signal) throw;
    c.gate.clear();
    c.error = e.what();
  }
}

// The pages of one more kind of event of a recording (kind_facts.kind),
// in its folder of the page, compared with the same kind of the baseline
// when the baseline holds it (`base_kinds`), else with a note.
void process_kind(const std::string& baseline, const std::vector<std::string>& base_kinds,
                  const BatchReportOptions& options, const fs::path& folder, ProfileFacts& kind_facts,
                  const std::string& group, GroupMerges& groups, Diagnostics& diagnostics) {
  const std::string& kind = kind_facts.kind;
  Profile profile = options.read_kind(kind_facts.path, kind_facts.format, kind, diagnostics);
  describe(profile, kind_facts);
  fs::create_directories(folder / kind);
  write_pages(profile, options.write, folder / kind, kind_facts, diagnostics);
  write_thread_tables(profile, folder / kind, kind_facts);
  if (!group.empty()) groups.add(group, profile);  // beside the merges of the group's other kinds
  if (!baseline.empty() && std::find(base_kinds.begin(), base_kinds.end(), kind) != base_kinds.end()) {
    kind_facts.compared = true;
    compare(std::move(profile), baseline, nullptr, options, folder / kind, kind_facts, diagnostics, kind);
  } else if (!baseline.empty()) {
    kind_facts.warnings.push_back("not compared: the baseline " + baseline + " holds no " + kind + " events");
  }
  for (std::string& f : kind_facts.files) f = kind + "/" + f;
}

// The recording's kinds of event after its first reading's (`kinds`,
// from event_kinds()), each its own pages; a kind the baseline holds and
// the input does not is a note.
void process_kinds(const std::vector<std::string>& kinds, const std::string& baseline,
                   const std::vector<std::string>& base_kinds, const BatchReportOptions& options,
                   const fs::path& folder, ProfileFacts& facts, GroupMerges& groups,
                   Diagnostics& diagnostics) {
  for (std::size_t k = 1; k < kinds.size(); ++k) {
    ProfileFacts& kind_facts = facts.kinds.emplace_back();
    kind_facts.path = facts.path;
    kind_facts.name = facts.name;
    kind_facts.page = facts.page;
    kind_facts.format = facts.format;
    kind_facts.kind = kinds[k];
    process_kind(baseline, base_kinds, options, folder, kind_facts, facts.group, groups, diagnostics);
  }
  if (baseline.empty() || kinds.empty()) return;
  for (const std::string& b : base_kinds)
    if (std::find(kinds.begin(), kinds.end(), b) == kinds.end())
      facts.warnings.push_back("the baseline " + baseline + " holds " + b + " events, which " + facts.path +
                               " does not: not compared");
}

// Reads one input and writes its pages; its failure is recorded, not thrown.
void process(const std::string& baseline, const SharedBaseline* shared, const BatchReportOptions& options,
             const fs::path& site, ProfileFacts& facts, GroupMerges& groups) {
  Diagnostics diagnostics(options.strict, [&](const std::string& m) { facts.warnings.push_back(m); });
  const fs::path folder = site / facts.page;
  try {
    InterruptGuard::check();
    Profile profile = options.read(facts.path, diagnostics);
    const std::vector<std::string> kinds =
        options.read_kind ? event_kinds(profile) : std::vector<std::string>{};
    if (!kinds.empty() && kinds[0] != event_kind(profile))  // the first kind is not the default reading
      profile = options.read_kind(facts.path, profile.metadata().source_format, kinds[0], diagnostics);
    describe(profile, facts);
    if (!kinds.empty()) facts.kind = kinds[0];
    fs::create_directories(folder);
    write_pages(profile, options.write, folder, facts, diagnostics);
    write_thread_tables(profile, folder, facts);
    // Merged once its pages are written: an input whose pages fail is
    // listed as failed, and so as not merged into its group.
    if (!facts.group.empty()) groups.add(facts.group, profile);
    std::vector<std::string> base_kinds;
    if (!baseline.empty()) {
      facts.compared = true;
      compare(std::move(profile), baseline, shared, options, folder, facts, diagnostics, "",
              kinds.empty() ? nullptr : &base_kinds);
    }
    if (!facts.comparison.error.empty()) base_kinds.clear();  // the baseline's kinds are unknown
    { const Profile released = std::move(profile); }          // not kept while the other kinds are read
    if (kinds.size() > 1 || !base_kinds.empty())
      process_kinds(kinds, facts.comparison.error.empty() ? baseline : "", base_kinds, options, folder, facts,
                    groups, diagnostics);
  } catch (const UsageError&) {
    throw;  // the run's options, not this input
  } catch (const std::exception& e) {
    if (g_signal) throw;
    facts.error = e.what();
    facts.files.clear();
    facts.kinds.clear();
    std::error_code ec;
    fs::remove_all(folder, ec);
  }
  for (const std::string& line : diagnostics.summary()) facts.warnings.push_back(line);
}

// The baseline of each input: the one given for all, else the one of the
// same name. Throws UsageError when several are given and one has no pair.
std::vector<std::string> pair_baselines(const std::vector<ReportInput>& inputs,
                                        const std::vector<ReportInput>& baselines) {
  std::vector<std::string> paired(inputs.size());
  if (baselines.empty()) return paired;
  if (baselines.size() == 1) return std::vector<std::string>(inputs.size(), baselines[0].path);
  std::map<std::string, std::string> by_name;
  for (const ReportInput& b : baselines)
    if (!by_name.emplace(b.name, b.path).second)
      throw UsageError("--baseline " + b.path + ": a second baseline named " + b.name);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const auto it = by_name.find(inputs[i].name);
    if (it != by_name.end()) paired[i] = it->second;
  }
  return paired;
}

// A manifest's entry: its name (else the file's), group and labels.
void describe_entry(const ManifestEntry& entry, ProfileFacts& facts) {
  if (entry.path.empty()) return;
  if (!entry.name.empty()) facts.name = entry.name;
  facts.group = entry.group;
  facts.labels = entry.labels;
}

// A manifest's baseline pairs its input, whatever pairing by name found.
void pair_manifest_baselines(const std::vector<ManifestEntry>& described, std::vector<std::string>& paired) {
  for (std::size_t i = 0; i < described.size() && i < paired.size(); ++i)
    if (!described[i].baseline.empty()) paired[i] = described[i].baseline;
}

// The quantity of `p`'s default column, as GroupMerges::quantity() keys it.
std::string quantity_of(const ProfileFacts& p) {
  return p.columns.empty() ? "" : p.columns[p.default_column].type + "/" + p.columns[p.default_column].unit;
}

// The members of one group, and the quantity its merge keeps: that of its
// first member read.
GroupFacts group_members(const std::string& group, const std::vector<ProfileFacts>& profiles) {
  GroupFacts g;
  g.merged.name = group;
  std::string quantity;
  for (const ProfileFacts& p : profiles) {
    if (p.group != group) continue;
    g.members.push_back(p.name);
    if (!p.error.empty()) {
      g.merged.warnings.push_back(p.name + ": not read, not merged");
      continue;
    }
    const std::string q = quantity_of(p);
    if (quantity.empty()) quantity = q;
    if (q != quantity)
      g.merged.warnings.push_back(p.name + ": its default value is " + q + ", not the group's " + quantity +
                                  "; not merged");
  }
  g.merged.format = quantity;  // until describe(): the quantity of the merge kept
  return g;
}

// `p` with its sources and comments sorted: a group's merge is the same
// whichever order its parts merged in (workers, shards); only these lists
// keep that order.
Profile with_sorted_sources(const Profile& p) {
  ProfileBuilder b(p.value_types());
  b.metadata() = p.metadata();
  std::sort(b.metadata().sources.begin(), b.metadata().sources.end());
  std::sort(b.metadata().comments.begin(), b.metadata().comments.end());
  ProfileImporter import(b, p);
  for (std::size_t i = 0; i < p.sample_count(); ++i)
    b.add_sample(import.stack(p.sample(i).stack), p.values(i), import.labels(p.sample(i).labels),
                 p.sample(i).timestamp);
  return std::move(b).finish();
}

// Each more kind of event of the group's recordings (their readings of
// it merged, as process() adds them), unless its quantity is the
// merge's own (`quantity`): drawn in the kind's folder of the group's
// page, as a recording's kinds are in its page.
void write_group_kinds(const std::vector<ProfileFacts>& profiles, const GroupMerges& merges,
                       const WriteOptions& options, const fs::path& site, const std::string& quantity,
                       ProfileFacts& m, Diagnostics& diagnostics) {
  std::vector<std::pair<std::string, std::string>> kinds;  // (kind, quantity), in order of appearance
  for (const ProfileFacts& p : profiles) {
    if (p.group != m.name || !p.error.empty()) continue;
    if (m.kind.empty()) m.kind = p.kind;
    for (const ProfileFacts& k : p.kinds) {
      const std::pair<std::string, std::string> key{k.kind, quantity_of(k)};
      if (key.second != quantity && std::find(kinds.begin(), kinds.end(), key) == kinds.end())
        kinds.push_back(key);
    }
  }
  for (const auto& [kind, q] : kinds) {
    const Profile* profile = merges.find(m.name, q);
    if (!profile) continue;
    ProfileFacts& kind_facts = m.kinds.emplace_back();
    kind_facts.name = m.name;
    kind_facts.path = m.path;
    kind_facts.page = m.page;
    kind_facts.kind = kind;
    const Profile canonical = with_sorted_sources(*profile);
    describe(canonical, kind_facts);
    fs::create_directories(site / m.page / kind);
    write_pages(canonical, options, site / m.page / kind, kind_facts, diagnostics);
    for (std::string& f : kind_facts.files) f = kind + "/" + f;
  }
  if (m.kinds.empty()) m.kind.clear();
}

// Each group's page from its merge, in order of first appearance.
std::vector<GroupFacts> write_groups(const std::vector<ProfileFacts>& profiles, const GroupMerges& merges,
                                     const WriteOptions& options, const fs::path& site) {
  std::vector<GroupFacts> out;
  std::set<std::string> seen, used;
  for (const ProfileFacts& p : profiles) {
    if (p.group.empty() || !seen.insert(p.group).second) continue;
    GroupFacts g = group_members(p.group, profiles);
    ProfileFacts& m = g.merged;
    m.page = "g/" + folder_name(m.name, used);
    const std::size_t merged = g.members.size() - m.warnings.size();
    m.path = "the merge of " + std::to_string(merged) + " of the group's " +
             std::to_string(g.members.size()) + " profiles";
    const std::string quantity = m.format;
    const Profile* profile = merges.find(m.name, quantity);
    m.format.clear();
    if (!profile) {
      m.error = "group " + m.name + ": no profile of the group was read";
    } else {
      Diagnostics diagnostics(false, [&](const std::string& w) { m.warnings.push_back(w); });
      const Profile canonical = with_sorted_sources(*profile);
      describe(canonical, m);
      fs::create_directories(site / m.page);
      write_pages(canonical, options, site / m.page, m, diagnostics);
      write_group_kinds(profiles, merges, options, site, quantity, m, diagnostics);
      for (const std::string& line : diagnostics.summary()) m.warnings.push_back(line);
    }
    out.push_back(std::move(g));
  }
  return out;
}

// A shard's group merges, each a file of its part (merges/N.txt), for
// merge_batch_report() to merge in shard order.
std::vector<PartMerge> write_part_merges(const GroupMerges& merges, const fs::path& part) {
  std::vector<PartMerge> out;
  for (const auto& [key, profile] : merges.merges()) {
    out.push_back({key.first, key.second, "merges/" + std::to_string(out.size()) + ".txt"});
    fs::create_directories(part / "merges");
    write_site_file((part / out.back().file).string(), profile_part_text(profile));
  }
  return out;
}

// Whether reading `f`, or its comparison of any kind of event, failed.
bool failed(const ProfileFacts& f) {
  return !f.error.empty() || !f.comparison.error.empty() ||
         std::any_of(f.kinds.begin(), f.kinds.end(), [](const ProfileFacts& k) { return failed(k); });
}

// Whether a gate condition tripped for `f`, of any kind of event.
bool tripped(const ProfileFacts& f) {
  return std::any_of(f.comparison.gate.begin(), f.comparison.gate.end(),
                     [](const GateVerdict& v) { return !v.tripped.empty(); }) ||
         std::any_of(f.kinds.begin(), f.kinds.end(), [](const ProfileFacts& k) { return tripped(k); });
}

void count_outcomes(BatchReportResult& result) {
  for (const ProfileFacts& f : result.profiles) {
    if (failed(f)) ++result.failed;
    if (tripped(f)) ++result.tripped;
  }
}

// The inputs done and failed, told to options.progress, and whether
// --fail-fast stops the run. Shared by the worker threads.
class Progress {
 public:
  Progress(const BatchReportOptions& options, std::size_t total) : options_(options), total_(total) {}
  void done(const ProfileFacts& facts) {
    const std::lock_guard<std::mutex> lock(mutex_);
    ++done_;
    if (failed(facts)) {
      ++failed_;
      if (options_.fail_fast) stopped_ = true;
    }
    if (options_.progress) options_.progress(done_, total_, failed_);
  }
  bool stopped() const { return stopped_; }

 private:
  const BatchReportOptions& options_;
  const std::size_t total_;
  std::mutex mutex_;
  std::size_t done_ = 0, failed_ = 0;
  std::atomic<bool> stopped_ = false;
};

// process(), or the page of the site being replaced when its key (the
// input's and baseline's bytes, the options) is unchanged; returns
// whether the page was reused. A page drawn without failure records its
// key for the next run.
bool process_or_reuse(const std::string& baseline, const SharedBaseline* shared,
                      const BatchReportOptions& options, const SiteFolder& site, ProfileFacts& facts,
                      GroupMerges& groups) {
  // A member of a group is read again: its group's merge needs its profile.
  const std::string key = options.options_key.empty() || !facts.group.empty()
                              ? ""
                              : page_key(options.options_key, facts, baseline);
  if (!key.empty() && reuse_page(site.target().string(), site.path().string(), key, facts)) return true;
  process(baseline, shared, options, site.path(), facts, groups);
  if (!key.empty() && !failed(facts)) save_page_facts(site.path().string(), key, facts);
  return false;
}

// A shard's inputs: its indices in the batch (all of them unsharded).
std::vector<std::size_t> shard_indices(std::size_t inputs, const BatchReportOptions& options) {
  std::vector<std::size_t> mine;
  for (std::size_t i = 0; i < inputs; ++i)
    if (options.shards == 0 || i % options.shards == options.shard - 1) mine.push_back(i);
  return mine;
}

// The size of each of `inputs` in bytes, stat'ed once; 0 where unknown
// (standard input, a file that is gone: its reading tells the error).
std::vector<std::uintmax_t> input_sizes(const std::vector<ReportInput>& inputs,
                                        const std::vector<std::size_t>& mine) {
  std::vector<std::uintmax_t> sizes(inputs.size(), 0);
  for (const std::size_t i : mine) {
    std::error_code ec;
    const std::uintmax_t n = fs::file_size(inputs[i].path, ec);
    if (!ec) sizes[i] = n;
  }
  return sizes;
}

}  // namespace

std::array<std::vector<std::size_t>, 2> report_parts(const std::vector<std::size_t>& mine,
                                                     const std::vector<std::uintmax_t>& sizes) {
  std::vector<std::size_t> order = mine;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return sizes[a] > sizes[b]; });
  std::array<std::vector<std::size_t>, 2> parts;
  std::uintmax_t bytes[2] = {0, 0};
  for (const std::size_t i : order) {
    // The lighter part; of two as heavy, the one of fewer inputs (sizes unknown, 0, alternate).
    const std::size_t part =
        std::make_pair(bytes[1], parts[1].size()) < std::make_pair(bytes[0], parts[0].size()) ? 1 : 0;
    parts[part].push_back(i);
    bytes[part] += sizes[i];
  }
  std::reverse(parts[1].begin(), parts[1].end());  // smallest first
  return parts;
}

BatchReportResult write_batch_report(const std::vector<ReportInput>& inputs,
                                     const BatchReportOptions& options) {
  if (inputs.empty()) throw UsageError("no input: name files or folders with profiles");
  std::vector<std::string> baselines = pair_baselines(inputs, options.baselines);
  pair_manifest_baselines(options.described, baselines);
  InterruptGuard interrupts;  // made first: it raises a signal noted once the folder below is gone
  SiteFolder site(options.output_dir);
  // Names and page folders over the whole batch, so that a shard's pages
  // are where the unsharded site has them.
  std::vector<ProfileFacts> all(inputs.size());
  std::set<std::string> used;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    all[i].path = inputs[i].path;
    all[i].name = inputs[i].name;
    if (i < options.described.size()) describe_entry(options.described[i], all[i]);
    all[i].page = "p/" + folder_name(all[i].name, used);
  }
  const std::vector<std::size_t> mine = shard_indices(inputs.size(), options);
  std::optional<SharedBaseline> shared;  // each input is read once, and so is one baseline for all
  if (options.baselines.size() == 1 && !mine.empty())
    shared = read_shared_baseline(options.baselines[0].path, options);
  // Two parts, each its own profiles, files and group merges: the same
  // site at any --jobs.
  const std::array<std::vector<std::size_t>, 2> parts = report_parts(mine, input_sizes(inputs, mine));
  GroupMerges groups[2];
  Progress progress(options, mine.size());
  std::vector<char> done(inputs.size(), 0);  // char, not bool: each thread writes its own elements
  std::vector<char> reused(inputs.size(), 0);
  const auto run_part = [&](std::size_t part) {
    for (std::size_t k = 0; k < parts[part].size() && !progress.stopped(); ++k) {
      const std::size_t i = parts[part][k];
      const std::string& b = baselines[i];
      const bool for_all = shared && b == options.baselines[0].path;
      reused[i] = process_or_reuse(b, for_all ? &*shared : nullptr, options, site, all[i], groups[part]);
      done[i] = 1;
      progress.done(all[i]);
    }
  };
  // At --jobs 1, part 0 first: the largest input is drawn on a fresh heap.
  run_beside(
      {.files = mine.size()}, [&] { run_part(0); }, [&] { run_part(1); });
  InterruptGuard::check();
  groups[0].absorb(std::move(groups[1]));
  BatchReportResult result;
  if (options.shards == 0) result.groups = write_groups(all, groups[0], options.write, site.path());
  for (std::size_t i : mine)
    if (done[i]) result.profiles.push_back(std::move(all[i])), result.reused += reused[i];
  count_outcomes(result);
  result.stopped = progress.stopped();
  if (result.stopped) return result;  // no site: the temporary folder goes
  if (options.shards == 0)
    write_site(result, site.path().string());
  else
    write_site_file((site.path() / kPartFacts).string(),
                    part_text({options.shard, options.shards, inputs.size(), mine, result.profiles,
                               write_part_merges(groups[0], site.path())}));
  site.commit();
  return result;
}

namespace {

// One part given to merge: its folder and facts.
struct LoadedPart {
  std::string dir;
  PartFacts facts;
  /// The last shard it covers.
  std::size_t last() const { return facts.last_shard ? facts.last_shard : facts.shard; }
  /// "shard 2/4", or "shards 2-3/4".
  std::string shards() const {
    const std::string n = "/" + std::to_string(facts.shards);
    if (last() == facts.shard) return "shard " + std::to_string(facts.shard) + n;
    return "shards " + std::to_string(facts.shard) + "-" + std::to_string(last()) + n;
  }
};

LoadedPart load_part(const std::string& dir) {
  const fs::path file = fs::path(dir) / kPartFacts;
  std::string text;
  {
    auto in = Input::open(file.string());
    text = std::string(read_all(*in).view());
  }
  LoadedPart part{dir, parse_part(file.string(), text)};
  const PartFacts& f = part.facts;
  if (f.shard < 1 || part.last() < f.shard || part.last() > f.shards || f.indices.size() != f.profiles.size())
    throw Error(dir + ": not a part of a batch (" + part.shards() + ")");
  for (const std::size_t i : f.indices)
    if (i >= f.inputs) throw Error(file.string() + ": a profile beyond the batch");
  return part;
}

// The parts in shard order, checked to be of one batch with no shard
// twice, each adjacent to the next; `whole`: covering every shard.
std::vector<LoadedPart> load_parts(const std::vector<std::string>& dirs, bool whole) {
  std::vector<LoadedPart> parts;
  for (const std::string& dir : dirs) {
    parts.push_back(load_part(dir));
    const PartFacts &first = parts.front().facts, &part = parts.back().facts;
    if (part.shards != first.shards || part.inputs != first.inputs)
      throw Error(dir + ": a part of another batch (" + parts.back().shards() + " of " +
                  std::to_string(part.inputs) + " inputs)");
  }
  std::stable_sort(parts.begin(), parts.end(), [](const LoadedPart& a, const LoadedPart& b) {
    return std::make_pair(a.facts.shard, a.last()) < std::make_pair(b.facts.shard, b.last());
  });
  const std::size_t n = parts.front().facts.shards;
  const auto missing = [n](std::size_t s) {
    return "shard " + std::to_string(s) + "/" + std::to_string(n) + " is missing";
  };
  for (std::size_t k = 1; k < parts.size(); ++k) {
    const LoadedPart &before = parts[k - 1], &part = parts[k];
    if (part.facts.shard <= before.last())
      throw Error(part.dir + ": shard " + std::to_string(part.facts.shard) + " again (first in " +
                  before.dir + ")");
    if (part.facts.shard > before.last() + 1)
      throw Error((whole ? "merge: " : part.dir + ": does not follow " + before.dir + ": ") +
                  missing(before.last() + 1));
  }
  if (whole && parts.front().facts.shard != 1) throw Error("merge: " + missing(1));
  if (whole && parts.back().last() != n) throw Error("merge: " + missing(parts.back().last() + 1));
  return parts;
}

// The parts' profiles in their places in the batch (`given`: the indices
// the parts cover, ascending), their group merges combined in shard
// order, and their page folders copied into `site`.
std::vector<ProfileFacts> combine_parts(std::vector<LoadedPart>& parts, const fs::path& site,
                                        std::vector<std::size_t>& given, GroupMerges& merges) {
  std::vector<ProfileFacts> all(parts.front().facts.inputs);
  for (LoadedPart& part : parts) {
    for (std::size_t k = 0; k < part.facts.profiles.size(); ++k) {
      given.push_back(part.facts.indices[k]);
      all[part.facts.indices[k]] = std::move(part.facts.profiles[k]);
    }
    for (const PartMerge& m : part.facts.merges) {  // one profile read at a time
      const std::string file = (fs::path(part.dir) / m.file).string();
      auto in = Input::open(file);
      merges.add_merge(m.group, m.quantity, parse_profile_part(file, std::string(read_all(*in).view())));
    }
    std::error_code ec;
    if (!fs::exists(fs::path(part.dir) / "p", ec)) continue;
    fs::copy(fs::path(part.dir) / "p", site / "p", fs::copy_options::recursive, ec);
    if (ec) throw Error(part.dir + ": cannot copy its pages: " + ec.message());
    InterruptGuard::check();
  }
  std::sort(given.begin(), given.end());
  return all;
}

}  // namespace

BatchReportResult merge_batch_report(const std::vector<std::string>& parts, const std::string& output_dir,
                                     const WriteOptions& write) {
  if (parts.empty()) throw UsageError("merge: name the parts (folders written with --shard)");
  InterruptGuard interrupts;
  SiteFolder site(output_dir);
  std::vector<LoadedPart> loaded = load_parts(parts, true);
  BatchReportResult result;
  GroupMerges merges;
  std::vector<std::size_t> given;
  result.profiles = combine_parts(loaded, site.path(), given, merges);
  count_outcomes(result);
  InterruptGuard::check();
  result.groups = write_groups(result.profiles, merges, write, site.path());
  write_site(result, site.path().string());
  site.commit();
  return result;
}

BatchReportResult merge_batch_parts(const std::vector<std::string>& parts, const std::string& output_dir) {
  if (parts.empty()) throw UsageError("merge --part: name the parts (folders written with --shard)");
  InterruptGuard interrupts;
  SiteFolder site(output_dir);
  std::vector<LoadedPart> loaded = load_parts(parts, false);
  BatchReportResult result;
  GroupMerges merges;
  std::vector<std::size_t> given;
  std::vector<ProfileFacts> all = combine_parts(loaded, site.path(), given, merges);
  for (const std::size_t i : given) result.profiles.push_back(std::move(all[i]));
  count_outcomes(result);
  InterruptGuard::check();
  const PartFacts& first = loaded.front().facts;
  PartFacts part{.shard = first.shard,
                 .shards = first.shards,
                 .inputs = first.inputs,
                 .indices = std::move(given),
                 .profiles = std::move(result.profiles),
                 .merges = write_part_merges(merges, site.path()),
                 .last_shard = loaded.back().last()};
  write_site_file((site.path() / kPartFacts).string(), part_text(part));
  result.profiles = std::move(part.profiles);
  site.commit();
  return result;
}

}  // namespace fg::formats
