#include <ft2build.h>
#include FT_FREETYPE_H
