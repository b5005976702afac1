// PG12.9 18.1 C++11, 18.2 C++14 and 18.3 C++17 Language Features: the compile cases of suites/compile/cpp_features/
// show that device code using each feature is accepted; here the same files are compiled into this binary (each in a
// namespace of its own) and their kernels run, and the host compares the value each computes with the one the
// language gives. A compiler that accepts a feature and miscompiles it fails here, not there.
#include <cuconform/cuconform.h>

#include <vector>

namespace cpp11_alias_templates_and_unions {
#include "../compile/cpp_features/cpp11_alias_templates_and_unions.pass.cu"
}
namespace cpp11_classes {
#include "../compile/cpp_features/cpp11_classes.pass.cu"
}
namespace cpp11_enums_nullptr_range_for {
#include "../compile/cpp_features/cpp11_enums_nullptr_range_for.pass.cu"
}
namespace cpp11_lambdas {
#include "../compile/cpp_features/cpp11_lambdas.pass.cu"
}
namespace cpp11_literals_and_characters {
#include "../compile/cpp_features/cpp11_literals_and_characters.pass.cu"
}
namespace cpp11_rvalue_references_and_move {
#include "../compile/cpp_features/cpp11_rvalue_references_and_move.pass.cu"
}
namespace cpp11_type_deduction {
#include "../compile/cpp_features/cpp11_type_deduction.pass.cu"
}
namespace cpp11_variadic_templates {
#include "../compile/cpp_features/cpp11_variadic_templates.pass.cu"
}
namespace cpp14_generic_lambdas {
#include "../compile/cpp_features/cpp14_generic_lambdas.pass.cu"
}
namespace cpp17_features {
#include "../compile/cpp_features/cpp17_features.pass.cu"
}
namespace cpp17_guaranteed_elision_and_attributes {
#include "../compile/cpp_features/cpp17_guaranteed_elision_and_attributes.pass.cu"
}

namespace {

class CppFeaturesRun : public cuconform::GpuTest {
 protected:
  // Runs one case's kernel(T* out, extra...) on one thread, with *out starting at `initial`; returns *out.
  template <class T, class... Params, class... Args>
  static T run(void (*kernel)(T*, Params...), T initial, Args... args) {
    cuconform::DeviceBuffer<T> out(std::vector<T>{initial});
    cuconform::launch(kernel, 1, 1, out.get(), args...);
    return out.value_at(0);
  }
};

RULE_F(CppFeaturesRun, Cpp11AliasTemplatesUnrestrictedUnions, "PG12.9 18.1",
       "alias templates, unrestricted unions and local types as template arguments compute in device code: "
       "identity(BoxOf<Local>{{5}}.value.n) + Storage().w.v is 5 + 2") {
  EXPECT_EQ(run(cpp11_alias_templates_and_unions::kernel, 0), 7);
}

RULE_F(CppFeaturesRun, Cpp11ClassFeatures, "PG12.9 18.1",
       "inheriting constructors, explicit conversion operators and override compute in device code: Derived d(4) "
       "converts to true and d.get() is 4 + 1") {
  EXPECT_EQ(run(cpp11_classes::kernel, 0), 5);
}

RULE_F(CppFeaturesRun, Cpp11EnumsNullptrRangeFor, "PG12.9 18.1",
       "range-based for, a scoped enum's value and nullptr compute in device code: 1 + 2 + 3, plus Color::Green (2), "
       "plus (nullptr == nullptr)") {
  EXPECT_EQ(run(cpp11_enums_nullptr_range_for::kernel, 0), 9);
}

RULE_F(CppFeaturesRun, Cpp11LambdaExpressions, "PG12.9 18.1",
       "lambdas capturing by copy and by reference compute in device code: *out += base + 5 with base 10") {
  EXPECT_EQ(run(cpp11_lambdas::kernel, 100), 115);
}

RULE_F(CppFeaturesRun, Cpp11LiteralsAndCharacterTypes, "PG12.9 18.1",
       "a user-defined literal, a raw string and UTF-16/UTF-32 literals compute in device code: 2_kib is 2048, and "
       "each of the three character comparisons is 1") {
  EXPECT_EQ(run(cpp11_literals_and_characters::kernel, 0ull), 2051ull);
}

RULE_F(CppFeaturesRun, Cpp11RvalueReferences, "PG12.9 18.1",
       "a move constructor and an rvalue-qualified member function compute in device code: the moved value 3 "
       "reaches take() &&") {
  EXPECT_EQ(run(cpp11_rvalue_references_and_move::kernel, 0), 3);
}

RULE_F(CppFeaturesRun, Cpp11AutoDecltypeTrailingReturn, "PG12.9 18.1",
       "auto, decltype and a trailing return type compute in device code: twice(2) + 3") {
  EXPECT_EQ(run(cpp11_type_deduction::kernel, 0), 7);
}

RULE_F(CppFeaturesRun, Cpp11VariadicTemplates, "PG12.9 18.1",
       "a variadic function template computes in device code: sum(1, 2, 3, 4)") {
  EXPECT_EQ(run(cpp11_variadic_templates::kernel, 0), 10);
}

RULE_F(CppFeaturesRun, Cpp14GenericLambdas, "PG12.9 18.2",
       "a generic lambda computes in device code for each argument type: generic(1, 2) + int(generic(0.5f, 0.5f))") {
  EXPECT_EQ(run(cpp14_generic_lambdas::kernel, 0), 4);
}

RULE_F(CppFeaturesRun, Cpp17LanguageFeatures, "PG12.9 18.3",
       "structured bindings, class template argument deduction, fold expressions, if constexpr and inline variables "
       "compute in device code: (1 + 2 + 8 + 4) * 3") {
  EXPECT_EQ(run(cpp17_features::kernel, 0), 45);
}

RULE_F(CppFeaturesRun, Cpp17ElisionAndAttributes, "PG12.9 18.3",
       "guaranteed copy elision, [[fallthrough]] and switch and if initializers compute in device code: selector 0 "
       "falls through (2 + 3 + 4), 1 does not (2 + 2 + 4), 7 takes the default and the if (2 + 0 + 4)") {
  EXPECT_EQ(run(cpp17_guaranteed_elision_and_attributes::kernel, 0, 0), 9) << "selector 0";
  EXPECT_EQ(run(cpp17_guaranteed_elision_and_attributes::kernel, 0, 1), 8) << "selector 1";
  EXPECT_EQ(run(cpp17_guaranteed_elision_and_attributes::kernel, 0, 7), 6) << "selector 7";
}

}  // namespace
