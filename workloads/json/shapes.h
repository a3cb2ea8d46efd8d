// The payload shapes, read from shapes.json (compiled into the binary): data, not code, each
// with an `analysis` of why it is there.
#pragma once

#include <string>
#include <vector>

namespace stallbench {

struct ShapeField {
  std::string key;
  std::string role;                 // "id", "a", "b", "text" or empty
  std::vector<std::string> values;  // each already written as JSON
  std::vector<double> numbers;      // role a/b: the values as numbers
  std::vector<std::size_t> text_bytes;  // role text: decoded UTF-8 length of each value
};

// The keys every parser looks up, per record.
struct RecordTask {
  std::string id, a, b, text;
};

struct Shape {
  std::string name;
  std::string analysis;
  std::vector<ShapeField> fields;
  RecordTask task;
};

const std::vector<Shape>& shapes();
// Throws std::invalid_argument naming the known shapes.
const Shape& find_shape(const std::string& name);
std::vector<std::string> shape_names();

}  // namespace stallbench
