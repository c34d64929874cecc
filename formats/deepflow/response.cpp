#include "formats/deepflow/response.h"

#include <simdjson.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>

#include "fg/utf8.h"

namespace fg::formats::deepflow {

namespace od = simdjson::ondemand;

namespace {

// What a document that is neither (nor JSON at all) is told.
constexpr const char* kNotAResponse = "expected DeepFlow's response object or a list of nodes";

// The fields of a node, as bits of the mask of those seen.
constexpr unsigned kName = 1, kId = 2, kParent = 4, kSelf = 8, kTotal = 16, kAllFields = 31;
constexpr std::string_view kFieldNames[] = {"profile_location_str", "node_id", "parent_node_id", "self_value",
                                            "total_value"};

std::string_view type_name(od::json_type t) {
  switch (t) {
    case od::json_type::array:
      return "a list";
    case od::json_type::object:
      return "an object";
    case od::json_type::number:
      return "a number";
    case od::json_type::string:
      return "a string";
    case od::json_type::boolean:
      return "a boolean";
    case od::json_type::null:
      return "null";
  }
  return "something else";
}

// The first byte of `text` that no JSON document holds anywhere: a control
// character other than the blanks tab, line feed and carriage return
// (RFC 8259 allows them neither between tokens nor unescaped in a
// string). A bomb of zeros is refused at its first byte.
std::size_t first_non_json_byte(std::string_view text) {
  auto control = [](char c) {
    const auto b = static_cast<unsigned char>(c);
    return b < 0x20 && b != '\t' && b != '\n' && b != '\r';
  };
  constexpr std::uint64_t kOnes = 0x0101010101010101, kHighs = 0x8080808080808080;
  std::size_t i = 0;
  // Eight bytes at a time: a word without a byte under 0x20 is passed over.
  for (; i + 8 <= text.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, text.data() + i, 8);
    if (((w - 0x20 * kOnes) & ~w & kHighs) == 0) continue;
    for (std::size_t k = i; k < i + 8; ++k)
      if (control(text[k])) return k;
  }
  for (; i < text.size(); ++i)
    if (control(text[i])) return i;
  return std::string_view::npos;
}

// A value's JSON text for a message, cut short.
std::string shown(std::string_view token) {
  while (!token.empty() && (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' ||
                            token.back() == '\t' || token.back() == ','))
    token.remove_suffix(1);
  if (token.size() > 40) return std::string(token.substr(0, 37)) + "...";
  return std::string(token);
}

// What a value is, for messages: "result[3].self_value" or "OPT_STATUS".
// Made into text only when a message needs it.
struct FieldName {
  const Response* response = nullptr;  // null for a key of the envelope
  std::size_t index = 0;
  std::string_view field;
  std::string str() const {
    if (!response) return std::string(field);
    return ResponseParser::node_label(*response, index) + "." + std::string(field);
  }
};

}  // namespace

class ResponseParser::Impl {
 public:
  explicit Impl(Input& input);
  Response parse();
  SourcePosition position(std::uint64_t offset) const;

 private:
  [[noreturn]] void fail_at(const char* where, const std::string& message) const {
    throw ParseError(position(static_cast<std::uint64_t>(where - data_)), message);
  }
  // Throws a ParseError where `head` (the input's start) shows that it is
  // no JSON document: its first byte that is not a blank opens no object
  // or array.
  void refuse_non_json(std::string_view head) const;
  [[noreturn]] void fail_json(simdjson::error_code error);
  void release_parser(Response& r);
  void parse_envelope(od::object envelope, Response& r);
  void parse_list(od::value list, Response& r);
  RawNode parse_node(od::value node, const Response& r, std::size_t index);
  std::string_view string_value(od::value& v, const FieldName& what);
  std::int64_t count_value(od::value& v, const FieldName& what);
  const char* where(od::value& v) { return v.raw_json_token().data(); }

  std::string name_;
  std::string bytes_;  // a copy of the mapped input with simdjson's padding, when the mapping has none
  InputBytes whole_;   // the input when it cannot be mapped, padded
  const char* data_ = nullptr;  // the input: bytes_, or the mapped file
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;  // readable bytes at data_
  od::parser parser_;
  od::document doc_;
  bool iterating_ = false;                          // doc_ is set: it can say where an error is
  std::deque<std::string> unescaped_;               // strings with escapes, once the parser is gone
  mutable std::vector<std::uint64_t> line_starts_;  // made on the first position() call
};

ResponseParser::Impl::Impl(Input& input) : name_(input.name()) {
  if (auto whole = input.map_whole()) {
    // simdjson reads up to SIMDJSON_PADDING bytes past the end; a mapping
    // whose last page has that much room (zeros past the end of the file)
    // is used in place, without a copy.
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t tail = whole->size() % page;
    if (tail != 0 && page - tail >= simdjson::SIMDJSON_PADDING) {
      data_ = whole->data();
      size_ = whole->size();
      capacity_ = size_ + (page - tail);
      return;
    }
    size_ = whole->size();
    bytes_.reserve(size_ + simdjson::SIMDJSON_PADDING);
    bytes_.assign(whole->data(), size_);
    input.release_mapped(size_);
  } else {
    // Inflated or piped: memory of its own that holds only what arrived,
    // within the input's limit (no doubled, zero-filled string). What is
    // not JSON at all is refused before the rest is held.
    refuse_non_json(input.head());
    whole_ =
        read_all(input, {.first_invalid = first_non_json_byte,
                         .invalid = "malformed JSON: a control character, which no JSON document holds"});
    whole_.pad(simdjson::SIMDJSON_PADDING);
    data_ = whole_.view().data();
    size_ = whole_.view().size();
    capacity_ = size_ + simdjson::SIMDJSON_PADDING;
    return;
  }
  bytes_.resize(size_ + simdjson::SIMDJSON_PADDING, '\0');
  data_ = bytes_.data();
  capacity_ = bytes_.size();
}

void ResponseParser::Impl::refuse_non_json(std::string_view head) const {
  const std::size_t i = head.find_first_not_of(" \t\r\n");
  if (i == std::string_view::npos || head[i] == '{' || head[i] == '[') return;
  throw ParseError(text_position(name_, head, i), kNotAResponse);
}

SourcePosition ResponseParser::Impl::position(std::uint64_t offset) const {
  if (line_starts_.empty()) {
    line_starts_.push_back(0);
    for (const char* p = data_;
         (p = static_cast<const char*>(std::memchr(p, '\n', size_ - std::size_t(p - data_))));)
      line_starts_.push_back(static_cast<std::uint64_t>(++p - data_));
  }
  offset = std::min<std::uint64_t>(offset, size_);
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset) - 1;
  return SourcePosition::text(name_, static_cast<std::uint64_t>(it - line_starts_.begin()) + 1,
                              offset - *it + 1);
}

void ResponseParser::Impl::fail_json(simdjson::error_code error) {
  const char* at = data_ + size_;
  if (error == simdjson::UTF8_ERROR) {
    // simdjson does not say where: the first invalid sequence is.
    std::string_view text(data_, size_);
    for (std::size_t pos = 0; pos < text.size();) {
      std::size_t start = pos;
      if (next_code_point(text, pos) == kReplacementChar && pos - start == 1) {
        at = text.data() + start;
        break;
      }
    }
  } else if (iterating_) {
    const char* loc;
    if (!doc_.current_location().get(loc)) at = loc;
  }
  fail_at(at, std::string("malformed JSON: ") + simdjson::error_message(error));
}

Response ResponseParser::Impl::parse() {
  Response r;
  simdjson::padded_string_view view(data_, size_, capacity_);
  if (auto e = parser_.iterate(view).get(doc_)) fail_json(e);
  iterating_ = true;
  od::json_type t;
  if (auto e = doc_.type().get(t)) fail_json(e);
  if (t == od::json_type::array) {
    od::value list;
    if (auto e = doc_.get_value().get(list)) fail_json(e);
    parse_list(list, r);
  } else if (t == od::json_type::object) {
    od::object envelope;
    if (auto e = doc_.get_object().get(envelope)) fail_json(e);
    r.list_name = "result";
    parse_envelope(envelope, r);
  } else {
    fail_at(data_, kNotAResponse);
  }
  release_parser(r);
  return r;
}

// The parser's index of the document is as large as the node list; the
// tree is built without it. Strings that simdjson unescaped into its own
// buffer (the rare names with escapes) are copied out first.
void ResponseParser::Impl::release_parser(Response& r) {
  auto keep = [this](std::string_view& s) {
    if (s.empty() || (s.data() >= data_ && s.data() < data_ + size_)) return;
    unescaped_.emplace_back(s);
    s = unescaped_.back();
  };
  for (RawNode& n : r.nodes) {
    keep(n.name);
    keep(n.id);
    keep(n.parent);
  }
  iterating_ = false;
  doc_ = od::document();
  parser_ = od::parser();
}

void ResponseParser::Impl::parse_envelope(od::object envelope, Response& r) {
  std::optional<std::string> status;
  const char* status_at = nullptr;
  std::string description;
  bool has_result = false;
  for (auto field : envelope) {
    std::string_view key;
    if (auto e = field.unescaped_key().get(key)) fail_json(e);
    od::value v = field.value();
    if (key == "OPT_STATUS") {
      status_at = where(v);
      status = std::string(string_value(v, {nullptr, 0, "OPT_STATUS"}));
    } else if (key == "DESCRIPTION") {
      od::json_type t;
      if (!v.type().get(t) && t != od::json_type::null)
        description = string_value(v, {nullptr, 0, "DESCRIPTION"});
    } else if (key == "result") {
      has_result = true;
      if (!status || *status == "SUCCESS") parse_list(v, r);
    } else if (key == "fg_schema_version") {
      r.schema_version_offset = static_cast<std::uint64_t>(where(v) - data_);
      r.schema_version = count_value(v, {nullptr, 0, "fg_schema_version"});
    } else if (key == "fg_value_type") {
      const char* at = where(v);
      std::string_view type = string_value(v, {nullptr, 0, "fg_value_type"});
      std::size_t slash = type.find('/');
      if (slash == std::string_view::npos || slash == 0 || slash + 1 == type.size())
        fail_at(at, "fg_value_type: expected TYPE/UNIT, got \"" + std::string(type) + "\"");
      r.value_type = std::string(type);
    } else if (key == "functions" || key == "node_values") {
      fail_at(where(v),
              "the columnar response of DeepFlow 6.6 and later is not supported; "
              "ask the querier for the node list (6.5 shape)");
    }
  }
  if (status && *status != "SUCCESS")
    fail_at(status_at, "DeepFlow answered OPT_STATUS \"" + *status +
                           "\": " + (description.empty() ? "(no DESCRIPTION)" : description));
  if (!has_result) fail_at(data_, "the response has no \"result\" list of nodes");
}

void ResponseParser::Impl::parse_list(od::value list, Response& r) {
  const char* at = where(list);
  r.list_offset = static_cast<std::uint64_t>(at - data_);
  od::json_type t;
  if (auto e = list.type().get(t)) fail_json(e);
  if (t != od::json_type::array)
    fail_at(at, (r.list_name.empty() ? "the document" : r.list_name) + ": expected a list of nodes, got " +
                    std::string(type_name(t)));
  od::array nodes;
  if (auto e = list.get_array().get(nodes)) fail_json(e);
  r.nodes.reserve(size_ / 160);  // about the smallest a node is written in; untouched room costs no memory
  for (auto element : nodes) {
    od::value node;
    if (auto e = element.get(node)) fail_json(e);
    r.nodes.push_back(parse_node(node, r, r.nodes.size()));
  }
}

RawNode ResponseParser::Impl::parse_node(od::value node, const Response& r, std::size_t index) {
  RawNode n;
  const char* at = where(node);
  n.offset = static_cast<std::uint64_t>(at - data_);
  od::json_type t;
  if (auto e = node.type().get(t)) fail_json(e);
  auto label = [&] { return node_label(r, index); };
  if (t != od::json_type::object)
    fail_at(at, label() + ": expected a node object, got " + std::string(type_name(t)));
  od::object fields;
  if (auto e = node.get_object().get(fields)) fail_json(e);
  unsigned seen = 0;
  for (auto field : fields) {
    od::raw_json_string key;
    if (auto e = field.key().get(key)) fail_json(e);
    od::value v = field.value();
    if (key.unsafe_is_equal("profile_location_str")) {
      n.name = string_value(v, {&r, index, "profile_location_str"}), seen |= kName;
    } else if (key.unsafe_is_equal("node_id")) {
      n.id = string_value(v, {&r, index, "node_id"}), seen |= kId;
    } else if (key.unsafe_is_equal("parent_node_id")) {
      n.parent = string_value(v, {&r, index, "parent_node_id"}), seen |= kParent;
    } else if (key.unsafe_is_equal("self_value")) {
      n.self = count_value(v, {&r, index, "self_value"}), seen |= kSelf;
    } else if (key.unsafe_is_equal("total_value")) {
      n.total = count_value(v, {&r, index, "total_value"}), seen |= kTotal;
    }
  }
  if (seen != kAllFields) {
    std::size_t missing = 0;
    while (seen & (1u << missing)) ++missing;
    fail_at(at, label() + ": the node has no \"" + std::string(kFieldNames[missing]) + "\"");
  }
  return n;
}

// The common case is read from the token in place, without simdjson
// consuming (and copying) the value: a string without escapes is its own
// value (stage 1 checked the whole document's UTF-8 and quotes), and a
// number of plain digits is parsed here. Anything else takes the general
// path, which also makes the messages.
std::string_view ResponseParser::Impl::string_value(od::value& v, const FieldName& what) {
  // The token runs to the next structural character: the string, then
  // any blanks.
  std::string_view raw = v.raw_json_token();
  const char* token = raw.data();
  while (raw.size() > 1 && raw.back() != '"') raw.remove_suffix(1);
  if (raw.size() > 1 && raw[0] == '"' && !std::memchr(raw.data(), '\\', raw.size()))
    return raw.substr(1, raw.size() - 2);
  od::json_type t;
  if (auto e = v.type().get(t)) fail_json(e);
  if (t != od::json_type::string)
    fail_at(token, what.str() + ": expected a string, got " + shown(v.raw_json_token()));
  std::string_view s;
  if (auto e = v.get_string().get(s)) fail_json(e);
  return s;
}

std::int64_t ResponseParser::Impl::count_value(od::value& v, const FieldName& what) {
  const char* at = where(v);
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (digit(at[0]) && !(at[0] == '0' && digit(at[1]))) {
    std::uint64_t x = 0;
    const char* p = at;
    for (; digit(*p) && x <= (std::uint64_t(INT64_MAX) - 9) / 10; ++p) x = x * 10 + unsigned(*p - '0');
    const char c = *p;
    if (c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\0')
      return static_cast<std::int64_t>(x);
  }
  od::json_type t;
  if (auto e = v.type().get(t)) fail_json(e);
  auto token = [&] { return shown(std::string_view(at, std::strcspn(at, ",}] \t\r\n"))); };
  if (t != od::json_type::number)
    fail_at(at, what.str() + ": expected an integer, got " + shown(v.raw_json_token()));
  std::int64_t x;
  if (v.get_int64().get(x))
    fail_at(at, what.str() + ": expected an integer of at most 64 bits, got " + token());
  if (x < 0) fail_at(at, what.str() + ": negative value " + token());
  return x;
}

ResponseParser::ResponseParser(Input& input) : impl_(std::make_unique<Impl>(input)) {}
ResponseParser::~ResponseParser() = default;
Response ResponseParser::parse() { return impl_->parse(); }
SourcePosition ResponseParser::position(std::uint64_t offset) const { return impl_->position(offset); }

std::string ResponseParser::node_label(const Response& r, std::size_t index) {
  return r.list_name + "[" + std::to_string(index) + "]";
}

}  // namespace fg::formats::deepflow
