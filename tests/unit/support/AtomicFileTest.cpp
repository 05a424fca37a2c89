// Atomic writes replace the file whole, leave no temporary behind, and fail with path and errno text.
#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>

#include "sdk/support/AtomicFile.h"
#include "sdk/support/Diagnostics.h"

using namespace pyasc;

namespace {

std::vector<std::string> listDirectory(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = opendir(dir.c_str());
  while (dirent* e = readdir(d))
    if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") names.push_back(e->d_name);
  closedir(d);
  return names;
}

std::string errorOf(const std::string& path) {
  try {
    writeFileAtomically(path, std::string("x"));
  } catch (const CompileError& e) {
    return e.what();
  }
  return "(written)";
}

}  // namespace

TEST(AtomicFile, WritesAndReplacesWholeFiles) {
  char dir[] = "/tmp/pyasc-atomic-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string path = std::string(dir) + "/out.bin";
  writeFileAtomically(path, std::vector<uint8_t>{1, 2, 3});
  EXPECT_EQ(readFileBytes(path), (std::vector<uint8_t>{1, 2, 3}));
  writeFileAtomically(path, std::string("replaced"));
  EXPECT_EQ(readFileBytes(path), (std::vector<uint8_t>{'r', 'e', 'p', 'l', 'a', 'c', 'e', 'd'}));
  writeFileAtomically(path, std::vector<uint8_t>{});
  EXPECT_TRUE(readFileBytes(path).empty());
  EXPECT_EQ(listDirectory(dir), std::vector<std::string>{"out.bin"});
  std::system(("rm -rf " + std::string(dir)).c_str());
}

TEST(AtomicFile, FailuresNameThePathAndRemoveTheTemporary) {
  char dir[] = "/tmp/pyasc-atomic-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  EXPECT_EQ(errorOf("/nonexistent-dir/out.om"),
            "/nonexistent-dir/out.om: error: cannot write: No such file or directory");
  std::string sub = std::string(dir) + "/sub";
  mkdir(sub.c_str(), 0755);
  EXPECT_EQ(errorOf(sub), sub + ": error: cannot write: Is a directory");
  EXPECT_EQ(listDirectory(dir), std::vector<std::string>{"sub"});
  try {
    readFileBytes(sub);
    FAIL();
  } catch (const CompileError& e) {
    EXPECT_EQ(std::string(e.what()), sub + ": error: cannot read: Is a directory");
  }
  std::system(("rm -rf " + std::string(dir)).c_str());
}

TEST(AtomicFile, WritesToADeviceInPlaceWithoutReplacingIt) {
  struct stat before {};
  ASSERT_EQ(::stat("/dev/null", &before), 0);
  ASSERT_TRUE(S_ISCHR(before.st_mode));
  pyasc::writeFileAtomically("/dev/null", std::string("discarded"));
  struct stat after {};
  ASSERT_EQ(::stat("/dev/null", &after), 0);
  EXPECT_TRUE(S_ISCHR(after.st_mode)) << "/dev/null must stay a character device";
  EXPECT_EQ(before.st_rdev, after.st_rdev);
}
