// Direct libpq access for integration tests that look beneath the API: one
// session on the test server's embedded PostgreSQL, and scratch databases
// for tests that start a second server of their own.
#pragma once

#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "server_fixture.h"

namespace hoglake::testing {

// libpq conninfo of database `dbname` on the shared test server's PostgreSQL.
inline std::string TestPgConninfo(const std::string& dbname) {
  return "host=" + ServerEnvironment::data_dir() + "/run port=5432 user=hoglake dbname=" + dbname;
}

// One libpq session. Exec expects a command (no rows), Run any success, Int
// a one-value query; failures are test failures naming the SQL.
class PgSession {
 public:
  explicit PgSession(const std::string& conninfo) : conn_(PQconnectdb(conninfo.c_str())) {}
  ~PgSession() { PQfinish(conn_); }
  PgSession(const PgSession&) = delete;
  PgSession& operator=(const PgSession&) = delete;

  bool ok() const { return PQstatus(conn_) == CONNECTION_OK; }
  void Exec(const std::string& sql) {
    PGresult* r = PQexec(conn_, sql.c_str());
    EXPECT_EQ(PQresultStatus(r), PGRES_COMMAND_OK) << sql << ": " << PQerrorMessage(conn_);
    PQclear(r);
  }
  void Run(const std::string& sql) {
    PGresult* r = PQexec(conn_, sql.c_str());
    const ExecStatusType status = PQresultStatus(r);
    EXPECT_TRUE(status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK)
        << sql << ": " << PQerrorMessage(conn_);
    PQclear(r);
  }
  // The first column of every row (NULLs as "").
  std::vector<std::string> Column(const std::string& sql) {
    PGresult* r = PQexec(conn_, sql.c_str());
    std::vector<std::string> values;
    if (PQresultStatus(r) == PGRES_TUPLES_OK) {
      for (int i = 0; i < PQntuples(r); ++i) values.emplace_back(PQgetvalue(r, i, 0));
    } else {
      ADD_FAILURE() << sql << ": " << PQerrorMessage(conn_);
    }
    PQclear(r);
    return values;
  }
  int64_t Int(const std::string& sql) {
    PGresult* r = PQexec(conn_, sql.c_str());
    int64_t value = -1;
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 && !PQgetisnull(r, 0, 0)) {
      value = std::atoll(PQgetvalue(r, 0, 0));
    } else {
      ADD_FAILURE() << sql << ": " << PQerrorMessage(conn_);
    }
    PQclear(r);
    return value;
  }

 private:
  PGconn* conn_;
};

// --database-url for a second server on database `name` of the test server's PostgreSQL.
inline std::string TestDatabaseUrl(const std::string& name) {
  return "postgresql:///" + name + "?host=" + ServerEnvironment::data_dir() + "/run&user=hoglake";
}

// Creates database `name` on the test server's PostgreSQL (for a second
// server started with --database-url).
inline void CreateTestDatabase(const std::string& name) {
  PgSession admin(TestPgConninfo("postgres"));
  ASSERT_TRUE(admin.ok());
  admin.Exec("CREATE DATABASE " + name);
}

}  // namespace hoglake::testing
