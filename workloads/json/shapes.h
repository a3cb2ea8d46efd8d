// The payload shapes, read from shapes.json (compiled into the binary): data, not code, each
// with an `analysis` of why it is there. A record shape is an array of records built from its
// fields (payload.h), the one the record task and the parse modes run on; a document shape names
// a generator (documents.cc) and gives it its settings (string pools, depth).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "answer.h"

namespace stallbench {

struct ShapeField {
  std::string key;
  std::string role;                 // "id", "a", "b", "text" or empty
  std::vector<std::string> values;  // each already written as JSON
  std::vector<double> numbers;      // role a/b: the values as numbers
  std::vector<std::size_t> text_bytes;  // role text: decoded UTF-8 length of each value
  std::vector<WalkAnswer> walked;       // what a walk finds in each value
};

// The keys every parser looks up, per record.
struct RecordTask {
  std::string id, a, b, text;
};

struct Shape {
  std::string name;
  std::string analysis;
  std::vector<ShapeField> fields;  // a record shape's
  RecordTask task;
  std::string generator;           // a document shape's
  nlohmann::json settings;         // ... and what it is given

  bool records() const { return generator.empty(); }
};

const std::vector<Shape>& shapes();
// Throws std::invalid_argument naming the known shapes.
const Shape& find_shape(const std::string& name);
std::vector<std::string> shape_names();
std::vector<std::string> record_shape_names();  // those the record task and the modes run on

}  // namespace stallbench
