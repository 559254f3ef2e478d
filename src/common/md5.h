// MD5 digests (OpenSSL underneath), for protocols that still ask for one —
// S3's Content-MD5 on DeleteObjects. Not for anything security-relevant.
#pragma once

#include <string>
#include <string_view>

namespace hoglake {

// The 16-byte binary digest of `data`.
std::string Md5(std::string_view data);

}  // namespace hoglake
