// The probes the pool experiment issues: each returns the real answer, and fails loudly.
#include <gtest/gtest.h>

#include "workloads/common/owned_loop.h"
#include "workloads/common/temp_file.h"
#include "workloads/net/http_get.h"
#include "workloads/net/http_server.h"
#include "workloads/pool/file_read.h"
#include "workloads/pool/lookup.h"

using namespace stallbench;

TEST(FileRead, ReturnsTheFilesBytes) {
  OwnedLoop loop;
  TempFile file(patterned_bytes(200'000));
  std::string got, error;
  read_file(loop.get(), file.path(), [&](std::string bytes, std::string e) { got = std::move(bytes); error = e; });
  run_loop(loop.get());
  EXPECT_EQ(error, "");
  EXPECT_EQ(got, file.bytes());
}

TEST(FileRead, MissingFileNamesTheStep) {
  OwnedLoop loop;
  std::string error = "not called";
  read_file(loop.get(), "/nonexistent/stallbench", [&](std::string, std::string e) { error = e; });
  run_loop(loop.get());
  EXPECT_NE(error.find("open /nonexistent/stallbench"), std::string::npos) << error;
}

TEST(Lookup, LocalhostIsLoopback) {
  OwnedLoop loop;
  std::string address, error = "not called";
  lookup(loop.get(), "localhost", [&](std::string a, std::string e) { address = a; error = e; });
  run_loop(loop.get());
  EXPECT_EQ(error, "");
  EXPECT_TRUE(is_loopback(address)) << address;
}

TEST(Lookup, RefusesNamesOutsideTheHostsFile) {
  OwnedLoop loop;
  EXPECT_THROW(lookup(loop.get(), "example.invalid", [](std::string, std::string) {}), std::invalid_argument);
}

TEST(Lookup, ReadsHostsFileNames) {
  TempFile hosts("127.0.0.1 localhost Box # comment\n# 127.0.1.1 commented-out\n::1 ip6-localhost\n");
  auto names = hosts_file_names(hosts.path());
  EXPECT_EQ(names, (std::vector<std::string>{"localhost", "box", "ip6-localhost"}));
}

static HttpGetResult get(uv_loop_t* loop, std::uint16_t port, const std::string& path) {
  HttpGetResult result;
  http_get(loop, port, path, [&](HttpGetResult r) {
    result = std::move(r);
    uv_stop(loop);  // the server keeps the loop alive
  });
  uv_run(loop, UV_RUN_DEFAULT);
  return result;
}

TEST(HttpServer, AnswersHealthAndNotFound) {
  OwnedLoop loop;
  HttpServer server(loop.get());
  ASSERT_GT(server.port(), 0);
  auto health = get(loop.get(), server.port(), "/health");
  EXPECT_EQ(health.error, "");
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(health.body, "ok");
  auto missing = get(loop.get(), server.port(), "/nope");
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(server.requests_served(), 2u);
}

TEST(HttpServer, CustomHandler) {
  OwnedLoop loop;
  HttpServer server(loop.get(), [](const std::string& method, const std::string& url) {
    return HttpResponse{200, method + " " + url};
  });
  EXPECT_EQ(get(loop.get(), server.port(), "/x?y=1").body, "GET /x?y=1");
}

TEST(HttpGet, ConnectionRefusedIsAnError) {
  OwnedLoop loop;
  std::uint16_t port;
  {
    HttpServer server(loop.get());
    port = server.port();
  }
  auto result = get(loop.get(), port, "/");
  EXPECT_NE(result.error.find("connect"), std::string::npos) << result.error;
}
