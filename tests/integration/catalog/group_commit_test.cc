// Group commit (src/catalog/commit/commit_batcher.h): concurrent commits to one
// catalog share a PostgreSQL transaction, each in its own savepoint. Valid
// and refused requests interleave here from many threads: every valid one
// lands exactly once with dense snapshot ids, every refused one gets its own
// typed error and writes nothing, row ids tile each table, and a keyed
// request sent several times at once (likely landing in one batch) is
// written once and answered with the same receipt.
#include <atomic>
#include <barrier>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <mutex>
#include <numeric>
#include <set>
#include <thread>

#include "invariants.h"
#include "pg/advisory_locks.h"
#include "pg_session.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using S = ServerEnvironment;

struct Outcome {
  int status = 0;
  std::string error;
  std::string body;
  int64_t snapshot_id = -1;
};

Outcome Send(const std::string& path, const std::string& body) {
  ApiResponse r = S::Call("POST", path, body);
  Outcome o{r.status, r.error(), r.body, -1};
  if (r.status == 200) o.snapshot_id = r.json["snapshot_id"].GetInt64();
  return o;
}

std::string Files(const std::string& prefix, int count, int64_t rows,
                  const std::string& extra = "") {
  std::string files;
  for (int f = 0; f < count; ++f) {
    if (f) files += ",";
    files += R"({"path":")" + prefix + "-" + std::to_string(f) + R"(.parquet","record_count":)" +
             std::to_string(rows + f) + R"(,"file_size_bytes":100)" + extra + "}";
  }
  return files;
}

std::string AppendBody(const std::string& table, const std::string& files,
                       const std::string& group_extra = "", const std::string& top = "") {
  return "{" + top + R"("appends":[{"namespace":"ns","table":")" + table + R"(","files":[)" +
         files + "]" + group_extra + "}]}";
}

// The value of one series of the shared server's /metrics.
int64_t ServerMetric(const std::string& series) {
  return static_cast<int64_t>(MetricSample(S::Call("GET", "/metrics").body, series));
}

// hoglake_commit_lock_wait_seconds_count: one per lock acquisition, i.e. per
// batch (informational only: how much batching a run saw is timing).
int64_t LockWaits() { return ServerMetric("hoglake_commit_lock_wait_seconds_count"); }

// Every request that wrote got its own snapshot: together, sorted, they are
// exactly head_before + 1 .. the catalog's head, which is returned.
int64_t ExpectDenseSnapshots(const std::string& catalog_path, int64_t head_before,
                             std::vector<int64_t> committed) {
  const int64_t head = S::Call("GET", catalog_path).json["head_snapshot_id"].GetInt64();
  std::sort(committed.begin(), committed.end());
  EXPECT_EQ(head, head_before + static_cast<int64_t>(committed.size()));
  for (size_t i = 0; i < committed.size(); ++i) {
    EXPECT_EQ(committed[i], head_before + 1 + static_cast<int64_t>(i));
  }
  return head;
}

TEST(ConcurrencyTest, GroupCommitIsolatesRefusedRequestsAndReplays) {
  const std::string name = NewCatalog();
  const std::string c = "/v1/catalogs/" + name;
  const std::string data = "s3://bucket/" + name + "/";
  ASSERT_EQ(S::Call("POST", c + "/namespaces", R"({"name":"ns"})").status, 201);
  for (const char* t : {"t0", "t1", "gone", "full"}) {
    ASSERT_EQ(
        S::Call("POST", c + "/namespaces/ns/tables",
                std::string(R"({"name":")") + t + R"(","columns":[{"name":"id","type":"long"}]})")
            .status,
        201);
  }
  ASSERT_EQ(S::Call("DELETE", c + "/namespaces/ns/tables/gone").status, 200);
  const std::string t1_uuid =
      S::Call("GET", c + "/namespaces/ns/tables/t1").json["table_uuid"].GetString();
  // `full`'s row-id allocator is 8 short of int64's end: an append to it is
  // refused only by the write statement, after the request's snapshot was
  // staged in the batch, so the batch must restore its head.
  {
    PgSession pg(TestPgConninfo("hoglake"));
    ASSERT_TRUE(pg.ok());
    pg.Exec(
        "UPDATE hog_table_stats SET next_row_id = 9223372036854775799 WHERE catalog_id = "
        "(SELECT catalog_id FROM hog_catalog WHERE name = '" +
        name +
        "') AND table_id = (SELECT v.table_id FROM hog_table_version v JOIN "
        "hog_catalog c USING (catalog_id) WHERE c.name = '" +
        name + "' AND v.name = 'full' AND v.end_snapshot IS NULL)");
  }
  const int64_t head_before = S::Call("GET", c).json["head_snapshot_id"].GetInt64();
  const int64_t lock_waits_before = LockWaits();

  std::mutex mu;
  std::vector<int64_t> committed;  // snapshot ids of requests that wrote
  std::map<std::string, int64_t> files_expected{{"t0", 0}, {"t1", 0}};
  std::atomic<int> wrong{0};
  auto record = [&](const Outcome& o, const std::string& table, int64_t files) {
    std::lock_guard<std::mutex> g(mu);
    committed.push_back(o.snapshot_id);
    files_expected[table] += files;
  };

  constexpr int kWriters = 8;
  constexpr int kCommitsEach = 30;
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w] {
      for (int i = 0; i < kCommitsEach; ++i) {
        const std::string tag = std::to_string(w) + "-" + std::to_string(i);
        const std::string ok = data + "ok-" + tag;
        const std::string bad = data + "bad-" + tag;
        switch ((w * 7 + i) % 8) {
          case 0: {  // valid, unkeyed
            Outcome o = Send(c + "/commit", AppendBody("t0", Files(ok, 2, 10)));
            if (o.status != 200) {
              ++wrong;
              ADD_FAILURE() << o.status << " " << o.body;
            } else {
              record(o, "t0", 2);
            }
            break;
          }
          case 1: {  // valid, guarded by the live incarnation
            Outcome o = Send(
                c + "/commit",
                AppendBody("t1", Files(ok, 1, 7), R"(,"expected_table_uuid":")" + t1_uuid + "\""));
            if (o.status != 200) {
              ++wrong;
              ADD_FAILURE() << o.status << " " << o.body;
            } else {
              record(o, "t1", 1);
            }
            break;
          }
          case 2: {  // refused under the lock: stats name an unknown column
            Outcome o =
                Send(c + "/commit",
                     AppendBody("t0", Files(bad, 2, 10,
                                            R"(,"column_stats":[{"field_id":99,"value_count":1,)"
                                            R"("null_count":0}])")));
            EXPECT_EQ(o.status, 422) << o.body;
            EXPECT_EQ(o.error, "validation") << o.body;
            break;
          }
          case 3: {  // refused: the table was dropped
            Outcome o = Send(c + "/commit", AppendBody("gone", Files(bad, 1, 5)));
            EXPECT_EQ(o.status, 409) << o.body;
            EXPECT_EQ(o.error, "table_dropped") << o.body;
            break;
          }
          case 4: {  // refused: another incarnation expected
            Outcome o = Send(
                c + "/commit",
                AppendBody("t1", Files(bad, 1, 5),
                           R"(,"expected_table_uuid":"00000000-0000-4000-8000-000000000001")"));
            EXPECT_EQ(o.status, 409) << o.body;
            EXPECT_EQ(o.error, "table_recreated") << o.body;
            break;
          }
          case 5: {  // refused by the write: row ids would overflow
            Outcome o = Send(c + "/commit",
                             AppendBody("full", Files(bad, 2, 5,
                                                      R"(,"column_stats":[{"field_id":1,)"
                                                      R"("value_count":5,"null_count":0}])")));
            EXPECT_EQ(o.status, 422) << o.body;
            EXPECT_EQ(o.error, "validation") << o.body;
            EXPECT_NE(o.body.find("would overflow"), std::string::npos) << o.body;
            break;
          }
          case 6: {  // keyed and refused before any read: a path outside data_path
            char key[40];
            std::snprintf(key, sizeof key, "00000000-0000-4000-a000-%012d", w * 1000 + i);
            Outcome o = Send(c + "/commit",
                             AppendBody("t0", Files("s3://elsewhere/bad-" + tag, 1, 5), "",
                                        R"("idempotency_key":")" + std::string(key) + "\","));
            EXPECT_EQ(o.status, 422) << o.body;
            EXPECT_EQ(o.error, "validation") << o.body;
            break;
          }
          default: {  // keyed, then replayed: one write, the same receipt
            char key[40];
            std::snprintf(key, sizeof key, "00000000-0000-4000-8000-%012d", w * 1000 + i);
            const std::string body = AppendBody(
                "t0", Files(ok, 3, 4), "", R"("idempotency_key":")" + std::string(key) + "\",");
            Outcome first = Send(c + "/commit", body);
            Outcome again = Send(c + "/commit", body);
            if (first.status != 200 || again.body != first.body) {
              ++wrong;
              ADD_FAILURE() << first.body << " then " << again.body;
            } else {
              record(first, "t0", 3);
            }
            break;
          }
        }
      }
    });
  }

  // The same keyed request from four threads at once, while the writers keep
  // batches forming; a fifth sends another request under the same key.
  constexpr int kRounds = 12;
  constexpr int kSame = 4;
  std::barrier start(kSame + 1);
  std::vector<std::vector<Outcome>> same(kRounds, std::vector<Outcome>(kSame));
  std::vector<Outcome> other(kRounds);
  std::vector<std::string> same_body(kRounds);
  for (int r = 0; r < kRounds; ++r) {
    char key[40];
    std::snprintf(key, sizeof key, "00000000-0000-4000-9000-%012d", r);
    const std::string top = R"("idempotency_key":")" + std::string(key) + "\",";
    same_body[r] = AppendBody("t1", Files(data + "same-" + std::to_string(r), 2, 3), "", top);
  }
  std::vector<std::thread> racers;
  for (int k = 0; k <= kSame; ++k) {
    racers.emplace_back([&, k] {
      for (int r = 0; r < kRounds; ++r) {
        char key[40];
        std::snprintf(key, sizeof key, "00000000-0000-4000-9000-%012d", r);
        start.arrive_and_wait();
        if (k < kSame) {
          same[r][k] = Send(c + "/commit", same_body[r]);
        } else {
          other[r] = Send(c + "/commit",
                          AppendBody("t1", Files(data + "other-" + std::to_string(r), 1, 9), "",
                                     R"("idempotency_key":")" + std::string(key) + "\","));
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  for (auto& t : racers) t.join();

  for (int r = 0; r < kRounds; ++r) {
    // Whichever request of the key came first was written: if one of the
    // same content, all four got its receipt and the other one a validation
    // error; if the other one, the four got validation errors.
    if (other[r].status == 200) {
      for (const Outcome& o : same[r]) {
        EXPECT_EQ(o.status, 422) << o.body;
        EXPECT_EQ(o.error, "validation") << o.body;
      }
      record(other[r], "t1", 1);
      continue;
    }
    EXPECT_EQ(other[r].status, 422) << other[r].body;
    EXPECT_EQ(other[r].error, "validation") << other[r].body;
    bool all_ok = true;
    for (const Outcome& o : same[r]) {
      EXPECT_EQ(o.status, 200) << o.body;
      EXPECT_EQ(o.body, same[r][0].body);
      all_ok = all_ok && o.status == 200 && o.body == same[r][0].body;
    }
    if (all_ok) record(same[r][0], "t1", 2);
  }
  EXPECT_EQ(wrong.load(), 0);

  const int64_t head = ExpectDenseSnapshots(c, head_before, committed);
  std::cout << "[ info ] " << (head - head_before) << " snapshots written in "
            << (LockWaits() - lock_waits_before)
            << " commit-lock acquisitions (batches, refused-only ones included)\n";
  ExpectCatalogInvariants(name, {"ns.t0", "ns.t1"});
  for (const auto& [table, files] : files_expected) {
    EXPECT_EQ(S::Call("GET", c + "/namespaces/ns/tables/" + table).json["file_count"].GetInt64(),
              files)
        << table;
  }
  PgSession pg(TestPgConninfo("hoglake"));
  ASSERT_TRUE(pg.ok());
  const std::string catalog_id = "(SELECT catalog_id FROM hog_catalog WHERE name = '" + name + "')";
  // Refused requests wrote nothing: no file rows, no stats or partition
  // values left without their file, no receipts.
  EXPECT_EQ(pg.Int("SELECT count(*) FROM hog_data_file WHERE catalog_id = " + catalog_id +
                   " AND path LIKE '%/bad-%'"),
            0);
  ExpectNoOrphanFileChildren(pg, name);
  ExpectLiveTotalsKept(pg, name);
  EXPECT_EQ(pg.Int("SELECT count(*) FROM hog_commit_receipt WHERE catalog_id = " + catalog_id +
                   " AND idempotency_key::text LIKE '00000000-0000-4000-a000-%'"),
            0);
  // snapshot_time is monotone with snapshot id.
  EXPECT_EQ(pg.Int("SELECT count(*) FROM hog_snapshot a JOIN hog_snapshot b ON b.catalog_id = "
                   "a.catalog_id AND b.snapshot_id = a.snapshot_id + 1 WHERE a.catalog_id = " +
                   catalog_id + " AND b.snapshot_time < a.snapshot_time"),
            0);
  // One receipt per key that wrote, naming a snapshot of the catalog.
  EXPECT_EQ(pg.Int("SELECT count(*) FROM hog_commit_receipt r WHERE r.catalog_id = " + catalog_id +
                   " AND NOT EXISTS (SELECT 1 FROM hog_snapshot s WHERE s.catalog_id = "
                   "r.catalog_id AND s.snapshot_id = r.snapshot_id)"),
            0);
}

// A statement that fails inside one request's writes (a trigger planted
// beneath the API rejects its file rows) fails that request alone: the
// requests batched with it, before and after, are written with dense
// snapshot ids, and the failed one leaves no row behind.
TEST(ConcurrencyTest, GroupCommitSurvivesAStatementFailingMidBatch) {
  const TableLake lake = NewTableLake("ns", "t");
  ASSERT_FALSE(HasFailure());
  const std::string &name = lake.name, &c = lake.catalog, &data = lake.data;
  PgSession pg(TestPgConninfo("hoglake"));
  ASSERT_TRUE(pg.ok());
  pg.Exec(
      "CREATE FUNCTION hog_test_reject_boom() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
      "RAISE EXCEPTION 'planted failure for %', NEW.path; END $$");
  pg.Exec(
      "CREATE TRIGGER hog_test_reject_boom BEFORE INSERT ON hog_data_file FOR EACH ROW WHEN "
      "(NEW.path LIKE '%/boom-%') EXECUTE FUNCTION hog_test_reject_boom()");
  const int64_t head_before = S::Call("GET", c).json["head_snapshot_id"].GetInt64();

  constexpr int kWriters = 8;
  constexpr int kCommitsEach = 24;
  std::mutex mu;
  std::vector<int64_t> committed;
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w] {
      for (int i = 0; i < kCommitsEach; ++i) {
        const bool boom = (w + i) % 4 == 0;
        const std::string prefix =
            data + (boom ? "boom-" : "ok-") + std::to_string(w) + "-" + std::to_string(i);
        Outcome o = Send(c + "/commit", AppendBody("t", Files(prefix, 2, 10)));
        if (boom) {
          EXPECT_EQ(o.status, 500) << o.body;
          EXPECT_EQ(o.error, "internal_error") << o.body;
          continue;
        }
        if (o.status != 200) {
          ++wrong;
          ADD_FAILURE() << o.status << " " << o.body;
          continue;
        }
        std::lock_guard<std::mutex> g(mu);
        committed.push_back(o.snapshot_id);
      }
    });
  }
  for (auto& t : threads) t.join();
  pg.Exec("DROP TRIGGER hog_test_reject_boom ON hog_data_file");
  pg.Exec("DROP FUNCTION hog_test_reject_boom()");
  EXPECT_EQ(wrong.load(), 0);

  ExpectDenseSnapshots(c, head_before, committed);
  EXPECT_EQ(S::Call("GET", c + "/namespaces/ns/tables/t").json["file_count"].GetInt64(),
            2 * static_cast<int64_t>(committed.size()));
  ExpectCatalogInvariants(name, {"ns.t"});
  ExpectNoOrphanFileChildren(pg, name);
  ExpectLiveTotalsKept(pg, name);
  const std::string catalog_id = "(SELECT catalog_id FROM hog_catalog WHERE name = '" + name + "')";
  EXPECT_EQ(pg.Int("SELECT count(*) FROM hog_data_file WHERE catalog_id = " + catalog_id +
                   " AND path LIKE '%/boom-%'"),
            0);
}

// A batch's writes are fused (src/pg/statement_fusion.h): requests
// queued behind a held commit lock form one batch whose file rows, and whose
// snapshots, are each inserted by one statement (counted by statement-level
// triggers planted beneath the API), with every row as separate statements
// would have written it: each commit's files at its own snapshot with its own
// stats, author and message on the right snapshot, row ids tiling.
TEST(ConcurrencyTest, GroupCommitFusesABatchsWrites) {
  const TableLake lake = NewTableLake("ns", "t");
  ASSERT_FALSE(HasFailure());
  const std::string &name = lake.name, &c = lake.catalog, &data = lake.data;
  PgSession pg(TestPgConninfo("hoglake"));
  ASSERT_TRUE(pg.ok());
  const int64_t catalog_id =
      pg.Int("SELECT catalog_id FROM hog_catalog WHERE name = '" + name + "'");
  pg.Exec("CREATE TABLE hog_test_statement_rows (relation text, catalog_id bigint, n bigint)");
  pg.Exec(
      "CREATE FUNCTION hog_test_count_rows() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
      "INSERT INTO hog_test_statement_rows SELECT TG_TABLE_NAME, catalog_id, count(*) "
      "FROM new_rows GROUP BY catalog_id; RETURN NULL; END $$");
  for (const char* relation : {"hog_data_file", "hog_snapshot"}) {
    pg.Exec(std::string("CREATE TRIGGER hog_test_count_rows AFTER INSERT ON ") + relation +
            " REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT "
            "EXECUTE FUNCTION hog_test_count_rows()");
  }
  const int64_t head_before = S::Call("GET", c).json["head_snapshot_id"].GetInt64();
  const std::string batches = "hoglake_commit_batch_requests";
  const int64_t batches_before = ServerMetric(batches + "_count");
  const int64_t batched_before = ServerMetric(batches + "_sum");
  const int64_t singles_before = ServerMetric(batches + "_bucket{le=\"1\"}");
  const int64_t up_to_4_before = ServerMetric(batches + "_bucket{le=\"4\"}");

  // The first request leads a batch of its own and waits for the lock; the
  // next three queue behind it and form the second batch.
  PgSession holder(TestPgConninfo("hoglake"));
  ASSERT_TRUE(holder.ok());
  holder.Run("BEGIN");
  holder.Run("SELECT pg_advisory_xact_lock(" +
             std::to_string(pg::AdvisoryLockKey(pg::LockClass::kCatalogCommit, catalog_id)) + ")");
  constexpr int kRequests = 4;
  const int files_of[kRequests] = {2, 2, 3, 1};
  std::vector<Outcome> outcomes(kRequests);
  // File f of request k has 100 × (k + 1) + f records and that many values
  // in its column stats: each file's stats row is told apart by its count.
  auto send = [&](int k) {
    std::string files;
    for (int f = 0; f < files_of[k]; ++f) {
      const std::string records = std::to_string(100 * (k + 1) + f);
      files += (f ? "," : "") + std::string(R"({"path":")") + data + "w" + std::to_string(k) + "-" +
               std::to_string(f) + R"(.parquet","record_count":)" + records +
               R"(,"file_size_bytes":100,"column_stats":[{"field_id":1,"value_count":)" + records +
               R"(,"null_count":0}]})";
    }
    const std::string top = R"("author":"writer-)" + std::to_string(k) + R"(","message":"commit )" +
                            std::to_string(k) + "\",";
    outcomes[k] = Send(c + "/commit", AppendBody("t", files, "", top));
  };
  std::vector<std::thread> threads;
  bool holding = true;
  auto release = [&] {
    if (holding) holder.Run("COMMIT");  // releases the xact lock
    holding = false;
    for (auto& t : threads) {
      if (t.joinable()) t.join();
    }
  };
  struct AtExit {
    std::function<void()> run;
    ~AtExit() { run(); }
  } released_on_any_exit{release};
  threads.emplace_back(send, 0);
  bool waiting = false;
  for (int i = 0; i < 200 && !waiting; ++i) {
    waiting = pg.Int(
                  "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
                  "AND classid = " +
                  std::to_string(static_cast<int64_t>(pg::LockClass::kCatalogCommit)) +
                  " AND objid = " + std::to_string(catalog_id) + " AND objsubid = 1") > 0;
    if (!waiting) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_TRUE(waiting) << "the first request never waited for the commit lock";
  for (int k = 1; k < kRequests; ++k) threads.emplace_back(send, k);
  // Time for three requests to reach the queue (they are written only after
  // the lock is released, whatever this wait is).
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  release();
  for (int t = 0; t < 2; ++t) {
    pg.Exec(std::string("DROP TRIGGER hog_test_count_rows ON ") +
            (t ? "hog_snapshot" : "hog_data_file"));
  }
  pg.Exec("DROP FUNCTION hog_test_count_rows()");
  // /metrics saw the two batches: one of one request, one of three.
  EXPECT_EQ(ServerMetric(batches + "_count") - batches_before, 2);
  EXPECT_EQ(ServerMetric(batches + "_sum") - batched_before, kRequests);
  EXPECT_EQ(ServerMetric(batches + "_bucket{le=\"1\"}") - singles_before, 1);
  EXPECT_EQ(ServerMetric(batches + "_bucket{le=\"4\"}") - up_to_4_before, 2);
  auto statement_rows = [&](const std::string& relation) {
    std::vector<int64_t> rows;
    for (const std::string& n :
         pg.Column("SELECT n FROM hog_test_statement_rows WHERE relation = '" + relation +
                   "' AND catalog_id = " + std::to_string(catalog_id) + " ORDER BY n")) {
      rows.push_back(std::stoll(n));
    }
    return rows;
  };
  const std::vector<int64_t> snapshot_rows = statement_rows("hog_snapshot");
  const std::vector<int64_t> file_rows = statement_rows("hog_data_file");
  pg.Exec("DROP TABLE hog_test_statement_rows");

  std::vector<int64_t> committed;
  for (const Outcome& o : outcomes) {
    ASSERT_EQ(o.status, 200) << o.body;
    committed.push_back(o.snapshot_id);
  }
  ExpectDenseSnapshots(c, head_before, committed);
  // Every row was inserted once, and some statement carried the rows of
  // several requests: with all three queued in time (the norm), the lone
  // first batch's 1 snapshot and 2 files, then one statement each for the
  // other three's 3 snapshots and 6 files.
  auto sum = [](const std::vector<int64_t>& v) { return std::accumulate(v.begin(), v.end(), 0L); };
  EXPECT_EQ(sum(snapshot_rows), kRequests);
  EXPECT_EQ(sum(file_rows), 8);
  EXPECT_LT(snapshot_rows.size(), static_cast<size_t>(kRequests)) << "no snapshots were fused";
  EXPECT_LT(file_rows.size(), static_cast<size_t>(kRequests)) << "no file inserts were fused";

  const std::string in_catalog = " WHERE catalog_id = " + std::to_string(catalog_id);
  for (int k = 0; k < kRequests; ++k) {
    const std::string snapshot = std::to_string(outcomes[k].snapshot_id);
    EXPECT_EQ(pg.Int("SELECT count(*) FROM hog_data_file" + in_catalog + " AND begin_snapshot = " +
                     snapshot + " AND path LIKE '%/w" + std::to_string(k) + "-%'"),
              files_of[k])
        << k;
    EXPECT_EQ(
        pg.Column("SELECT author || '/' || commit_message FROM hog_snapshot" + in_catalog +
                  " AND snapshot_id = " + snapshot),
        std::vector<std::string>{"writer-" + std::to_string(k) + "/commit " + std::to_string(k)});
    EXPECT_EQ(pg.Int("SELECT count(*) FROM hog_snapshot_change" + in_catalog +
                     " AND snapshot_id = " + snapshot + " AND kind = 'table_inserted_into'"),
              1);
  }
  // Each file's stats row is its own: its value count is its record count.
  ApiResponse scan = S::Call("GET", c + "/namespaces/ns/tables/t/scan?include=column_stats");
  ASSERT_EQ(scan.status, 200) << scan.body;
  ASSERT_EQ(scan.json.Size(), 8u);
  for (const auto& task : scan.json.GetArray()) {
    const auto& file = task["data_file"];
    EXPECT_EQ(file["column_stats"][0]["value_count"].GetInt64(), file["record_count"].GetInt64())
        << file["path"].GetString();
  }
  EXPECT_EQ(pg.Int("SELECT count(*) FROM hog_snapshot a JOIN hog_snapshot b ON b.catalog_id = "
                   "a.catalog_id AND b.snapshot_id = a.snapshot_id + 1" +
                   std::string(" WHERE a.catalog_id = ") + std::to_string(catalog_id) +
                   " AND b.snapshot_time < a.snapshot_time"),
            0);
  ExpectCatalogInvariants(name, {"ns.t"});
  ExpectNoOrphanFileChildren(pg, name);
  ExpectLiveTotalsKept(pg, name);
}

}  // namespace
}  // namespace hoglake::testing
