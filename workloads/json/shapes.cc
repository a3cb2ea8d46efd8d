#include "shapes.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace stallbench {

extern const char kShapesJson[];  // shapes.json, embedded by CMake

namespace {

// What a walk finds in a field's value (a scalar or a small container).
WalkAnswer walk_of(const nlohmann::json& v) {
  WalkAnswer answer;
  answer.values = 1;
  if (v.is_string()) answer.string_bytes = v.get_ref<const std::string&>().size();
  if (v.is_number()) answer.number_sum = v.get<double>();
  if (v.is_object())
    for (const auto& [key, child] : v.items()) answer.string_bytes += key.size();
  if (v.is_structured()) {
    for (const auto& child : v) {
      WalkAnswer inner = walk_of(child);
      answer.values += inner.values;
      answer.string_bytes += inner.string_bytes;
      answer.number_sum += inner.number_sum;
    }
  }
  return answer;
}

ShapeField read_field(const nlohmann::json& f) {
  ShapeField field{f.at("key").get<std::string>(), f.value("role", ""), {}, {}, {}, {}};
  bool ascii = f.value("escape", "utf8") == "ascii";
  for (const auto& v : f.value("values", nlohmann::json::array())) {
    field.values.push_back(v.dump(-1, ' ', ascii));
    field.walked.push_back(walk_of(v));
    if (field.role == "a" || field.role == "b") field.numbers.push_back(v.get<double>());
    if (field.role == "text") field.text_bytes.push_back(v.get<std::string>().size());
  }
  return field;
}

Shape read_shape(const nlohmann::json& s) {
  Shape shape{s.at("name").get<std::string>(), s.at("analysis").get<std::string>(), {}, {},
              s.value("generator", ""), s.value("settings", nlohmann::json::object())};
  if (!shape.records()) return shape;
  for (const auto& f : s.at("fields")) {
    shape.fields.push_back(read_field(f));
    const ShapeField& field = shape.fields.back();
    if (field.role != "id" && field.values.empty()) throw std::logic_error(shape.name + "." + field.key + " has no values");
    if (field.role == "id") shape.task.id = field.key;
    if (field.role == "a") shape.task.a = field.key;
    if (field.role == "b") shape.task.b = field.key;
    if (field.role == "text") shape.task.text = field.key;
  }
  if (shape.task.id.empty() || shape.task.a.empty() || shape.task.b.empty() || shape.task.text.empty())
    throw std::logic_error("shape " + shape.name + " needs one field of each role: id, a, b, text");
  return shape;
}

}  // namespace

const std::vector<Shape>& shapes() {
  static const std::vector<Shape> all = [] {
    std::vector<Shape> loaded;
    const nlohmann::json doc = nlohmann::json::parse(kShapesJson);
    for (const auto& s : doc.at("shapes")) loaded.push_back(read_shape(s));
    return loaded;
  }();
  return all;
}

std::vector<std::string> shape_names() {
  std::vector<std::string> names;
  for (const auto& s : shapes()) names.push_back(s.name);
  return names;
}

std::vector<std::string> record_shape_names() {
  std::vector<std::string> names;
  for (const auto& s : shapes())
    if (s.records()) names.push_back(s.name);
  return names;
}

const Shape& find_shape(const std::string& name) {
  for (const auto& s : shapes())
    if (s.name == name) return s;
  std::string known;
  for (const auto& n : shape_names()) known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown shape '" + name + "' (known: " + known + ")");
}

}  // namespace stallbench
