#include "formats/batch_site.h"

#include <algorithm>
#include <filesystem>

#include "formats/common/json_escape.h"
#include "formats/common/table_text.h"
#include "formats/output.h"
#include "formats/svg/xml_escape.h"

namespace fg::formats {

namespace {

constexpr int kSchemaVersion = 1;

// A JSON document built as text; every string goes through
// append_json_string() with the one escaping the document needs.
class Json {
 public:
  explicit Json(JsonEscaping escaping) : escaping_(escaping) {}
  Json& raw(std::string_view s) {
    text_ += s;
    return *this;
  }
  Json& str(std::string_view s) {
    append_json_string(text_, s, escaping_, replaced_);
    return *this;
  }
  Json& key(std::string_view k) {
    comma();
    str(k).raw(":");
    first_ = true;  // the value that follows needs no comma
    return *this;
  }
  Json& open(char c) {
    comma();
    text_ += c;
    first_ = true;
    return *this;
  }
  Json& close(char c) {
    text_ += c;
    first_ = false;
    return *this;
  }
  Json& value(std::string_view s) {
    comma();
    return str(s);
  }
  Json& number(std::string_view digits) {
    comma();
    return raw(digits);
  }
  const std::string& text() const { return text_; }

 private:
  void comma() {
    if (!first_) text_ += ',';
    first_ = false;
  }
  JsonEscaping escaping_;
  std::string text_;
  std::uint64_t replaced_ = 0;
  bool first_ = true;
};

void strings(Json& j, std::string_view k, const std::vector<std::string>& list) {
  j.key(k).open('[');
  for (const std::string& s : list) j.value(s);
  j.close(']');
}

// "error" when reading or a comparison (of any kind of event) failed, else
// "regressed" when a condition tripped, else "ok".
std::string status(const ProfileFacts& p) {
  if (!p.error.empty() || !p.comparison.error.empty()) return "error";
  std::string worst = "ok";
  for (const ProfileFacts& k : p.kinds) {
    const std::string s = status(k);
    if (s == "error") return s;
    if (s == "regressed") worst = s;
  }
  for (const GateVerdict& v : p.comparison.gate)
    if (!v.tripped.empty()) return "regressed";
  return worst;
}

void comparison(Json& j, const ComparisonFacts& c) {
  j.key("baseline").open('{').key("path").value(c.baseline);
  if (!c.error.empty()) j.key("error").value(c.error);
  j.key("base_total")
      .number(std::to_string(c.base_total))
      .key("new_total")
      .number(std::to_string(c.new_total));
  j.key("unit").value(c.unit).key("gate").open('[');
  for (const GateVerdict& v : c.gate) {
    j.open('{')
        .key("condition")
        .value(v.condition)
        .key("tripped")
        .number(v.tripped.empty() ? "false" : "true");
    if (!v.tripped.empty()) j.key("why").value(v.tripped);
    j.close('}');
  }
  j.close(']').close('}');
}

// The manifest's group and labels, when it gave them (none: no bytes).
void manifest_fields(Json& j, const ProfileFacts& p) {
  if (!p.group.empty()) j.key("group").value(p.group);
  if (p.labels.empty()) return;
  j.key("labels").open('{');
  for (const auto& [k, v] : p.labels) j.key(k).value(v);
  j.close('}');
}

void profile_fields(Json& j, const ProfileFacts& p) {
  j.key("name").value(p.name).key("path").value(p.path).key("status").value(status(p));
  manifest_fields(j, p);
  if (!p.error.empty()) j.key("error").value(p.error);
  if (p.error.empty()) {
    j.key("page").value(p.page + "/index.html").key("format").value(p.format);
    if (!p.kind.empty()) j.key("kind").value(p.kind);
    j.key("samples")
        .number(std::to_string(p.samples))
        .key("duration_ns")
        .number(std::to_string(p.duration_ns))
        .key("default_value")
        .number(std::to_string(p.default_column));
    j.key("values").open('[');
    for (const ColumnFacts& c : p.columns)
      j.open('{').key("type").value(c.type).key("unit").value(c.unit).key("total").number(c.total).close('}');
    j.close(']').key("top").open('[');
    for (const TopFunction& t : p.top)
      j.open('{').key("name").value(t.name).key("self").number(t.self).close('}');
    j.close(']');
    strings(j, "files", p.files);
  }
  strings(j, "warnings", p.warnings);
  if (p.compared) comparison(j, p.comparison);
  if (p.kinds.empty()) return;
  j.key("kinds").open('[');
  for (const ProfileFacts& k : p.kinds) {
    j.open('{');
    profile_fields(j, k);
    j.close('}');
  }
  j.close(']');
}

void profile(Json& j, const ProfileFacts& p) {
  j.open('{');
  profile_fields(j, p);
  j.close('}');
}

void group(Json& j, const GroupFacts& g) {
  j.open('{');
  profile_fields(j, g.merged);
  strings(j, "members", g.members);
  j.close('}');
}

bool has_kinds(const BatchReportResult& r) {
  return std::any_of(r.profiles.begin(), r.profiles.end(),
                     [](const ProfileFacts& p) { return !p.kinds.empty(); });
}

bool has_manifest_facts(const BatchReportResult& r) {
  return std::any_of(r.profiles.begin(), r.profiles.end(),
                     [](const ProfileFacts& p) { return !p.group.empty() || !p.labels.empty(); });
}

std::string summary_json(const BatchReportResult& r, JsonEscaping escaping) {
  Json j(escaping);
  j.open('{').key("schema_version").number(std::to_string(kSchemaVersion));
  j.key("profiles_count").number(std::to_string(r.profiles.size()));
  j.key("failed").number(std::to_string(r.failed)).key("regressed").number(std::to_string(r.tripped));
  j.key("profiles").open('[');
  for (const ProfileFacts& p : r.profiles) profile(j, p);
  j.close(']');
  if (!r.groups.empty()) {
    j.key("groups").open('[');
    for (const GroupFacts& g : r.groups) group(j, g);
    j.close(']');
  }
  j.close('}');
  return j.text();
}

// The one page shape: a title, the data as JSON in a script element of
// its own, and the script that renders it with textContent.
constexpr std::string_view kStyle = R"(<style>
body{font-family:Verdana,sans-serif;font-size:13px;margin:16px;color:#222}
table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#eee;cursor:pointer}td.n{text-align:right}.error{color:#b00}.regressed{color:#c60}.ok{color:#070}
input{margin:8px 0;padding:3px;width:30em}
</style>)";

constexpr std::string_view kIndexScript = R"(<script>
(function () {
  const d = JSON.parse(document.getElementById('fg-data').textContent);
  const cols = [
    ['name', p => p.name], ['status', p => p.status], ['format', p => p.format || ''],
    ['values', p => (p.values || []).map(v => v.type + '/' + v.unit).join(', ')],
    ['total', p => p.values && p.values.length ? Number(p.values[p.default_value].total) : null],
    ['unit', p => p.values && p.values.length ? p.values[p.default_value].unit : ''],
    ['samples', p => p.samples === undefined ? null : p.samples],
    ['duration (s)', p => p.duration_ns ? p.duration_ns / 1e9 : null],
    ['top by self', p => (p.top || []).map(t => t.name).join('; ')],
    ['problems', p => [p.error].concat(p.warnings, p.baseline ? [p.baseline.error].concat(
        p.baseline.gate.filter(g => g.tripped).map(g => g.why)) : []).filter(x => x).join('\n')]];
  let key = 0, dir = 1;
  const head = document.querySelector('thead tr'), body = document.querySelector('tbody');
  const filter = document.getElementById('filter');
  cols.forEach((c, i) => {
    const th = document.createElement('th');
    th.textContent = c[0];
    th.onclick = () => { dir = key === i ? -dir : 1; key = i; draw(); };
    head.appendChild(th);
  });
  function cmp(a, b) {
    const x = cols[key][1](a), y = cols[key][1](b);
    if (x === y) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    return (typeof x === 'number' ? x - y : String(x).localeCompare(String(y))) * dir;
  }
  function draw() {
    const q = filter.value.toLowerCase();
    body.textContent = '';
    d.profiles.slice().sort(cmp).forEach(p => {
      const cells = cols.map(c => c[1](p));
      if (q && !cells.join(' ').toLowerCase().includes(q)) return;
      const tr = body.insertRow();
      cells.forEach((v, i) => {
        const td = tr.insertCell();
        if (i === 0 && p.page) {
          const a = document.createElement('a');
          a.href = p.page;
          a.textContent = v;
          td.appendChild(a);
        } else {
          td.textContent = v === null ? '' : String(v);
        }
        if (typeof v === 'number') td.className = 'n';
        if (i === 1) td.className = v;
      });
    });
  }
  filter.oninput = draw;
  document.getElementById('counts').textContent = d.profiles_count + ' profiles, ' + d.failed +
      ' failed, ' + d.regressed + ' regressed';
  draw();
})();
</script>)";

// The start of a page's scripts: the data, and helpers that add elements to
// the page's main part.
constexpr std::string_view kPageScriptStart = R"(<script>
(function () {
  const p = JSON.parse(document.getElementById('fg-data').textContent);
  const main = document.getElementById('main');
  function add(tag, text, parent) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    (parent || main).appendChild(e);
    return e;
  }
  function link(href, text, parent) {
    const a = add('a', text, parent);
    a.href = href;
    return a;
  }
)";

constexpr std::string_view kPageScript = R"(  document.title = p.name + ' - fg-report';
  add('h1', p.name);
  add('p', p.path + ' (' + p.format + ', ' + p.samples + ' samples)');
  const t = add('table');
  p.values.forEach((v, i) => {
    const tr = t.insertRow();
    tr.insertCell().textContent = v.type + '/' + v.unit + (i === p.default_value ? ' (default)' : '');
    tr.insertCell().textContent = 'total ' + v.total;
    [['flame graph', 'flame-'], ['icicle', 'icicle-'], ['reversed', 'reversed-'], ['top table', 'top-'],
     ['call graph', 'callgraph-'], ['busiest threads', 'threads-']].forEach(k => {
      const f = p.files.find(f => f.startsWith(k[1] + i + '.'));
      const cell = tr.insertCell();
      if (f) link(f, k[0], cell);
    });
  });
  if (p.top.length) {
    add('h2', 'Top functions by self');
    const ol = add('ol');
    p.top.forEach(f => add('li', f.name + ': ' + f.self, ol));
  }
  if (p.baseline) {
    add('h2', 'Compared with ' + p.baseline.path);
    if (p.baseline.error) add('p', p.baseline.error).className = 'error';
    else {
      add('p', 'total ' + p.baseline.base_total + ' -> ' + p.baseline.new_total + ' ' + p.baseline.unit);
      const para = add('p');
      link('diff.svg', 'differential flame graph', para);
      add('span', ' ', para);
      link('delta.txt', 'delta table', para);
      const ul = add('ul');
      p.baseline.gate.forEach(g => {
        add('li', (g.tripped ? 'TRIPPED ' : 'held ') + g.condition + (g.tripped ? ': ' + g.why : ''), ul)
            .className = g.tripped ? 'regressed' : 'ok';
      });
    }
  }
  if (p.warnings.length) {
    add('h2', 'Warnings');
    const ul = add('ul');
    p.warnings.forEach(w => add('li', w, ul));
  }
})();
</script>)";

// With a manifest: the index's group and label columns (inserted before
// its format column), its table of groups, and each page's group, labels
// and members. Without one the pages keep their bytes.
constexpr std::string_view kManifestColumns = R"(['group', p => p.group || ''],
    ...(() => {
      const keys = [];
      d.profiles.forEach(p => Object.keys(p.labels || {}).forEach(k => { if (!keys.includes(k)) keys.push(k); }));
      return keys.map(k => [k, p => (p.labels || {})[k] || '']);
    })(),
    )";

constexpr std::string_view kGroupsScript = R"(<script>
(function () {
  const d = JSON.parse(document.getElementById('fg-data').textContent);
  if (!d.groups) return;
  const filter = document.getElementById('filter');
  const h = document.createElement('h2');
  h.textContent = 'Groups';
  const t = document.createElement('table');
  t.id = 'groups';
  const head = t.createTHead().insertRow();
  ['group', 'profiles', 'format', 'total', 'unit', 'problems'].forEach(n => {
    const th = document.createElement('th');
    th.textContent = n;
    head.appendChild(th);
  });
  const body = t.createTBody();
  d.groups.forEach(g => {
    const tr = body.insertRow();
    const cell = tr.insertCell();
    if (g.page) {
      const a = document.createElement('a');
      a.href = g.page;
      a.textContent = g.name;
      cell.appendChild(a);
    } else {
      cell.textContent = g.name;
    }
    const v = g.values && g.values.length ? g.values[g.default_value] : null;
    [g.members.length, g.format || '', v ? v.total : '', v ? v.unit : '',
     [g.error].concat(g.warnings).filter(x => x).join('\n')].forEach(x => {
      tr.insertCell().textContent = String(x);
    });
  });
  filter.before(h, t, document.createElement('h2'));
  filter.previousSibling.textContent = 'Profiles';
})();
</script>)";

constexpr std::string_view kManifestPageScript = R"(<script>
(function () {
  const p = JSON.parse(document.getElementById('fg-data').textContent);
  const facts = [];
  if (p.group) facts.push('group: ' + p.group);
  Object.entries(p.labels || {}).forEach(e => facts.push(e[0] + ': ' + e[1]));
  if (p.members) facts.push('members: ' + p.members.join(', '));
  const para = document.createElement('p');
  para.id = 'manifest';
  para.textContent = facts.join('; ');
  document.querySelector('#main h1').after(para);
})();
</script>)";

// With a recording of several kinds of event: the index's column of each
// profile's kinds (inserted before its values column), and on its page a
// section per more kind, each with the views of its value columns, its top
// functions and its comparison. Without one the pages keep their bytes.
constexpr std::string_view kKindsColumn =
    R"(['kinds', p => [p.kind].concat((p.kinds || []).map(k => k.kind)).filter(x => x).join(', ')],
    )";

constexpr std::string_view kKindsPageScript = R"(  const nav = document.createElement('p');
  nav.id = 'kinds';
  add('span', 'kinds of event: ' + p.kind + ' (above)', nav);
  p.kinds.forEach(k => {
    add('span', ', ', nav);
    link('#kind-' + k.kind, k.kind, nav);
  });
  main.querySelector('h1 ~ p:not(#manifest)').after(nav);
  p.kinds.forEach(k => {
    const h = add('h2', k.kind + ' (' + k.samples + ' samples)');
    h.id = 'kind-' + k.kind;
    const t = add('table');
    t.className = 'kind';
    k.values.forEach((v, i) => {
      const tr = t.insertRow();
      tr.insertCell().textContent = v.type + '/' + v.unit + (i === k.default_value ? ' (default)' : '');
      tr.insertCell().textContent = 'total ' + v.total;
      [['flame graph', 'flame-'], ['icicle', 'icicle-'], ['reversed', 'reversed-'], ['top table', 'top-'],
       ['call graph', 'callgraph-'], ['busiest threads', 'threads-']].forEach(c => {
        const f = k.files.find(f => f.startsWith(k.kind + '/' + c[1] + i + '.'));
        const cell = tr.insertCell();
        if (f) link(f, c[0], cell);
      });
    });
    if (k.top.length) {
      const ol = add('ol');
      k.top.forEach(f => add('li', f.name + ': ' + f.self, ol));
    }
    if (k.baseline) {
      const para = add('p', 'compared with the same kind of ' + k.baseline.path + ': ');
      if (k.baseline.error) para.className = 'error', add('span', k.baseline.error, para);
      else {
        add('span', 'total ' + k.baseline.base_total + ' -> ' + k.baseline.new_total + ' ' + k.baseline.unit + ' ', para);
        link(k.kind + '/diff.svg', 'differential flame graph', para);
        add('span', ' ', para);
        link(k.kind + '/delta.txt', 'delta table', para);
        const ul = add('ul');
        k.baseline.gate.forEach(g => {
          add('li', (g.tripped ? 'TRIPPED ' : 'held ') + g.condition + (g.tripped ? ': ' + g.why : ''), ul)
              .className = g.tripped ? 'regressed' : 'ok';
        });
      }
    }
    if (k.warnings.length) {
      const ul = add('ul');
      k.warnings.forEach(w => add('li', w, ul));
    }
  });
})();
</script>)";

std::string index_script(bool manifest, bool kinds) {
  std::string script(kIndexScript);
  if (kinds) script.insert(script.find("['values',"), kKindsColumn);
  if (!manifest) return script;
  script.insert(script.find("['format',"), kManifestColumns);
  return script + "\n" + std::string(kGroupsScript);
}

std::string html_page(std::string_view title, std::string_view body, const std::string& data,
                      std::string_view script) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>";
  out += title;
  out += "</title>\n";
  out += kStyle;
  out += "\n</head>\n<body>\n";
  out += body;
  out += "\n<script type=\"application/json\" id=\"fg-data\">";
  out += data;
  out += "</script>\n";
  out += script;
  out += "\n</body>\n</html>\n";
  return out;
}

std::string index_html(const BatchReportResult& r) {
  return html_page("fg-report",
                   "<h1>fg-report</h1>\n<p id=\"counts\"></p>\n"
                   "<input id=\"filter\" type=\"search\" placeholder=\"filter\">\n"
                   "<table><thead><tr></tr></thead><tbody></tbody></table>",
                   summary_json(r, JsonEscaping::kScript), index_script(has_manifest_facts(r), has_kinds(r)));
}

std::string page_html(const Json& j, bool manifest, bool kinds = false) {
  std::string script = std::string(kPageScriptStart) + std::string(kPageScript);
  if (manifest) script += "\n" + std::string(kManifestPageScript);
  if (kinds) script += "\n" + std::string(kPageScriptStart) + std::string(kKindsPageScript);
  return html_page("fg-report",
                   "<p><a href=\"../../index.html\">all profiles</a></p>\n<div id=\"main\"></div>", j.text(),
                   script);
}

std::string profile_html(const ProfileFacts& p) {
  Json j(JsonEscaping::kScript);
  profile(j, p);
  return page_html(j, !p.group.empty() || !p.labels.empty(), !p.kinds.empty());
}

std::string group_html(const GroupFacts& g) {
  Json j(JsonEscaping::kScript);
  group(j, g);
  return page_html(j, true, !g.merged.kinds.empty());
}

// The groups' table of summary.md: each group's merged total.
std::string groups_markdown(const BatchReportResult& r) {
  std::string out = "\n| group | profiles | total | problems |\n|---|---|---|---|\n";
  for (const GroupFacts& g : r.groups) {
    const ProfileFacts& m = g.merged;
    std::string total, problems = m.error;
    if (m.error.empty() && !m.columns.empty())
      total = m.columns[m.default_column].total + " " + m.columns[m.default_column].unit;
    for (const std::string& w : m.warnings) problems += (problems.empty() ? "" : "; ") + w;
    out += "| " + markdown_cell(m.name) + " | " + std::to_string(g.members.size()) + " | " +
           markdown_cell(total) + " | " + markdown_cell(problems) + " |\n";
  }
  return out;
}

// One row of the kinds' table of summary.md.
std::string kind_row(const std::string& name, const ProfileFacts& k) {
  std::string total, top;
  if (!k.columns.empty()) total = k.columns[k.default_column].total + " " + k.columns[k.default_column].unit;
  for (const TopFunction& t : k.top) top += (top.empty() ? "" : "; ") + t.name;
  return "| " + markdown_cell(name) + " | " + markdown_cell(k.kind) + " | " + status(k) + " | " +
         markdown_cell(total) + " | " + markdown_cell(top) + " |\n";
}

// The kinds' table of summary.md: each kind of event of the recordings
// that have several, with its gate's trips.
std::string kinds_markdown(const BatchReportResult& r) {
  std::string out = "\n| profile | kind | status | total | top by self |\n|---|---|---|---|---|\n";
  std::string problems;
  for (const ProfileFacts& p : r.profiles) {
    if (p.kinds.empty()) continue;
    ProfileFacts own = p;  // its first reading's status, without the others'
    own.kinds.clear();
    out += kind_row(p.name, own);
    for (const ProfileFacts& k : p.kinds) {
      out += kind_row(p.name, k);
      const std::string name = markdown_cell(p.name) + " (" + markdown_cell(k.kind) + ")";
      if (!k.comparison.error.empty())
        problems += "- " + name + ": " + markdown_cell(k.comparison.error) + "\n";
      for (const GateVerdict& v : k.comparison.gate)
        if (!v.tripped.empty()) problems += "- " + name + ": " + markdown_cell(v.tripped) + "\n";
    }
  }
  return problems.empty() ? out : out + "\n" + problems;
}

std::string summary_markdown(const BatchReportResult& r) {
  std::string out = "## fg-report: " + std::to_string(r.profiles.size()) + " profiles, " +
                    std::to_string(r.failed) + " failed, " + std::to_string(r.tripped) + " regressed\n\n";
  const bool groups = !r.groups.empty();
  out += groups ? "| profile | group | status | format | total | top by self |\n|---|---|---|---|---|---|\n"
                : "| profile | status | format | total | top by self |\n|---|---|---|---|---|\n";
  for (const ProfileFacts& p : r.profiles) {
    std::string total, top;
    if (p.error.empty() && !p.columns.empty()) {
      const ColumnFacts& c = p.columns[p.default_column];
      total = c.total + " " + c.unit;
    }
    for (const TopFunction& t : p.top) top += (top.empty() ? "" : "; ") + t.name;
    out += "| " + markdown_cell(p.name) + (groups ? " | " + markdown_cell(p.group) : "") + " | " + status(p) +
           " | " + markdown_cell(p.format) + " | " + markdown_cell(total) + " | " + markdown_cell(top) +
           " |\n";
  }
  std::string problems;
  for (const ProfileFacts& p : r.profiles) {
    for (const std::string& e : {p.error, p.comparison.error})
      if (!e.empty()) problems += "- " + markdown_cell(p.name) + ": " + markdown_cell(e) + "\n";
    for (const GateVerdict& v : p.comparison.gate)
      if (!v.tripped.empty())
        problems += "- " + markdown_cell(p.name) + ": " + markdown_cell(v.tripped) + "\n";
  }
  if (!problems.empty()) out += "\n" + problems;
  if (groups) out += groups_markdown(r);
  if (has_kinds(r)) out += kinds_markdown(r);
  return out;
}

void testcase(std::string& out, const std::string& suite, const std::string& name, const char* element,
              const std::string& message) {
  out +=
      "    <testcase classname=\"" + svg::xml_escaped(suite) + "\" name=\"" + svg::xml_escaped(name) + "\"";
  if (message.empty()) {
    out += "/>\n";
    return;
  }
  out += ">\n      <" + std::string(element) + " message=\"" + svg::xml_escaped(message) +
         "\"/>\n    </testcase>\n";
}

// The test cases of one comparison (`prefix`: "" or the kind of event's "KIND: ").
void comparison_cases(std::string& cases, const std::string& suite, const std::string& prefix,
                      const ProfileFacts& p, std::size_t& tests, std::size_t& failures, std::size_t& errors) {
  if (!p.compared) return;
  if (!p.comparison.error.empty()) {
    ++tests, ++errors;
    testcase(cases, suite, prefix + "compare with " + p.comparison.baseline, "error", p.comparison.error);
  }
  for (const GateVerdict& v : p.comparison.gate) {
    ++tests;
    failures += !v.tripped.empty();
    testcase(cases, suite, prefix + v.condition, "failure", v.tripped);
  }
}

std::string junit_xml(const BatchReportResult& r) {
  std::string cases;
  std::size_t tests = 0, failures = 0, errors = 0;
  for (const ProfileFacts& p : r.profiles) {
    const std::string suite = p.group.empty() ? p.name : p.group + "." + p.name;
    ++tests;
    errors += !p.error.empty();
    testcase(cases, suite, "read " + p.path, "error", p.error);
    if (!p.error.empty()) continue;
    comparison_cases(cases, suite, "", p, tests, failures, errors);
    for (const ProfileFacts& k : p.kinds)
      comparison_cases(cases, suite, k.kind + ": ", k, tests, failures, errors);
  }
  const std::string counts = " tests=\"" + std::to_string(tests) + "\" failures=\"" +
                             std::to_string(failures) + "\" errors=\"" + std::to_string(errors) + "\"";
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"fg-report\"" + counts +
         ">\n  <testsuite name=\"fg-report\"" + counts + ">\n" + cases + "  </testsuite>\n</testsuites>\n";
}

}  // namespace

void write_site_file(const std::string& file, const std::string& text) {
  Output out(file, false);
  out.stream() << text;
  out.commit();
}

void write_site(const BatchReportResult& result, const std::string& site) {
  const std::filesystem::path dir(site);
  for (const ProfileFacts& p : result.profiles)
    if (p.error.empty()) write_site_file((dir / p.page / "index.html").string(), profile_html(p));
  for (const GroupFacts& g : result.groups)
    if (g.merged.error.empty()) write_site_file((dir / g.merged.page / "index.html").string(), group_html(g));
  write_site_file((dir / "summary.json").string(), summary_json(result, JsonEscaping::kGo) + "\n");
  write_site_file((dir / "index.html").string(), index_html(result));
  write_site_file((dir / "summary.md").string(), summary_markdown(result));
  write_site_file((dir / "junit.xml").string(), junit_xml(result));
}

}  // namespace fg::formats
