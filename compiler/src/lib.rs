//! GLSL ES front end, precision resolution and mediump lowering for halfcheck.
