// The shared steps of the prepared-commit path (internal to src/client):
// Table::PrepareAppendFiles (prepare.cc) and Table::PrepareAppendTables
// (prepare_tables.cc) differ only in how one input becomes a described
// Parquet object; resolving the destination and the "register + upload +
// payload" step are the same code (pyhoglake-writer §8.4, §10.2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "client/client.h"
#include "common/status.h"
#include "parquet/metadata.h"

namespace hoglake::client {

// The destination as one prepare sees it.
struct PrepareTarget {
  TableInfo table;            // the fresh read, or the handle's info on a cache hit
  std::string key;            // the canonical idempotency key
  std::string expected_uuid;  // the incarnation guard sent in the payload
  int64_t read_snapshot = 0;  // the payload's conflict basis
};

// One input ready to register: a local file streamed verbatim, or bytes in
// memory (local_path empty). `label` names it in messages.
struct PreparedSource {
  std::string local_path;
  std::string bytes;
  std::string label;
  parquet::FileMetaData metadata;
  int64_t num_rows = 0;
  int64_t file_size = 0;
  int64_t footer_size = 0;
  std::optional<std::vector<std::optional<std::string>>> partition_values;
};

struct PreparePath {
  // Steps 1–2: the idempotency key must be a UUID and the concurrency ≥ 0
  // (kValidation). Then the basis: a usable writer cache (no
  // expected_table_info, younger than half the catalog's retention) makes
  // no GET — its uuid must be the expected one (else kTableRecreated) and
  // its snapshot is the basis; otherwise GET /catalogs/{c} then GET
  // …/tables/{t}?totals=false: the incarnation guard, adoption (and a cache
  // re-seed) when the uuid is the handle's, the layout check against
  // expected_table_info, basis = read_snapshot_id else the head. Tables
  // whose write.format.default is not parquet are refused.
  static Result<PrepareTarget> Resolve(Table& table, const PrepareOptions& options);

  // Steps 3–6 for `count` inputs: describe(i), in input order, yields input
  // i (or its refusal); then the partition arity ("prepared file partition
  // arity differs from destination"), rows > 0 ("prepared file must contain
  // rows"), column stats from its footer metadata, its URI
  // `<data_path>/data/<ns>/<t>/<key>/<uuid>-<i>.parquet` and registration.
  // No input → "prepared append must contain files". Only then the uploads
  // (up to options.concurrency at a time, first error wins, `*uploaded`
  // lists what landed in input order) and the payload.
  static Result<PreparedAppend> RegisterAndUpload(
      Table& table, const PrepareTarget& target, size_t count,
      const std::function<Result<PreparedSource>(size_t)>& describe, const PrepareOptions& options,
      std::vector<std::string>* uploaded);
};

}  // namespace hoglake::client
