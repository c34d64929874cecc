// Parity with flamegraph.pl: runs the real fg-convert on a folded input with
// the options a reference SVG was drawn with, then compares every frame of
// both SVGs (tooltip title, x, width, y, fill), parsed with pugixml.
//
// usage: flamegraph_parity FG_CONVERT CASE_DIR CASE_NAME
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <map>
#include <pugixml.hpp>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

extern char** environ;

namespace {

struct Case {
  std::string name, reference;
  std::vector<std::string> inputs;  // one, or BASE NEW for fg-diff
  std::vector<std::string> options;
  std::set<std::string> allowed_extra;
};

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep))
    if (!cur.empty()) out.push_back(cur);
  return out;
}

Case find_case(const std::string& dir, const std::string& file, const std::string& name) {
  std::ifstream in(dir + "/" + file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cols;
    std::string col;
    std::istringstream ls(line);
    while (std::getline(ls, col, '\t')) cols.push_back(col);
    cols.resize(5);
    if (cols[0] != name) continue;
    Case c{cols[0], dir + "/" + cols[2], {}, split(cols[3], '|'), {}};
    for (const std::string& input : split(cols[1], ' ')) c.inputs.push_back(dir + "/" + input);
    for (const std::string& e : split(cols[4], '|')) c.allowed_extra.insert(e);
    return c;
  }
  throw std::runtime_error("no case " + name + " in " + dir + "/" + file);
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

// flamegraph.pl writes --title and --subtitle unescaped; escape their text
// so the reference parses.
std::string repair_reference(std::string svg) {
  for (const std::string id : {"title", "subtitle"}) {
    std::string open = "<text id=\"" + id + "\"";
    std::size_t at = svg.find(open);
    if (at == std::string::npos) continue;
    std::size_t start = svg.find('>', at) + 1;
    std::size_t end = svg.find("</text>\n", start);
    svg.replace(start, end - start, escape(svg.substr(start, end - start)));
  }
  return svg;
}

using Frame = std::tuple<std::string, std::string, std::string, std::string, std::string>;

std::multiset<Frame> frames(const pugi::xml_document& doc) {
  std::multiset<Frame> out;
  for (auto n : doc.select_nodes("//g[@id='frames']/g")) {
    pugi::xml_node g = n.node();
    pugi::xml_node r = g.child("rect");
    out.insert({g.child("title").text().get(), r.attribute("x").value(), r.attribute("y").value(),
                r.attribute("width").value(), r.attribute("fill").value()});
  }
  return out;
}

std::string show(const Frame& f) {
  return std::get<0>(f) + " x=" + std::get<1>(f) + " y=" + std::get<2>(f) + " w=" + std::get<3>(f) +
         " fill=" + std::get<4>(f);
}

int run(const std::string& fg, const Case& c, const std::string& out) {
  std::vector<std::string> args{fg};
  args.insert(args.end(), c.options.begin(), c.options.end());
  args.insert(args.end(), c.inputs.begin(), c.inputs.end());
  args.push_back("-o");
  args.push_back(out);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid;
  if (posix_spawn(&pid, fg.c_str(), nullptr, nullptr, argv.data(), environ) != 0) return -1;
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 && argc != 5) {
    std::cerr << "usage: flamegraph_parity FG_TOOL CASE_DIR CASE_NAME [CASES_FILE]\n";
    return 2;
  }
  try {
    Case c = find_case(argv[2], argc == 5 ? argv[4] : "cases.tsv", argv[3]);
    std::string out = "parity-" + c.name + ".svg";
    int rc = run(argv[1], c, out);
    if (rc != 0) {
      std::cerr << "FAIL: " << argv[1] << " exited " << rc << "\n";
      return 1;
    }
    pugi::xml_document mine, ref;
    std::string mine_text = read_file(out);
    std::string ref_text = repair_reference(read_file(c.reference));
    if (!mine.load_string(mine_text.c_str())) {
      std::cerr << "FAIL: fg's SVG is not well-formed XML\n";
      return 1;
    }
    if (!ref.load_string(ref_text.c_str())) {
      std::cerr << "FAIL: cannot parse the reference " << c.reference << "\n";
      return 1;
    }
    std::multiset<Frame> a = frames(mine), b = frames(ref);
    int failures = 0;
    std::size_t compared = 0;
    for (const Frame& f : b) {
      auto it = a.find(f);
      if (it == a.end()) {
        if (++failures <= 10) std::cerr << "missing in fg:  " << show(f) << "\n";
      } else {
        a.erase(it);
        ++compared;
      }
    }
    for (const Frame& f : a) {
      std::string key = std::get<0>(f) + "@" + std::get<1>(f) + "@" + std::get<2>(f);
      if (c.allowed_extra.count(key)) {
        std::cerr << "allowed (flamegraph.pl loses it): " << show(f) << "\n";
        continue;
      }
      if (++failures <= 20) std::cerr << "only in fg:     " << show(f) << "\n";
    }
    // The title must read back as the option's text, whatever it holds.
    for (const std::string& o : c.options) {
      for (const std::string id : {"title", "subtitle"}) {
        std::string flag = "--" + id + "=";
        if (o.rfind(flag, 0) != 0) continue;
        std::string want = o.substr(flag.size());
        std::string got = mine.select_node(("//text[@id='" + id + "']").c_str()).node().text().get();
        if (got != want) {
          ++failures;
          std::cerr << id << " reads back as '" << got << "', not '" << want << "'\n";
        }
      }
    }
    if (std::string(mine.child("svg").attribute("height").value()) !=
        ref.child("svg").attribute("height").value()) {
      ++failures;
      std::cerr << "image height differs\n";
    }
    std::remove(out.c_str());
    if (compared == 0) {
      std::cerr << "FAIL: no frames compared\n";
      return 1;
    }
    std::cout << c.name << ": " << compared << " frames equal, " << failures << " differences\n";
    return failures == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "FAIL: " << e.what() << "\n";
    return 1;
  }
}
