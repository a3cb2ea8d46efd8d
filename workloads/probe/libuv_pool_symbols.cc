// See libuv_pool_symbols.h. The ELF file is mapped read-only and walked once: its .symtab, the
// local symbols of each source file in the order the linker wrote them, and the global
// uv_queue_work that ties file addresses to the running image.
#include "workloads/probe/libuv_pool_symbols.h"

#include <dlfcn.h>
#include <link.h>
#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

namespace stallbench {
namespace {

// The statics read, with the size each must have (a different size: a libuv this does not know).
const std::map<std::string, std::size_t> kWanted = {
    {"mutex", sizeof(pthread_mutex_t)}, {"wq", sizeof(UvQueue)},           {"slow_io_pending_wq", sizeof(UvQueue)},
    {"run_slow_work_message", sizeof(UvQueue)}, {"exit_message", sizeof(UvQueue)},
    {"idle_threads", sizeof(unsigned)},  {"nthreads", sizeof(unsigned)},     {"slow_io_work_running", sizeof(unsigned)}};

class MappedFile {
 public:
  explicit MappedFile(const char* path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st {};
    if (fd < 0) return;
    if (fstat(fd, &st) == 0 && st.st_size > 0) {
      void* p = mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) {
        data_ = static_cast<const unsigned char*>(p);
        size_ = static_cast<std::size_t>(st.st_size);
      }
    }
    close(fd);
  }
  ~MappedFile() {
    if (data_) munmap(const_cast<unsigned char*>(data_), size_);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  const unsigned char* at(std::uint64_t offset, std::uint64_t length) const {
    return data_ && offset <= size_ && length <= size_ - offset ? data_ + offset : nullptr;
  }

 private:
  const unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
};

struct Found {
  std::map<std::string, const Elf64_Sym*> locals;  // of the threadpool.c whose statics are complete
  const Elf64_Sym* queue_work = nullptr;
};

// Walks .symtab: the locals following each FILE "threadpool.c" symbol, and uv_queue_work.
bool scan(const MappedFile& file, Found& found, std::string& why) {
  const auto* eh = reinterpret_cast<const Elf64_Ehdr*>(file.at(0, sizeof(Elf64_Ehdr)));
  if (!eh || std::memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64) {
    why = "not a 64-bit ELF file";
    return false;
  }
  const auto* sections = reinterpret_cast<const Elf64_Shdr*>(file.at(eh->e_shoff, eh->e_shnum * sizeof(Elf64_Shdr)));
  for (unsigned i = 0; sections && i < eh->e_shnum; ++i) {
    if (sections[i].sh_type != SHT_SYMTAB || sections[i].sh_link >= eh->e_shnum) continue;
    const Elf64_Shdr& names = sections[sections[i].sh_link];
    const auto* syms = reinterpret_cast<const Elf64_Sym*>(file.at(sections[i].sh_offset, sections[i].sh_size));
    const auto* strings = reinterpret_cast<const char*>(file.at(names.sh_offset, names.sh_size));
    if (!syms || !strings) break;
    std::size_t count = sections[i].sh_size / sizeof(Elf64_Sym);
    auto name = [&](const Elf64_Sym& s) { return s.st_name < names.sh_size ? strings + s.st_name : ""; };
    bool in_threadpool = false;
    std::map<std::string, const Elf64_Sym*> group;
    for (std::size_t k = 0; k < count; ++k) {
      const Elf64_Sym& s = syms[k];
      unsigned type = ELF64_ST_TYPE(s.st_info), bind = ELF64_ST_BIND(s.st_info);
      if (type == STT_FILE) {
        if (in_threadpool && group.size() == kWanted.size()) found.locals = group;
        in_threadpool = std::strcmp(name(s), "threadpool.c") == 0;
        group.clear();
      } else if (in_threadpool && bind == STB_LOCAL && type == STT_OBJECT) {
        auto wanted = kWanted.find(name(s));
        if (wanted != kWanted.end() && s.st_size == wanted->second) group[wanted->first] = &s;
      } else if (bind == STB_GLOBAL && type == STT_FUNC && std::strcmp(name(s), "uv_queue_work") == 0) {
        found.queue_work = &s;
      }
    }
    if (in_threadpool && group.size() == kWanted.size()) found.locals = group;
    if (found.locals.empty()) why = "its symbol table has no threadpool.c statics of the sizes this libuv layout has";
    else if (!found.queue_work) why = "its symbol table has no uv_queue_work";
    return !found.locals.empty() && found.queue_work;
  }
  why = "it has no symbol table (a stripped binary)";
  return false;
}

// "1.52" or, with its patch, "1.52.1".
std::string version_text(unsigned v, bool patch) {
  std::string text = std::to_string(v >> 16 & 0xffu) + "." + std::to_string(v >> 8 & 0xffu);
  return patch ? text + "." + std::to_string(v & 0xffu) : text;
}

}  // namespace

std::string unchecked_libuv(unsigned v) {
  if (v >= kOldestCheckedLibuv && v <= kNewestCheckedLibuv) return "";
  return "not available on this line: libuv " + version_text(v, true) + "'s thread pool was not checked (its " +
         "internals are read only in libuv " + version_text(kOldestCheckedLibuv, false) + "-" +
         version_text(kNewestCheckedLibuv, false) + ")";
}

unsigned threads_libuv_starts(const char* threadpool_size) {
  if (!threadpool_size) return 4;
  auto n = static_cast<unsigned>(std::atoi(threadpool_size));
  return n == 0 ? 1 : std::min(n, 1024u);
}

bool find_libuv_pool(LibuvPool& pool, std::string& why) {
  auto uv_version = reinterpret_cast<unsigned (*)()>(dlsym(RTLD_DEFAULT, "uv_version"));
  why = uv_version ? unchecked_libuv(uv_version()) : "uv_version is not exported by this process: its libuv cannot be told";
  if (!why.empty()) return false;
  void* queue_work = dlsym(RTLD_DEFAULT, "uv_queue_work");
  Dl_info info{};
  link_map* object = nullptr;
  if (!queue_work || !dladdr1(queue_work, &info, reinterpret_cast<void**>(&object), RTLD_DL_LINKMAP) || !object) {
    why = "uv_queue_work is not exported by this process";
    return false;
  }
  // The main program has no name in its link map: /proc/self/exe is its file (named by where it links to).
  bool main_program = !object->l_name || !object->l_name[0];
  std::string path = main_program ? "/proc/self/exe" : object->l_name;
  char* real = main_program ? realpath(path.c_str(), nullptr) : nullptr;
  std::string shown = real ? real : path;
  free(real);
  MappedFile file(path.c_str());
  Found found;
  if (!scan(file, found, why)) {
    why = shown + ": " + why;
    return false;
  }
  // Address in the running image = address in the file + the object's load bias, the same for
  // every symbol of it; a file whose uv_queue_work does not land there is not the image that runs.
  if (found.queue_work->st_value + object->l_addr != reinterpret_cast<std::uintptr_t>(queue_work)) {
    why = shown + ": its uv_queue_work is not where this process has it (the file changed since Node started)";
    return false;
  }
  auto at = [&](const char* name) { return reinterpret_cast<void*>(found.locals.at(name)->st_value + object->l_addr); };
  pool.mutex = static_cast<pthread_mutex_t*>(at("mutex"));
  pool.wq = static_cast<UvQueue*>(at("wq"));
  pool.slow_io_pending = static_cast<UvQueue*>(at("slow_io_pending_wq"));
  pool.run_slow_marker = static_cast<UvQueue*>(at("run_slow_work_message"));
  pool.exit_marker = static_cast<UvQueue*>(at("exit_message"));
  pool.idle_threads = static_cast<const unsigned*>(at("idle_threads"));
  pool.nthreads = static_cast<const unsigned*>(at("nthreads"));
  pool.slow_io_running = static_cast<const unsigned*>(at("slow_io_work_running"));
  return true;
}

}  // namespace stallbench
