#include "bkt_apps/dtype.hpp"

#include <gtest/gtest.h>

#include "bkt_apps/numeric_io.hpp"

namespace bkt::apps {
namespace {

TEST(dtype, names_round_trip) {
  for (dtype type : {dtype::u8, dtype::u16, dtype::u32, dtype::u64, dtype::i8, dtype::i16, dtype::i32, dtype::i64,
                     dtype::f16, dtype::f32, dtype::f64})
    EXPECT_EQ(parse_dtype(dtype_name(type)), type);
}

TEST(dtype, numpy_aliases_and_case) {
  EXPECT_EQ(parse_dtype("uint32"), dtype::u32);
  EXPECT_EQ(parse_dtype("float32"), dtype::f32);
  EXPECT_EQ(parse_dtype("Float64"), dtype::f64);
  EXPECT_EQ(parse_dtype("double"), dtype::f64);
  EXPECT_EQ(parse_dtype("int8"), dtype::i8);
  EXPECT_EQ(parse_dtype("I64"), dtype::i64);
  EXPECT_EQ(parse_dtype("float16"), dtype::f16);
  EXPECT_EQ(parse_dtype("half"), dtype::f16);
  EXPECT_EQ(parse_dtype("f8"), std::nullopt);  // NumPy's codes clash with ours (its i8 is 64 bits)
  EXPECT_EQ(parse_dtype("complex64"), std::nullopt);
  EXPECT_EQ(parse_dtype(""), std::nullopt);
}

TEST(dtype, sizes_and_kinds) {
  EXPECT_EQ(dtype_size(dtype::u8), 1u);
  EXPECT_EQ(dtype_size(dtype::i16), 2u);
  EXPECT_EQ(dtype_size(dtype::f32), 4u);
  EXPECT_EQ(dtype_size(dtype::u64), 8u);
  EXPECT_TRUE(dtype_is_float(dtype::f64));
  EXPECT_FALSE(dtype_is_float(dtype::i64));
  EXPECT_TRUE(dtype_is_signed(dtype::i8));
  EXPECT_TRUE(dtype_is_signed(dtype::f32));
  EXPECT_FALSE(dtype_is_signed(dtype::u16));
  EXPECT_EQ(dtype_of<float>(), dtype::f32);
  EXPECT_EQ(dtype_size(dtype::f16), 2u);
  EXPECT_TRUE(dtype_is_float(dtype::f16));
  EXPECT_TRUE(dtype_is_signed(dtype::f16));
  EXPECT_EQ(dtype_of<__half>(), dtype::f16);
  EXPECT_EQ(visit_dtype(dtype::u16, []<class T>(std::type_identity<T>) { return sizeof(T); }), 2u);
}

TEST(formats, names_and_extensions) {
  EXPECT_EQ(parse_file_format("npy"), file_format::npy);
  EXPECT_EQ(parse_file_format("CSV"), file_format::text);
  EXPECT_EQ(parse_file_format("raw"), file_format::raw);
  EXPECT_EQ(parse_file_format("json"), std::nullopt);
  EXPECT_EQ(parse_byte_order("big"), byte_order::big);
  EXPECT_EQ(parse_byte_order("LE"), byte_order::little);
  EXPECT_EQ(parse_byte_order("middle"), std::nullopt);
  EXPECT_EQ(format_from_extension("a/b.npy"), file_format::npy);
  EXPECT_EQ(format_from_extension("x.CSV"), file_format::text);
  EXPECT_EQ(format_from_extension("x.tsv"), file_format::text);
  EXPECT_EQ(format_from_extension("x.bin"), std::nullopt);
  EXPECT_EQ(format_from_extension("dir.npy/x"), std::nullopt);
  EXPECT_EQ(format_from_extension(".npy"), std::nullopt);  // a hidden file, not an extension
  EXPECT_TRUE(is_standard_stream("-"));
  EXPECT_TRUE(is_standard_stream(""));
  EXPECT_FALSE(is_standard_stream("./-"));
}

TEST(formats, output_format_resolution) {
  output_options options;
  EXPECT_EQ(resolve_output_format(options, file_format::npy), file_format::npy);  // stdout: the input's
  options.path = "out.txt";
  EXPECT_EQ(resolve_output_format(options, file_format::npy), file_format::text);  // the extension
  options.path = "out.bin";
  EXPECT_EQ(resolve_output_format(options, file_format::npy), file_format::npy);  // no hint: the input's
  options.format = file_format::raw;
  EXPECT_EQ(resolve_output_format(options, file_format::npy), file_format::raw);  // explicit wins
}

TEST(numeric_array, typed_views_check_the_dtype) {
  numeric_array array = numeric_array::copy_of<std::uint16_t>(std::vector<std::uint16_t>{1, 2, 3});
  EXPECT_EQ(array.size(), 3);
  EXPECT_EQ(array.size_bytes(), 6u);
  EXPECT_EQ(array.as<std::uint16_t>()[2], 3);
  EXPECT_THROW(array.as<std::int16_t>(), std::logic_error);
  array.resize(5);
  EXPECT_EQ(array.as<std::uint16_t>()[4], 0);
}

}  // namespace
}  // namespace bkt::apps
