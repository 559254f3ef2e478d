// Arbitrary bytes as one SQL statement through the whole engine: parse,
// bind, plan and run, over a catalog of three empty tables (so binding sees
// real names and types, and execution stays bounded). Any outcome but a
// crash, a sanitizer report, a leak or a hang is fine; errors are expected.
//   ./build-fuzz/fuzz/sql_fuzz -max_total_time=60 -max_len=4096 fuzz/corpus/sql
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "catalog/lake_tables.h"
#include "sql/engine.h"

namespace {

using namespace hoglake;

// Tables t (a long, b string, c decimal(10,2), d date) and u (a long, e
// double) and v (no columns used), each at snapshot 1 with no files.
class EmptyTables : public catalog::LakeTables {
 public:
  Result<std::vector<std::string>> ListCatalogNames() override { return std::vector<std::string>{"lake"}; }
  Result<std::vector<std::string>> ListNamespaceNames(const std::string&) override {
    return std::vector<std::string>{"public"};
  }
  Result<std::vector<std::string>> ListTableNames(const std::string&, const std::string&) override {
    return std::vector<std::string>{"t", "u"};
  }
  Result<catalog::ResolvedTable> Resolve(const std::string& catalog, const std::string& ns,
                                         const std::string& table,
                                         const catalog::SnapshotSelector&) override {
    if (catalog != "lake" || ns != "public" || (table != "t" && table != "u")) {
      return NotFound("table ", table, " not found");
    }
    catalog::ResolvedTable out;
    out.catalog = catalog;
    out.namespace_name = ns;
    out.name = table;
    out.snapshot_id = 1;
    auto column = [&](const char* name, iceberg::TypeSpec type, int32_t id) {
      catalog::ColumnNode node;
      node.name = name;
      node.type = type;
      node.field_id = id;
      out.info.columns.push_back(node);
    };
    if (table == "t") {
      column("a", iceberg::ColumnType::kLong, 1);
      column("b", iceberg::ColumnType::kString, 2);
      column("c", iceberg::TypeSpec::Decimal(10, 2), 3);
      column("d", iceberg::ColumnType::kDate, 4);
    } else {
      column("a", iceberg::ColumnType::kLong, 1);
      column("e", iceberg::ColumnType::kDouble, 2);
    }
    return out;
  }
  Result<std::vector<catalog::DataFileInfo>> LiveFiles(const catalog::ResolvedTable&) override {
    return std::vector<catalog::DataFileInfo>{};
  }
};

// Cancels the running statement after two seconds: a legitimately slow
// query (a cross join of VALUES lists) is not a finding.
class Watchdog {
 public:
  Watchdog() : thread_([this] { Loop(); }) { thread_.detach(); }
  void Arm(sql::Session* session) {
    std::lock_guard<std::mutex> lock(mu_);
    session_ = session;
    deadline_ = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  }
  void Disarm() {
    std::lock_guard<std::mutex> lock(mu_);
    session_ = nullptr;
  }

 private:
  void Loop() {
    while (true) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      std::lock_guard<std::mutex> lock(mu_);
      if (session_ != nullptr && std::chrono::steady_clock::now() > deadline_) session_->Cancel();
    }
  }
  std::mutex mu_;
  sql::Session* session_ = nullptr;
  std::chrono::steady_clock::time_point deadline_;
  std::thread thread_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static EmptyTables tables;
  static Watchdog* watchdog = new Watchdog();
  sql::SessionOptions options;
  options.tables = &tables;
  options.default_catalog = "lake";
  options.threads = 1;
  options.memory_budget_bytes = int64_t{256} << 20;
  sql::Session session(options);
  std::string text(reinterpret_cast<const char*>(data), size);
  watchdog->Arm(&session);
  (void)session.Execute(text);
  watchdog->Disarm();
  return 0;
}
