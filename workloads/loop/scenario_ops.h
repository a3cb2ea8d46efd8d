// Each op of the scenario format and the fields it takes (private to the scenario loader): the one
// table the loader checks a file against and op_name spells ops from.
#pragma once

#include <string>
#include <vector>

#include "scenario.h"

namespace stallbench::loop {

struct OpSpec {
  const char* name;  // as spelled in the file
  OpKind kind;
  std::vector<std::string> required;
  std::vector<std::string> optional;
};

const std::vector<OpSpec>& op_specs();

// The fields every op with a callback takes: its label and the ops run inside it.
const std::vector<std::string>& callback_fields();

}  // namespace stallbench::loop
