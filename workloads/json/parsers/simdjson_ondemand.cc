// simdjson On-Demand: stage 1 indexes the whole document, then values are parsed only as the
// code asks for them, in document order. The record task asks for id, a, b and the text of every
// record, so every record is visited and its text unescaped. Because the iterator is plain state,
// it can be kept across loop turns: the steppers process K records per turn (the whole stage 1
// still runs in the first turn) and NDJSON goes through iterate_many, which indexes one batch at
// a time. Capacity is passed to the constructor (set_max_capacity is broken in 3.0.1).
#include <limits>

#include "simdjson_common.h"

namespace stallbench {

namespace {

namespace od = simdjson::ondemand;
constexpr const char* kName = "simdjson-ondemand";
// iterate_many's batch: stage 1 runs over this many bytes at a time (simdjson's default).
constexpr std::size_t kBatchBytes = 1'000'000;

// Where the iterator stood when a value failed: On-Demand knows, unlike the DOM.
ParseError located_error(simdjson::error_code error, od::document& doc, const JsonText& json) {
  const char* at = nullptr;
  if (doc.current_location().get(at) == simdjson::SUCCESS && at >= json.data() && at <= json.data() + json.size())
    return ParseError(kName, simdjson::error_message(error), static_cast<std::size_t>(at - json.data()));
  return simdjson_parse_error(kName, error, json.size());
}

// On-Demand stops where the code stops asking; the whole input was consumed only if the
// iterator stands at its end (3.0.1 has no document::at_end, but says so through this error).
bool at_end(od::document& doc) {
  const char* at = nullptr;
  return doc.current_location().get(at) == simdjson::OUT_OF_BOUNDS;
}

void add_record(od::value record, const RecordTask& task, RecordAnswer& answer, simdjson::error_code& error) {
  od::object fields;
  std::uint64_t id = 0;
  double a = 0, b = 0;
  std::string_view text;
  if ((error = record.get_object().get(fields))) return;
  if ((error = fields[task.id].get_uint64().get(id))) return;
  if ((error = fields[task.a].get_double().get(a))) return;
  if ((error = fields[task.b].get_double().get(b))) return;
  if ((error = fields[task.text].get_string().get(text))) return;
  answer.add(id, a, b, text.size());
}

class ArrayStepper final : public RecordStepper {
 public:
  ArrayStepper(od::parser& parser, const JsonText& json, const RecordTask& task) : json_(json), task_(task) {
    simdjson::error_code error = parser.iterate(json.data(), json.size(), json.capacity()).get(doc_);
    if (error) throw simdjson_parse_error(kName, error, json.size());
    if ((error = doc_.get_array().get(array_)) || (error = array_.begin().get(next_)) || (error = array_.end().get(end_)))
      throw located_error(error, doc_, json_);
  }
  ArrayStepper(const ArrayStepper&) = delete;  // the array points into doc_

  bool step(std::size_t records) override {
    for (std::size_t i = 0; i < records && next_ != end_; ++i, ++next_) {
      od::value record;
      simdjson::error_code error = (*next_).get(record);
      if (!error) add_record(record, task_, answer_, error);
      if (error) throw located_error(error, doc_, json_);
    }
    if (next_ != end_) return false;
    if (!at_end(doc_)) throw located_error(simdjson::TRAILING_CONTENT, doc_, json_);
    return true;
  }
  const RecordAnswer& answer() const override { return answer_; }

 private:
  const JsonText& json_;
  RecordTask task_;
  od::document doc_;
  od::array array_;
  od::array_iterator next_, end_;
  RecordAnswer answer_;
};

class NdjsonStepper final : public RecordStepper {
 public:
  NdjsonStepper(od::parser& parser, const JsonText& json, const RecordTask& task) : json_(json), task_(task) {
    simdjson::error_code error = parser.iterate_many(json.data(), json.size(), kBatchBytes).get(stream_);
    if (error) throw simdjson_parse_error(kName, error, json.size());
    next_ = stream_.begin();
  }
  NdjsonStepper(const NdjsonStepper&) = delete;  // the iterator points into stream_

  bool step(std::size_t records) override {
    for (std::size_t i = 0; i < records && next_ != stream_.end(); ++i, ++next_) {
      od::document_reference doc;
      od::value record;
      simdjson::error_code error = (*next_).get(doc);
      if (!error) error = doc.get_value().get(record);
      if (!error) add_record(record, task_, answer_, error);
      if (error) throw ParseError(kName, simdjson::error_message(error), next_.current_index());
    }
    if (next_ != stream_.end()) return false;
    if (stream_.truncated_bytes() > 0)
      throw ParseError(kName, "incomplete last document", json_.size() - stream_.truncated_bytes());
    return true;
  }
  const RecordAnswer& answer() const override { return answer_; }

 private:
  const JsonText& json_;
  RecordTask task_;
  od::document_stream stream_;
  od::document_stream::iterator next_;
  RecordAnswer answer_;
};

class SimdjsonOnDemand final : public JsonParser {
 public:
  explicit SimdjsonOnDemand(std::size_t max_bytes) : parser_(std::max(max_bytes, kBatchBytes)) {
    // iterate_many would index the next batch on a helper thread; keep every byte of the work on
    // the thread that steps, so the modes say what runs where.
    parser_.threaded = false;
  }

  RecordAnswer sum_records(const JsonText& json, const RecordTask& task) override {
    ArrayStepper all(parser_, json, task);
    all.step(std::numeric_limits<std::size_t>::max());
    return all.answer();
  }

  WalkAnswer walk(const JsonText& json) override {
    od::document doc;
    simdjson::error_code error = parser_.iterate(json.data(), json.size(), json.capacity()).get(doc);
    if (error) throw simdjson_parse_error(kName, error, json.size());
    WalkAnswer answer;
    od::json_type type;
    if ((error = doc.type().get(type))) throw located_error(error, doc, json);
    if (type == od::json_type::array || type == od::json_type::object) {
      try {
        visit(doc.get_value(), answer, 1);
      } catch (const simdjson::simdjson_error& e) {
        error = e.error();
      }
    } else {
      error = visit_scalar(doc, type, answer);
    }
    if (!error && !at_end(doc)) error = simdjson::TRAILING_CONTENT;
    if (error) throw located_error(error, doc, json);
    return answer;
  }

  std::unique_ptr<RecordStepper> array_stepper(const JsonText& json, const RecordTask& task) override {
    return std::make_unique<ArrayStepper>(parser_, json, task);
  }
  std::unique_ptr<RecordStepper> ndjson_stepper(const JsonText& json, const RecordTask& task) override {
    return std::make_unique<NdjsonStepper>(parser_, json, task);
  }

 private:
  // A document whose root is a scalar (On-Demand cannot make a value of it).
  static simdjson::error_code visit_scalar(od::document& doc, od::json_type type, WalkAnswer& answer) {
    ++answer.values;
    switch (type) {
      case od::json_type::number: {
        double d = 0;
        simdjson::error_code error = doc.get_double().get(d);
        answer.number_sum += d;
        return error;
      }
      case od::json_type::string: {
        std::string_view s;
        simdjson::error_code error = doc.get_string().get(s);
        answer.string_bytes += s.size();
        return error;
      }
      case od::json_type::boolean: {
        bool b = false;
        return doc.get_bool().get(b);
      }
      default: {
        bool null = false;
        simdjson::error_code error = doc.is_null().get(null);
        return error ? error : (null ? simdjson::SUCCESS : simdjson::N_ATOM_ERROR);
      }
    }
  }

  // Written as simdjson's documentation walks a document (exceptions, a switch on type()): with
  // error codes returned through every level, the same walk ran 1.1-1.3x slower than that
  // reference on number-heavy shapes. `depth` counts the containers open around `v`: On-Demand does
  // not check it itself, and each level is a frame of this recursion.
  void visit(od::value v, WalkAnswer& answer, std::size_t depth) {
    ++answer.values;
    switch (v.type()) {
      case od::json_type::array:
        if (depth > parser_.max_depth()) throw simdjson::simdjson_error(simdjson::DEPTH_ERROR);
        for (auto child : v.get_array()) visit(child.value(), answer, depth + 1);
        break;
      case od::json_type::object:
        if (depth > parser_.max_depth()) throw simdjson::simdjson_error(simdjson::DEPTH_ERROR);
        for (auto field : v.get_object()) {
          answer.string_bytes += std::string_view(field.unescaped_key()).size();
          visit(field.value(), answer, depth + 1);
        }
        break;
      case od::json_type::number: answer.number_sum += double(v.get_double()); break;
      case od::json_type::string: answer.string_bytes += std::string_view(v.get_string()).size(); break;
      case od::json_type::boolean: (void)bool(v.get_bool()); break;
      case od::json_type::null:
        if (!v.is_null()) throw simdjson::simdjson_error(simdjson::N_ATOM_ERROR);
        break;
    }
  }

  od::parser parser_;
};

}  // namespace

ParserEntry simdjson_ondemand_parser() {
  return {kName, "simdjson", simdjson_version(), true,
          [](std::size_t max_bytes) { return std::make_unique<SimdjsonOnDemand>(max_bytes); }, NumberMode::exact,
          simdjson_ondemand_reference};
}

}  // namespace stallbench
