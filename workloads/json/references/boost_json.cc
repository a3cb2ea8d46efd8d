// Boost.JSON as its own benchmark runs it ("boost(pool)" in its bench program): one stream_parser
// reused, each document in a monotonic_resource on the stack; then a switch on kind() over the value.
// Its depth limit is raised like the adapter's, or the deep shape would not parse at all.
#include <boost/json.hpp>

#include "../parser.h"

namespace stallbench {

namespace {

void walk(const boost::json::value& value, WalkAnswer& answer) {
  ++answer.values;
  switch (value.kind()) {
    case boost::json::kind::array:
      for (const auto& child : value.get_array()) walk(child, answer);
      break;
    case boost::json::kind::object:
      for (const auto& member : value.get_object()) {
        answer.string_bytes += member.key().size();
        walk(member.value(), answer);
      }
      break;
    case boost::json::kind::string: answer.string_bytes += value.get_string().size(); break;
    case boost::json::kind::int64: answer.number_sum += double(value.get_int64()); break;
    case boost::json::kind::uint64: answer.number_sum += double(value.get_uint64()); break;
    case boost::json::kind::double_: answer.number_sum += value.get_double(); break;
    default: break;
  }
}

class BoostReference final : public ReferenceWalk {
 public:
  WalkAnswer walk(const JsonText& json) override {
    boost::json::monotonic_resource memory;
    parser_.reset(&memory);
    parser_.write(json.data(), json.size());
    parser_.finish();
    WalkAnswer answer;
    stallbench::walk(parser_.release(), answer);
    return answer;
  }

 private:
  static boost::json::parse_options options() {
    boost::json::parse_options options;
    options.max_depth = kMaxDepth;
    return options;
  }
  boost::json::stream_parser parser_{{}, options()};
};

}  // namespace

std::unique_ptr<ReferenceWalk> boost_json_reference() { return std::make_unique<BoostReference>(); }

}  // namespace stallbench
