// The stb implementations the browser build needs (the desktop links Debian's libstb.so, which holds them):
// stb_image (convolution inputs, reports' images), stb_image_write (PNG export), stb_truetype (font checks).
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_TRUETYPE_IMPLEMENTATION
#include <stb_image.h>
#include <stb_image_write.h>
#include <stb_truetype.h>
