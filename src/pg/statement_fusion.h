// Statement fusion: several mutations' statements sent as fewer statements.
//
// A group-commit batch (catalog/commit/commit_batch.h) writes each member's rows with the
// same few statement texts (the file insert, the staged snapshot); every
// statement costs PostgreSQL a fixed executor start-up, constraint set-up and
// protocol round of its own, on the one connection that runs the catalog's
// batches. A statement marked `fusable` (pg_connection.h) takes its rows as
// arrays, so the statements of several members with the same text and the
// same params[0] are one statement with each array parameter concatenated.
//
// FuseStatements keeps every statement that is not fusable, in order, and
// puts each fused statement where the first of its parts was. Rows of the
// fused parts stay in member order, so ids handed out in member order stay
// in row order. A fusable statement whose parameters are not all array
// literals (a NULL, a scalar) is kept as it is, unfused.
//
// Fusion reorders statements across members: a later member's fusable
// statements run before the non-fusable statements of the members ahead of
// it. A statement may be marked fusable only if it commutes with every
// other statement a batch member writes (its rows and theirs are disjoint
// and neither reads what the other writes), as the file insert and the
// staged snapshot do with the upload-claim mark and the receipt insert.
#pragma once

#include <string>
#include <vector>

#include "pg/pg_connection.h"

namespace hoglake::pg {

struct FusedStatements {
  std::vector<PgStatement> statements;
  bool fused = false;  // at least two statements became one
};

FusedStatements FuseStatements(std::vector<std::vector<PgStatement>> per_member);

// Appends array literal `b` to `*a` in place: "{a,b}" + "{c}" → "{a,b,c}";
// either side may be "{}". Both must be array literals of one dimension as
// PgIntArray / PgTextArray build them.
void AppendArrayLiteral(const std::string& b, std::string* a);

}  // namespace hoglake::pg
