/* util/pipeline.def with every macro not defined by the includer empty:
 * #define the PIPE_ macros of your layer, then include this (each include
 * undefines them all again). */
#ifndef PIPE_FRONTEND
#define PIPE_FRONTEND(name, what)
#endif
#ifndef PIPE_IR_ROUND
#define PIPE_IR_ROUND(id, fn, level)
#endif
#ifndef PIPE_IR_NEEDED
#define PIPE_IR_NEEDED(id, name, fn)
#endif
#ifndef PIPE_IR_ONCE
#define PIPE_IR_ONCE(id, fn, level)
#endif
#ifndef PIPE_SPLIT
#define PIPE_SPLIT(id, name, what)
#endif
#ifndef PIPE_BACKEND
#define PIPE_BACKEND(name, fn, sw, phase)
#endif
#ifndef PIPE_INSIDE
#define PIPE_INSIDE(step, sw, what)
#endif
#include "pipeline.def"
#undef PIPE_FRONTEND
#undef PIPE_IR_ROUND
#undef PIPE_IR_NEEDED
#undef PIPE_IR_ONCE
#undef PIPE_SPLIT
#undef PIPE_BACKEND
#undef PIPE_INSIDE
