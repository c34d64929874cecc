#include "formats/collapsed/collapsed.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "fg/bits.h"
#include "fg/builder.h"
#include "fg/bulk_builder.h"
#include "fg/call_tree.h"
#include "fg/error.h"
#include "fg/granularity.h"
#include "fg/parallel.h"
#include "formats/collapsed/reader.h"
#include "formats/common/number_format.h"

namespace fg::formats::collapsed {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Finds the count at the end of [b, e): returns the token start, or nullptr
// when the text does not end in whitespace followed by a count.
const char* find_count(const char* b, const char* e) {
  const char* p = e;
  while (p > b && (is_digit(p[-1]) || p[-1] == '.')) --p;
  if (p == e || p == b || !is_blank(p[-1])) return nullptr;
  // digits, then at most one '.', which must follow a digit
  const char* dot = static_cast<const char*>(std::memchr(p, '.', static_cast<std::size_t>(e - p)));
  if (dot == p) return nullptr;
  if (dot && std::memchr(dot + 1, '.', static_cast<std::size_t>(e - dot - 1))) return nullptr;
  return p;
}

// Digits of the count [b, e) after its '.', trailing zeros left out.
int fraction_digits(const char* b, const char* e) {
  const char* dot = static_cast<const char*>(std::memchr(b, '.', static_cast<std::size_t>(e - b)));
  if (!dot) return 0;
  while (e > dot + 1 && e[-1] == '0') --e;
  return static_cast<int>(e - dot - 1);
}

// The count [b, e) in units of 10^-decimals; digits past those round half
// away from zero, as printf("%.0f") rounds a count in whole units. False
// when it does not fit in 63 bits.
bool fixed_point(const char* b, const char* e, int decimals, std::int64_t* out) {
  std::int64_t v = 0;
  int taken = -1;  // fraction digits taken; -1 before the '.'
  const char* p = b;
  for (; p < e && taken < decimals; ++p) {
    if (*p == '.') {
      taken = 0;
      continue;
    }
    if (taken >= 0) ++taken;
    if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *p - '0', &v)) return false;
  }
  for (taken = std::max(taken, 0); taken < decimals; ++taken)
    if (__builtin_mul_overflow(v, 10, &v)) return false;
  if (p < e && *p >= '5' && __builtin_add_overflow(v, 1, &v)) return false;
  *out = v;
  return true;
}

// Length of the common prefix of a and b, both at least n bytes long.
std::size_t common_prefix(const char* a, const char* b, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t x, y;
    std::memcpy(&x, a + i, 8);
    std::memcpy(&y, b + i, 8);
    if (x != y) return i + static_cast<std::size_t>(__builtin_ctzll(x ^ y) / 8);
  }
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

// The first ';' in [p, end), or end: a word at a time, inline (frames are
// some 30 bytes, too short for a call to memchr to pay).
const char* find_semicolon(const char* p, const char* end) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL, kHighs = 0x8080808080808080ULL;
  while (end - p >= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    const std::uint64_t x = w ^ (kOnes * ';');
    // The lowest byte of x that is zero sets the lowest bit here (bytes
    // above it may set bits too, which ctz does not see).
    const std::uint64_t zero = (x - kOnes) & ~x & kHighs;
    if (zero) return p + __builtin_ctzll(zero) / 8;
    p += 8;
  }
  while (p < end && *p != ';') ++p;
  return p;
}

const char* skip_back_blanks(const char* b, const char* e) {
  while (e > b && is_blank(e[-1])) --e;
  return e;
}

}  // namespace

// How many columns a one-thread read gives the profile: those of the first
// line that ends in a count (0 when none does).
int first_columns(std::string_view text) {
  const char* b = text.data();
  const char* end = b + text.size();
  while (b < end) {
    const char* nl = static_cast<const char*>(std::memchr(b, '\n', static_cast<std::size_t>(end - b)));
    const char* e = nl ? nl : end;
    if (e > b && e[-1] == '\r') --e;
    e = skip_back_blanks(b, e);
    if (const char* last = e > b ? find_count(b, e) : nullptr) return find_count(b, last - 1) ? 2 : 1;
    b = nl ? nl + 1 : end;
  }
  return 0;
}

void Reader::start(int columns) {
  columns_ = columns;
  if (chunk_) return;  // a chunk's reader makes no tables (merge() interns its lines)
  std::vector<ValueType> types;
  if (columns == 1) {
    types.push_back({"samples", "count", ValueRole::kPlain});
  } else {
    types.push_back({"samples", "count", ValueRole::kBase});
    types.push_back({"samples", "count", ValueRole::kNew});
  }
  builder_.emplace(std::move(types));
  // A folded line of n bytes adds at most about n / 2 stacks, and real files
  // hold far fewer; this reservation holds for all but tiny frame names.
  if (expected_bytes_ > 0) bulk::reserve_stacks(*builder_, expected_bytes_ / 16);
  builder_->metadata().source_format = "collapsed";
  builder_->metadata().sources.push_back(input_.name());
}

bool Reader::parse_counts(const char* b, const char* e, const char** stack_end, std::int64_t* values) {
  const char* last = find_count(b, e);
  if (!last) {
    warn(e, "bad line", "expected a count at the end of the line");
    return false;
  }
  // flamegraph.pl's /^(.*)\s+?(\d+(?:\.\d*)?)$/: the greedy stack leaves
  // exactly one blank before a count, so any other blank before it belongs
  // to the stack (a frame's trailing space, a frame of blanks), and a first
  // count of two must end one blank before the last.
  const char* first = find_count(b, last - 1);
  if (columns_ == 0) start(first ? 2 : 1);
  if (columns_ == 2 && !first) {
    warn(last, "bad line", "expected two counts (before and after), as in the file's first line");
    return false;
  }
  struct Token {
    const char* b;
    const char* e;
  };
  Token tokens[2] = {{last, e}, {nullptr, nullptr}};
  if (columns_ == 2) tokens[0] = {first, last - 1}, tokens[1] = {last, e};
  int need = decimals_;
  for (int i = 0; i < columns_; ++i) need = std::max(need, fraction_digits(tokens[i].b, tokens[i].e));
  set_decimals(std::min(need, kMaxDecimals));
  for (int i = 0; i < columns_; ++i) {
    if (!fixed_point(tokens[i].b, tokens[i].e, decimals_, &values[i])) {
      warn(tokens[i].b, "bad line", "count does not fit in 64 bits");
      return false;
    }
    if (fraction_digits(tokens[i].b, tokens[i].e) > decimals_)
      warn(tokens[i].b, "fractional count",
           "fractional count " + std::string(tokens[i].b, tokens[i].e) + " rounded to " +
               fixed_point_text(values[i], decimals_));
  }
  *stack_end = (columns_ == 2 ? first : last) - 1;
  return true;
}

// A token is a frame's text in the line, annotation included. Tokens are
// interned in the profile's own string pool (for an unannotated frame the
// token is its name, so nothing is stored twice), and each token's frame is
// remembered by the token's string id.
FrameId Reader::intern_frame(std::string_view token, std::uint64_t hash) {
  const StringId t = builder_->intern(token, hash);
  const std::uint32_t i = t.index();
  if (i >= token_frames_.size()) token_frames_.resize(i + 1 + i / 2, kNoId<FrameId>);
  if (token_frames_[i] == kNoId<FrameId>) token_frames_[i] = make_frame(token, t);
  return token_frames_[i];
}

FrameId Reader::make_frame(std::string_view token, StringId token_id) {
  if (token.size() > 4) {
    if (auto k = frame_kind_from_suffix(token.substr(token.size() - 4))) {
      token.remove_suffix(4);
      return builder_->frame(builder_->function(token), *k);
    }
  }
  return builder_->frame(builder_->function(token_id), FrameKind::kNative);
}

StackId Reader::intern_stack(const char* b, const char* e) {
  tokens_.clear();
  const std::size_t shared = split_stack(b, e, tokens_);
  return intern_tokens(shared, tokens_);
}

// Finds the frames of the stack [b, e) that it does not share with the
// previous line, appends them to `tokens` with their hashes, and returns
// how many frames it shares.
std::size_t Reader::split_stack(const char* b, const char* e, std::vector<Token>& tokens) {
  const std::size_t len = static_cast<std::size_t>(e - b);
  // Perl's split drops trailing empty fields: "a;b;;" is "a;b".
  std::size_t used = len;
  while (used > 0 && b[used - 1] == ';') --used;

  // Frames shared with the previous line.
  std::size_t common = 0;
  std::size_t limit = std::min(used, prev_len_);
  if (prev_) common = common_prefix(b, prev_, limit);
  std::size_t shared = 0;
  while (shared < prev_ends_.size() && prev_ends_[shared] < common) ++shared;
  if (shared < prev_ends_.size() && prev_ends_[shared] == common && (common == used || b[common] == ';'))
    ++shared;
  prev_ends_.resize(shared);

  std::size_t pos = shared ? prev_ends_[shared - 1] + 1 : 0;
  if (used > 0) {
    while (pos <= used) {
      const auto end = static_cast<std::size_t>(find_semicolon(b + pos, b + used) - b);
      const std::string_view t(b + pos, end - pos);
      tokens.push_back({t.data(), static_cast<std::uint32_t>(t.size()), hash_bytes(t)});
      prev_ends_.push_back(end);
      pos = end + 1;
    }
  }
  prev_ = b;
  prev_len_ = used;
  return shared;
}

void Reader::prefetch_strings(std::span<const Token> tokens) const {
  const StringPool& pool = bulk::strings(*builder_);
  for (const Token& t : tokens) bulk::prefetch_slot(pool, t.hash);
  for (const Token& t : tokens) bulk::prefetch_entry(pool, t.hash);
  for (const Token& t : tokens) bulk::prefetch_bytes(pool, t.hash);
}

// The stack of the previous line's first `shared` frames, then `tokens`.
StackId Reader::intern_tokens(std::size_t shared, std::span<const Token> tokens) {
  prev_stacks_.resize(shared);
  StackId s = shared ? prev_stacks_[shared - 1] : kRootStack;
  // Interned in passes (the cache hints of bulk::prefetch_slot() and the
  // two after it, then intern), so the cache misses of one frame's lookup
  // overlap with the others'.
  prefetch_strings(tokens);
  for (const Token& t : tokens) {
    s = builder_->stack(s, intern_frame(std::string_view(t.text, t.size), t.hash));
    prev_stacks_.push_back(s);
  }
  return s;
}

void Reader::add(StackId s, const std::int64_t* values, std::uint64_t line_no) {
  try {
    builder_->add_sample(s, std::span<const std::int64_t>(values, static_cast<std::size_t>(columns_)), {},
                         sequence_ ? ordinal_++ : kNoTimestamp);
  } catch (const ParseError&) {
    throw;
  } catch (const Error& e) {
    throw ParseError(SourcePosition::text(input_.name(), line_no), e.what());
  }
}

void Reader::line(const char* b, const char* e) {
  ++line_no_;
  line_start_ = b;
  if (e > b && e[-1] == '\r') --e;
  const char* trimmed = skip_back_blanks(b, e);
  if (trimmed == b) return;  // blank line
  std::int64_t values[2];
  const char* stack_end;
  if (!parse_counts(b, trimmed, &stack_end, values)) return;
  if (chunk_) {
    tokens_.clear();
    const auto shared = static_cast<std::uint32_t>(split_stack(b, stack_end, tokens_));
    for (const Token& t : tokens_) token_refs_.push_back(distinct_ref(t));
    split_lines_.push_back(
        {line_no_, shared, static_cast<std::uint32_t>(tokens_.size()), {values[0], values[1]}});
    return;
  }
  add(intern_stack(b, stack_end), values, line_no_);
}

// The lines of [b, end), in place: no copies. A reader of the mapped file
// in file order (mapped_) gives the pages behind the previous line back
// every 256 KiB (a cheap call), so memory stays with the model.
void Reader::read_lines(const char* b, const char* end) {
  constexpr std::size_t kReleaseEvery = 1 << 18;
  const char* next_release = b + kReleaseEvery;
  while (b < end) {
    const char* nl = static_cast<const char*>(std::memchr(b, '\n', static_cast<std::size_t>(end - b)));
    const char* e = nl ? nl : end;
    if (static_cast<std::size_t>(e - b) > kMaxLineBytes) throw_line_too_long(input_.name(), line_no_ + 1);
    line(b, e);
    b = nl ? nl + 1 : end;
    if (b > next_release) {
      // Far behind (many bad lines since): forget the previous line, so
      // its pages do not pin everything read after it.
      if (prev_ && b - prev_ > (8 << 20)) forget_previous();
      if (mapped_) input_.release_mapped(static_cast<std::size_t>((prev_ ? prev_ : b) - mapped_));
      next_release = b + kReleaseEvery;
    }
  }
}

namespace {

// Text of a frame in a folded line: ';' in a name becomes '|' (the
// separator), line breaks become spaces, and the kind's suffix follows.
void append_frame(std::string& out, const Profile& p, FrameId f) {
  std::string_view name = p.frame_name(f);
  std::size_t start = out.size();
  out.append(name);
  for (std::size_t i = start; i < out.size(); ++i) {
    char& c = out[i];
    if (c == ';')
      c = '|';
    else if (c == '\n' || c == '\r')
      c = ' ';
  }
  out.append(frame_kind_suffix(p.frame(f).kind));
}

// Bytewise order of x + cx and y + cy, made without building them.
bool suffixed_before(std::string_view x, unsigned char cx, std::string_view y, unsigned char cy) {
  const std::size_t n = std::min(x.size(), y.size());
  if (n > 0) {
    if (int c = std::memcmp(x.data(), y.data(), n); c != 0) return c < 0;
  }
  if (x.size() == y.size()) return cx < cy;
  if (x.size() < y.size()) {
    const auto next = static_cast<unsigned char>(y[n]);
    return cx != next ? cx < next : true;  // x + cx is a prefix of y + cy
  }
  const auto next = static_cast<unsigned char>(x[n]);
  return next != cy ? next < cy : false;
}

}  // namespace

Sniff sniff(std::string_view head, std::string_view) {
  if (head.find('\0') != std::string_view::npos) return Sniff::kNo;
  std::size_t pos = 0;
  int good = 0, lines = 0;
  while (pos < head.size() && lines < 20) {
    std::size_t nl = head.find('\n', pos);
    if (nl == std::string_view::npos) break;  // a partial last line says nothing
    std::string_view l = head.substr(pos, nl - pos);
    pos = nl + 1;
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    const char* e = skip_back_blanks(l.data(), l.data() + l.size());
    if (e == l.data()) continue;
    ++lines;
    if (find_count(l.data(), e)) ++good;
  }
  if (lines == 0) {
    std::string_view l = head.substr(pos);
    const char* e = skip_back_blanks(l.data(), l.data() + l.size());
    return e != l.data() && find_count(l.data(), e) ? Sniff::kMaybe : Sniff::kNo;
  }
  if (good == lines) return Sniff::kYes;
  return good > 0 ? Sniff::kMaybe : Sniff::kNo;
}

Profile read(Input& input, const ReadOptions& options, Diagnostics& diagnostics) {
  return Reader(input, options, diagnostics, 0).run();
}

namespace {

// Writes the folded lines of a call tree in bytewise order without holding
// them: a walk over groups of tree nodes whose paths read the same. At each
// group the children are keyed by their text; a child's own line begins
// "text " and its descendants' "text;", and since ' ' < ';' those two sort
// apart (with a sibling "text.x" between them), so each child contributes two
// items, merged by their exact leading bytes. Children with equal text merge
// into one group, so equal lines are summed.
//
// The walk does not build the lines: it makes steps (cut the path back,
// append a frame or a run of nodes, maybe print it) which the printer,
// keeping the path, follows a batch at a time; the text printed is written
// on a second thread for a large tree. The walk works per branching node:
// a run of nodes on a chain (each the only child of the one before,
// without samples: most nodes of a deep profile) is one step, whose frames
// only the printer reads. It does not know the
// path's length either: where children will cut the path back to, it has
// the printer mark the length, one mark per level of groups.
//
// What the walk and the printer read is made before they start, beside the
// call tree (which sums no totals: the lines' values are the samples'),
// and so is the order of every key: the distinct texts are sorted once,
// and the walk sorts children and items by those ranks, integers.
class SortedWriter {
 public:
  // Every frame's folded text, which the walk and the printer read (the
  // printer for frames the walk never looks at), the ranks of the texts and
  // keys, and each stack's own values in `col` and `base`: its samples' sums.
  struct Prepared {
    std::vector<std::string> texts;
    std::vector<std::uint32_t> text_of;  // by frame: its text's place among the distinct texts, sorted
    // By text t: 2t is the rank of its own line's key (t + ' '), 2t + 1 of
    // its subtree's (t + ';').
    std::vector<std::uint32_t> key_rank;
    // The stacks where a sample ends, and their own values by slot there:
    // few stacks of a deep profile have samples, and the walk reads these
    // in tree order, so they are kept dense.
    RankedBits sampled;
    std::vector<std::int64_t> self, base_self;
    Prepared(const Profile& p, std::size_t col, std::optional<std::size_t> base)
        : texts(p.frame_count()), sampled(p.stack_count()) {
      for (std::size_t i = 0; i < p.sample_count(); ++i) sampled.set(p.sample(i).stack.index());
      const std::uint32_t stacks = sampled.count_members();
      self.assign(stacks, 0);
      base_self.assign(base ? stacks : 0, 0);
      for (std::size_t i = 0; i < p.sample_count(); ++i) {
        const std::uint32_t k = sampled.slot(p.sample(i).stack.index());
        const std::span<const std::int64_t> v = p.values(i);
        self[k] += v[col];  // no sum passes the profile's magnitude
        if (base) base_self[k] += v[*base];
      }
      for (const FrameId f : id_range<FrameId>(p.frame_count())) append_frame(texts[f.index()], p, f);
      rank_keys();
    }

   private:
    void rank_keys() {
      std::vector<FrameId> frames;
      frames.reserve(texts.size());
      for (const FrameId f : id_range<FrameId>(texts.size())) frames.push_back(f);
      std::sort(frames.begin(), frames.end(),
                [&](FrameId a, FrameId b) { return texts[a.index()] < texts[b.index()]; });
      text_of.resize(texts.size());
      std::vector<std::string_view> distinct;
      for (const FrameId f : frames) {
        if (distinct.empty() || distinct.back() != texts[f.index()]) distinct.push_back(texts[f.index()]);
        text_of[f.index()] = static_cast<std::uint32_t>(distinct.size() - 1);
      }
      // A key k is text k / 2 followed by ' ' (k even) or ';'.
      std::vector<std::uint32_t> keys(2 * distinct.size());
      for (std::size_t k = 0; k < keys.size(); ++k) keys[k] = static_cast<std::uint32_t>(k);
      const auto sep = [](std::uint32_t k) -> unsigned char { return k % 2 ? ';' : ' '; };
      std::sort(keys.begin(), keys.end(), [&](std::uint32_t a, std::uint32_t b) {
        return suffixed_before(distinct[a / 2], sep(a), distinct[b / 2], sep(b));
      });
      key_rank.resize(keys.size());
      for (std::size_t i = 0; i < keys.size(); ++i) key_rank[keys[i]] = static_cast<std::uint32_t>(i);
    }
  };

  SortedWriter(const Profile& p, const CallTree& tree, Prepared&& prepared, std::size_t col,
               std::optional<std::size_t> base, std::ostream& out)
      : p_(p),
        tree_(tree),
        base_(base),
        out_(out),
        texts_(std::move(prepared.texts)),
        text_of_(std::move(prepared.text_of)),
        key_rank_(std::move(prepared.key_rank)),
        sampled_(std::move(prepared.sampled)),
        self_(std::move(prepared.self)),
        base_self_(std::move(prepared.base_self)),
        decimals_(p.value_types()[col].decimals),
        base_decimals_(base ? p.value_types()[*base].decimals : 0) {}

  // For a large tree, two threads: one walks the tree and prints its
  // lines, this one writes the text printed (a few hundred MB to copy into
  // the page cache, which takes about as long). The walk and the printing
  // on threads of their own as well, three threads on two cores, took a
  // sixth longer: the writing lost its core to the other two.
  void run() {
    handoff<std::string>(
        {.items = p_.stack_count()}, 4,
        [&](auto&& write) {
          written_ = [&](std::string&& text) { write(std::move(text)); };
          walk();
          flush();
        },
        [&](std::string&& text) { out_.write(text.data(), static_cast<std::streamsize>(text.size())); });
  }

 private:
  static constexpr std::uint32_t kNone = UINT32_MAX;
  // One step of the walk: the path cut back to mark `cut` (unless kNone);
  // then `text`, or the frames of the nodes [from, to) (a run down a
  // chain), each after a ';' (the first only with `separator`); with
  // `line`, the path is printed with its values; with `mark`, the path's
  // length is kept as that mark.
  struct Step {
    std::string_view text;
    StackId from{}, to{};
    std::uint32_t cut = kNone, mark = kNone;
    bool separator = false, line = false;
    std::int64_t value = 0, base = 0;
  };
  static constexpr std::size_t kSteps = 8192;  // printed at a time

  struct Work {
    StackId one{};              // the group's node, when it has one (most have)
    std::vector<StackId> many;  // its nodes, when it has several
    std::string_view text;      // this group's frame text (in texts_, which never moves)
    std::uint32_t cut = kNone;  // the mark of the parent's path
    bool first = false;         // the first frame of the path (no ';' before it)
    bool own_line = false;
    bool then_expand = false;  // own line, then the subtree (the root; expand() follows chains itself)
    std::span<const StackId> nodes() const {
      return many.empty() ? std::span<const StackId>(&one, 1) : std::span<const StackId>(many);
    }
  };

  void walk() {
    steps_.reserve(kSteps);
    Work root;
    root.one = kRootStack;
    root.own_line = true;     // first a sample on the empty stack, " count"
    root.then_expand = true;  // then its children
    work_.push_back(std::move(root));
    while (!work_.empty()) {
      Work w = std::move(work_.back());
      work_.pop_back();
      Step s;
      s.cut = w.cut;
      if (w.nodes()[0] != kRootStack) {  // the root has no frame of its own
        s.separator = !w.first;
        s.text = w.text;
      }
      if (w.own_line) line(w.nodes(), s);
      step(s);
      // Its children cut the path back to where this group's ends: marks
      // are per level, the root's 0.
      if (!w.own_line || w.then_expand) expand(w.nodes(), w.cut == kNone ? 0 : w.cut + 1);
    }
    print(steps_);
  }

  // Steps are printed when the next one comes, so that the last one made
  // is still at hand (expand() sets its mark).
  void step(const Step& s) {
    if (steps_.size() == kSteps) {
      print(steps_);
      steps_.clear();
    }
    steps_.push_back(s);
  }

  // Makes `s` print its path when the nodes have a value of their own.
  void line(std::span<const StackId> nodes, Step& s) const {
    std::int64_t v = 0, b = 0;
    bool any = false;  // a node with samples of its own: the others' self values are 0
    for (StackId n : nodes) any = any || sampled_.test(n.index());
    if (!any) return;
    for (StackId n : nodes) {
      if (!sampled_.test(n.index())) continue;
      const std::uint32_t k = sampled_.slot(n.index());
      v += self_[k];
      if (base_) b += base_self_[k];
    }
    if (v == 0 && (!base_ || b == 0)) return;
    s.line = true;
    s.value = v;
    s.base = b;
  }

  // The printer: keeps the path and prints its lines.
  void print(const std::vector<Step>& steps) {
    for (const Step& s : steps) {
      if (s.cut != kNone) path_.resize(marks_[s.cut]);
      if (s.separator) path_.push_back(';');
      if (s.from == s.to) {
        path_ += s.text;
      } else {
        path_ += texts_[tree_.frame(s.from).index()];
        for (const StackId n : id_range(StackId{s.from.index() + 1}, s.to.index())) {
          path_.push_back(';');
          path_ += texts_[tree_.frame(n).index()];
        }
      }
      if (s.mark != kNone) {
        if (s.mark >= marks_.size()) marks_.resize(s.mark + 1);
        marks_[s.mark] = path_.size();
      }
      if (!s.line) continue;
      buf_ += path_;
      if (base_) append_value(s.base, base_decimals_);
      append_value(s.value, decimals_);
      buf_ += '\n';
      if (buf_.size() > kBuffer) flush();
    }
  }

  // ' ' and a value: whole counts (most) without a string made per line.
  void append_value(std::int64_t v, int decimals) {
    buf_ += ' ';
    if (decimals == 0)
      append_int(buf_, v);
    else
      buf_ += fixed_point_text(v, decimals);
  }

  // An item of a group of children with the same text: its own line (key
  // text + ' ') or its subtree (key text + ';'), sorted by the key's rank.
  struct Item {
    std::uint32_t rank;
    std::uint32_t begin, end;  // the group, in kids_
    bool own_line;
    bool operator<(const Item& o) const { return rank < o.rank; }
  };
  static StackId kid_node(std::uint64_t kid) { return StackId{static_cast<std::uint32_t>(kid)}; }
  static std::uint32_t kid_text(std::uint64_t kid) { return static_cast<std::uint32_t>(kid >> 32); }

  // Follows a single node's chain of only children (its own line first,
  // then the rest), marks the path's end as `mark`, and pushes the items
  // of the children there, last first, so they run sorted.
  void expand(std::span<const StackId> nodes, std::uint32_t mark) {
    bool at_root = nodes.size() == 1 && nodes[0] == kRootStack;
    StackId chain;
    if (nodes.size() == 1) {
      // Most nodes of a large profile are on chains.
      chain = nodes[0];
      for (;;) {
        Step s;
        s.separator = !at_root;
        if (tree_.on_chain(chain)) {  // a run of them, down to a node that is not
          const StackId end = tree_.chain_end(chain);
          s.from = StackId{chain.index() + 1};
          s.to = StackId{end.index() + 1};
          chain = end;
        } else {
          const ChildList kids = tree_.children_unsorted(chain);
          if (kids.size() != 1) break;
          chain = kids[0];
          s.text = texts_[tree_.frame(chain).index()];
        }
        at_root = false;
        line(std::span<const StackId>(&chain, 1), s);
        step(s);
      }
      nodes = std::span<const StackId>(&chain, 1);
    }
    steps_.back().mark = mark;
    // Children by (text, id): equal texts side by side, in id order.
    kids_.clear();
    for (StackId n : nodes)
      for (StackId c : tree_.children_unsorted(n))
        kids_.push_back(std::uint64_t(text_of_[tree_.frame(c).index()]) << 32 | c.index());
    std::sort(kids_.begin(), kids_.end());
    items_.clear();
    for (std::uint32_t i = 0; i < kids_.size();) {
      const std::uint32_t t = kid_text(kids_[i]);
      std::uint32_t j = i;
      while (j < kids_.size() && kid_text(kids_[j]) == t) ++j;
      items_.push_back({key_rank_[2 * t], i, j, true});
      items_.push_back({key_rank_[2 * t + 1], i, j, false});
      i = j;
    }
    std::sort(items_.begin(), items_.end());
    for (std::size_t i = items_.size(); i-- > 0;) {
      const Item& it = items_[i];
      Work w;
      if (it.end - it.begin == 1) {
        w.one = kid_node(kids_[it.begin]);
      } else {
        for (std::size_t k = it.begin; k < it.end; ++k) w.many.push_back(kid_node(kids_[k]));
      }
      w.text = texts_[tree_.frame(kid_node(kids_[it.begin])).index()];
      w.cut = mark;
      w.first = at_root;
      w.own_line = it.own_line;
      work_.push_back(std::move(w));
    }
  }

  // Hands the text printed to the writing thread (or writes it).
  void flush() {
    std::string text;
    text.reserve(kBuffer + (1 << 16));
    text.swap(buf_);
    written_(std::move(text));
  }

  const Profile& p_;
  const CallTree& tree_;
  std::optional<std::size_t> base_;
  std::ostream& out_;
  // Made before the walk starts (Prepared).
  std::vector<std::string> texts_;
  std::vector<std::uint32_t> text_of_, key_rank_;
  RankedBits sampled_;
  std::vector<std::int64_t> self_, base_self_;  // by slot in sampled_
  int decimals_, base_decimals_;                // of the columns written
  // The walk's.
  std::vector<Work> work_;
  std::vector<std::uint64_t> kids_;  // expand()'s (text << 32 | node), kept for their capacity
  std::vector<Item> items_;
  std::vector<Step> steps_;  // not yet printed
  // The printer's.
  std::string path_, buf_;
  static constexpr std::size_t kBuffer = 1 << 20;  // text handed over to be written at a time
  std::function<void(std::string&&)> written_;     // hands text to it
  std::vector<std::size_t> marks_;                 // path lengths, by level
};

}  // namespace

void write(const Profile& profile, const WriteOptions& options, std::ostream& out, Diagnostics&) {
  std::optional<Profile> coarse;
  const Profile& p = finer_than(profile, options.granularity)
                         ? coarse.emplace(at_granularity(profile, options.granularity))
                         : profile;
  const std::size_t col = options.value ? p.find_value(*options.value) : p.default_value_index();
  check_expansion(p, "collapsed");
  const std::optional<std::size_t> base = p.base_of(col);
  std::optional<CallTree> tree;
  std::optional<SortedWriter::Prepared> prepared;
  run_beside(
      {.items = p.stack_count()}, [&] { prepared.emplace(p, col, base); },
      [&] {
        CallTreeOptions o;
        o.totals = false;
        tree.emplace(p, o);
      });
  SortedWriter(p, *tree, std::move(*prepared), col, base, out).run();
}

}  // namespace fg::formats::collapsed
