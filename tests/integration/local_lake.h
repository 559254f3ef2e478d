// A file:// catalog whose objects really exist on disk, for tests that watch
// cleanup delete them: a fresh directory under /tmp, a catalog over it named
// <prefix><pid>, and namespace "ns" holding table "t" (one long column "id").
// A failed step is a test failure; the returned fields it could not fill stay
// empty.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <string>

#include "server_fixture.h"

namespace hoglake::testing {

struct LocalLake {
  std::string dir;      // the directory, "/tmp/hoglake-<prefix>-XXXXXX"
  std::string name;     // the catalog's name
  std::string catalog;  // "/v1/catalogs/<name>"
  std::string uuid;     // table t's table_uuid
};

inline LocalLake NewLocalLake(const std::string& prefix) {
  LocalLake lake;
  std::string pattern = "/tmp/hoglake-" + prefix + "-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    ADD_FAILURE() << "mkdtemp failed";
    return lake;
  }
  lake.dir = pattern;
  lake.name = prefix + std::to_string(getpid());
  lake.catalog = "/v1/catalogs/" + lake.name;
  ApiResponse r = ServerEnvironment::Call(
      "POST", "/v1/catalogs",
      R"({"name":")" + lake.name + R"(","data_path":"file://)" + lake.dir + "/\"}");
  EXPECT_EQ(r.status, 201) << r.body;
  r = ServerEnvironment::Call("POST", lake.catalog + "/namespaces", R"({"name":"ns"})");
  EXPECT_EQ(r.status, 201) << r.body;
  r = ServerEnvironment::Call("POST", lake.catalog + "/namespaces/ns/tables",
                              R"({"name":"t","columns":[{"name":"id","type":"long"}]})");
  EXPECT_EQ(r.status, 201) << r.body;
  if (r.status == 201) lake.uuid = r.json["table_uuid"].GetString();
  return lake;
}

}  // namespace hoglake::testing
