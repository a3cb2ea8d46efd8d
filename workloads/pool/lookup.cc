#include "lookup.h"

#include <netdb.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace stallbench {

std::vector<std::string> hosts_file_names(const std::string& hosts_path) {
  std::ifstream in(hosts_path);
  std::vector<std::string> names;
  std::string line;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    std::istringstream fields(line);
    std::string address, name;
    if (!(fields >> address)) continue;
    while (fields >> name) {
      std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
      names.push_back(name);
    }
  }
  return names;
}

void require_hosts_file_name(const std::string& name, const std::string& hosts_path) {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  auto names = hosts_file_names(hosts_path);
  if (std::find(names.begin(), names.end(), lower) == names.end())
    throw std::invalid_argument("refusing to look up '" + name + "': not in " + hosts_path +
                                " (lookups must never reach a real resolver)");
}

bool is_loopback(const std::string& address) {
  return address.rfind("127.", 0) == 0 || address == "::1";
}

namespace {

struct Lookup {
  uv_getaddrinfo_t req;
  LookupDone done;
};

}  // namespace

void lookup(uv_loop_t* loop, const std::string& name, LookupDone done) {
  require_hosts_file_name(name);
  auto* op = new Lookup{};
  op->req.data = op;
  op->done = std::move(done);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;  // what dns.lookup asks for by default
  hints.ai_socktype = SOCK_STREAM;
  int rc = uv_getaddrinfo(
      loop, &op->req,
      [](uv_getaddrinfo_t* req, int status, addrinfo* res) {
        std::unique_ptr<Lookup> op(static_cast<Lookup*>(req->data));
        std::string address, error;
        if (status < 0) {
          error = std::string("getaddrinfo: ") + uv_strerror(status);
        } else {
          char text[INET6_ADDRSTRLEN] = {};
          int name_rc = uv_ip_name(res->ai_addr, text, sizeof text);
          if (name_rc < 0) error = std::string("uv_ip_name: ") + uv_strerror(name_rc);
          address = text;
        }
        uv_freeaddrinfo(res);
        op->done(std::move(address), std::move(error));
      },
      name.c_str(), nullptr, &hints);
  if (rc < 0) {
    std::unique_ptr<Lookup> owned(op);
    owned->done({}, std::string("uv_getaddrinfo: ") + uv_strerror(rc));
  }
}

}  // namespace stallbench
