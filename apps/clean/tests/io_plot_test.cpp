// The quick-look plot: a valid PNG (signature, chunk CRCs, IHDR, IDAT that inflates to the
// right size and pixels), the SVG wrapper's base64, and the stretches' inverses.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cmath>
#include <cstdint>

#include "io/colour_scale.hpp"
#include "io/plot_file.hpp"
#include "io/png_encoder.hpp"
#include "io/quick_look.hpp"
#include "tool_runner.hpp"

namespace clean_test {
namespace {

using namespace bkt::clean;

std::uint32_t be32(const std::string& bytes, std::size_t offset) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < 4; ++i) value = value << 8 | static_cast<unsigned char>(bytes[offset + i]);
  return value;
}

struct png_chunk {
  std::string type, data;
};

/// The chunks of a PNG, checking the signature and every CRC on the way.
std::vector<png_chunk> parse_png(const std::string& png) {
  std::vector<png_chunk> chunks;
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  std::size_t offset = 8;
  while (offset + 12 <= png.size()) {
    const std::uint32_t length = be32(png, offset);
    const std::string typed = png.substr(offset + 4, 4 + length);
    const auto crc = static_cast<std::uint32_t>(
        crc32(0L, reinterpret_cast<const Bytef*>(typed.data()), static_cast<uInt>(typed.size())));
    EXPECT_EQ(be32(png, offset + 8 + length), crc) << "bad CRC in " << typed.substr(0, 4);
    chunks.push_back({typed.substr(0, 4), typed.substr(4)});
    offset += 12 + length;
  }
  EXPECT_EQ(offset, png.size());
  return chunks;
}

/// The raw scanlines of a PNG's IDAT chunks.
std::string inflate_idat(const std::vector<png_chunk>& chunks, std::size_t expected) {
  std::string compressed;
  for (const auto& chunk : chunks)
    if (chunk.type == "IDAT") compressed += chunk.data;
  std::string raw(expected + 16, '\0');
  uLongf raw_bytes = static_cast<uLongf>(raw.size());
  EXPECT_EQ(uncompress(reinterpret_cast<Bytef*>(raw.data()), &raw_bytes,
                       reinterpret_cast<const Bytef*>(compressed.data()), static_cast<uLong>(compressed.size())),
            Z_OK);
  raw.resize(raw_bytes);
  return raw;
}

TEST(png_test, small_canvas_round_trips) {
  rgb_canvas canvas(3, 2, {1, 2, 3});
  canvas.set(2, 1, {250, 128, 7});
  const std::string png = encode_png(canvas);
  const auto chunks = parse_png(png);
  ASSERT_EQ(chunks.size(), 3u);
  EXPECT_EQ(chunks[0].type, "IHDR");
  EXPECT_EQ(chunks[1].type, "IDAT");
  EXPECT_EQ(chunks[2].type, "IEND");
  ASSERT_EQ(chunks[0].data.size(), 13u);
  EXPECT_EQ(be32(chunks[0].data, 0), 3u);
  EXPECT_EQ(be32(chunks[0].data, 4), 2u);
  EXPECT_EQ(chunks[0].data.substr(8), std::string("\x08\x02\x00\x00\x00", 5));
  const std::string raw = inflate_idat(chunks, 2 * (1 + 3 * 3));
  ASSERT_EQ(raw.size(), 2u * (1 + 3 * 3));
  EXPECT_EQ(raw[0], 0);   // filter None
  EXPECT_EQ(raw[10], 0);
  EXPECT_EQ(raw.substr(1, 3), std::string("\x01\x02\x03", 3));
  EXPECT_EQ(raw.substr(17, 3), std::string("\xfa\x80\x07", 3));
}

TEST(png_test, quick_look_is_a_valid_png) {
  image restored{50, 30, std::vector<float>(1500, 0.001f)}, residual = restored;
  restored.at(10, 10) = 5;
  restored.at(0, 0) = std::nanf("");
  residual.at(20, 5) = -0.01f;
  const rgb_canvas canvas = draw_quick_look(restored, residual, "JY/BEAM");
  EXPECT_GT(canvas.width, 2 * 400);  // both panels magnified to 400 pixels wide
  const auto chunks = parse_png(encode_plot(canvas, plot_format::png));
  EXPECT_EQ(be32(chunks[0].data, 0), static_cast<std::uint32_t>(canvas.width));
  EXPECT_EQ(be32(chunks[0].data, 4), static_cast<std::uint32_t>(canvas.height));
  const std::size_t expected = static_cast<std::size_t>(canvas.height) * (1 + 3 * canvas.width);
  EXPECT_EQ(inflate_idat(chunks, expected).size(), expected);
}

TEST(png_test, large_images_are_averaged_down) {
  image big{1000, 500, std::vector<float>(500000, 1.0f)};
  const rgb_canvas canvas = draw_quick_look(big, big, "K");
  EXPECT_LT(canvas.width, 2 * 400 + 200);
}

TEST(svg_test, embeds_the_png_as_base64) {
  EXPECT_EQ(base64(""), "");
  EXPECT_EQ(base64("f"), "Zg==");
  EXPECT_EQ(base64("fo"), "Zm8=");
  EXPECT_EQ(base64("foobar"), "Zm9vYmFy");
  const rgb_canvas canvas(4, 4, {9, 9, 9});
  const std::string svg = encode_plot(canvas, plot_format::svg);
  EXPECT_EQ(svg.rfind("<svg ", 0), 0u);
  EXPECT_NE(svg.find("data:image/png;base64," + base64(encode_png(canvas)) + "\""), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

TEST(plot_format_test, by_extension) {
  EXPECT_EQ(plot_format_of("a.PNG"), plot_format::png);
  EXPECT_EQ(plot_format_of("dir.x/a.svg"), plot_format::svg);
  EXPECT_EQ(plot_format_of("a.gif"), std::nullopt);
  EXPECT_EQ(plot_format_of("dir.png/a"), std::nullopt);
}

TEST(stretch_test, value_at_inverts_apply) {
  image noisy{100, 100, {}};
  for (int i = 0; i < 10000; ++i) noisy.pixels.push_back(static_cast<float>(std::sin(i * 12.9898) * 0.001));
  noisy.pixels[5000] = 10;  // a bright source far above the noise: asinh
  const display_stretch bright = restored_stretch(noisy);
  EXPECT_TRUE(bright.asinh);
  const display_stretch symmetric = residual_stretch(noisy);
  EXPECT_FALSE(symmetric.asinh);
  EXPECT_EQ(symmetric.low, -symmetric.high);
  for (const display_stretch& stretch : {bright, symmetric})
    for (double t : {0.0, 0.3, 0.77, 1.0}) EXPECT_NEAR(stretch.apply(stretch.value_at(t)), t, 1e-9);
  EXPECT_EQ(bright.apply(1e9), 1.0);
  EXPECT_TRUE(std::isnan(bright.apply(std::nan(""))));
}

}  // namespace
}  // namespace clean_test
