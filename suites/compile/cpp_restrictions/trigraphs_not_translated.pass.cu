// rule: CppRestrictions.TrigraphsNotSupported
// section: PG12.9 18.5.13
// statement: trigraphs are not supported on any platform: "??=" stays three characters, even in C++14 mode
// std: c++14
static_assert(sizeof("??=") == 4, "the trigraph ??= was not replaced by #");

__global__ void kernel() {}
