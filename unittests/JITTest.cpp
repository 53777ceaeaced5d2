//===- JITTest.cpp - The JIT library without (and with) a GPU -------------===//

#include "tile/Runtime/JIT.h"
#include "tile/Runtime/CUDADriver.h"
#include "tile/Runtime/DiskCache.h"
#include "tile/Runtime/GridExpr.h"
#include "tile/Runtime/Specialization.h"
#include "tile/Support/Float16.h"
#include "tile/Support/Float8.h"

#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"

#include <fstream>
#include <thread>
#include <sys/wait.h>
#include <unistd.h>

using namespace tile;

namespace {

std::string examples() { return TILE_EXAMPLES_DIR; }

/// A fresh cache directory per test.
std::string tempDir(const char *name) {
  llvm::SmallString<128> dir;
  llvm::sys::fs::createUniqueDirectory(name, dir);
  return std::string(dir);
}

const std::vector<DeclaredParam> kMatmulParams = {
    {"a", DType::fp16, true}, {"M", std::nullopt, false},
    {"s", std::nullopt, false}};

TEST(Specialization, FromArguments) {
  alignas(16) static char buffer[64];
  auto specs = specialize(kMatmulParams,
                          {ptr(reinterpret_cast<half *>(buffer)), int32_t(4096),
                           int32_t(1)});
  ASSERT_TRUE(bool(specs)) << specs.error();
  EXPECT_EQ(signatureString(*specs), "a=*fp16:16,M=i32:16,s=i32:1");
  auto unaligned = specialize(
      kMatmulParams,
      {ptr(reinterpret_cast<half *>(buffer + 2)), int32_t(100), int64_t(3)});
  ASSERT_TRUE(bool(unaligned)) << unaligned.error();
  EXPECT_EQ(signatureString(*unaligned), "a=*fp16,M=i32,s=i64");
  EXPECT_NE(specializationKey(*specs), specializationKey(*unaligned));
  // A multiple of 8 but not of 16 (1000) is specialized as such: its own
  // key, the same from the quick path.
  std::vector<Arg> eights = {ptr(reinterpret_cast<half *>(buffer)),
                             int32_t(1000), int32_t(24)};
  auto byEight = specialize(kMatmulParams, eights);
  ASSERT_TRUE(bool(byEight)) << byEight.error();
  EXPECT_EQ(signatureString(*byEight), "a=*fp16:16,M=i32:8,s=i32:8");
  EXPECT_NE(specializationKey(*byEight), specializationKey(*specs));
  EXPECT_NE(specializationKey(*byEight), specializationKey(*unaligned));
  std::string key;
  ASSERT_TRUE(
      quickSpecializationKey(kMatmulParams, eights.data(), eights.size(), key));
  EXPECT_EQ(key, specializationKey(*byEight));
}

TEST(Specialization, DoNotSpecialize) {
  alignas(16) static char buffer[64];
  // @jit(do_not_specialize=["M"], do_not_specialize_on_alignment=["a", "s"])
  std::vector<DeclaredParam> params = kMatmulParams;
  params[1].specializeValue = false;
  params[0].specializeAlignment = false;
  params[2].specializeAlignment = false;
  std::vector<Arg> args = {ptr(reinterpret_cast<half *>(buffer)),
                           int32_t(4096), int32_t(1)};
  auto specs = specialize(params, args);
  ASSERT_TRUE(bool(specs)) << specs.error();
  // Only s's value 1 is left to specialize on.
  EXPECT_EQ(signatureString(*specs), "a=*fp16,M=i32,s=i32:1");
  std::string key;
  ASSERT_TRUE(quickSpecializationKey(params, args.data(), args.size(), key));
  EXPECT_EQ(key, specializationKey(*specs));
  args[1] = int32_t(1);
  auto one = specialize(params, args);
  ASSERT_TRUE(bool(one)) << one.error();
  EXPECT_EQ(specializationKey(*one), specializationKey(*specs));
}

/// A kernel's @jit(do_not_specialize=...) reaches the JIT's specialization:
/// a multiple of 16 compiles no second kernel (without the decorator it
/// gets 16-byte accesses, four elements per thread).
TEST(JIT, DoNotSpecialize) {
  JIT jit(JITOptions{"", false});
  const char *source = "@jit(do_not_specialize=['n'])\n"
                       "@grid(cdiv(n, 512))\n"
                       "kernel add(x: *fp32, n: i32):\n"
                       "    o = program_id(0) * 512 + arange(0, 512)\n"
                       "    store(x + o, load(x + o, mask=o < n) + 1.0, "
                       "mask=o < n)\n";
  auto k = jit.loadSource(source, "add", {}, "add.tile");
  ASSERT_TRUE(bool(k)) << k.error();
  alignas(16) static float x[512];
  auto sixteen = k->ptxFor({ptr(x), int32_t(4096)});
  auto odd = k->ptxFor({ptr(x), int32_t(4097)});
  ASSERT_TRUE(bool(sixteen)) << sixteen.error();
  ASSERT_TRUE(bool(odd)) << odd.error();
  EXPECT_EQ(*sixteen, *odd);
  // Without the decorator the two calls compile two kernels.
  auto plain = jit.loadSource(std::string(source).substr(
                                  std::string(source).find('\n') + 1),
                              "add", {}, "plain.tile");
  ASSERT_TRUE(bool(plain)) << plain.error();
  auto plainSixteen = plain->ptxFor({ptr(x), int32_t(4096)});
  auto plainOdd = plain->ptxFor({ptr(x), int32_t(4097)});
  ASSERT_TRUE(bool(plainSixteen) && bool(plainOdd));
  EXPECT_NE(*plainSixteen, *plainOdd);
  auto bad = jit.loadSource("@jit(do_not_specialize=['m'])\n" +
                                std::string(source).substr(
                                    std::string(source).find('\n') + 1),
                            "add", {}, "bad.tile");
  ASSERT_FALSE(bool(bad));
  EXPECT_NE(bad.error().find("'m' is not a parameter of 'add'"),
            std::string::npos)
      << bad.error();
}

TEST(Specialization, Errors) {
  alignas(16) static char buffer[64];
  auto count = specialize(kMatmulParams, {int32_t(1)});
  ASSERT_FALSE(bool(count));
  EXPECT_EQ(count.error(), "the kernel takes 3 run-time arguments, 1 were given");
  auto kind = specialize(kMatmulParams, {int32_t(1), int32_t(1), int32_t(1)});
  ASSERT_FALSE(bool(kind));
  EXPECT_EQ(kind.error(), "argument 1 ('a'): the kernel declares *fp16, got a "
                          "i32 scalar");
  auto dtype = specialize(
      kMatmulParams,
      {ptr(reinterpret_cast<float *>(buffer)), int32_t(1), int32_t(1)});
  ASSERT_FALSE(bool(dtype));
  EXPECT_EQ(dtype.error(), "argument 1 ('a'): the kernel declares *fp16, got a "
                           "pointer to fp32");
  auto null = specialize(kMatmulParams,
                         {ptr(static_cast<half *>(nullptr)), int32_t(1), int32_t(1)});
  ASSERT_FALSE(bool(null));
  EXPECT_EQ(null.error(), "argument 1 ('a') is a null pointer (None is "
                          "allowed only where the kernel's @heuristics read "
                          "the pointer or its body tests it against None)");
  std::vector<DeclaredParam> aligned = {{"x", DType::fp32, true, 16}};
  auto promise = specialize(aligned, {ptr(reinterpret_cast<float *>(buffer + 4))});
  ASSERT_FALSE(bool(promise));
  EXPECT_EQ(promise.error(), "argument 1 ('x'): the kernel declares the address "
                             "a multiple of 16 bytes, it is not");
}

TEST(Specialization, HalfConversions) {
  EXPECT_EQ(tilec::toHalfBits(1.0f), 0x3c00);
  EXPECT_EQ(tilec::toHalfBits(-2.5f), 0xc100);
  EXPECT_EQ(tilec::toHalfBits(65504.0f), 0x7bff);
  EXPECT_EQ(tilec::toHalfBits(1e6f), 0x7c00);      // overflow to infinity
  EXPECT_EQ(tilec::toHalfBits(5.9604645e-8f), 1);  // smallest subnormal
  EXPECT_EQ(tilec::toHalfBits(1.0f + 1.0f / 2048), 0x3c00); // tie to even
  EXPECT_EQ(tilec::toBFloat16Bits(1.0f), 0x3f80);
  EXPECT_EQ(tilec::toBFloat16Bits(-3.0f), 0xc040);
}

TEST(Specialization, Float8Pointers) {
  alignas(16) static char buffer[64];
  std::vector<DeclaredParam> params = {{"q", std::nullopt, true}};
  auto specs =
      specialize(params, {ptr(reinterpret_cast<float8e4nv *>(buffer))});
  ASSERT_TRUE(bool(specs)) << specs.error();
  EXPECT_EQ(signatureString(*specs), "q=*fp8e4nv:16");
  auto e5 = specialize(params, {ptr(reinterpret_cast<float8e5 *>(buffer + 1))});
  ASSERT_TRUE(bool(e5)) << e5.error();
  EXPECT_EQ(signatureString(*e5), "q=*fp8e5");
}

TEST(Specialization, Float8Codec) {
  using tilec::Float8Kind;
  auto bits = [](double x, Float8Kind k) {
    return tilec::float8Bits(tilec::roundToFloat8(x, k), k);
  };
  EXPECT_EQ(bits(1.0, Float8Kind::E4M3), 0x38);
  EXPECT_EQ(bits(-2.0, Float8Kind::E4M3), 0xc0);
  EXPECT_EQ(bits(448.0, Float8Kind::E4M3), 0x7e);
  EXPECT_EQ(bits(1e6, Float8Kind::E4M3), 0x7e); // saturates
  EXPECT_EQ(bits(-INFINITY, Float8Kind::E4M3), 0xfe);
  EXPECT_EQ(bits(NAN, Float8Kind::E4M3), 0x7f);
  EXPECT_EQ(bits(0x1p-9, Float8Kind::E4M3), 0x01);  // smallest subnormal
  EXPECT_EQ(bits(0x1p-10, Float8Kind::E4M3), 0x00); // tie to even: zero
  EXPECT_EQ(bits(1.0625, Float8Kind::E4M3), 0x38);  // tie to even: 1.0
  EXPECT_EQ(bits(1.0, Float8Kind::E5M2), 0x3c);
  EXPECT_EQ(bits(INFINITY, Float8Kind::E5M2), 0x7b); // saturates to 57344
  EXPECT_EQ(bits(0x1p-16, Float8Kind::E5M2), 0x01);
  EXPECT_EQ(tilec::float8Value(0x7c, Float8Kind::E5M2), INFINITY);
  EXPECT_TRUE(std::isnan(tilec::float8Value(0xff, Float8Kind::E4M3)));
  EXPECT_EQ(tilec::float8Value(0x7e, Float8Kind::E4M3), 448.0);
  EXPECT_EQ(tilec::float8Value(0x03, Float8Kind::E4M3), 3 * 0x1p-9);
}

TEST(Specialization, TypeNames) {
  for (int t = 0; t <= int(DType::fp8e5); ++t)
    EXPECT_EQ(dtypeFromName(dtypeName(DType(t))), DType(t));
  EXPECT_EQ(dtypeFromName("float16"), std::nullopt);
  EXPECT_EQ(dtypeFromName(""), std::nullopt);
}

TEST(GridExpr, Evaluates) {
  auto lookup = [](const std::string &n) { return n == "M" ? 0 : n == "N" ? 1 : -1; };
  auto e = GridExpr::parse("(cdiv(M, 128)) * (cdiv(N, 256)) + max(1, M // 7 % 3) - min(M, 2)", lookup);
  ASSERT_TRUE(bool(e)) << e.error();
  auto v = e->evaluate({1000, 300});
  ASSERT_TRUE(bool(v));
  EXPECT_EQ(*v, 8 * 2 + std::max<int64_t>(1, (1000 / 7) % 3) - 2);
  auto bad = GridExpr::parse("cdiv(M, K)", lookup);
  ASSERT_FALSE(bool(bad));
  EXPECT_EQ(bad.error(), "grid expression 'cdiv(M, K)': unknown name 'K'");
  auto zero = GridExpr::parse("M // N", lookup);
  ASSERT_TRUE(bool(zero));
  EXPECT_FALSE(bool(zero->evaluate({4, 0})));
}

TEST(DiskCache, KeysAndRoundTrip) {
  EXPECT_NE(hashKey({"ab", "c"}), hashKey({"a", "bc"}));
  EXPECT_EQ(hashKey({"x", "y"}), hashKey({"x", "y"}));
  EXPECT_EQ(hashKey({"x"}).size(), 64u);
  DiskCache cache(tempDir("tile-cache-test"));
  EXPECT_FALSE(cache.get("k", "ptx").has_value());
  std::string bytes("binary\0data", 11);
  ASSERT_TRUE(bool(cache.put("k", "ptx", bytes)));
  ASSERT_TRUE(cache.get("k", "ptx").has_value());
  EXPECT_EQ(*cache.get("k", "ptx"), bytes);
  DiskCache unwritable("/proc/tile-cache-cannot-exist");
  Status s = unwritable.put("k", "ptx", "x");
  EXPECT_FALSE(bool(s));
  EXPECT_NE(s.error().find("cannot create the cache directory"), std::string::npos);
}

/// Two processes write one key over and over with different contents while
/// this one reads: every read sees one writer's whole entry.
TEST(DiskCache, ConcurrentWriters) {
  std::string dir = tempDir("tile-cache-concurrent");
  std::string a(200000, 'a'), b(200000, 'b');
  pid_t children[2];
  for (int c = 0; c < 2; ++c) {
    children[c] = fork();
    ASSERT_GE(children[c], 0);
    if (children[c] == 0) {
      DiskCache cache(dir);
      for (int i = 0; i < 100; ++i)
        if (!cache.put("shared", "cubin", c ? b : a))
          _exit(1);
      _exit(0);
    }
  }
  DiskCache cache(dir);
  int seen = 0;
  for (int i = 0; i < 2000; ++i)
    if (auto v = cache.get("shared", "cubin")) {
      ++seen;
      ASSERT_TRUE(*v == a || *v == b) << "a torn entry of " << v->size() << " bytes";
    }
  for (pid_t child : children) {
    int status = 0;
    waitpid(child, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  auto final = cache.get("shared", "cubin");
  ASSERT_TRUE(final.has_value());
  EXPECT_TRUE(*final == a || *final == b);
  (void)seen;
}

TEST(JIT, CompileErrorsComeBackAsValues) {
  JIT jit(JITOptions{"", false});
  auto bad = jit.loadSource("kernel k(x: *fp32):\n    store(x, 1.0 +)\n", "k");
  ASSERT_FALSE(bool(bad));
  EXPECT_NE(bad.error().find("<source>:2:"), std::string::npos) << bad.error();
  auto missing = jit.loadSource("kernel k(x: *fp32):\n    store(x, 1.0)\n", "q");
  ASSERT_FALSE(bool(missing));
  EXPECT_EQ(missing.error(), "no kernel 'q' in <source>; its kernels: k");
  auto file = jit.loadFile("/nonexistent/x.tile", "k");
  ASSERT_FALSE(bool(file));
  EXPECT_NE(file.error().find("cannot read '/nonexistent/x.tile'"), std::string::npos);
  // Type errors surface when a specialization is compiled.
  auto typed = jit.loadSource("kernel k(x: *fp32, n: i32):\n"
                              "    store(x + arange(0, 16), arange(0, 12))\n", "k");
  ASSERT_TRUE(bool(typed)) << typed.error();
  alignas(16) static float buffer[16];
  auto ptx = typed->ptxFor({ptr(buffer), int32_t(16)});
  ASSERT_FALSE(bool(ptx));
  EXPECT_NE(ptx.error().find("error:"), std::string::npos) << ptx.error();
  auto args = typed->ptxFor({ptr(buffer)});
  ASSERT_FALSE(bool(args));
  EXPECT_EQ(args.error(), "k: the kernel takes 2 run-time arguments, 1 were given");
}

/// The specialization reaches the code: 16-byte aligned, contiguous rows
/// become cp.async copies of 16 bytes that wgmma reads (the JIT's default
/// target is sm_90a); an unaligned B does not.
TEST(JIT, SpecializesOnArguments) {
  JIT jit(JITOptions{"", false});
  CompileOptions options;
  options.defines = {"BLOCK_M=64", "BLOCK_N=64", "BLOCK_K=32"};
  options.numWarps = 4;
  auto k = jit.loadFile(examples() + "/matmul.tile", "matmul", options);
  ASSERT_TRUE(bool(k)) << k.error();
  EXPECT_EQ(k->parameterNames().size(), 12u);
  alignas(16) static half a[64], b[64], c[64];
  auto aligned = k->ptxFor({ptr(a), ptr(b), ptr(c), int32_t(256), int32_t(256),
                            int32_t(256), int32_t(256), int32_t(1), int32_t(256),
                            int32_t(1), int32_t(256), int32_t(1)});
  ASSERT_TRUE(bool(aligned)) << aligned.error();
  EXPECT_NE(aligned->find("cp.async.cg.shared.global"), std::string::npos);
  EXPECT_NE(aligned->find("wgmma.mma_async"), std::string::npos);
  auto odd = k->ptxFor({ptr(a), ptr(b), ptr(c), int32_t(250), int32_t(250),
                        int32_t(250), int32_t(250), int32_t(1), int32_t(250),
                        int32_t(1), int32_t(250), int32_t(1)});
  ASSERT_TRUE(bool(odd)) << odd.error();
  EXPECT_EQ(odd->find("cp.async.cg.shared.global"), std::string::npos);
}

/// num_sms() in a config is the device's SM count; without a GPU (this
/// machine) the architecture's default, 132 on sm_90a.
TEST(JIT, NumSMsInConfigs) {
  JIT jit(JITOptions{"", false});
  std::string source =
      "@autotune(configs=[config(NUM_SM=num_sms())], key=['n'])\n"
      "kernel k(x: *i32, n: i32, NUM_SM: constexpr):\n"
      "    tl.store(x + tl.program_id(0), NUM_SM * 1000 + 7)\n";
  auto k = jit.loadSource(source, "k");
  ASSERT_TRUE(bool(k)) << k.error();
  alignas(16) static int32_t x[4];
  auto ptx = k->ptxFor({ptr(x), int32_t(4)});
  ASSERT_TRUE(bool(ptx)) << ptx.error();
  EXPECT_NE(ptx->find("132007"), std::string::npos);
}

/// A second JIT finds the first one's output on disk (the cached PTX is
/// marked to prove it was not recompiled).
TEST(JIT, DiskCacheRoundTrip) {
  std::string dir = tempDir("tile-jit-cache");
  alignas(16) static float x[16];
  std::string source = "kernel k(x: *fp32, n: i32):\n"
                       "    store(x + arange(0, 16), 1.0, mask=arange(0, 16) < n)\n";
  std::string first;
  {
    JIT jit(JITOptions{dir, true});
    auto k = jit.loadSource(source, "k");
    ASSERT_TRUE(bool(k)) << k.error();
    auto ptx = k->ptxFor({ptr(x), int32_t(5)});
    ASSERT_TRUE(bool(ptx)) << ptx.error();
    first = *ptx;
  }
  std::error_code ec;
  int entries = 0;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    if (llvm::StringRef(it->path()).ends_with(".ptx")) {
      ++entries;
      std::ofstream(it->path(), std::ios::app) << "// from the disk cache\n";
    }
  }
  EXPECT_EQ(entries, 1);
  JIT again(JITOptions{dir, true});
  auto k = again.loadSource(source, "k");
  ASSERT_TRUE(bool(k)) << k.error();
  auto ptx = k->ptxFor({ptr(x), int32_t(5)});
  ASSERT_TRUE(bool(ptx)) << ptx.error();
  EXPECT_EQ(*ptx, first + "// from the disk cache\n");
  // Another specialization is another entry.
  auto other = k->ptxFor({ptr(x), int32_t(1)});
  ASSERT_TRUE(bool(other)) << other.error();
  EXPECT_EQ(other->find("// from the disk cache"), std::string::npos);
}

/// @heuristics are evaluated per call; calls whose arguments give the same
/// results share one compilation.
TEST(JIT, Heuristics) {
  std::string dir = tempDir("tile-jit-heuristics");
  JIT jit(JITOptions{dir, true});
  const char *source =
      "@triton.heuristics({'BLOCK': lambda args: "
      "triton.next_power_of_2(args['n']),\n"
      "                    'HAS_B': lambda args: args['b'] is not None})\n"
      "kernel k(x: *fp32, b: *fp32, n: i32, BLOCK: constexpr, "
      "HAS_B: constexpr):\n"
      "    o = arange(0, BLOCK)\n"
      "    v = load(x + o, mask=o < n)\n"
      "    if HAS_B:\n"
      "        v += load(b + o, mask=o < n)\n"
      "    store(x + o, v, mask=o < n)\n";
  auto k = jit.loadSource(source, "k", {}, "heuristics.tile");
  ASSERT_TRUE(bool(k)) << k.error();
  alignas(16) static float x[2048], b[2048];
  auto countEntries = [&] {
    std::error_code ec;
    int entries = 0;
    for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
         it.increment(ec))
      entries += llvm::StringRef(it->path()).ends_with(".ptx");
    return entries;
  };
  auto n1000 = k->ptxFor({ptr(x), ptr(b), int32_t(1000)});
  ASSERT_TRUE(bool(n1000)) << n1000.error();
  // 1000 and 520 have one specialization (multiples of 8) and one BLOCK.
  auto n520 = k->ptxFor({ptr(x), ptr(b), int32_t(520)});
  ASSERT_TRUE(bool(n520)) << n520.error();
  EXPECT_EQ(*n520, *n1000);
  EXPECT_EQ(countEntries(), 1);
  auto n1528 = k->ptxFor({ptr(x), ptr(b), int32_t(1528)});
  ASSERT_TRUE(bool(n1528)) << n1528.error();
  EXPECT_NE(*n1528, *n1000); // BLOCK 2048
  EXPECT_EQ(countEntries(), 2);
  // A null pointer is Triton's None: no load of b.
  auto noBias =
      k->ptxFor({ptr(x), ptr(static_cast<float *>(nullptr)), int32_t(1000)});
  ASSERT_TRUE(bool(noBias)) << noBias.error();
  auto loads = [](const std::string &ptx) {
    size_t count = 0;
    for (size_t at = ptx.find("ld.global"); at != std::string::npos;
         at = ptx.find("ld.global", at + 1))
      ++count;
    return count;
  };
  EXPECT_LT(loads(*noBias), loads(*n1000));
  EXPECT_EQ(countEntries(), 3);

  // A heuristic that reads what is not a parameter fails at the call.
  auto bad = jit.loadSource("@heuristics({'B': lambda args: args['m'] * 2})\n"
                            "kernel k(x: *fp32, n: i32, B: constexpr):\n"
                            "    store(x + arange(0, B), 1.0)\n",
                            "k", {}, "bad.tile");
  ASSERT_TRUE(bool(bad)) << bad.error();
  auto failed = bad->ptxFor({ptr(x), int32_t(4)});
  ASSERT_FALSE(bool(failed));
  EXPECT_NE(failed.error().find("reads 'm', which is not a parameter of 'k'"),
            std::string::npos)
      << failed.error();
}

/// An early_config_prune runs on each call's arguments it reads, as
/// @heuristics do: only the configs it keeps are compiled (and timed).
TEST(JIT, PruneConfigs) {
  std::string dir = tempDir("tile-jit-prune");
  JIT jit(JITOptions{dir, true});
  const char *source =
      "def prune(configs, named_args, **kwargs):\n"
      "    return [c for c in configs if c.kwargs['BLOCK'] <= "
      "named_args['n']]\n"
      "@autotune(configs=[config(BLOCK=64), config(BLOCK=128), "
      "config(BLOCK=256)],\n"
      "          key=['n'], prune_configs_by={'early_config_prune': "
      "prune})\n"
      "@grid(1)\n"
      "kernel k(x: *fp32, n: i32, BLOCK: constexpr):\n"
      "    o = arange(0, BLOCK)\n"
      "    store(x + o, 1.0, mask=o < n)\n";
  auto k = jit.loadSource(source, "k", {}, "prune.tile");
  ASSERT_TRUE(bool(k)) << k.error();
  alignas(16) static float x[1024];
  auto entries = [](const std::string &ptx) {
    size_t count = 0;
    for (size_t at = ptx.find(".entry"); at != std::string::npos;
         at = ptx.find(".entry", at + 1))
      ++count;
    return count;
  };
  auto narrow = k->ptxFor({ptr(x), int32_t(120)});
  ASSERT_TRUE(bool(narrow)) << narrow.error();
  EXPECT_EQ(entries(*narrow), 1u);
  auto wide = k->ptxFor({ptr(x), int32_t(1000)});
  ASSERT_TRUE(bool(wide)) << wide.error();
  EXPECT_EQ(entries(*wide), 3u);
  // A call for which it keeps nothing fails, as in Triton.
  auto none = k->ptxFor({ptr(x), int32_t(8)});
  ASSERT_FALSE(bool(none));
  EXPECT_NE(none.error().find("keeps none of the configs"), std::string::npos)
      << none.error();
}

/// A pointer the body tests against None may be passed as None (a null
/// pointer): the kernel's None version runs, without loading it.
TEST(JIT, PointerTestedAgainstNone) {
  std::string dir = tempDir("tile-jit-none-pointer");
  JIT jit(JITOptions{dir, true});
  const char *source = "kernel k(x: *fp32, b: *fp32, n: i32):\n"
                       "    o = arange(0, 64)\n"
                       "    v = load(x + o, mask=o < n)\n"
                       "    if b is not None:\n"
                       "        v += load(b + o, mask=o < n)\n"
                       "    store(x + o, v, mask=o < n)\n";
  auto k = jit.loadSource(source, "k", {}, "none.tile");
  ASSERT_TRUE(bool(k)) << k.error();
  alignas(16) static float x[64], b[64];
  auto withB = k->ptxFor({ptr(x), ptr(b), int32_t(64)});
  ASSERT_TRUE(bool(withB)) << withB.error();
  auto noB =
      k->ptxFor({ptr(x), ptr(static_cast<float *>(nullptr)), int32_t(64)});
  ASSERT_TRUE(bool(noB)) << noB.error();
  // One kernel holds both versions, chosen at run time by the null test.
  EXPECT_EQ(*noB, *withB);
}

/// A pointer declared `= None` may be left out of a launch: it is passed as
/// a null pointer, and the kernel takes its None version.
TEST(JIT, PointerDefaultNone) {
  JIT jit(JITOptions{"", false});
  const char *source = "kernel k(x: *fp32, n: i32, b: *fp32 = None):\n"
                       "    o = arange(0, 64)\n"
                       "    v = load(x + o, mask=o < n)\n"
                       "    if b is not None:\n"
                       "        v += load(b + o, mask=o < n)\n"
                       "    store(x + o, v, mask=o < n)\n";
  auto k = jit.loadSource(source, "k", {}, "default-none.tile");
  ASSERT_TRUE(bool(k)) << k.error();
  alignas(16) static float x[64], b[64];
  auto omitted = k->ptxFor({ptr(x), int32_t(64)});
  ASSERT_TRUE(bool(omitted)) << omitted.error();
  auto given = k->ptxFor({ptr(x), int32_t(64), ptr(b)});
  ASSERT_TRUE(bool(given)) << given.error();
  EXPECT_EQ(*omitted, *given);
  // A parameter without a default may not be left out.
  auto missing = k->ptxFor({ptr(x)});
  EXPECT_FALSE(bool(missing));
}

/// device_assert reaches the PTX only with CompileOptions::debug, as
/// Triton keeps it only in debug mode; the two compile apart.
TEST(JIT, DeviceAssertOnlyInDebugMode) {
  JIT jit(JITOptions{"", false});
  const char *source = "kernel k(x: *fp32, n: i32):\n"
                       "    device_assert(n > 0, \"n must be positive\")\n"
                       "    store(x + arange(0, 16), 2.0)\n";
  CompileOptions debug;
  debug.debug = true;
  auto plain = jit.loadSource(source, "k", {}, "assert.tile");
  auto checked = jit.loadSource(source, "k", debug, "assert.tile");
  ASSERT_TRUE(bool(plain)) << plain.error();
  ASSERT_TRUE(bool(checked)) << checked.error();
  alignas(16) static float x[16];
  auto plainPtx = plain->ptxFor({ptr(x), int32_t(16)});
  auto checkedPtx = checked->ptxFor({ptr(x), int32_t(16)});
  ASSERT_TRUE(bool(plainPtx)) << plainPtx.error();
  ASSERT_TRUE(bool(checkedPtx)) << checkedPtx.error();
  EXPECT_EQ(plainPtx->find("__assertfail"), std::string::npos);
  EXPECT_NE(checkedPtx->find("__assertfail"), std::string::npos);
}

/// Several threads asking for the same and different specializations at
/// once get consistent results (one compilation per specialization).
TEST(JIT, ThreadSafe) {
  JIT jit(JITOptions{"", false});
  auto k = jit.loadSource("kernel k(x: *fp32, n: i32):\n"
                          "    store(x + arange(0, 16), 2.0, mask=arange(0, 16) < n)\n",
                          "k");
  ASSERT_TRUE(bool(k)) << k.error();
  alignas(16) static float x[16];
  std::vector<std::string> results(8);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      auto ptx = k->ptxFor({ptr(x), int32_t(t % 2 ? 1 : 5)});
      results[t] = ptx ? *ptx : "error: " + ptx.error();
    });
  for (std::thread &t : threads)
    t.join();
  for (int t = 0; t < 8; ++t) {
    EXPECT_EQ(results[t].rfind("error", 0), std::string::npos) << results[t];
    EXPECT_EQ(results[t], results[t % 2]);
  }
  EXPECT_NE(results[0], results[1]); // n = 5 vs n = 1 (specialized to 1)
}

TEST(JIT, LaunchNeedsAGPU) {
  std::string why;
  if (JIT::gpuAvailable(&why))
    GTEST_SKIP() << "a GPU is present; LaunchOnGPU covers launching";
  JIT jit(JITOptions{"", false});
  auto k = jit.loadFile(examples() + "/vector_add.tile", "vector_add");
  ASSERT_TRUE(bool(k)) << k.error();
  alignas(16) static float x[16];
  Status s = k->launch(nullptr, ptr(x), ptr(x), ptr(x), int32_t(16));
  ASSERT_FALSE(bool(s));
  EXPECT_NE(s.error().find("no GPU"), std::string::npos) << s.error();
}

TEST(JIT, LaunchOnGPU) {
  std::string why;
  const cuda::Driver *d = cuda::getDriver(&why);
  if (!d)
    GTEST_SKIP() << "no GPU here: " << why;
  JIT jit(JITOptions{"", false});
  auto k = jit.loadFile(examples() + "/vector_add.tile", "vector_add");
  ASSERT_TRUE(bool(k)) << k.error();
  const int n = 100003;
  // The JIT made a context current on first use; launching needs one.
  Status warm = k->launchGrid(nullptr, Grid{0, 1, 1}, ptr(uint64_t(16), DType::fp32),
                              ptr(uint64_t(16), DType::fp32),
                              ptr(uint64_t(16), DType::fp32), int32_t(n));
  EXPECT_FALSE(bool(warm)); // a grid of zero programs is refused
  cuda::CUdeviceptr x, y, z;
  ASSERT_EQ(d->cuMemAlloc(&x, n * 4), 0);
  ASSERT_EQ(d->cuMemAlloc(&y, n * 4), 0);
  ASSERT_EQ(d->cuMemAlloc(&z, n * 4), 0);
  std::vector<float> hx(n), hy(n), hz(n, -1);
  for (int i = 0; i < n; ++i) {
    hx[i] = float(i % 97) * 0.5f;
    hy[i] = float(i % 13) - 3.0f;
  }
  d->cuMemcpyHtoD(x, hx.data(), n * 4);
  d->cuMemcpyHtoD(y, hy.data(), n * 4);
  Status s = k->launch(nullptr, ptr(x, DType::fp32), ptr(y, DType::fp32),
                       ptr(z, DType::fp32), int32_t(n));
  ASSERT_TRUE(bool(s)) << s.error();
  d->cuMemcpyDtoH(hz.data(), z, n * 4);
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(hz[i], hx[i] + hy[i]) << i;
  d->cuMemFree(x);
  d->cuMemFree(y);
  d->cuMemFree(z);
}

} // namespace
