#include "formats/common/profile_labels.h"

#include <cstdio>
#include <ctime>

#include "fg/units.h"

namespace fg::formats {

std::string property(const Profile& p, std::string_view key) {
  for (const auto& [k, v] : p.metadata().properties)
    if (k == key) return v;
  return {};
}

std::string base_name(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

namespace {

// Go's "Jan 2, 2006 at 3:04pm (MST)" in local time.
std::string start_time(std::int64_t ns) {
  const auto secs = static_cast<std::time_t>(ns / 1000000000);
  std::tm tm{};
  localtime_r(&secs, &tm);
  char month[16], zone[16], buf[96];
  std::strftime(month, sizeof month, "%b", &tm);
  std::strftime(zone, sizeof zone, "%Z", &tm);
  std::snprintf(buf, sizeof buf, "Time: %s %d, %d at %d:%02d%s (%s)", month, tm.tm_mday, tm.tm_year + 1900,
                tm.tm_hour % 12 == 0 ? 12 : tm.tm_hour % 12, tm.tm_min, tm.tm_hour < 12 ? "am" : "pm", zone);
  return buf;
}

}  // namespace

std::vector<std::string> profile_labels(const Profile& p, std::size_t column, std::int64_t total,
                                        const std::function<std::string(std::int64_t)>& format_value) {
  std::vector<std::string> l;
  const Metadata& m = p.metadata();
  const std::string binary = property(p, "main_binary"), build_id = property(p, "build_id");
  if (!binary.empty()) l.push_back("File: " + base_name(binary));
  if (!build_id.empty()) l.push_back("Build ID: " + build_id);
  for (const std::string& c : m.comments)
    if (c.empty() || c[0] != '#') l.push_back(c);
  l.push_back("Type: " + p.value_types()[column].type);
  if (m.start_time_ns != 0) l.push_back(start_time(m.start_time_ns));
  if (m.duration_ns != 0) {
    const std::string& unit = p.value_types()[column].unit;
    std::string ratio;
    if (units::is_time(unit)) {
      const auto ns = static_cast<std::int64_t>(units::scale(total, unit, "nanoseconds").value);
      if (ns != 0) ratio = "(" + units::percentage(ns, m.duration_ns) + ")";
    }
    l.push_back("Duration: " + units::label(m.duration_ns, "nanoseconds") +
                ", Total samples = " + format_value(total) + " " + ratio);
  }
  if (!m.filters.empty()) {  // pprof's legendActiveFilters
    l.push_back("Active filters:");
    for (std::string f : m.filters) {
      if (f.size() > 80) f = f.substr(0, 80) + "\xE2\x80\xA6";
      l.push_back("   " + f);
    }
  }
  return l;
}

}  // namespace fg::formats
