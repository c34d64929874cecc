// The DeepFlow ProfileTracing reader and the node/parent JSON writer.
#include "formats/deepflow/deepflow.h"

#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "fg/builder.h"
#include "fg/error.h"
#include "formats/common/json_escape.h"
#include "formats/deepflow/node_id.h"
#include "formats/gzip.h"
#include "test_util.h"

using namespace fg;

namespace {

struct Read {
  std::vector<std::string> warnings;
  formats::ReadOptions options;
  Profile operator()(const std::string& json, const std::string& name = "t.json") {
    Diagnostics d(
        false, [this](const std::string& m) { warnings.push_back(m); }, 100);
    auto in = formats::Input::from_bytes(name, json);
    return formats::deepflow::read(*in, options, d);
  }
};

Profile read_json(const std::string& json) { return Read()(json); }

// The message of the ParseError that reading `json` throws, "" if none.
std::string error_of(const std::string& json, formats::ReadOptions options = {}) {
  try {
    Read r;
    r.options = options;
    r(json);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "";
}

std::string node(std::string_view name, std::string_view id, std::string_view parent, long self, long total) {
  std::ostringstream o;
  o << "{\"profile_location_str\":\"" << name << "\",\"node_id\":\"" << id << "\",\"parent_node_id\":\""
    << parent << "\",\"self_value\":" << self << ",\"total_value\":" << total << "}";
  return o.str();
}

std::string envelope(const std::vector<std::string>& nodes) {
  std::string s = "{\"OPT_STATUS\":\"SUCCESS\",\"DESCRIPTION\":\"\",\"result\":[";
  for (std::size_t i = 0; i < nodes.size(); ++i) s += (i ? ",\n" : "\n") + nodes[i];
  return s + "\n],\"debug\":null}\n";
}

std::string to_json(const Profile& p, formats::WriteOptions o = {},
                    std::vector<std::string>* warnings = nullptr) {
  std::ostringstream out;
  Diagnostics d(false, [warnings](const std::string& m) {
    if (warnings) warnings->push_back(m);
  });
  formats::deepflow::write(p, o, out, d);
  return out.str();
}

std::string file(const std::string& name) {
  std::ifstream in(std::string(FG_TEST_DATA_DIR) + "/deepflow/" + name, std::ios::binary);
  REQUIRE(in);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A small process view: root, main, two children of main (one kernel), in
// an order where children come before their parents.
const std::vector<std::string> kShuffled = {
    node("[k] sys_read", "c", "a", 3, 3),
    node("app", "", "-1", 0, 10),
    node("[l] memcpy", "b", "a", 2, 2),
    node("main", "a", "", 5, 10),
};

}  // namespace

TEST_CASE("deepflow: nodes in any order, prefixes as kinds, values in microseconds") {
  Profile p = read_json(envelope(kShuffled));
  REQUIRE(p.value_count() == 1);
  CHECK(p.value_types()[0] == ValueType{"cpu", "microseconds"});
  CHECK(p.metadata().source_format == "json");
  CHECK(test::dump_samples(p) ==
        "samples: 3\n"
        "main | 5\n"
        "main;memcpy [library] | 2\n"
        "main;sys_read [kernel] | 3\n");
  CHECK(test::collapsed(p) == "main 5\nmain;memcpy 2\nmain;sys_read_[k] 3\n");
}

TEST_CASE("deepflow: a bare list of nodes reads like the envelope") {
  std::string list = "[" + kShuffled[0] + "," + kShuffled[1] + "," + kShuffled[2] + "," + kShuffled[3] + "]";
  CHECK(test::collapsed(read_json(list)) == test::collapsed(read_json(envelope(kShuffled))));
  std::string orphan = "[" + kShuffled[1] + "," + kShuffled[0] + "]";
  CHECK(error_of(orphan) ==
        "t.json:1:" + std::to_string(kShuffled[1].size() + 3) +
            ": [1]: 1 node(s) name a parent that is not in the list (orphaned): [1] "
            "\"[k] sys_read\" (parent_node_id \"a\"); --lenient keeps them under an [orphaned] frame");
}

TEST_CASE("deepflow: an empty result is an empty profile") {
  Profile p = read_json("{\"OPT_STATUS\":\"SUCCESS\",\"DESCRIPTION\":\"\",\"result\":[],\"debug\":null}");
  CHECK(p.sample_count() == 0);
}

TEST_CASE("deepflow: OPT_STATUS other than SUCCESS is an error quoting DESCRIPTION") {
  CHECK(
      error_of("{\"OPT_STATUS\":\"SERVER_ERROR\",\"DESCRIPTION\":\"clickhouse: timeout\",\"result\":null}") ==
      "t.json:1:15: DeepFlow answered OPT_STATUS \"SERVER_ERROR\": clickhouse: timeout");
  CHECK(error_of("{\"OPT_STATUS\":\"FAIL\",\"result\":[1]}") ==
        "t.json:1:15: DeepFlow answered OPT_STATUS \"FAIL\": (no DESCRIPTION)");
  CHECK(error_of("{\"OPT_STATUS\":\"SUCCESS\",\"DESCRIPTION\":\"\"}") ==
        "t.json:1:1: the response has no \"result\" list of nodes");
  CHECK(error_of("{\"OPT_STATUS\":\"SUCCESS\",\"functions\":[],\"node_values\":[]}")
            .find("columnar response of DeepFlow 6.6") != std::string::npos);
}

TEST_CASE("deepflow: orphans name their index, or hang under [orphaned] with --lenient") {
  std::vector<std::string> nodes = {node("app", "", "-1", 0, 4), node("x", "b", "missing", 4, 4)};
  CHECK(error_of(envelope(nodes)) ==
        "t.json:3:1: result[1]: 1 node(s) name a parent that is not in the list (orphaned): result[1] \"x\" "
        "(parent_node_id \"missing\"); --lenient keeps them under an [orphaned] frame");
  Read r;
  r.options.deepflow.lenient = true;
  Profile p = r(envelope(nodes));
  CHECK(test::collapsed(p) == "[orphaned];x 4\n");
  REQUIRE(r.warnings.size() == 2);
  CHECK(r.warnings[0] ==
        "t.json:3:1: result[1] \"x\": parent_node_id \"missing\" is not in the list; kept under [orphaned]");
  CHECK(r.warnings[1] ==
        "t.json:2:1: result[0] \"app\": total_value 4 is not self_value 0 + the children's total_value 0");
}

TEST_CASE("deepflow: the documentation's incomplete examples name their orphans") {
  std::string e = error_of(file("seed-doc-process-example.json"), {});
  CHECK(e.find("3 node(s) name a parent that is not in the list (orphaned): result[1] \"[k] "
               "__netif_receive_skb_one_core\" (parent_node_id \"67a24424-3397-588e-823e-ce65a4c7eeff\")") !=
        std::string::npos);
  CHECK(e.rfind("t.json:12:5: result[1]: ", 0) == 0);
  Read r;
  r.options.deepflow.lenient = true;
  Profile p = r(file("seed-doc-host-total-example.json"));
  CHECK(test::collapsed(p) == "[orphaned];[t] stats-collector 33\n[p] process-exporte 2512\n");
}

TEST_CASE("deepflow: duplicate ids, cycles and roots are errors naming the node") {
  CHECK(
      error_of(envelope({node("app", "", "-1", 0, 1), node("a", "x", "", 1, 1), node("b", "x", "", 0, 0)})) ==
      "t.json:4:1: result[2]: duplicate node_id \"x\" (also result[1] \"a\")");
  CHECK(error_of(
            envelope({node("app", "", "-1", 0, 0), node("a", "x", "y", 0, 0), node("b", "y", "x", 0, 0)})) ==
        "t.json:3:1: result[1]: parent_node_id links form a cycle: result[1] -> result[2] -> result[1]");
  CHECK(error_of(envelope({node("app", "", "-1", 0, 0), node("a", "x", "x", 0, 0)})) ==
        "t.json:3:1: result[1]: the node is its own parent (parent_node_id \"x\")");
  CHECK(error_of(envelope({node("a", "x", "", 0, 0)})) ==
        "t.json:1:51: no root node: no node has parent_node_id \"-1\"");
  CHECK(error_of(envelope({node("app", "", "-1", 0, 0), node("again", "r", "-1", 0, 0)})) ==
        "t.json:3:1: result[1]: a second root node (parent_node_id \"-1\"); the first is result[0] \"app\"");
}

TEST_CASE("deepflow: values and fields of the wrong type are errors with the node's index") {
  auto with = [](std::string_view self) {
    return "[{\"profile_location_str\":\"app\",\"node_id\":\"\",\"parent_node_id\":\"-1\",\"self_value\":" +
           std::string(self) + ",\"total_value\":0}]";
  };
  CHECK(error_of(with("\"12\"")) == "t.json:1:80: [0].self_value: expected an integer, got \"12\"");
  CHECK(error_of(with("1.5")) ==
        "t.json:1:80: [0].self_value: expected an integer of at most 64 bits, got 1.5");
  CHECK(error_of(with("-3")) == "t.json:1:80: [0].self_value: negative value -3");
  CHECK(error_of(with("null")) == "t.json:1:80: [0].self_value: expected an integer, got null");
  CHECK(error_of(with("99999999999999999999")) ==
        "t.json:1:80: [0].self_value: expected an integer of at most 64 bits, got 99999999999999999999");
  CHECK(error_of("[{\"profile_location_str\":7,\"node_id\":\"\"}]") ==
        "t.json:1:26: [0].profile_location_str: expected a string, got 7");
  CHECK(
      error_of(
          "[{\"profile_location_str\":\"a\",\"node_id\":\"\",\"parent_node_id\":\"-1\",\"self_value\":0}]") ==
      "t.json:1:2: [0]: the node has no \"total_value\"");
  CHECK(error_of("[[1]]") == "t.json:1:2: [0]: expected a node object, got a list");
  CHECK(error_of("{\"result\":{}}") == "t.json:1:11: result: expected a list of nodes, got an object");
  CHECK(error_of("\"x\"") == "t.json:1:1: expected DeepFlow's response object or a list of nodes");
}

TEST_CASE("deepflow: malformed JSON is an error with a position") {
  CHECK(error_of("[{\"profile_location_str\":\"a\",}]").rfind("t.json:1:", 0) == 0);
  CHECK(error_of("[{\"profile_location_str\":\"a\",}]").find("malformed JSON") != std::string::npos);
  CHECK(error_of("{\"result\":[\n{\"profile_location_str\":\"\xff\"}]}")
            .rfind("t.json:2:26: malformed JSON: The input is not valid UTF-8", 0) == 0);
  CHECK(error_of("[{\"profile_location_str\":\"a").find("malformed JSON") != std::string::npos);
}

TEST_CASE("deepflow: a total that is not self plus the children's totals is a warning naming the node") {
  Read r;
  Profile p =
      r(envelope({node("app", "", "-1", 0, 9), node("main", "a", "", 5, 7), node("f", "b", "a", 1, 1)}));
  REQUIRE(r.warnings.size() == 2);
  CHECK(r.warnings[0] ==
        "t.json:2:1: result[0] \"app\": total_value 9 is not self_value 0 + the children's total_value 7");
  CHECK(r.warnings[1] ==
        "t.json:3:1: result[1] \"main\": total_value 7 is not self_value 5 + the children's total_value 1");
  CHECK(test::collapsed(p) == "main 5\nmain;f 1\n");
}

TEST_CASE("deepflow: --strict makes a total mismatch an error, gzip is read like plain JSON") {
  std::string doc = envelope({node("app", "", "-1", 0, 9), node("main", "a", "", 5, 5)});
  Diagnostics strict(true);
  auto in = formats::Input::from_bytes("t.json", doc);
  CHECK_THROWS_WITH_AS(
      formats::deepflow::read(*in, {}, strict),
      "t.json:2:1: result[0] \"app\": total_value 9 is not self_value 0 + the children's total_value 5",
      ParseError);
  Read r;
  CHECK(test::collapsed(r(formats::gzip_compress(doc))) == "main 5\n");
}

TEST_CASE("deepflow: --thread-as frame, label or fold") {
  std::vector<std::string> nodes = {
      node("Total", "", "-1", 0, 10),    node("[p] db", "p", "", 1, 10), node("[t] io-1", "t1", "p", 2, 5),
      node("[t] io-2", "t2", "p", 0, 4), node("read", "r1", "t1", 3, 3), node("read", "r2", "t2", 4, 4),
  };
  Read frame;
  CHECK(test::collapsed(frame(envelope(nodes))) ==
        "[p] db 1\n[p] db;[t] io-1 2\n[p] db;[t] io-1;read 3\n[p] db;[t] io-2;read 4\n");
  Read label;
  label.options.deepflow.thread_as = ThreadMode::kLabel;
  Profile p = label(envelope(nodes));
  CHECK(test::dump_samples(p) ==
        "samples: 4\n"
        "[p] db | 1\n"
        "[p] db | 2 | thread=\"io-1\"\n"
        "[p] db;read | 3 | thread=\"io-1\"\n"
        "[p] db;read | 4 | thread=\"io-2\"\n");
  Read fold;
  fold.options.deepflow.thread_as = ThreadMode::kFold;
  CHECK(test::collapsed(fold(envelope(nodes))) == "[p] db 3\n[p] db;read 7\n");
}

TEST_CASE("deepflow: unresolved names are kept as written and marked") {
  Profile p = read_json(
      envelope({node("app", "", "-1", 0, 4), node("[/tmp/perf-29887.map]", "a", "", 1, 1),
                node("[unknown] 0x00007f", "b", "", 1, 1), node("[unknown start_thread?]", "c", "", 1, 1),
                node("[k] [unknown]", "d", "", 1, 1)}));
  CHECK(test::collapsed(p) ==
        "[/tmp/perf-29887.map] 1\n[unknown start_thread?] 1\n[unknown] 0x00007f 1\n[unknown]_[k] 1\n");
  bool marked = false;
  for (const auto& [k, v] : p.metadata().properties)
    if (k == "unresolved frames") marked = v == "4";
  CHECK(marked);
  bool module = false;
  for (const FrameId f : id_range<FrameId>(p.frame_count()))
    if (p.frame_name(f) == "[/tmp/perf-29887.map]")
      module = p.str(p.frame(f).module) == "/tmp/perf-29887.map";
  CHECK(module);
}

TEST_CASE("deepflow: --deepflow-event names the value column") {
  Read r;
  r.options.deepflow.event = "off-cpu";
  CHECK(r(envelope(kShuffled)).value_types()[0] == ValueType{"off_cpu", "microseconds"});
  r.options.deepflow.event = "mem-alloc";
  CHECK(r(envelope(kShuffled)).value_types()[0] == ValueType{"alloc_space", "bytes"});
  r.options.deepflow.event = "wait/nanoseconds";
  CHECK(r(envelope(kShuffled)).value_types()[0] == ValueType{"wait", "nanoseconds"});
  r.options.deepflow.event = "bogus";
  CHECK_THROWS_AS(r(envelope(kShuffled)), UsageError);
}

TEST_CASE("deepflow: sniffing") {
  using formats::Sniff;
  CHECK(formats::deepflow::sniff("{\"OPT_STATUS\":\"SUCCESS\"", "x") == Sniff::kYes);
  CHECK(formats::deepflow::sniff(" [\n {\"profile_location_str\": \"a\"", "x") == Sniff::kYes);
  CHECK(formats::deepflow::sniff("{\"other\": 1}", "x") == Sniff::kMaybe);
  CHECK(formats::deepflow::sniff("main;a 1\n", "x") == Sniff::kNo);
  CHECK(formats::deepflow::sniff("[unknown];main 3\n", "x") == Sniff::kNo);
  CHECK(formats::deepflow::sniff("{main} 3\n", "x") == Sniff::kNo);
  CHECK(formats::deepflow::sniff("[]", "x") == Sniff::kMaybe);
}

TEST_CASE("deepflow: node ids are DeepFlow's (UUIDv5 in the OID namespace of the path)") {
  using formats::deepflow::node_id_of_path;
  // The ids printed in DeepFlow's documentation.
  CHECK(node_id_of_path("[p] process-exporte") == "9d3c5fd3-4cd2-5d04-be22-e0f27144f638");
  CHECK(node_id_of_path("[p] deepflow-agent") == "1762633e-a955-5c80-a5be-22529903b0bf");
  CHECK(node_id_of_path("[p] deepflow-agent;[t] stats-collector") == "99e8ce53-e3bf-5b33-a63d-aa47e00e2ff4");
  // Paths past one SHA-1 block hash the same in pieces as in one go.
  std::string long_path(200, 'x');
  formats::deepflow::Sha1 h = formats::deepflow::node_id_hasher();
  h.update(long_path.substr(0, 70));
  h.update(long_path.substr(70));
  CHECK(formats::deepflow::node_id(h) == node_id_of_path(long_path));
  // Python's uuid.uuid5(uuid.NAMESPACE_OID, path), an implementation of its own.
  CHECK(node_id_of_path("main;a") == "a04099a4-8e20-5bfa-aebe-5e8fc4f9f4f4");
  CHECK(node_id_of_path(long_path) == "a4820d40-cb19-5c7e-8ef3-e16d7d1d063a");
  CHECK(node_id_of_path("") == "0a68eb57-c88a-5f34-9e9d-27f85e68af4f");
}

TEST_CASE("deepflow: SHA-1 gives FIPS 180's test vectors, and a copy continues") {
  auto hex = [](const formats::deepflow::Sha1& h) {
    std::string out;
    for (std::uint8_t b : h.digest()) out += "0123456789abcdef"[b >> 4], out += "0123456789abcdef"[b & 15];
    return out;
  };
  formats::deepflow::Sha1 abc;
  abc.update("abc");
  CHECK(hex(abc) == "a9993e364706816aba3e25717850c26c9cd0d89d");
  CHECK(hex(abc) == "a9993e364706816aba3e25717850c26c9cd0d89d");  // digest() leaves the state as it was
  formats::deepflow::Sha1 two_blocks = abc;
  two_blocks.update("dbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq");
  CHECK(hex(two_blocks) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
  CHECK(hex(abc) == "a9993e364706816aba3e25717850c26c9cd0d89d");  // the copy's update left abc alone
}

TEST_CASE("deepflow: one escaping function, Go's encoding/json rules") {
  std::uint64_t replaced = 0;
  std::string out;
  formats::append_json_string(out, "a\"b\\c\n\t\x01<tag>&\xe2\x80\xa8 \xc3\xa9 \xef\xbf\xbd",
                              formats::JsonEscaping::kGo, replaced);
  CHECK(out == "\"a\\\"b\\\\c\\n\\t\\u0001\\u003ctag\\u003e\\u0026\\u2028 \xc3\xa9 \xef\xbf\xbd\"");
  CHECK(replaced == 0);
  out.clear();
  formats::append_json_string(out, "bad\xff\xc3", formats::JsonEscaping::kGo, replaced);
  CHECK(out == "\"bad\xef\xbf\xbd\xef\xbf\xbd\"");
  CHECK(replaced == 2);
  out.clear();
  formats::append_json_string(out, "\xc3\xa9\xff<a>\xe2\x80\xa9z\x80", formats::JsonEscaping::kGo, replaced);
  CHECK(out == "\"\xc3\xa9\xef\xbf\xbd\\u003ca\\u003e\\u2029z\xef\xbf\xbd\"");
  CHECK(replaced == 4);
}

TEST_CASE("deepflow writer: the node list, ids, prefixes and the envelope") {
  // The root is named after the input file ("t.folded"), else "Total".
  Profile p = test::folded("main;read_[k] 3\nmain;memcpy 2\nmain 5\n");
  CHECK(to_json(p) ==
        "[{\"profile_location_str\":\"t\",\"node_id\":\"\",\"parent_node_id\":\"-1\",\"self_value\":0,"
        "\"total_value\":10},"
        "{\"profile_location_str\":\"main\",\"node_id\":\"" +
            formats::deepflow::node_id_of_path("main") +
            "\",\"parent_node_id\":\"\",\"self_value\":5,\"total_value\":10},"
            "{\"profile_location_str\":\"[k] read\",\"node_id\":\"" +
            formats::deepflow::node_id_of_path("main;[k] read") + "\",\"parent_node_id\":\"" +
            formats::deepflow::node_id_of_path("main") +
            "\",\"self_value\":3,\"total_value\":3},"
            "{\"profile_location_str\":\"memcpy\",\"node_id\":\"" +
            formats::deepflow::node_id_of_path("main;memcpy") + "\",\"parent_node_id\":\"" +
            formats::deepflow::node_id_of_path("main") + "\",\"self_value\":2,\"total_value\":2}]\n");
  formats::WriteOptions o;
  o.json.envelope = true;
  o.json.root_name = "my<app>";
  std::string j = to_json(p, o);
  CHECK(j.rfind("{\"OPT_STATUS\":\"SUCCESS\",\"DESCRIPTION\":\"\",\"result\":[{\"profile_location_str\":"
                "\"my\\u003capp\\u003e\",",
                0) == 0);
  CHECK(j.find("],\"debug\":null,\"fg_schema_version\":1,\"fg_value_type\":\"samples/count\"}\n") !=
        std::string::npos);
  // fg's own envelope brings its value type back.
  CHECK(read_json(j).value_types()[0] == ValueType{"samples", "count"});
  // A value type that is not TYPE/UNIT is bad data, not a usage error.
  std::string bad = j;
  bad.replace(bad.find("samples/count"), 13, "samplescount");
  CHECK(error_of(bad).find("fg_value_type: expected TYPE/UNIT, got \"samplescount\"") != std::string::npos);
  // A newer schema is read with a warning.
  std::string newer = j;
  newer.replace(newer.find("\"fg_schema_version\":1"), 21, "\"fg_schema_version\":2");
  Read r;
  r(newer);
  REQUIRE(r.warnings.size() == 1);
  CHECK(r.warnings[0].find("written by a newer fg (fg_schema_version 2); read as version 1") !=
        std::string::npos);
}

TEST_CASE("deepflow writer: invalid UTF-8 is replaced and counted in one warning") {
  Profile p = test::folded("ma\xffin;x\xfe 1\n");
  std::vector<std::string> w;
  std::string j = to_json(p, {}, &w);
  CHECK(j.find("\"ma\xef\xbf\xbdin\",\"node_id\":\"" +
               formats::deepflow::node_id_of_path("ma\xef\xbf\xbdin")) != std::string::npos);
  CHECK(j.find("\"x\xef\xbf\xbd\",\"node_id\":\"" +
               formats::deepflow::node_id_of_path("ma\xef\xbf\xbdin;x\xef\xbf\xbd")) != std::string::npos);
  REQUIRE(w.size() == 1);
  CHECK(w[0] == "2 invalid UTF-8 sequence(s) in names written as U+FFFD");
}

TEST_CASE("deepflow writer: siblings with the same written name are one node") {
  // Native and C++ frames of one name are both written "f" (neither kind
  // has a mark of its own).
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
  const std::int64_t one = 1, two = 2, none = 0;
  StackId main = b.stack(kRootStack, b.frame("main"));
  b.add_sample(b.stack(main, b.frame("f", FrameKind::kNative)), std::span(&one, 1));
  b.add_sample(b.stack(main, b.frame("f", FrameKind::kCpp)), std::span(&two, 1));
  b.add_sample(b.stack(main, b.frame("g")), std::span(&none, 1));
  std::string j = to_json(std::move(b).finish());
  CHECK(j.find("\"profile_location_str\":\"f\",\"node_id\":\"" +
               formats::deepflow::node_id_of_path("main;f") + "\",\"parent_node_id\":\"" +
               formats::deepflow::node_id_of_path("main") + "\",\"self_value\":3,\"total_value\":3}") !=
        std::string::npos);
  CHECK(j.find("\"g\"") == std::string::npos);  // nothing in the column: left out
}

TEST_CASE("deepflow round trips: json -> fg -> json and collapsed -> json -> collapsed") {
  for (const char* name : {"total_host.json", "process_cpuwork_golang.json"}) {
    std::string in = file(name);
    formats::WriteOptions o;
    o.json.envelope = true;
    std::string out = to_json(read_json(in), o);
    // The same bytes up to the envelope's own keys: same tree, values, ids and order.
    std::size_t end = in.find(",\"debug\"");
    REQUIRE(end != std::string::npos);
    CHECK(out.substr(0, end) == in.substr(0, end));
  }
  std::string folded =
      "a;b;c 1\na;b 2\na;d_[k] 3\nx y;z\"q 4\n<script> 5\n\xc3\xa9t\xc3\xa9 6\nj;Foo.bar_[j];Foo.baz_[i] "
      "7\nw;x_[w] 8\n";
  std::string once = test::collapsed(test::folded(folded));
  CHECK(test::collapsed(read_json(to_json(test::folded(folded)))) == once);
}

TEST_CASE("deepflow: the synthetic responses read as the folded files they were made from") {
  struct Case {
    const char* json;
    const char* folded;
    std::int64_t scale;  // deepflow_from_folded.py --value-scale
  };
  for (Case c : {Case{"total_host.json", "total_host.folded", 1},
                 Case{"process_cpuwork_golang.json", "process_cpuwork_golang.folded", 10000}}) {
    CAPTURE(c.json);
    Read r;
    Profile from_json = r(file(c.json));
    CHECK(r.warnings.empty());
    Profile from_folded = test::folded(file(c.folded));
    std::istringstream want(test::collapsed(from_folded)), got(test::collapsed(from_json));
    std::string w, g;
    std::size_t lines = 0;
    while (std::getline(want, w)) {
      REQUIRE(std::getline(got, g));
      std::size_t ws = w.rfind(' '), gs = g.rfind(' ');
      CHECK(g.substr(0, gs) == w.substr(0, ws));
      CHECK(std::stoll(g.substr(gs + 1)) == std::stoll(w.substr(ws + 1)) * c.scale);
      ++lines;
    }
    CHECK(!std::getline(got, g));
    CHECK(lines > 10);
  }
  // The same response in random order, the root too, reads the same.
  CHECK(test::collapsed(read_json(file("process_cpuwork_golang.shuffled.json"))) ==
        test::collapsed(read_json(file("process_cpuwork_golang.json"))));
  // With a scale of 1 the collapsed text is the folded file itself, sorted.
  CHECK(test::collapsed(read_json(file("total_host.json"))) ==
        test::collapsed(test::folded(file("total_host.folded"))));
}
