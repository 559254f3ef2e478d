#include "storage/local_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "common/uuid.h"

namespace hoglake {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kFileScheme = "file://";
constexpr std::string_view kTempPrefix = ".hoglake-tmp-";

std::string ErrnoText(int err) { return std::strerror(err); }

Error OsError(std::string_view what, std::string_view path, int err) {
  if (err == ENOENT || err == ENOTDIR) return NotFound("object ", path, " does not exist");
  return IoError(what, " ", path, ": ", ErrnoText(err));
}

Result<std::string> RealPath(const std::string& path) {
  char buffer[PATH_MAX];
  if (::realpath(path.c_str(), buffer) == nullptr) {
    return IoError("cannot resolve ", path, ": ", ErrnoText(errno));
  }
  return std::string(buffer);
}

Status WriteAll(int fd, std::string_view bytes, std::string_view path) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return IoError("cannot write ", path, ": ", ErrnoText(errno));
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return Status::Ok();
}

Status FsyncDirectory(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return IoError("cannot open directory ", dir, ": ", ErrnoText(errno));
  int rc = ::fsync(fd);
  int err = errno;
  ::close(fd);
  if (rc != 0) return IoError("cannot fsync directory ", dir, ": ", ErrnoText(err));
  return Status::Ok();
}

// Reads up to `length` bytes at `offset` from `fd`.
Result<std::string> ReadAt(int fd, uint64_t offset, uint64_t length, std::string_view path) {
  std::string out(length, '\0');
  uint64_t done = 0;
  while (done < length) {
    ssize_t n = ::pread(fd, out.data() + done, length - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return IoError("cannot read ", path, ": ", ErrnoText(errno));
    }
    if (n == 0) break;
    done += static_cast<uint64_t>(n);
  }
  out.resize(done);
  return out;
}

// An open regular file, closed on destruction.
class OpenFile {
 public:
  ~OpenFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  static Result<std::unique_ptr<OpenFile>> ForReading(const std::string& file,
                                                      std::string_view path) {
    int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return OsError("cannot open", path, errno);
    auto out = std::unique_ptr<OpenFile>(new OpenFile(fd));
    struct stat st;
    if (::fstat(fd, &st) != 0) return IoError("cannot stat ", path, ": ", ErrnoText(errno));
    if (!S_ISREG(st.st_mode)) return NotFound("object ", path, " does not exist (not a file)");
    out->size_ = static_cast<uint64_t>(st.st_size);
    return out;
  }
  int fd() const { return fd_; }
  uint64_t size() const { return size_; }

 private:
  explicit OpenFile(int fd) : fd_(fd) {}
  int fd_;
  uint64_t size_ = 0;
};

class LocalWriter final : public ObjectWriter {
 public:
  LocalWriter(std::string path, std::string file, std::string dir, std::string temp, int fd)
      : path_(std::move(path)),
        file_(std::move(file)),
        dir_(std::move(dir)),
        temp_(std::move(temp)),
        fd_(fd) {}
  ~LocalWriter() override { (void)Abort(); }

  Status Append(std::string_view bytes) override {
    if (!state_.ok()) return state_;
    if (done_) return InvalidArgument("write of ", path_, " is already finished");
    state_ = WriteAll(fd_, bytes, path_);
    if (state_.ok()) written_ += bytes.size();
    return state_;
  }

  Status Commit() override {
    if (!state_.ok()) return state_;
    if (done_) return InvalidArgument("write of ", path_, " is already finished");
    if (::fsync(fd_) != 0) {
      state_ = IoError("cannot fsync ", path_, ": ", ErrnoText(errno));
      return state_;
    }
    int rc = ::close(fd_);
    fd_ = -1;
    if (rc != 0) {
      state_ = IoError("cannot close ", path_, ": ", ErrnoText(errno));
      return state_;
    }
    if (::rename(temp_.c_str(), file_.c_str()) != 0) {
      state_ = IoError("cannot rename into place ", path_, ": ", ErrnoText(errno));
      return state_;
    }
    done_ = true;
    return FsyncDirectory(dir_);
  }

  Status Abort() override {
    if (done_) return Status::Ok();
    done_ = true;
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    if (::unlink(temp_.c_str()) != 0 && errno != ENOENT) {
      return IoError("cannot remove temporary file of ", path_, ": ", ErrnoText(errno));
    }
    return Status::Ok();
  }

  uint64_t bytes_written() const override { return written_; }

 private:
  std::string path_;  // the object URI, for messages
  std::string file_;
  std::string dir_;
  std::string temp_;
  int fd_;
  uint64_t written_ = 0;
  bool done_ = false;
  Status state_;
};

}  // namespace

Result<std::unique_ptr<LocalStore>> LocalStore::Open(std::string_view root_uri) {
  if (!root_uri.starts_with(kFileScheme)) {
    return InvalidArgument("local store root ", root_uri, " is not a file:// URI");
  }
  std::string_view dir = root_uri.substr(kFileScheme.size());
  while (dir.size() > 1 && dir.back() == '/') dir.remove_suffix(1);
  if (!dir.starts_with('/')) {
    return InvalidArgument("local store root ", root_uri,
                           " must name an absolute directory (file:///abs/dir)");
  }
  if (dir == "/") return InvalidArgument("refusing to root a local store at /");
  HOGLAKE_RETURN_IF_ERROR(CheckObjectKey(dir.substr(1), root_uri));
  std::string root_dir(dir);
  std::error_code ec;
  fs::create_directories(root_dir, ec);
  if (ec) return IoError("cannot create local store root ", root_dir, ": ", ec.message());
  HOGLAKE_ASSIGN_OR_RETURN(std::string real_root, RealPath(root_dir));
  if (!fs::is_directory(real_root, ec)) {
    return InvalidArgument("local store root ", root_dir, " is not a directory");
  }
  return std::unique_ptr<LocalStore>(
      new LocalStore(StrCat(kFileScheme, root_dir), root_dir, std::move(real_root)));
}

Result<std::string> LocalStore::FilePath(std::string_view path) const {
  if (!path.starts_with(root_uri_) || path.size() <= root_uri_.size() + 1 ||
      path[root_uri_.size()] != '/') {
    return InvalidArgument("path ", path, " is outside the store root ", root_uri_);
  }
  std::string_view key = path.substr(root_uri_.size() + 1);
  HOGLAKE_RETURN_IF_ERROR(CheckObjectKey(key, path));
  std::string file = StrCat(root_dir_, "/", key);
  HOGLAKE_RETURN_IF_ERROR(CheckInsideRoot(file, path));
  return file;
}

Status LocalStore::CheckInsideRoot(const std::string& file, std::string_view path) const {
  // Resolve the deepest existing ancestor: anything below it does not exist
  // yet, so cannot be a link.
  std::string candidate = file;
  while (true) {
    char buffer[PATH_MAX];
    if (::realpath(candidate.c_str(), buffer) != nullptr) {
      std::string_view real(buffer);
      if (real == real_root_ || (real.starts_with(real_root_) && real[real_root_.size()] == '/')) {
        return Status::Ok();
      }
      return InvalidArgument("path ", path, " resolves outside the store root ", root_uri_,
                             " (through a symbolic link)");
    }
    if (errno != ENOENT && errno != ENOTDIR) {
      return IoError("cannot resolve ", candidate, ": ", ErrnoText(errno));
    }
    size_t slash = candidate.rfind('/');
    if (candidate.size() <= root_dir_.size() || slash == std::string::npos) {
      return IoError("store root ", root_dir_, " has disappeared");
    }
    candidate.resize(slash);
  }
}

Status LocalStore::Put(std::string_view path, std::string_view bytes) {
  HOGLAKE_ASSIGN_OR_RETURN(auto writer, OpenWriter(path));
  HOGLAKE_RETURN_IF_ERROR(writer->Append(bytes));
  return writer->Commit();
}

Result<std::unique_ptr<ObjectWriter>> LocalStore::OpenWriter(std::string_view path) {
  HOGLAKE_ASSIGN_OR_RETURN(std::string file, FilePath(path));
  std::string dir = file.substr(0, file.rfind('/'));
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return IoError("cannot create directory for ", path, ": ", ec.message());
  HOGLAKE_RETURN_IF_ERROR(CheckInsideRoot(dir, path));  // a racing link swap
  std::string temp = StrCat(dir, "/", kTempPrefix, NewUuid());
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return IoError("cannot create temporary file for ", path, ": ", ErrnoText(errno));
  return std::unique_ptr<ObjectWriter>(
      new LocalWriter(std::string(path), std::move(file), std::move(dir), std::move(temp), fd));
}

Result<std::string> LocalStore::Get(std::string_view path) {
  HOGLAKE_ASSIGN_OR_RETURN(std::string file, FilePath(path));
  HOGLAKE_ASSIGN_OR_RETURN(auto open, OpenFile::ForReading(file, path));
  return ReadAt(open->fd(), 0, open->size(), path);
}

Result<std::string> LocalStore::GetRange(std::string_view path, uint64_t offset, uint64_t length) {
  HOGLAKE_ASSIGN_OR_RETURN(std::string file, FilePath(path));
  HOGLAKE_ASSIGN_OR_RETURN(auto open, OpenFile::ForReading(file, path));
  if (offset > open->size()) {
    return InvalidArgument("range offset ", offset, " is past the end of ", path, " (",
                           open->size(), " bytes)");
  }
  return ReadAt(open->fd(), offset, std::min(length, open->size() - offset), path);
}

Result<uint64_t> LocalStore::Head(std::string_view path) {
  HOGLAKE_ASSIGN_OR_RETURN(std::string file, FilePath(path));
  struct stat st;
  if (::stat(file.c_str(), &st) != 0) return OsError("cannot stat", path, errno);
  if (!S_ISREG(st.st_mode)) return NotFound("object ", path, " does not exist (not a file)");
  return static_cast<uint64_t>(st.st_size);
}

Result<bool> LocalStore::Delete(std::string_view path) {
  if (!path.starts_with(root_uri_) || path.size() <= root_uri_.size() + 1 ||
      path[root_uri_.size()] != '/') {
    return InvalidArgument("path ", path, " is outside the store root ", root_uri_);
  }
  std::string_view key = path.substr(root_uri_.size() + 1);
  HOGLAKE_RETURN_IF_ERROR(CheckObjectKey(key, path));
  const std::string file = StrCat(root_dir_, "/", key);
  // The parent directory decides where unlink acts: resolve it (once per
  // directory per handle), not every object.
  const std::string dir = file.substr(0, file.rfind('/'));
  bool dir_checked = false;
  {
    std::lock_guard<std::mutex> lock(checked_mutex_);
    dir_checked = dir == checked_dir_;
  }
  if (!dir_checked) {
    HOGLAKE_RETURN_IF_ERROR(CheckInsideRoot(dir, path));
    std::lock_guard<std::mutex> lock(checked_mutex_);
    checked_dir_ = dir;
  }
  struct stat st;
  if (::lstat(file.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return false;
    return IoError("cannot stat ", path, ": ", ErrnoText(errno));
  }
  // A link leaf is judged by where it points, as every other operation does.
  if (S_ISLNK(st.st_mode)) HOGLAKE_RETURN_IF_ERROR(CheckInsideRoot(file, path));
  if (S_ISDIR(st.st_mode)) return false;  // a directory is not an object
  if (::unlink(file.c_str()) != 0) {
    if (errno == ENOENT) return false;  // a concurrent delete won
    return IoError("cannot delete ", path, ": ", ErrnoText(errno));
  }
  return true;
}

Result<std::vector<ObjectInfo>> LocalStore::List(std::string_view prefix) {
  if (!prefix.starts_with(root_uri_) ||
      (prefix.size() > root_uri_.size() && prefix[root_uri_.size()] != '/')) {
    return InvalidArgument("list prefix ", prefix, " is outside the store root ", root_uri_);
  }
  // The deepest directory that can hold matches: the prefix up to its last '/'.
  std::string_view rel = prefix.substr(root_uri_.size());
  std::string_view dir_part = rel.substr(0, rel.empty() ? 0 : rel.rfind('/'));
  if (dir_part.size() > 1) HOGLAKE_RETURN_IF_ERROR(CheckObjectKey(dir_part.substr(1), prefix));
  std::string dir = StrCat(root_dir_, dir_part);
  std::vector<ObjectInfo> out;
  std::error_code ec;
  HOGLAKE_RETURN_IF_ERROR(CheckInsideRoot(dir, prefix));
  if (!fs::is_directory(fs::symlink_status(dir, ec))) return out;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::directory_entry& entry = *it;
    std::error_code entry_ec;  // an entry that vanishes mid-listing is skipped
    if (!fs::is_regular_file(entry.symlink_status(entry_ec))) continue;
    std::string name = entry.path().filename().string();
    if (name.starts_with(kTempPrefix)) continue;
    std::string uri = StrCat(root_uri_, "/", entry.path().lexically_relative(root_dir_).string());
    if (!std::string_view(uri).starts_with(prefix)) continue;
    uint64_t size = entry.file_size(entry_ec);
    if (entry_ec) continue;
    out.push_back(ObjectInfo{std::move(uri), size});
  }
  if (ec && ec != std::errc::no_such_file_or_directory) {
    return IoError("cannot list ", prefix, ": ", ec.message());
  }
  std::sort(out.begin(), out.end(),
            [](const ObjectInfo& a, const ObjectInfo& b) { return a.path < b.path; });
  return out;
}

}  // namespace hoglake
