// Shared by the SDK integration tests: a fresh file:// catalog with
// namespace "ns" on the test server, and a ColumnDef shorthand.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "client/client.h"
#include "server_fixture.h"

namespace hoglake::testing {

struct SdkLake {
  client::HoglakeClient client{ServerEnvironment::base_url()};
  std::optional<client::Catalog> catalog;
  std::optional<client::Namespace> ns;
};

// Creates catalog "<prefix><n>" at file://<server data dir>/sdk-lake/<name>/
// with namespace "ns". Use with ASSERT_NO_FATAL_FAILURE.
inline void OpenSdkLake(SdkLake& lake, const std::string& prefix) {
  static int counter = 0;
  const std::string name = prefix + std::to_string(++counter);
  const std::string root = "file://" + ServerEnvironment::data_dir() + "/sdk-lake/" + name + "/";
  auto catalog = lake.client.CreateCatalog(name, root);
  ASSERT_TRUE(catalog.ok()) << catalog.status().ToString();
  lake.catalog = *catalog;
  auto ns = lake.catalog->CreateNamespace("ns");
  ASSERT_TRUE(ns.ok()) << ns.status().ToString();
  lake.ns = *ns;
}

inline client::ColumnDef SdkColumn(std::string name, iceberg::TypeSpec type, bool nullable = true) {
  client::ColumnDef def;
  def.name = std::move(name);
  def.type = type;
  def.nullable = nullable;
  return def;
}

}  // namespace hoglake::testing
