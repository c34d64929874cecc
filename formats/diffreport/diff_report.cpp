#include "formats/diffreport/diff_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "fg/error.h"
#include "fg/units.h"
#include "formats/common/json_escape.h"
#include "formats/common/table_text.h"

namespace fg::formats::diffreport {

namespace {

struct Row {
  const FunctionDelta* f;
  std::int64_t self_delta;
  double share_delta;  // points of share of the total
};

std::vector<Row> ranked(const Diff& d, const std::vector<FunctionDelta>& functions, const ReportOptions& o) {
  std::vector<Row> rows;
  for (const FunctionDelta& f : functions) {
    Row r{&f, f.new_self - f.base_self, share(f.new_total, d.new_total) - share(f.base_total, d.base_total)};
    if (r.self_delta == 0 && r.share_delta == 0) continue;
    if (std::fabs(r.share_delta) < o.min_delta &&
        std::fabs(share(f.new_self, d.new_total) - share(f.base_self, d.base_total)) < o.min_delta)
      continue;
    rows.push_back(r);
  }
  std::sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
    if (o.by_self && std::llabs(a.self_delta) != std::llabs(b.self_delta))
      return std::llabs(a.self_delta) > std::llabs(b.self_delta);
    if (std::fabs(a.share_delta) != std::fabs(b.share_delta))
      return std::fabs(a.share_delta) > std::fabs(b.share_delta);
    if (std::llabs(a.self_delta) != std::llabs(b.self_delta))
      return std::llabs(a.self_delta) > std::llabs(b.self_delta);
    return a.f->name < b.f->name;
  });
  if (o.top > 0 && rows.size() > o.top) rows.resize(o.top);
  return rows;
}

std::string fixed(double v, const char* format) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v == 0 ? 0.0 : v);  // no "-0.00"
  return buf;
}

// The relative change of a self value: "+12.5%", "new" or "gone".
std::string relative(std::int64_t base, std::int64_t next) {
  if (base == 0) return next == 0 ? "0%" : "new";
  if (next == 0) return "gone";
  return fixed(100.0 * static_cast<double>(next - base) / std::fabs(static_cast<double>(base)), "%+.1f%%");
}

std::string total_change(const Diff& d) {
  if (d.base_total_raw == 0) return d.new_total == 0 ? "0%" : "new";
  return fixed(100.0 * static_cast<double>(d.new_total - d.base_total_raw) /
                   std::fabs(static_cast<double>(d.base_total_raw)),
               "%+.2f%%");
}

// The one unit a report's values are written in, chosen as pprof chooses
// it for a top table: from the smallest value shown and the larger total.
struct Scale {
  std::string from, to;
  int decimals = 0;  // the values are fixed point (fractional counts)
  std::string value(std::int64_t v) const { return units::scaled_label(v, from, to, decimals); }
  // Exact, in the profile's unit: "335", "335.2".
  std::string number(std::int64_t v) const { return fixed_point_text(v, decimals); }
  std::string delta(std::int64_t v) const { return (v >= 0 ? "+" : "") + value(v); }
  // ", shown in ms" when the values are not written in the profile's unit.
  std::string shown_in() const { return to == from ? std::string() : ", shown in " + to; }
};

Scale scale_for(const Diff& d, const std::vector<Row>& rows) {
  std::int64_t smallest = 0;
  for (const Row& r : rows)
    for (std::int64_t v : {r.f->base_self, r.f->new_self, r.self_delta})
      if (v != 0 && (smallest == 0 || std::llabs(v) < smallest)) smallest = std::llabs(v);
  const std::string& unit = d.profile.value_types()[1].unit;
  const int decimals = d.profile.value_types()[1].decimals;
  return {unit,
          units::output_unit(smallest, std::max(std::llabs(d.base_total_raw), std::llabs(d.new_total)), unit,
                             decimals),
          decimals};
}

void text(const Diff& d, const std::vector<Row>& rows, const ReportOptions& o, std::ostream& out) {
  const ValueType& t = d.profile.value_types()[1];
  const Scale s = scale_for(d, rows);
  out << "fg-diff: " << text_cell(o.base_name) << " -> " << text_cell(o.new_name) << "\n";
  out << "value: " << text_cell(t.type) << " (" << text_cell(t.unit) << s.shown_in() << "), "
      << d.normalization << "\n";
  if (!o.names.empty()) out << "names: " << o.names << "\n";
  out << "total: " << s.value(d.base_total_raw) << " -> " << s.value(d.new_total) << " (" << total_change(d)
      << ")\n";
  out << "functions ranked by the change of " << (o.by_self ? "their self value" : "their share of the total")
      << (o.top ? ", top " + std::to_string(o.top) : std::string()) << ":\n";
  char line[160];
  std::snprintf(line, sizeof line, "%12s %12s %12s %8s %8s %8s %8s  %s\n", "base self", "new self",
                "self delta", "self%", "base%", "new%", "delta", "function");
  out << line;
  for (const Row& r : rows) {
    const FunctionDelta& f = *r.f;
    std::snprintf(line, sizeof line, "%12s %12s %12s %8s %7.2f%% %7.2f%% %+7.2f  ",
                  s.value(f.base_self).c_str(), s.value(f.new_self).c_str(), s.delta(r.self_delta).c_str(),
                  relative(f.base_self, f.new_self).c_str(), share(f.base_total, d.base_total),
                  share(f.new_total, d.new_total), r.share_delta == 0 ? 0.0 : r.share_delta);
    out << line << text_cell(f.name) << "\n";
  }
  if (rows.empty()) out << "(no function changed)\n";
}

void markdown(const Diff& d, const std::vector<Row>& rows, const ReportOptions& o, std::ostream& out) {
  const ValueType& t = d.profile.value_types()[1];
  const Scale s = scale_for(d, rows);
  out << "## fg-diff: " << markdown_cell(o.base_name) << " → " << markdown_cell(o.new_name) << "\n\n";
  out << "- value: " << t.type << " (" << t.unit << s.shown_in() << "), " << d.normalization << "\n";
  if (!o.names.empty()) out << "- names: " << markdown_cell(o.names) << "\n";
  out << "- total: " << s.value(d.base_total_raw) << " → " << s.value(d.new_total) << " (" << total_change(d)
      << ")\n\n";
  out << "| base self | new self | self delta | self % | base share | new share | share delta | function |\n";
  out << "|---:|---:|---:|---:|---:|---:|---:|:---|\n";
  for (const Row& r : rows) {
    const FunctionDelta& f = *r.f;
    out << "| " << s.value(f.base_self) << " | " << s.value(f.new_self) << " | " << s.delta(r.self_delta)
        << " | " << relative(f.base_self, f.new_self) << " | "
        << fixed(share(f.base_total, d.base_total), "%.2f%%") << " | "
        << fixed(share(f.new_total, d.new_total), "%.2f%%") << " | " << fixed(r.share_delta, "%+.2f") << " | "
        << markdown_cell(f.name) << " |\n";
  }
}

void json(const Diff& d, const std::vector<Row>& rows, const ReportOptions& o, std::ostream& out) {
  std::uint64_t replaced = 0;  // names were checked when read; counted, not reported
  std::string j = "{\"base\":";
  append_json_string(j, o.base_name, JsonEscaping::kGo, replaced);
  j += ",\"new\":";
  append_json_string(j, o.new_name, JsonEscaping::kGo, replaced);
  const ValueType& t = d.profile.value_types()[1];
  j += ",\"type\":";
  append_json_string(j, t.type, JsonEscaping::kGo, replaced);
  j += ",\"unit\":";
  append_json_string(j, t.unit, JsonEscaping::kGo, replaced);
  j += ",\"normalization\":";
  append_json_string(j, d.normalization, JsonEscaping::kGo, replaced);
  if (!o.names.empty()) {
    j += ",\"names\":";
    append_json_string(j, o.names, JsonEscaping::kGo, replaced);
  }
  j += ",\"ranked_by\":\"" + std::string(o.by_self ? "self" : "share") + "\"";
  const Scale s = scale_for(d, rows);
  j += ",\"total\":{\"base\":" + s.number(d.base_total_raw) + ",\"new\":" + s.number(d.new_total) + "}";
  j += ",\"functions\":[";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const FunctionDelta& f = *rows[i].f;
    j += i ? ",{\"name\":" : "{\"name\":";
    append_json_string(j, f.name, JsonEscaping::kGo, replaced);
    j += ",\"base_self\":" + s.number(f.base_self) + ",\"new_self\":" + s.number(f.new_self) +
         ",\"self_delta\":" + s.number(rows[i].self_delta) +
         ",\"base_share\":" + fixed(share(f.base_total, d.base_total), "%.4f") +
         ",\"new_share\":" + fixed(share(f.new_total, d.new_total), "%.4f") +
         ",\"share_delta\":" + fixed(rows[i].share_delta, "%.4f") + "}";
  }
  out << j << "]}\n";
}

// Exact values first, in columns named with the profile's unit (for a
// spreadsheet), then the same values as the text report writes them.
void csv(const Diff& d, const std::vector<Row>& rows, std::ostream& out) {
  const Scale s = scale_for(d, rows);
  for (const char* column : {"base_self_", "new_self_", "self_delta_"})
    out << csv_text_field(column + s.from) << ',';
  out << "base_self,new_self,self_delta,base_share,new_share,share_delta,function\n";
  auto values = [&](std::int64_t base, std::int64_t next) {
    out << s.number(base) << ',' << s.number(next) << ',' << s.number(next - base) << ','
        << csv_field(s.value(base)) << ',' << csv_field(s.value(next)) << ','
        << csv_field(s.delta(next - base)) << ',';
  };
  values(d.base_total_raw, d.new_total);
  out << "100,100,0," << csv_field("(total)") << '\n';
  for (const Row& r : rows) {
    const FunctionDelta& f = *r.f;
    values(f.base_self, f.new_self);
    out << fixed(share(f.base_total, d.base_total), "%.4f") << ','
        << fixed(share(f.new_total, d.new_total), "%.4f") << ',' << fixed(r.share_delta, "%.4f") << ','
        << csv_text_field(f.name) << '\n';
  }
}

}  // namespace

void check_options(const ReportOptions& o) {
  if (o.format != "text" && o.format != "markdown" && o.format != "csv" && o.format != "json")
    throw UsageError("--format " + o.format + ": expected text, markdown, csv or json");
}

void write_report(const Diff& d, const ReportOptions& o, std::ostream& out) {
  check_options(o);
  const std::vector<FunctionDelta> functions = function_deltas(d);
  const std::vector<Row> rows = ranked(d, functions, o);
  if (o.format == "text")
    text(d, rows, o, out);
  else if (o.format == "markdown")
    markdown(d, rows, o, out);
  else if (o.format == "json")
    json(d, rows, o, out);
  else
    csv(d, rows, out);
}

}  // namespace fg::formats::diffreport
