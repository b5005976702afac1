// rule: CppFeatures.Cpp11EnumsNullptrRangeFor
// section: PG12.9 18.1
// statement: strongly-typed and forward-declared enums, the null pointer constant and range-based for (C++11) are
//   available in device code
enum class Color : unsigned char;
enum class Color : unsigned char { Red = 1, Green = 2 };

static_assert(sizeof(Color) == 1 && static_cast<int>(Color::Green) == 2, "the underlying type and the value");

__device__ constexpr int sum_of_range() {
  int values[] = {1, 2, 3};
  int total = 0;
  for (int v : values) total += v;
  return total;
}

__global__ void kernel(int* out) {
  static_assert(sum_of_range() == 6, "range-based for visits every element");
  int values[] = {1, 2, 3};
  int total = 0;
  for (int v : values) total += v;
  int* none = nullptr;
  *out = total + static_cast<int>(Color::Green) + (none == nullptr);
}
