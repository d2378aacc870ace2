"""The compiled room: the fast path beside the object engines. The choice of engine for a run
(auto, compiled or object), chance drawn in compiled code as numpy draws it, the information-set search in
compiled code, and numba's cache kept true to every file a compiled engine reads."""
