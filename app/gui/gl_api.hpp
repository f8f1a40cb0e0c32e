// The OpenGL declarations the renderers use: desktop OpenGL through libOpenGL (glvnd), or OpenGL ES 3.0
// (WebGL2) in the browser build (app/web), which has every call the Grid view, the images and the PNG
// export make.
#pragma once
#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GL/glext.h>
#endif
