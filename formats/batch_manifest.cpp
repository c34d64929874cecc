#include "formats/batch_manifest.h"

#include <simdjson.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "fg/error.h"
#include "formats/input.h"

namespace fg::formats {

namespace {

namespace od = simdjson::ondemand;

// Columns (keys) with a meaning of their own; any other is a label.
bool set_known(ManifestEntry& e, std::string_view key, std::string value) {
  if (key == "path")
    e.path = std::move(value);
  else if (key == "name")
    e.name = std::move(value);
  else if (key == "group")
    e.group = std::move(value);
  else if (key == "baseline")
    e.baseline = std::move(value);
  else
    return false;
  return true;
}

std::string resolved(const std::filesystem::path& folder, const std::string& path) {
  if (path.empty() || path == "-" || std::filesystem::path(path).is_absolute() || folder.empty()) return path;
  return (folder / path).string();
}

std::vector<std::string> split_tabs(std::string_view line) {
  std::vector<std::string> out(1);
  for (char c : line) {
    if (c == '\t')
      out.emplace_back();
    else
      out.back() += c;
  }
  return out;
}

std::vector<ManifestEntry> parse_tsv(const std::string& file, std::string_view text) {
  std::vector<ManifestEntry> out;
  std::vector<std::string> columns;
  std::uint64_t number = 0;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    const auto fail = [&](const std::string& message) {
      throw ParseError(SourcePosition::text(file, number), message);
    };
    std::vector<std::string> fields = split_tabs(line);
    if (columns.empty()) {
      std::set<std::string> seen;
      for (const std::string& c : fields)
        if (c.empty() || !seen.insert(c).second)
          fail("the header names column '" + c + "' twice or not at all");
      if (!seen.count("path")) fail("the header has no 'path' column (columns are separated by tabs)");
      columns = std::move(fields);
      continue;
    }
    if (fields.size() != columns.size())
      fail(std::to_string(fields.size()) + " fields, but the header names " + std::to_string(columns.size()) +
           " columns");
    ManifestEntry e;
    for (std::size_t i = 0; i < columns.size(); ++i)
      if (!set_known(e, columns[i], fields[i]) && !fields[i].empty())
        e.labels.emplace_back(columns[i], fields[i]);
    if (e.path.empty()) fail("no path");
    out.push_back(std::move(e));
  }
  if (columns.empty())
    throw ParseError(SourcePosition::text(file, 1), "no header line (expected 'path' ...)");
  return out;
}

class JsonManifest {
 public:
  JsonManifest(const std::string& file, std::string_view text) : file_(file), text_(text), padded_(text) {}

  std::vector<ManifestEntry> run() {
    std::vector<ManifestEntry> out;
    try {
      doc_ = parser_.iterate(padded_);
      od::array entries;
      if (const auto error = doc_.get_array().get(entries))
        fail(error == simdjson::INCORRECT_TYPE
                 ? "expected an array of objects"
                 : std::string("malformed JSON: ") + simdjson::error_message(error));
      for (auto element : entries) {
        od::value v = element.value();
        const std::uint64_t at = offset();
        od::object object;
        if (v.get_object().get(object)) fail("expected an object (path, name, group, baseline, labels)");
        ManifestEntry e;
        for (auto field : object) {
          const std::string key(std::string_view(field.unescaped_key()));
          if (key == "labels")
            labels(field.value(), e);
          else if (const std::string s = string(field.value(), key); !set_known(e, key, s))
            e.labels.emplace_back(key, s);
        }
        if (e.path.empty()) throw ParseError(text_position(file_, text_, at), "an entry without a path");
        out.push_back(std::move(e));
      }
    } catch (const simdjson::simdjson_error& e) {
      fail(std::string("malformed JSON: ") + e.what());
    }
    return out;
  }

 private:
  std::uint64_t offset() {
    const char* loc = nullptr;
    if (doc_.current_location().get(loc)) return text_.size();
    return std::min<std::uint64_t>(static_cast<std::uint64_t>(loc - padded_.data()), text_.size());
  }
  [[noreturn]] void fail(const std::string& message) {
    throw ParseError(text_position(file_, text_, offset()), message);
  }
  std::string string(od::value v, const std::string& key) {
    std::string_view s;
    if (v.get_string().get(s)) fail("'" + key + "': expected a string");
    return std::string(s);
  }
  void labels(od::value v, ManifestEntry& e) {
    od::object object;
    if (v.get_object().get(object)) fail("'labels': expected an object of strings");
    for (auto field : object) {
      std::string key(std::string_view(field.unescaped_key()));
      e.labels.emplace_back(key, string(field.value(), key));
    }
  }

  std::string file_;
  std::string_view text_;
  simdjson::padded_string padded_;
  od::parser parser_;
  od::document doc_;
};

}  // namespace

std::vector<ManifestEntry> parse_manifest(const std::string& file, std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  std::vector<ManifestEntry> entries = first != std::string_view::npos && text[first] == '['
                                           ? JsonManifest(file, text).run()
                                           : parse_tsv(file, text);
  const std::filesystem::path folder = std::filesystem::path(file).parent_path();
  for (ManifestEntry& e : entries) {
    e.path = resolved(folder, e.path);
    e.baseline = resolved(folder, e.baseline);
  }
  return entries;
}

std::vector<ManifestEntry> read_manifest(const std::string& file) {
  auto in = Input::open(file);
  const InputBytes bytes = read_all(*in);
  return parse_manifest(file, bytes.view());
}

}  // namespace fg::formats
