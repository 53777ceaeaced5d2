//===- SanitizerDefaults.cpp - ASan/UBSan options of sanitized tools ------===//
//
// Linked into every executable of a sanitized build (TILE_SANITIZE or
// TILE_FUZZ). The project's code is instrumented, libLLVM and libMLIR are
// the distribution's and are not:
//   - LLVM's allocator headers poison the free part of a BumpPtrAllocator
//     slab when they are inlined into instrumented code, and unpoison what
//     they hand out; the same slab then serves allocations made inside
//     libMLIR, which unpoisons nothing, so every later access to those
//     objects would be reported as use-after-poison. allow_user_poisoning=0
//     makes the headers' poisoning a no-op (real heap, stack and global
//     errors are still caught).
//   - The leak checker would report LLVM's and MLIR's process-lifetime
//     caches.
// Options in ASAN_OPTIONS/UBSAN_OPTIONS override these.
//
//===----------------------------------------------------------------------===//

extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0:detect_leaks=0";
}

extern "C" const char *__ubsan_default_options() {
  return "print_stacktrace=1";
}
