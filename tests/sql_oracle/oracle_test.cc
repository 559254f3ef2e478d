// The PostgreSQL-oracle corpus runner: every record of corpus/*.test runs on
// a real PostgreSQL 15 and on the SQL engine over the same rows, and the
// answers must agree. oracle.h has the file formats and the comparison rules
// in full; in short, a corpus file holds records separated by blank lines:
//
//   # a comment
//   query [ordered]            (or: query error <SQLSTATE>)
//   SELECT …                   (one or more lines)
//   ----                       (optional, with the next line)
//   types: bigint, text
//
// PostgreSQL's answer is the expected one; `ordered` compares rows in order
// (only where ORDER BY fixes it), otherwise as multisets; an error record
// requires both to fail with that SQLSTATE. Values compare as PostgreSQL's
// text: numerics by value (a division result after rounding to the coarser
// scale), floats within 1e-12 relative, everything else exactly.
//
// Set-up, once per binary: a private PostgreSQL (the product's embedded
// server) in a temporary directory; a scratch database created with
// LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0 (byte order, as the engine
// compares text); a session with TimeZone=UTC, DateStyle=ISO and
// extra_float_digits=1 (shortest exact floats, as the engine prints them).
// The fixture tables (fixtures.tables) are created and filled there, and
// written as Parquet files into a MemoryLake for the engine.
//
// Each corpus file is one test case (OracleCorpus/Agrees.WithPostgres/<file>);
// a failure names file:line, the query and both answers. Column types are
// compared as PostgreSQL's format_type() spells them against the engine's
// PgTypeName(); only PostgreSQL's `numeric` against the engine's
// `numeric(38,s)` is allowed to differ (see TypesAgree).
//
//   ctest --test-dir build -R sql_oracle
//   ./build/tests/sql_oracle/sql_oracle_test --gtest_filter='*/strings'
#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include "memory_lake.h"
#include "oracle.h"
#include "sql/types/value.h"
// The embedded server is included here only.
#include "pg/embedded_postgres.h"

namespace hoglake::sql::oracle {
namespace {

namespace fs = std::filesystem;
using OracleServer = pg::EmbeddedPostgres;

const char* const kOracleDir = HOGLAKE_SQL_ORACLE_DIR;

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream all;
  all << in.rdbuf();
  return all.str();
}

std::vector<std::string> CorpusFiles() {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(fs::path(kOracleDir) / "corpus")) {
    if (entry.path().extension() == ".test") files.push_back(entry.path().stem().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string CorpusPath(const std::string& stem) {
  return (fs::path(kOracleDir) / "corpus" / (stem + ".test")).string();
}

// The relative form shown in messages: tests/sql_oracle/corpus/x.test.
std::string ShownPath(const std::string& stem) {
  return "tests/sql_oracle/corpus/" + stem + ".test";
}

columnar::DataTypePtr LakeType(const std::string& type) {
  if (type.size() > 2 && type.ends_with("[]")) {
    return columnar::List(LakeType(type.substr(0, type.size() - 2)));
  }
  if (type == "smallint") return columnar::Int16();
  if (type == "integer") return columnar::Int32();
  if (type == "bigint") return columnar::Int64();
  if (type == "real") return columnar::Float32();
  if (type == "double precision") return columnar::Float64();
  if (type == "date") return columnar::Date32();
  if (type == "timestamp") return columnar::Timestamp(columnar::TimeUnit::kMicro);
  if (type == "timestamptz") return columnar::Timestamp(columnar::TimeUnit::kMicro, "UTC");
  if (type == "text") return columnar::Utf8();
  if (type == "boolean") return columnar::Bool();
  if (type == "bytea") return columnar::Binary();
  int precision = 0, scale = 0;
  if (std::sscanf(type.c_str(), "numeric(%d,%d)", &precision, &scale) == 2) {
    return columnar::Decimal128(precision, scale);
  }
  throw std::runtime_error("fixture column type not supported: " + type);
}

std::string Quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

// ---- PostgreSQL ---------------------------------------------------------------

class Postgres {
 public:
  ~Postgres() {
    if (conn_ != nullptr) PQfinish(conn_);
  }

  void Connect(const std::string& conninfo) {
    conn_ = PQconnectdb(conninfo.c_str());
    if (PQstatus(conn_) != CONNECTION_OK) {
      throw std::runtime_error(std::string("cannot connect to PostgreSQL: ") +
                               PQerrorMessage(conn_));
    }
  }

  void Exec(const std::string& sql) {
    Answer a = Run(sql);
    if (a.failed) throw std::runtime_error("PostgreSQL: " + a.message + " in: " + sql);
  }

  Answer Run(const std::string& sql) {
    Answer answer;
    std::unique_ptr<PGresult, decltype(&PQclear)> res(PQexec(conn_, sql.c_str()), &PQclear);
    ExecStatusType status = PQresultStatus(res.get());
    if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
      answer.failed = true;
      const char* state = PQresultErrorField(res.get(), PG_DIAG_SQLSTATE);
      answer.sqlstate = state ? state : "?????";
      const char* message = PQresultErrorField(res.get(), PG_DIAG_MESSAGE_PRIMARY);
      answer.message = message ? message : PQerrorMessage(conn_);
      return answer;
    }
    const int columns = PQnfields(res.get());
    for (int c = 0; c < columns; ++c) {
      answer.types.push_back(TypeName(PQftype(res.get(), c), PQfmod(res.get(), c)));
    }
    for (int r = 0; r < PQntuples(res.get()); ++r) {
      std::vector<std::optional<std::string>> row;
      for (int c = 0; c < columns; ++c) {
        if (PQgetisnull(res.get(), r, c)) {
          row.push_back(std::nullopt);
        } else {
          row.emplace_back(std::string(PQgetvalue(res.get(), r, c), PQgetlength(res.get(), r, c)));
        }
      }
      answer.rows.push_back(std::move(row));
    }
    return answer;
  }

 private:
  // format_type(oid, typmod), cached.
  std::string TypeName(Oid oid, int typmod) {
    auto key = std::make_pair(oid, typmod);
    auto it = type_names_.find(key);
    if (it != type_names_.end()) return it->second;
    const std::string sql =
        "SELECT format_type(" + std::to_string(oid) + ", " + std::to_string(typmod) + ")";
    std::unique_ptr<PGresult, decltype(&PQclear)> res(PQexec(conn_, sql.c_str()), &PQclear);
    std::string name = "?";
    if (PQresultStatus(res.get()) == PGRES_TUPLES_OK && PQntuples(res.get()) == 1) {
      name = PQgetvalue(res.get(), 0, 0);
    }
    type_names_[key] = name;
    return name;
  }

  PGconn* conn_ = nullptr;
  std::map<std::pair<Oid, int>, std::string> type_names_;
};

// ---- the shared set-up ----------------------------------------------------------

struct Oracle {
  std::string dir;
  OracleServer server;
  Postgres pg;
  testing::MemoryLake lake;
  std::unique_ptr<Session> session;
};

Oracle* g_oracle = nullptr;
std::string g_setup_error;

class OracleEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    try {
      auto oracle = std::make_unique<Oracle>();
      char tmpl[] = "/tmp/hoglake-oracle-XXXXXX";
      if (mkdtemp(tmpl) == nullptr) throw std::runtime_error("mkdtemp failed");
      oracle->dir = tmpl;
      dir_ = tmpl;
      Status started = oracle->server.Start(oracle->dir, {"fsync=off", "full_page_writes=off"});
      if (!started.ok()) throw std::runtime_error(started.ToString());
      {
        Postgres admin;
        admin.Connect(oracle->server.conninfo());
        admin.Exec(
            "CREATE DATABASE oracle ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C' "
            "TEMPLATE template0");
      }
      // A later keyword of a libpq connection string wins.
      oracle->pg.Connect(oracle->server.conninfo() + " dbname=oracle");
      oracle->pg.Exec("SET TimeZone = 'UTC'");
      oracle->pg.Exec("SET DateStyle = 'ISO'");
      oracle->pg.Exec("SET extra_float_digits = 1");
      oracle->pg.Exec("SET statement_timeout = '30s'");
      // levenshtein is fuzzystrmatch's (a contrib extension); the engine has it built in.
      oracle->pg.Exec("CREATE EXTENSION IF NOT EXISTS fuzzystrmatch");
      LoadFixtures(*oracle);
      oracle->session = std::make_unique<Session>(oracle->lake.MakeSessionOptions());
      g_oracle = oracle.release();
    } catch (const std::exception& e) {
      g_setup_error = e.what();
    }
    if (g_oracle == nullptr && !dir_.empty()) {
      std::error_code ec;
      fs::remove_all(dir_, ec);
    }
  }

  void TearDown() override {
    if (g_oracle == nullptr) return;
    std::string dir = g_oracle->dir;
    g_oracle->server.Stop();
    delete g_oracle;
    g_oracle = nullptr;
    std::error_code ec;
    fs::remove_all(dir, ec);
  }

 private:
  std::string dir_;

  static void LoadFixtures(Oracle& oracle) {
    const std::string path = (fs::path(kOracleDir) / "fixtures.tables").string();
    for (const FixtureTable& table : ParseFixtures(ReadText(path), path)) {
      std::string ddl = "CREATE TABLE " + table.name + " (";
      std::vector<testing::TestColumn> columns;
      for (size_t c = 0; c < table.columns.size(); ++c) {
        if (c > 0) ddl += ", ";
        ddl += table.columns[c].name + " " + table.columns[c].type;
        columns.push_back({table.columns[c].name, LakeType(table.columns[c].type)});
      }
      oracle.pg.Exec(ddl + ")");
      oracle.lake.CreateTable(table.name, columns);
      if (!table.from_query.empty()) {
        // PostgreSQL makes the rows; the lake gets what it stored, as text.
        oracle.pg.Exec("INSERT INTO " + table.name + " " + table.from_query);
        Answer stored = oracle.pg.Run("SELECT * FROM " + table.name);
        if (stored.failed) throw std::runtime_error("PostgreSQL: " + stored.message);
        constexpr size_t kRowsPerFile = 2000;
        for (size_t at = 0; at < stored.rows.size(); at += kRowsPerFile) {
          const size_t end = std::min(stored.rows.size(), at + kRowsPerFile);
          oracle.lake.Append(table.name, std::vector<FixtureRow>(stored.rows.begin() + at,
                                                                 stored.rows.begin() + end));
        }
        continue;
      }
      for (const std::vector<FixtureRow>& file : table.files) {
        if (file.empty()) continue;
        std::string insert = "INSERT INTO " + table.name + " VALUES ";
        for (size_t r = 0; r < file.size(); ++r) {
          insert += r > 0 ? ", (" : "(";
          for (size_t c = 0; c < file[r].size(); ++c) {
            if (c > 0) insert += ", ";
            insert += file[r][c] ? Quote(*file[r][c]) : "NULL";
          }
          insert += ")";
        }
        oracle.pg.Exec(insert);
        oracle.lake.Append(table.name, file);
      }
    }
    oracle.pg.Exec("ANALYZE");
  }
};

Answer RunEngine(Session& session, const std::string& sql) {
  Answer answer;
  auto result = session.Execute(sql);
  if (!result.ok()) {
    answer.failed = true;
    answer.sqlstate = result.error().detail.sqlstate;
    answer.message = result.error().message;
    return answer;
  }
  for (const ResultColumn& column : result->columns)
    answer.types.push_back(PgTypeName(column.type));
  for (const columnar::RecordBatch& batch : result->batches) {
    for (int64_t r = 0; r < batch.num_rows; ++r) {
      std::vector<std::optional<std::string>> row;
      for (size_t c = 0; c < result->columns.size(); ++c) {
        Value v = ValueAt(*batch.columns[c], r, result->columns[c].type);
        if (v.is_null) {
          row.push_back(std::nullopt);
        } else {
          row.push_back(ValueToString(v));
        }
      }
      answer.rows.push_back(std::move(row));
    }
  }
  return answer;
}

// Unordered answers are shown sorted, so the two can be read side by side.
Answer Shown(const Record& record, Answer answer) {
  if (!record.ordered) {
    std::sort(answer.rows.begin(), answer.rows.end());
  }
  return answer;
}

class Agrees : public ::testing::TestWithParam<std::string> {};

TEST_P(Agrees, WithPostgres) {
  ASSERT_NE(g_oracle, nullptr) << "set-up failed: " << g_setup_error;
  const std::string shown = ShownPath(GetParam());
  std::vector<Record> records = ParseCorpus(ReadText(CorpusPath(GetParam())), shown);
  ASSERT_FALSE(records.empty()) << shown << " holds no records";
  for (const Record& record : records) {
    Answer expected = g_oracle->pg.Run(record.sql);
    Answer actual = RunEngine(*g_oracle->session, record.sql);
    std::string why = CompareAnswers(record, expected, actual);
    if (why.empty()) continue;
    ADD_FAILURE_AT(record.file.c_str(), record.line)
        << why << "\n"
        << record.sql << "\n--- PostgreSQL ---\n"
        << RenderAnswer(Shown(record, expected)) << "--- engine ---\n"
        << RenderAnswer(Shown(record, actual));
  }
}

INSTANTIATE_TEST_SUITE_P(OracleCorpus, Agrees, ::testing::ValuesIn(CorpusFiles()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(OracleCorpusSize, AtLeastFiveHundredRecords) {
  size_t total = 0;
  for (const std::string& stem : CorpusFiles()) {
    total += ParseCorpus(ReadText(CorpusPath(stem)), ShownPath(stem)).size();
  }
  EXPECT_GE(total, 500u);
}

// The rules themselves, without PostgreSQL.
TEST(OracleRules, NumericsCompareByValueAndDivisionResultsAfterRounding) {
  const auto kind = ValueKind::kNumeric;
  EXPECT_TRUE(ValuesEqual(kind, "1.50", "1.5"));
  EXPECT_TRUE(ValuesEqual(kind, "-0.00", "0"));
  EXPECT_TRUE(ValuesEqual(kind, "007", "7.000"));
  EXPECT_FALSE(ValuesEqual(kind, "1.2", "1.25"));
  EXPECT_FALSE(ValuesEqual(kind, "3", "3.4"));
  EXPECT_FALSE(ValuesEqual(kind, "-1", "1"));
  // 1/3.0: PostgreSQL's 20 fraction digits against the engine's 16.
  EXPECT_TRUE(ValuesEqual(kind, "0.33333333333333333333", "0.3333333333333333"));
  EXPECT_TRUE(ValuesEqual(kind, "0.66666666666666666667", "0.6666666666666667"));
  EXPECT_FALSE(ValuesEqual(kind, "0.66666666666666666667", "0.6666666666666666"));
  EXPECT_TRUE(ValuesEqual(kind, "2500000000", "2500000000.0000005023555556"));
  EXPECT_FALSE(ValuesEqual(kind, "NaN", "0"));
  EXPECT_TRUE(ValuesEqual(kind, std::nullopt, std::nullopt));
  EXPECT_FALSE(ValuesEqual(kind, std::nullopt, "0"));
}

TEST(OracleRules, FloatsWithinRelativeTolerance) {
  const auto kind = ValueKind::kFloat;
  EXPECT_TRUE(ValuesEqual(kind, "0.30000000000000004", "0.3"));
  EXPECT_TRUE(ValuesEqual(kind, "NaN", "NaN"));
  EXPECT_TRUE(ValuesEqual(kind, "-0", "0"));
  EXPECT_TRUE(ValuesEqual(kind, "1e+15", "1000000000000000"));
  EXPECT_FALSE(ValuesEqual(kind, "1", "1.000001"));
  EXPECT_FALSE(ValuesEqual(kind, "Infinity", "1.7976931348623157e+308"));
  EXPECT_FALSE(ValuesEqual(kind, "-Infinity", "Infinity"));
  EXPECT_FALSE(ValuesEqual(kind, "NaN", "1"));
  EXPECT_FALSE(ValuesEqual(ValueKind::kExact, "a", "a "));
  EXPECT_EQ(KindOfType("numeric(12,2)"), ValueKind::kNumeric);
  EXPECT_EQ(KindOfType("real"), ValueKind::kFloat);
  EXPECT_EQ(KindOfType("text"), ValueKind::kExact);
  EXPECT_TRUE(TypesAgree("numeric", "numeric(38,2)"));
  EXPECT_FALSE(TypesAgree("numeric", "numeric(12,2)"));
  EXPECT_FALSE(TypesAgree("numeric(12,2)", "numeric"));
}

TEST(OracleRules, MultisetsAndOrder) {
  Record unordered;
  Record ordered;
  ordered.ordered = true;
  Answer a, b;
  a.types = b.types = {"integer", "text"};
  a.rows = {{"1", "x"}, {"1", "x"}, {"2", std::nullopt}};
  b.rows = {{"2", std::nullopt}, {"1", "x"}, {"1", "x"}};
  EXPECT_EQ(CompareAnswers(unordered, a, b), "");
  EXPECT_NE(CompareAnswers(ordered, a, b), "");
  b.rows = {{"2", std::nullopt}, {"1", "x"}, {"2", "x"}};
  EXPECT_NE(CompareAnswers(unordered, a, b), "");
  b.rows.pop_back();
  EXPECT_NE(CompareAnswers(unordered, a, b), "");
  Record error;
  error.error_sqlstate = "22012";
  Answer failed;
  failed.failed = true;
  failed.sqlstate = "22012";
  EXPECT_EQ(CompareAnswers(error, failed, failed), "");
  EXPECT_NE(CompareAnswers(error, failed, a), "");
  EXPECT_NE(CompareAnswers(unordered, failed, failed), "");
}

TEST(OracleRules, ParsesTheFormats) {
  std::vector<Record> records = ParseCorpus(
      "# c\nquery ordered\nSELECT 1\n  , 2\n----\ntypes: numeric(5,2), text\n\n"
      "query error 22012\nSELECT 1 / 0\n",
      "x.test");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_TRUE(records[0].ordered);
  EXPECT_EQ(records[0].line, 2);
  EXPECT_EQ(records[0].sql, "SELECT 1\n  , 2");
  EXPECT_EQ(*records[0].types, (std::vector<std::string>{"numeric(5,2)", "text"}));
  EXPECT_EQ(*records[1].error_sqlstate, "22012");
  EXPECT_THROW(ParseCorpus("select 1\n", "x.test"), std::runtime_error);
  std::vector<FixtureTable> tables =
      ParseFixtures("table t (a integer, s text)\n1 | 'x|y'\nNULL | 'it''s'\n---\n2 | ''\n", "f");
  ASSERT_EQ(tables.size(), 1u);
  ASSERT_EQ(tables[0].files.size(), 2u);
  EXPECT_EQ(tables[0].files[0][0][1], "x|y");
  EXPECT_EQ(tables[0].files[0][1][0], std::nullopt);
  EXPECT_EQ(tables[0].files[0][1][1], "it's");
  EXPECT_EQ(tables[0].files[1][0][1], "");
  EXPECT_THROW(ParseFixtures("table t (a integer)\n1 | 2\n", "f"), std::runtime_error);
}

const ::testing::Environment* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new OracleEnvironment);

}  // namespace
}  // namespace hoglake::sql::oracle
