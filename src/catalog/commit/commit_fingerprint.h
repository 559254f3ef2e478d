// The idempotency fingerprint of a commit request (contract §4.3): one
// version byte then the SHA-256 of a canonical JSON rendering in which append
// groups, their files and each file's column stats are sorted (reordering
// them is the same request) while partition_values keep their order; every
// registration field, read_snapshot, expected_table_uuid, author and message
// are included, and optional fields at their defaults are omitted.
#pragma once

#include <string>

#include "catalog/commit/commit_request.h"

namespace hoglake::catalog {

inline constexpr char kFingerprintVersion = 1;

std::string CanonicalCommitJson(const CommitRequest& request);
std::string CommitFingerprint(const CommitRequest& request);  // 33 bytes

}  // namespace hoglake::catalog
