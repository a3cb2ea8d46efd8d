// Boost.JSON 1.81: a DOM with its own containers. The stream_parser is kept and reused (its
// internal stack stays allocated) and each document is built in a monotonic_resource, the
// allocation strategy Boost recommends for parse-then-read; the resource is released with the
// document. Its depth limit is raised from Boost's default 32 to the kMaxDepth every adapter
// shares. Boost.JSON 1.81 has no precise number mode (later versions added one): its doubles come from a fast
// path that can be off for long decimals, so its `numbers` mode is `fast`.
#include <boost/json.hpp>
#include <boost/version.hpp>

#include "../parser.h"

namespace stallbench {

namespace {

constexpr const char* kName = "boost-json";

void visit(const boost::json::value& v, WalkAnswer& answer) {
  ++answer.values;
  switch (v.kind()) {
    case boost::json::kind::array:
      for (const auto& child : v.get_array()) visit(child, answer);
      break;
    case boost::json::kind::object:
      for (const auto& member : v.get_object()) {
        answer.string_bytes += member.key().size();
        visit(member.value(), answer);
      }
      break;
    case boost::json::kind::string:
      answer.string_bytes += v.get_string().size();
      break;
    // One accessor per kind: to_number<double>() checks and converts, 15-20% slower on number-heavy documents.
    case boost::json::kind::int64: answer.number_sum += double(v.get_int64()); break;
    case boost::json::kind::uint64: answer.number_sum += double(v.get_uint64()); break;
    case boost::json::kind::double_: answer.number_sum += v.get_double(); break;
    default:
      break;
  }
}

class BoostJson final : public JsonParser {
 public:
  RecordAnswer sum_records(const JsonText& json, const RecordTask& task) override {
    boost::json::monotonic_resource memory;
    boost::json::value doc = parse(json, &memory);
    RecordAnswer answer;
    try {
      for (const auto& record : doc.as_array()) {
        const auto& fields = record.as_object();
        answer.add(fields.at(task.id).to_number<std::uint64_t>(), fields.at(task.a).to_number<double>(),
                   fields.at(task.b).to_number<double>(), fields.at(task.text).as_string().size());
      }
    } catch (const boost::system::system_error& e) {
      throw std::runtime_error(std::string(kName) + ": the records do not have the shape's fields: " + e.what());
    }
    return answer;
  }

  WalkAnswer walk(const JsonText& json) override {
    boost::json::monotonic_resource memory;
    WalkAnswer answer;
    visit(parse(json, &memory), answer);
    return answer;
  }

 private:
  boost::json::value parse(const JsonText& json, boost::json::monotonic_resource* memory) {
    boost::json::error_code ec;
    parser_.reset(memory);
    std::size_t consumed = parser_.write(json.data(), json.size(), ec);
    if (!ec) parser_.finish(ec);
    if (ec) throw ParseError(kName, ec.message(), consumed);
    return parser_.release();
  }

  static boost::json::parse_options options() {
    boost::json::parse_options options;
    options.max_depth = kMaxDepth;
    return options;
  }

  boost::json::stream_parser parser_{{}, options()};
};

}  // namespace

ParserEntry boost_json_parser() {
  return {kName, "boost-json",
          std::to_string(BOOST_VERSION / 100000) + "." + std::to_string(BOOST_VERSION / 100 % 1000) + "." +
              std::to_string(BOOST_VERSION % 100),
          false, [](std::size_t) { return std::make_unique<BoostJson>(); }, NumberMode::fast,
          [](std::size_t) { return boost_json_reference(); }};
}

}  // namespace stallbench
