// The SDL2 headers for Swift, plus the function-like macros Swift cannot import, re-exported as
// constants and inline functions (see docs: sdl2-swiftpm-notes.md, pitfall 1).
#ifndef FLYBY_CSDL2_SHIM_H
#define FLYBY_CSDL2_SHIM_H
#include <SDL.h>

static const int CSDL2_WINDOWPOS_UNDEFINED = SDL_WINDOWPOS_UNDEFINED;
static const int CSDL2_WINDOWPOS_CENTERED = SDL_WINDOWPOS_CENTERED;
static inline Uint32 CSDL2_BUTTON_MASK(int button) { return SDL_BUTTON(button); }
#endif
