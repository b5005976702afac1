// rule: CppFeatures.Cpp11LiteralsAndCharacterTypes
// section: PG12.9 18.1
// statement: user-defined literals, raw string literals, Unicode string literals and the new character types
//   (C++11) are available in device code
__device__ constexpr unsigned long long operator""_kib(unsigned long long n) { return n * 1024; }

__global__ void kernel(unsigned long long* out) {
  const char* raw = R"(a\b)";
  const char16_t* u16 = u"x";
  const char32_t* u32 = U"y";
  *out = 2_kib + (raw[1] == '\\') + (u16[0] == u'x') + (u32[0] == U'y');
}
