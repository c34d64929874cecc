#include "formats/common/graphviz_session.h"

#include <graphviz/cgraph.h>

namespace fg::formats {

namespace {

std::mutex graphviz_mutex;
std::string graphviz_errors;  // guarded by graphviz_mutex

int collect_error(char* message) {
  graphviz_errors += message;
  return 0;
}

}  // namespace

GraphvizSession::GraphvizSession() : lock_(graphviz_mutex) {
  graphviz_errors.clear();
  agseterr(AGERR);
  agseterrf(collect_error);
  agreseterrors();
}

// cgraph's lexer keeps what it read past the end of a graph (a trailing
// newline, or a second graph) and its line count for the next parse; read
// until nothing is left, so that each parse starts clean.
GraphvizSession::~GraphvizSession() {
  for (int i = 0; i < 16; ++i) {
    Agraph_t* rest = agmemread("");
    if (!rest) break;
    agclose(rest);
  }
  agsetfile(nullptr);
  agseterrf(nullptr);
}

std::string GraphvizSession::errors() const {
  std::string s = graphviz_errors;
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace fg::formats
