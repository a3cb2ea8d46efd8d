// Where the probe reads libuv's pool (workloads/probe/libuv_pool_symbols.h) it reads only a libuv it
// was checked against, and says so otherwise: a version outside the checked range is "not available
// on this line" with its version; the thread count it checks the first read against follows libuv's
// own rule; and in this process, linked against Debian's shared libuv (its symbol table stripped),
// the lookup answers no with the file and the reason instead of reading anything. Every pinned Node
// line, where the pool is read, is tested by tests/python/test_probe_pool.py.
#include <gtest/gtest.h>
#include <uv.h>

#include <string>

#include "workloads/probe/libuv_pool_symbols.h"

using namespace stallbench;

static unsigned version(unsigned major, unsigned minor, unsigned patch) { return major << 16 | minor << 8 | patch; }

TEST(LibuvPoolSymbols, OnlyTheCheckedLibuvsAreRead) {
  EXPECT_EQ(unchecked_libuv(version(1, 44, 0)), "");
  EXPECT_EQ(unchecked_libuv(version(1, 52, 1)), "");
  for (unsigned v : {version(1, 43, 0), version(1, 53, 0), version(2, 0, 0)}) {
    std::string why = unchecked_libuv(v);
    EXPECT_EQ(why.rfind("not available on this line: libuv ", 0), 0u) << why;
    EXPECT_NE(why.find("1.44-1.52"), std::string::npos) << why;
  }
  EXPECT_NE(unchecked_libuv(version(1, 53, 0)).find("libuv 1.53.0"), std::string::npos);
}

TEST(LibuvPoolSymbols, TheThreadsLibuvStartsFollowItsRule) {
  EXPECT_EQ(threads_libuv_starts(nullptr), 4u);
  EXPECT_EQ(threads_libuv_starts("2"), 2u);
  EXPECT_EQ(threads_libuv_starts("0"), 1u);
  EXPECT_EQ(threads_libuv_starts("four"), 1u);
  EXPECT_EQ(threads_libuv_starts("5000"), 1024u);
  EXPECT_EQ(threads_libuv_starts("-1"), 1024u);
}

TEST(LibuvPoolSymbols, AStrippedSharedLibuvIsSaidNotRead) {
  ASSERT_GT(uv_version(), 0u);  // links this test against the shared libuv
  LibuvPool pool;
  std::string why;
  EXPECT_FALSE(find_libuv_pool(pool, why));
  EXPECT_NE(why.find("libuv.so"), std::string::npos) << why;  // the file it looked in
  EXPECT_NE(why.find("no symbol table"), std::string::npos) << why;
  EXPECT_EQ(pool.mutex, nullptr);
}
