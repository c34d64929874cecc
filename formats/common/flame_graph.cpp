#include "formats/common/flame_graph.h"

#include <cstdint>

#include "fg/error.h"
#include "fg/flame_layout.h"

namespace fg::formats {

std::string count_name(const ValueType& column, const FlameGraphOptions& options) {
  if (!options.count_name.empty()) return options.count_name;
  return column.unit == "count" ? "samples" : column.unit;
}

void require_something_to_draw(const CallTree& tree, std::size_t col) {
  require_non_negative(tree.profile(), col);
  const std::int64_t total = tree.total(kRootStack, col);
  if (total > 0) return;
  std::string where;
  for (const std::string& s : tree.profile().metadata().sources) where += s + ": ";
  throw Error(where + "nothing to draw: the total of value column '" +
              tree.profile().value_types()[col].type + "' is " +
              fixed_point_text(total, tree.profile().value_types()[col].decimals));
}

}  // namespace fg::formats
