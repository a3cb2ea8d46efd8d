#include "payload.h"

#include <algorithm>

namespace stallbench {

Payload generate_payload(const Shape& shape, std::size_t count, Layout layout) {
  // Pre-rendered pieces: `"key":` and each value's JSON, so a record is a few appends.
  std::vector<std::string> keys;
  for (const auto& f : shape.fields) keys.push_back("\"" + f.key + "\":");
  // Reserved once (plus the padding JsonText adds): an 85 MB string grown by doubling would be
  // copied several times over.
  std::size_t longest_record = 2 + 20 + shape.fields.size();  // braces, the id's digits, commas
  for (std::size_t k = 0; k < shape.fields.size(); ++k) {
    std::size_t longest_value = 0;
    for (const auto& v : shape.fields[k].values) longest_value = std::max(longest_value, v.size());
    longest_record += keys[k].size() + longest_value;
  }
  std::string text;
  text.reserve(count * longest_record + kJsonPadding + 2);
  Payload payload;
  if (layout == Layout::array) text += '[';
  payload.walked.values = 1;
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0) text += layout == Layout::array ? "," : "\n";
    text += '{';
    double a = 0, b = 0;
    std::size_t text_bytes = 0;
    for (std::size_t k = 0; k < shape.fields.size(); ++k) {
      const ShapeField& f = shape.fields[k];
      if (k > 0) text += ',';
      text += keys[k];
      payload.walked.string_bytes += f.key.size();
      if (f.role == "id") {
        text += std::to_string(i);
        ++payload.walked.values;
        payload.walked.number_sum += static_cast<double>(i);
        continue;
      }
      std::size_t pick = i % f.values.size();
      text += f.values[pick];
      const WalkAnswer& value = f.walked[pick];
      payload.walked.values += value.values;
      payload.walked.string_bytes += value.string_bytes;
      payload.walked.number_sum += value.number_sum;
      if (f.role == "a") a = f.numbers[pick];
      if (f.role == "b") b = f.numbers[pick];
      if (f.role == "text") text_bytes = f.text_bytes[pick];
    }
    text += '}';
    ++payload.walked.values;
    payload.expected.add(i, a, b, text_bytes);
  }
  if (layout == Layout::array) text += ']';
  else if (count > 0) text += '\n';
  payload.json = JsonText(std::move(text));
  return payload;
}

}  // namespace stallbench
