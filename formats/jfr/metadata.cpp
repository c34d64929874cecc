#include "formats/jfr/metadata.h"

#include <algorithm>
#include <charconv>

namespace fg::formats::jfr {

namespace {

constexpr int kMaxDepth = 32;  // of the element tree and of nested structs

Encoding encoding_of(std::string_view name) {
  static const std::pair<std::string_view, Encoding> kPrimitives[] = {
      {"boolean", Encoding::kBoolean}, {"byte", Encoding::kByte},     {"char", Encoding::kChar},
      {"short", Encoding::kShort},     {"int", Encoding::kInt},       {"long", Encoding::kLong},
      {"float", Encoding::kFloat},     {"double", Encoding::kDouble}, {"java.lang.String", Encoding::kString},
  };
  for (const auto& [n, e] : kPrimitives)
    if (n == name) return e;
  return Encoding::kStruct;
}

struct Attributes {
  std::vector<std::pair<const std::string*, const std::string*>> items;
  const std::string* get(std::string_view key) const {
    for (const auto& [k, v] : items)
      if (*k == key) return v;
    return nullptr;
  }
};

class MetadataParser {
 public:
  MetadataParser(Cursor& c, ChunkMetadata& out) : c_(c), out_(out) {}

  void run() {
    const std::uint64_t n = c_.read_count("metadata string");
    strings_.reserve(n);
    for (std::uint64_t i = 0; i < n; ++i) strings_.push_back(c_.read_string().text);
    element(0, nullptr);
  }

 private:
  const std::string& string_at(std::uint64_t at) {
    const std::uint64_t i = static_cast<std::uint32_t>(c_.read_int());
    if (i >= strings_.size())
      c_.fail_at(at, "metadata string index " + std::to_string(i) + " out of range (" +
                         std::to_string(strings_.size()) + " strings)");
    return strings_[i];
  }

  std::uint64_t number(const std::string* s, const char* what, std::uint64_t at) {
    std::uint64_t v = 0;
    if (!s || std::from_chars(s->data(), s->data() + s->size(), v).ec != std::errc())
      c_.fail_at(at, std::string("metadata ") + what + " is missing or not a number");
    return v;
  }

  // One element and its children; `owner` is the class a field belongs to.
  void element(int depth, ClassDesc* owner) {
    const std::uint64_t at = c_.offset();
    if (depth > kMaxDepth) c_.fail_at(at, "metadata elements nested too deeply");
    const std::string& name = string_at(at);
    Attributes attrs;
    for (std::uint64_t n = c_.read_count("metadata attribute", 2); n > 0; --n) {
      const std::string* k = &string_at(c_.offset());
      attrs.items.emplace_back(k, &string_at(c_.offset()));
    }
    ClassDesc cls;
    ClassDesc* next_owner = nullptr;
    if (name == "class") {
      cls.id = number(attrs.get("id"), "class id", at);
      if (const std::string* n = attrs.get("name")) cls.name = *n;
      if (const std::string* s = attrs.get("superType")) cls.super_type = *s;
      if (const std::string* s = attrs.get("simpleType")) cls.simple_type = *s == "true";
      cls.encoding = encoding_of(cls.name);
      next_owner = &cls;
    } else if (name == "field" && owner) {
      FieldDesc f;
      if (const std::string* n = attrs.get("name")) f.name = *n;
      f.type = number(attrs.get("class"), "field class", at);
      if (const std::string* s = attrs.get("constantPool")) f.constant_pool = *s == "true";
      if (const std::string* s = attrs.get("dimension")) f.array = number(s, "field dimension", at) > 0;
      owner->fields.push_back(std::move(f));
    }
    for (std::uint64_t n = c_.read_count("metadata element", 3); n > 0; --n) element(depth + 1, next_owner);
    if (next_owner) out_.add(std::move(cls));
  }

  Cursor& c_;
  ChunkMetadata& out_;
  std::vector<std::string> strings_;
};

}  // namespace

int ClassDesc::field_index(std::string_view field) const {
  for (std::size_t i = 0; i < fields.size(); ++i)
    if (fields[i].name == field) return static_cast<int>(i);
  return -1;
}

const ClassDesc* ChunkMetadata::find(std::uint64_t id) const {
  auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : &it->second;
}

const ClassDesc* ChunkMetadata::find(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? nullptr : find(it->second);
}

void ChunkMetadata::add(ClassDesc c) {
  by_name_[c.name] = c.id;
  const std::uint64_t id = c.id;
  by_id_.insert_or_assign(id, std::move(c));
}

void ChunkMetadata::check(const Cursor& where) {
  for (auto& [id, cls] : by_id_)
    for (FieldDesc& f : cls.fields) {
      f.desc = find(f.type);
      if (!f.desc)
        where.fail("metadata: field " + cls.name + "." + f.name + " has undescribed type id " +
                   std::to_string(f.type));
      f.encoding = f.desc->encoding;
    }
  // Minimum sizes, to a fixpoint (a struct that contains itself only grows
  // until the cap; decoding it is bounded by kMaxDepth anyway).
  constexpr std::uint32_t kCap = 1u << 24;
  for (auto& [id, cls] : by_id_) {
    switch (cls.encoding) {
      case Encoding::kStruct:
        cls.min_bytes = 0;
        break;
      case Encoding::kFloat:
        cls.min_bytes = 4;
        break;
      case Encoding::kDouble:
        cls.min_bytes = 8;
        break;
      default:
        cls.min_bytes = 1;
        break;
    }
  }
  for (int round = 0; round < kMaxDepth; ++round) {
    bool changed = false;
    for (auto& [id, cls] : by_id_) {
      if (cls.encoding != Encoding::kStruct) continue;
      std::uint64_t sum = 0;
      for (const FieldDesc& f : cls.fields) sum += f.array || f.constant_pool ? 1 : f.desc->min_bytes;
      const std::uint32_t m = static_cast<std::uint32_t>(std::min<std::uint64_t>(sum, kCap));
      if (m != cls.min_bytes) changed = true;
      cls.min_bytes = m;
    }
    if (!changed) break;
  }
  // A field of a type that encodes nothing (a struct of empty structs) is
  // dropped: decoding is unchanged, and every field left takes at least a
  // byte, so no class can make a reader loop without consuming input.
  for (auto& [id, cls] : by_id_)
    std::erase_if(cls.fields,
                  [](const FieldDesc& f) { return !f.array && !f.constant_pool && f.desc->min_bytes == 0; });
}

ChunkMetadata read_metadata(Cursor& record) {
  record.read_int();  // size
  const std::uint64_t at = record.offset();
  if (record.read_long() != 0) record.fail_at(at, "metadata offset does not point at a metadata event");
  record.read_long();  // start time
  record.read_long();  // duration
  record.read_long();  // metadata id
  ChunkMetadata meta;
  MetadataParser(record, meta).run();
  meta.check(record);
  return meta;
}

void skip_value(Cursor& c, const ChunkMetadata& meta, const ClassDesc& type, bool constant_pool, int depth) {
  if (constant_pool) {
    c.read_long();
    return;
  }
  switch (type.encoding) {
    case Encoding::kBoolean:
    case Encoding::kByte:
      c.skip(1);
      return;
    case Encoding::kChar:
    case Encoding::kShort:
      c.read_short();
      return;
    case Encoding::kInt:
      c.read_int();
      return;
    case Encoding::kLong:
      c.read_long();
      return;
    case Encoding::kFloat:
      c.skip(4);
      return;
    case Encoding::kDouble:
      c.skip(8);
      return;
    case Encoding::kString:
      c.skip_string();
      return;
    case Encoding::kStruct:
      if (type.min_bytes == 0) return;  // only empty structs: nothing is encoded
      if (depth > kMaxDepth) c.fail("inline structs nested too deeply (type " + type.name + ")");
      for (const FieldDesc& f : type.fields) skip_field(c, meta, f, depth + 1);
      return;
  }
}

void skip_field(Cursor& c, const ChunkMetadata& meta, const FieldDesc& field, int depth) {
  const ClassDesc& type = *field.desc;  // check() resolved it
  if (!field.array) return skip_value(c, meta, type, field.constant_pool, depth);
  if (type.min_bytes == 0 && !field.constant_pool) {  // an array of empty structs
    c.read_count("array element");
    return;
  }
  for (std::uint64_t n = c.read_count("array element", field.constant_pool ? 1 : type.min_bytes); n > 0; --n)
    skip_value(c, meta, type, field.constant_pool, depth);
}

}  // namespace fg::formats::jfr
