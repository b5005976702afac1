// rule: CppFeatures.Cpp11LiteralsAndCharacterTypes
// section: PG12.9 18.1
// statement: user-defined literals, raw string literals, Unicode string literals and the new character types
//   (C++11) are available in device code
__device__ constexpr unsigned long long operator""_kib(unsigned long long n) { return n * 1024; }

__global__ void kernel(unsigned long long* out) {
  static_assert(2_kib == 2048, "the user-defined literal's operator is called with 2");
  static_assert(sizeof(R"(a\b)") == 4 && R"(a\b)"[1] == '\\', "a raw string keeps the backslash: a, \\, b, NUL");
  static_assert(sizeof(char16_t) == 2 && sizeof(char32_t) == 4 && u"x"[0] == 0x78 && U"y"[0] == 0x79,
                "UTF-16 and UTF-32 code units");
  const char* raw = R"(a\b)";
  const char16_t* u16 = u"x";
  const char32_t* u32 = U"y";
  *out = 2_kib + (raw[1] == '\\') + (u16[0] == u'x') + (u32[0] == U'y');
}
