#include "common/random_access.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace hoglake {
namespace {

class LocalFileSource : public RandomAccessSource {
 public:
  LocalFileSource(int fd, int64_t size, std::string path)
      : fd_(fd), size_(size), path_(std::move(path)) {}
  ~LocalFileSource() override { ::close(fd_); }
  const std::string& name() const override { return path_; }
  int64_t size() const override { return size_; }
  Status ReadInto(int64_t offset, int64_t length, char* out) override {
    int64_t done = 0;
    while (done < length) {
      const ssize_t n = ::pread(fd_, out + done, static_cast<size_t>(length - done),
                                static_cast<off_t>(offset + done));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return IoError("reading ", path_, ": ", std::strerror(errno));
      if (n == 0) return IoError("reading ", path_, ": file shrank while reading");
      done += n;
    }
    return Status::Ok();
  }

 private:
  int fd_;
  int64_t size_;
  std::string path_;
};

class InMemorySource : public RandomAccessSource {
 public:
  InMemorySource(std::shared_ptr<const std::string> bytes, std::string name)
      : bytes_(std::move(bytes)), name_(std::move(name)) {}
  const std::string& name() const override { return name_; }
  int64_t size() const override { return static_cast<int64_t>(bytes_->size()); }
  Status ReadInto(int64_t offset, int64_t length, char* out) override {
    if (offset < 0 || length < 0 || offset + length > size()) {
      return IoError("reading ", name_, ": range [", offset, ", +", length, ") past its ", size(),
                     " bytes");
    }
    std::memcpy(out, bytes_->data() + offset, static_cast<size_t>(length));
    return Status::Ok();
  }
  std::optional<std::string_view> View(int64_t offset, int64_t length) override {
    if (offset < 0 || length < 0 || offset + length > size()) return std::nullopt;
    return std::string_view(*bytes_).substr(static_cast<size_t>(offset),
                                            static_cast<size_t>(length));
  }

 private:
  std::shared_ptr<const std::string> bytes_;
  std::string name_;
};

}  // namespace

Result<std::shared_ptr<RandomAccessSource>> OpenLocalFileSource(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return IoError("cannot open ", path, ": ", std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int error = errno;
    ::close(fd);
    return IoError("cannot stat ", path, ": ", std::strerror(error));
  }
  return std::shared_ptr<RandomAccessSource>(
      std::make_shared<LocalFileSource>(fd, static_cast<int64_t>(st.st_size), path));
}

std::shared_ptr<RandomAccessSource> MemorySource(std::shared_ptr<const std::string> bytes,
                                                 std::string name) {
  return std::make_shared<InMemorySource>(std::move(bytes), std::move(name));
}

std::vector<ByteRange> CoalesceRanges(std::span<const ByteRange> ranges, int64_t max_gap,
                                      int64_t max_merged) {
  std::vector<ByteRange> sorted;
  for (const ByteRange& r : ranges) {
    if (r.length > 0) sorted.push_back(r);
  }
  std::sort(sorted.begin(), sorted.end(), [](const ByteRange& a, const ByteRange& b) {
    return a.offset != b.offset ? a.offset < b.offset : a.length > b.length;
  });
  std::vector<ByteRange> out;
  for (const ByteRange& r : sorted) {
    if (!out.empty()) {
      ByteRange& last = out.back();
      const int64_t end = std::max(last.end(), r.end());
      const bool overlapping = r.offset < last.end();
      const bool near = r.offset - last.end() <= max_gap;
      if (overlapping || (near && end - last.offset <= max_merged)) {
        last.length = end - last.offset;
        continue;
      }
    }
    out.push_back(r);
  }
  return out;
}

}  // namespace hoglake
