// CatalogService::ReplaceTableData (catalog/commit/table_replace.h) on a
// CatalogService of this process over the test server's database: one
// snapshot ends every live file and registers the new ones (time travel
// still reads the old ones before it; the changefeed answers
// reconciliation_required across it; totals restart from the new files);
// zero files empties the table; refused input changes nothing; appends
// racing replaces land wholly before (replaced) or wholly after (kept); and
// expiry then cleanup remove the replaced files' objects as after a truncate.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "catalog/catalog_service.h"
#include "invariants.h"
#include "pg/pg_pool.h"
#include "pg_session.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using catalog::ChangeKind;
using catalog::CommitResult;
using catalog::DataFileInfo;
using catalog::FileRegistration;
using catalog::ReplaceOptions;
using catalog::SnapshotSelector;
using catalog::TableRef;
using S = ServerEnvironment;

SnapshotSelector At(int64_t id) {
  SnapshotSelector at;
  at.snapshot = id;
  return at;
}

// Iceberg's single-value bytes of a long (8 bytes, little-endian).
std::string LongBound(int64_t v) {
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i)
    out[i] = static_cast<char>((static_cast<uint64_t>(v) >> (8 * i)) & 0xFF);
  return out;
}

// A file of `rows` rows whose "id" (field 1) spans [1, rows].
FileRegistration File(const std::string& path, int64_t rows) {
  FileRegistration f;
  f.path = path;
  f.record_count = rows;
  f.file_size_bytes = 100 + rows;
  catalog::ColumnStatsInput stats;
  stats.field_id = 1;
  stats.value_count = rows;
  stats.null_count = 0;
  stats.lower_bound = LongBound(1);
  stats.upper_bound = LongBound(rows);
  f.column_stats = std::vector<catalog::ColumnStatsInput>{stats};
  return f;
}

std::set<std::string> PathsOf(const std::vector<DataFileInfo>& files) {
  std::set<std::string> paths;
  for (const DataFileInfo& f : files) paths.insert(f.path);
  return paths;
}

class ReplaceTableDataTest : public ::testing::Test {
 protected:
  TableRef Ref(const TableLake& lake) const { return TableRef{lake.name, "ns", "t"}; }

  int64_t Head(const TableLake& lake) {
    Result<catalog::CatalogInfo> info = service_.GetCatalog(lake.name);
    EXPECT_TRUE(info.ok()) << info.error().ToString();
    return info.ok() ? info->head_snapshot_id : -1;
  }

  // Appends `files` to ns.t in one commit; the snapshot's id (-1 on failure).
  int64_t Append(const TableLake& lake, std::vector<FileRegistration> files) {
    catalog::CommitRequest request;
    request.appends.push_back(catalog::TableAppend{"ns", "t", std::move(files), std::nullopt});
    Result<CommitResult> r =
        service_.Commit(lake.name, std::move(request), catalog::CommitEndpoint::kPlain);
    EXPECT_TRUE(r.ok()) << r.error().ToString();
    return r.ok() ? r->snapshot_id : -1;
  }

  std::set<std::string> LiveAt(const TableLake& lake, const SnapshotSelector& at) {
    Result<std::vector<DataFileInfo>> files = service_.Scan(Ref(lake), at, catalog::ScanOptions{});
    EXPECT_TRUE(files.ok()) << files.error().ToString();
    return files.ok() ? PathsOf(*files) : std::set<std::string>{};
  }

  std::vector<catalog::SnapshotChange> ChangesOf(const TableLake& lake, int64_t snapshot) {
    catalog::SnapshotListing listing;
    listing.after = snapshot - 1;
    listing.limit = 1;
    Result<catalog::SnapshotPage> page = service_.ListSnapshots(lake.name, listing);
    EXPECT_TRUE(page.ok()) << page.error().ToString();
    if (!page.ok() || page->snapshots.empty()) return {};
    EXPECT_EQ(page->snapshots[0].snapshot_id, snapshot);
    return page->snapshots[0].changes;
  }

  pg::PgPool pool_{TestPgConninfo("hoglake"), 6};
  catalog::CatalogService service_{&pool_, catalog::CatalogServiceOptions{}};
};

std::set<std::string> KindsOf(const std::vector<catalog::SnapshotChange>& changes) {
  std::set<std::string> kinds;
  for (const catalog::SnapshotChange& c : changes) kinds.insert(c.kind);
  return kinds;
}

TEST_F(ReplaceTableDataTest, ReplacesEveryLiveFileInOneSnapshot) {
  const TableLake lake = NewTableLake("ns", "t");
  Append(lake, {File(lake.data + "a.parquet", 10)});
  const int64_t before = Append(lake, {File(lake.data + "b.parquet", 10)});
  ASSERT_GT(before, 0);
  Result<catalog::CatalogInfo> catalog_before = service_.GetCatalog(lake.name);
  ASSERT_TRUE(catalog_before.ok());

  ReplaceOptions options;
  options.expected_table_uuid = lake.uuid;
  options.author = "loader";
  options.message = "load 1";
  Result<CommitResult> replaced = service_.ReplaceTableData(
      Ref(lake), {File(lake.data + "c.parquet", 7), File(lake.data + "d.parquet", 5)}, options);
  ASSERT_TRUE(replaced.ok()) << replaced.error().ToString();
  EXPECT_EQ(replaced->snapshot_id, before + 1);
  EXPECT_EQ(Head(lake), before + 1);
  EXPECT_EQ(replaced->schema_version, catalog_before->schema_version + 1);  // as a truncate

  // Time travel: the replace's snapshot reads the new files, the one before the old.
  EXPECT_EQ(LiveAt(lake, {}),
            (std::set<std::string>{lake.data + "c.parquet", lake.data + "d.parquet"}));
  EXPECT_EQ(LiveAt(lake, At(before)),
            (std::set<std::string>{lake.data + "a.parquet", lake.data + "b.parquet"}));

  // The new files keep their statistics and take row ids after the old ones.
  catalog::ScanOptions with_stats;
  with_stats.column_stats = true;
  Result<std::vector<DataFileInfo>> scanned = service_.Scan(Ref(lake), {}, with_stats);
  ASSERT_TRUE(scanned.ok()) << scanned.error().ToString();
  ASSERT_EQ(scanned->size(), 2u);
  for (const DataFileInfo& f : *scanned) {
    EXPECT_GE(f.row_id_start, 20) << f.path;
    EXPECT_EQ(f.begin_snapshot, replaced->snapshot_id);
    ASSERT_TRUE(f.column_stats.has_value());
    ASSERT_EQ(f.column_stats->size(), 1u);
    EXPECT_EQ((*f.column_stats)[0].lower_bound, LongBound(1));
  }

  // Totals: at head from the new files only, at the snapshot before from the old.
  Result<catalog::TableInfo> head = service_.GetTable(Ref(lake), {}, true);
  ASSERT_TRUE(head.ok()) << head.error().ToString();
  ASSERT_TRUE(head->totals.has_value());
  EXPECT_EQ(head->totals->record_count, 12);
  EXPECT_EQ(head->totals->file_count, 2);
  EXPECT_EQ(head->totals->file_size_bytes, 107 + 105);
  EXPECT_EQ(head->table_uuid, lake.uuid);
  Result<catalog::TableInfo> old = service_.GetTable(Ref(lake), At(before), true);
  ASSERT_TRUE(old.ok()) << old.error().ToString();
  EXPECT_EQ(old->totals->record_count, 20);

  // The snapshot: a truncate and an append in one, with the caller's author and message.
  catalog::SnapshotListing listing;
  listing.after = before;
  Result<catalog::SnapshotPage> page = service_.ListSnapshots(lake.name, listing);
  ASSERT_TRUE(page.ok()) << page.error().ToString();
  ASSERT_EQ(page->snapshots.size(), 1u);
  EXPECT_EQ(page->snapshots[0].author, "loader");
  EXPECT_EQ(page->snapshots[0].message, "load 1");
  EXPECT_EQ(KindsOf(page->snapshots[0].changes),
            (std::set<std::string>{"table_altered", "table_deleted_from", "table_inserted_into"}));
  for (const catalog::SnapshotChange& c : page->snapshots[0].changes) {
    EXPECT_EQ(c.object_id, head->table_id);
  }

  PgSession pg(TestPgConninfo("hoglake"));
  ASSERT_TRUE(pg.ok());
  ExpectLiveTotalsKept(pg, lake.name);
  ExpectRowIdRangesDisjoint(pg, lake.name);
  // Dense snapshots; live row ids no longer tile from 0 after a replace.
  ExpectCatalogInvariants(lake.name, {});
}

TEST_F(ReplaceTableDataTest, TheChangefeedReconcilesAcrossAReplace) {
  const TableLake lake = NewTableLake("ns", "t");
  const int64_t appended = Append(lake, {File(lake.data + "a.parquet", 10)});
  Result<CommitResult> replaced =
      service_.ReplaceTableData(Ref(lake), {File(lake.data + "b.parquet", 3)}, {});
  ASSERT_TRUE(replaced.ok()) << replaced.error().ToString();

  // A window crossing the replace cannot be read as appends alone.
  Result<catalog::ChangePlan> across = service_.Changes(Ref(lake), appended, std::nullopt);
  ASSERT_FALSE(across.ok());
  EXPECT_EQ(across.error().code, ErrorCode::kReconciliationRequired);
  EXPECT_NE(across.error().message.find(std::to_string(replaced->snapshot_id)), std::string::npos)
      << across.error().message;
  // Windows before it and after it read as usual.
  Result<catalog::ChangePlan> upto = service_.Changes(Ref(lake), appended - 1, appended);
  ASSERT_TRUE(upto.ok()) << upto.error().ToString();
  ASSERT_EQ(upto->files.size(), 1u);
  EXPECT_EQ(upto->files[0].path, lake.data + "a.parquet");
  const int64_t later = Append(lake, {File(lake.data + "c.parquet", 2)});
  Result<catalog::ChangePlan> after = service_.Changes(Ref(lake), replaced->snapshot_id, later);
  ASSERT_TRUE(after.ok()) << after.error().ToString();
  ASSERT_EQ(after->files.size(), 1u);
  EXPECT_EQ(after->files[0].path, lake.data + "c.parquet");
  EXPECT_EQ(after->table_uuid, lake.uuid);
}

TEST_F(ReplaceTableDataTest, ZeroFilesEmptiesTheTableInOneSnapshot) {
  const TableLake lake = NewTableLake("ns", "t");
  const int64_t before = Append(lake, {File(lake.data + "a.parquet", 10)});
  ReplaceOptions options;
  options.message = "empty it";
  Result<CommitResult> replaced = service_.ReplaceTableData(Ref(lake), {}, options);
  ASSERT_TRUE(replaced.ok()) << replaced.error().ToString();
  EXPECT_EQ(replaced->snapshot_id, before + 1);
  EXPECT_TRUE(LiveAt(lake, {}).empty());
  EXPECT_EQ(LiveAt(lake, At(before)), std::set<std::string>{lake.data + "a.parquet"});
  Result<catalog::TableInfo> head = service_.GetTable(Ref(lake), {}, true);
  ASSERT_TRUE(head.ok()) << head.error().ToString();
  EXPECT_EQ(head->totals->record_count, 0);
  EXPECT_EQ(head->totals->file_count, 0);
  EXPECT_EQ(KindsOf(ChangesOf(lake, replaced->snapshot_id)),
            (std::set<std::string>{"table_altered", "table_deleted_from"}));
  // Replacing an empty table with files fills it.
  Result<CommitResult> filled =
      service_.ReplaceTableData(Ref(lake), {File(lake.data + "b.parquet", 4)}, {});
  ASSERT_TRUE(filled.ok()) << filled.error().ToString();
  EXPECT_EQ(LiveAt(lake, {}), std::set<std::string>{lake.data + "b.parquet"});
  PgSession pg(TestPgConninfo("hoglake"));
  ASSERT_TRUE(pg.ok());
  ExpectLiveTotalsKept(pg, lake.name);
  ExpectRowIdRangesDisjoint(pg, lake.name);
}

TEST_F(ReplaceTableDataTest, RefusedInputChangesNothing) {
  const TableLake lake = NewTableLake("ns", "t");
  const int64_t head = Append(lake, {File(lake.data + "a.parquet", 10)});
  const std::set<std::string> live = {lake.data + "a.parquet"};
  const auto refused = [&](const char* what, ErrorCode code, const TableRef& ref,
                           std::vector<FileRegistration> files, ReplaceOptions options = {}) {
    SCOPED_TRACE(what);
    Result<CommitResult> r = service_.ReplaceTableData(ref, std::move(files), options);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, code) << r.error().ToString();
    EXPECT_EQ(Head(lake), head);
    EXPECT_EQ(LiveAt(lake, {}), live);
  };
  const std::string fresh = lake.data + "fresh.parquet";
  refused("outside the data path", ErrorCode::kValidation, Ref(lake),
          {File("s3://bucket/elsewhere/x.parquet", 1)});
  refused("a dot segment", ErrorCode::kValidation, Ref(lake),
          {File(lake.data + "x/../y.parquet", 1)});
  refused("a path listed twice", ErrorCode::kValidation, Ref(lake),
          {File(fresh, 1), File(fresh, 2)});
  refused("a path already live (the table's own)", ErrorCode::kAlreadyExists, Ref(lake),
          {File(lake.data + "a.parquet", 10)});
  FileRegistration negative = File(fresh, 1);
  negative.record_count = -1;
  refused("a negative record count", ErrorCode::kValidation, Ref(lake), {negative});
  FileRegistration unknown_field = File(fresh, 1);
  (*unknown_field.column_stats)[0].field_id = 99;
  refused("stats of an unknown column", ErrorCode::kValidation, Ref(lake), {unknown_field});
  FileRegistration partitioned = File(fresh, 1);
  partitioned.partition_values = std::vector<std::optional<std::string>>{"x"};
  refused("partition values on an unpartitioned table", ErrorCode::kValidation, Ref(lake),
          {partitioned});
  ReplaceOptions other;
  other.expected_table_uuid = "00000000-0000-4000-8000-000000000000";
  refused("another incarnation expected", ErrorCode::kTableRecreated, Ref(lake), {File(fresh, 1)},
          other);
  ReplaceOptions malformed;
  malformed.expected_table_uuid = "not-a-uuid";
  refused("a malformed uuid", ErrorCode::kValidation, Ref(lake), {File(fresh, 1)}, malformed);
  refused("an unknown table", ErrorCode::kNotFound, TableRef{lake.name, "ns", "nope"},
          {File(fresh, 1)});
  refused("an unknown namespace", ErrorCode::kNotFound, TableRef{lake.name, "nope", "t"},
          {File(fresh, 1)});
  Result<CommitResult> no_catalog =
      service_.ReplaceTableData(TableRef{"no-such-catalog", "ns", "t"}, {File(fresh, 1)}, {});
  ASSERT_FALSE(no_catalog.ok());
  EXPECT_EQ(no_catalog.error().code, ErrorCode::kNotFound);

  // Nothing was left behind: the fresh path registers fine afterwards, once.
  Result<CommitResult> ok = service_.ReplaceTableData(Ref(lake), {File(fresh, 1)}, {});
  ASSERT_TRUE(ok.ok()) << ok.error().ToString();
  EXPECT_EQ(ok->snapshot_id, head + 1);

  // A dropped table.
  ASSERT_EQ(S::Call("DELETE", lake.catalog + "/namespaces/ns/tables/t").status, 200);
  const int64_t dropped_head = Head(lake);
  Result<CommitResult> dropped =
      service_.ReplaceTableData(Ref(lake), {File(lake.data + "later.parquet", 1)}, {});
  ASSERT_FALSE(dropped.ok());
  EXPECT_EQ(dropped.error().code, ErrorCode::kTableDropped) << dropped.error().ToString();
  EXPECT_EQ(Head(lake), dropped_head);
}

// Appenders (two files per commit) race a replacer. Every snapshot then
// reads exactly the files of the latest replace at or before it plus the
// appends after that replace: an append is replaced or kept whole.
TEST_F(ReplaceTableDataTest, AppendsRacingReplacesLandWhollyBeforeOrAfter) {
  const TableLake lake = NewTableLake("ns", "t");
  const int64_t start = Head(lake);
  constexpr int kAppenders = 3;
  constexpr int kAppendsEach = 8;
  constexpr int kReplaces = 6;
  std::mutex mutex;
  std::map<int64_t, std::set<std::string>> appended;  // snapshot → its files
  std::map<int64_t, std::set<std::string>> replaced;  // snapshot → the new files
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int a = 0; a < kAppenders; ++a) {
    threads.emplace_back([&, a] {
      for (int i = 0; i < kAppendsEach; ++i) {
        const std::string base =
            lake.data + "append-" + std::to_string(a) + "-" + std::to_string(i);
        int64_t snapshot = -1;
        if (a == 0) {
          // Through the server: another process, the same commit lock.
          const ApiResponse r =
              S::Call("POST", lake.catalog + "/commit",
                      R"({"appends":[{"namespace":"ns","table":"t","files":[{"path":")" + base +
                          R"(-x.parquet","record_count":3,"file_size_bytes":10},{"path":")" + base +
                          R"(-y.parquet","record_count":4,"file_size_bytes":10}]}]})");
          if (r.status == 200) snapshot = r.json["snapshot_id"].GetInt64();
        } else {
          catalog::CommitRequest request;
          request.appends.push_back(
              catalog::TableAppend{"ns",
                                   "t",
                                   {File(base + "-x.parquet", 3), File(base + "-y.parquet", 4)},
                                   std::nullopt});
          Result<CommitResult> r =
              service_.Commit(lake.name, std::move(request), catalog::CommitEndpoint::kPlain);
          if (r.ok()) snapshot = r->snapshot_id;
        }
        if (snapshot < 0) {
          ++failures;
          continue;
        }
        std::lock_guard<std::mutex> guard(mutex);
        appended[snapshot] = {base + "-x.parquet", base + "-y.parquet"};
      }
    });
  }
  threads.emplace_back([&] {
    for (int i = 0; i < kReplaces; ++i) {
      const std::string path = lake.data + "replace-" + std::to_string(i) + ".parquet";
      Result<CommitResult> r = service_.ReplaceTableData(Ref(lake), {File(path, 5)}, {});
      if (!r.ok()) {
        ++failures;
        continue;
      }
      std::lock_guard<std::mutex> guard(mutex);
      replaced[r->snapshot_id] = {path};
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  });
  for (std::thread& t : threads) t.join();
  ASSERT_EQ(failures.load(), 0);
  ASSERT_EQ(appended.size(), static_cast<size_t>(kAppenders * kAppendsEach));
  ASSERT_EQ(replaced.size(), static_cast<size_t>(kReplaces));
  const int64_t head = Head(lake);
  EXPECT_EQ(head, start + kAppenders * kAppendsEach + kReplaces);  // one snapshot each

  // Replay the snapshots in order; every one reads what the replay says.
  std::set<std::string> expected;
  for (int64_t s = start + 1; s <= head; ++s) {
    SCOPED_TRACE("snapshot " + std::to_string(s));
    if (auto r = replaced.find(s); r != replaced.end()) {
      expected = r->second;
    } else if (auto a = appended.find(s); a != appended.end()) {
      expected.insert(a->second.begin(), a->second.end());
    } else {
      ADD_FAILURE() << "snapshot " << s << " is neither an append nor a replace";
    }
    EXPECT_EQ(LiveAt(lake, At(s)), expected);
  }
  PgSession pg(TestPgConninfo("hoglake"));
  ASSERT_TRUE(pg.ok());
  ExpectLiveTotalsKept(pg, lake.name);
  ExpectRowIdRangesDisjoint(pg, lake.name);
  // Dense snapshots; live row ids no longer tile from 0 after a replace.
  ExpectCatalogInvariants(lake.name, {});
}

// The replaced files are unreferenced once expiry passes the replace:
// expiry queues them and cleanup deletes their objects, as after a truncate;
// the new files' objects stay.
TEST_F(ReplaceTableDataTest, ExpiryAndCleanupRemoveTheReplacedFiles) {
  const TableLake lake = NewLocalTableLake("ns", "t");
  const auto write = [&](const std::string& name) {
    std::ofstream(lake.dir + "/" + name) << "not really parquet";
    return File(lake.data + name, 1);
  };
  Append(lake, {write("a.parquet"), write("b.parquet")});
  Result<CommitResult> replaced = service_.ReplaceTableData(Ref(lake), {write("c.parquet")}, {});
  ASSERT_TRUE(replaced.ok()) << replaced.error().ToString();

  ASSERT_EQ(
      S::Call("PATCH", lake.catalog + "/options", R"({"snapshot_retention_seconds":1})").status,
      200);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  ApiResponse expired = S::Call("POST", lake.catalog + "/maintenance/expire");
  ASSERT_EQ(expired.status, 200) << expired.body;
  EXPECT_EQ(expired.json["new_earliest_snapshot_id"].GetInt64(), replaced->snapshot_id);
  EXPECT_EQ(expired.json["data_files_queued"].GetInt64(), 2);  // a and b
  ApiResponse cleaned = S::Call("POST", lake.catalog + "/maintenance/cleanup");
  ASSERT_EQ(cleaned.status, 200) << cleaned.body;
  EXPECT_EQ(cleaned.json["removed"].GetInt64(), 2);
  EXPECT_FALSE(std::filesystem::exists(lake.dir + "/a.parquet"));
  EXPECT_FALSE(std::filesystem::exists(lake.dir + "/b.parquet"));
  EXPECT_TRUE(std::filesystem::exists(lake.dir + "/c.parquet"));
  EXPECT_EQ(LiveAt(lake, {}), std::set<std::string>{lake.data + "c.parquet"});
  PgSession pg(TestPgConninfo("hoglake"));
  ASSERT_TRUE(pg.ok());
  ExpectRemovalBookkeeping(
      pg, lake.name, {lake.data + "a.parquet", lake.data + "b.parquet", lake.data + "c.parquet"});
  ExpectFileRowObjectsExist(pg, lake.name, LocalObjectExists);
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(lake.dir);
}

}  // namespace
}  // namespace hoglake::testing
