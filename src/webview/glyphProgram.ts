// A sigma v3 WebGL node program that draws each agent as a glyph: circle (benign), diamond (infected) or triangle
// (attacker), filled with the category colour and ringed in a second colour whose width encodes the score. Shape and
// ring keep the categories apart without colour (colour-blind safe); picking uses the same silhouette. Each glyph is
// three plain vertices, not an instance: software WebGL pays a fixed cost per instance (2,000 instanced glyphs took
// ~130 ms a frame in headless Chromium, ~25 ms as plain triangles).
import type { NodeDisplayData, RenderParams } from 'sigma/types';
import { NodeProgram, type ProgramInfo } from 'sigma/rendering';
import { floatColor } from 'sigma/utils';

/** Extra display data the reducers put on each node for this program. */
export interface GlyphData {
  /** 0 circle, 1 diamond, 2 triangle. */
  shape?: number;
  /** Ring width as a fraction of the radius (0..0.6). */
  ring?: number;
  ringColor?: string;
}

const VERTEX_SHADER = /* glsl */ `
attribute vec4 a_id;
attribute vec4 a_color;
attribute vec4 a_ringColor;
attribute vec2 a_position;
attribute float a_size;
attribute float a_shape;
attribute float a_ring;
attribute float a_angle;

uniform mat3 u_matrix;
uniform float u_sizeRatio;
uniform float u_correctionRatio;

varying vec4 v_color;
varying vec4 v_ringColor;
varying vec2 v_diffVector;
varying float v_radius;
varying float v_shape;
varying float v_ring;

const float bias = 255.0 / 254.0;

void main() {
  float size = a_size * u_correctionRatio / u_sizeRatio * 4.0;
  vec2 diffVector = size * vec2(cos(a_angle), sin(a_angle));
  vec2 position = a_position + diffVector;
  gl_Position = vec4((u_matrix * vec3(position, 1)).xy, 0, 1);
  v_diffVector = diffVector;
  v_radius = size / 2.0;
  v_shape = a_shape;
  v_ring = a_ring;
  #ifdef PICKING_MODE
  v_color = a_id;
  v_ringColor = a_id;
  #else
  v_color = a_color;
  v_ringColor = a_ringColor;
  #endif
  v_color.a *= bias;
  v_ringColor.a *= bias;
}
`;

const FRAGMENT_SHADER = /* glsl */ `
precision highp float;

varying vec4 v_color;
varying vec4 v_ringColor;
varying vec2 v_diffVector;
varying float v_radius;
varying float v_shape;
varying float v_ring;

uniform float u_correctionRatio;

const vec4 transparent = vec4(0.0, 0.0, 0.0, 0.0);

// Signed distance (negative inside) to the glyph of radius r centred at the origin.
float glyph(vec2 p, float r) {
  if (v_shape > 1.5) {
    // Equilateral triangle pointing up (Inigo Quilez's exact SDF), circumradius r.
    const float k = 1.7320508;
    float h = r * 0.8660254;
    vec2 q = vec2(abs(p.x) - h, p.y + h / k);
    if (q.x + k * q.y > 0.0) q = vec2(q.x - k * q.y, -k * q.x - q.y) / 2.0;
    q.x -= clamp(q.x, -2.0 * h, 0.0);
    return -length(q) * sign(q.y);
  }
  if (v_shape > 0.5) {
    // Diamond (square rotated 45 degrees).
    return (abs(p.x) + abs(p.y) - r * 1.05) * 0.7071;
  }
  return length(p) - r * 0.86;
}

void main(void) {
  float aa = u_correctionRatio * 1.5;
  float d = glyph(v_diffVector, v_radius);
  #ifdef PICKING_MODE
  gl_FragColor = d > 0.0 ? transparent : v_color;
  #else
  // The triangle's inradius is half its circumradius, so its ring is drawn at half the width.
  float ringWidth = v_ring * v_radius * (v_shape > 1.5 ? 0.55 : v_shape > 0.5 ? 0.75 : 1.0);
  vec4 inside = d > -ringWidth ? v_ringColor : v_color;
  // Soft edge between fill and ring, and towards the outside.
  if (ringWidth > 0.0) inside = mix(v_color, v_ringColor, smoothstep(-ringWidth - aa, -ringWidth, d));
  gl_FragColor = mix(inside, transparent, smoothstep(-aa, 0.0, d));
  #endif
}
`;

const UNIFORMS = ['u_sizeRatio', 'u_correctionRatio', 'u_matrix'] as const;
const FLOAT = 5126;
const UNSIGNED_BYTE = 5121;
const TRIANGLES = 4;
/** The three corners of the triangle that encloses a glyph. */
const CORNER_ANGLES = [0, (2 * Math.PI) / 3, (4 * Math.PI) / 3];

/** The glyph node program (register it as nodeProgramClasses.glyph). */
export class NodeGlyphProgram extends NodeProgram<(typeof UNIFORMS)[number]> {
  getDefinition() {
    return {
      VERTICES: 3,
      VERTEX_SHADER_SOURCE: VERTEX_SHADER,
      FRAGMENT_SHADER_SOURCE: FRAGMENT_SHADER,
      METHOD: TRIANGLES,
      UNIFORMS,
      ATTRIBUTES: [
        { name: 'a_position', size: 2, type: FLOAT },
        { name: 'a_size', size: 1, type: FLOAT },
        { name: 'a_shape', size: 1, type: FLOAT },
        { name: 'a_ring', size: 1, type: FLOAT },
        { name: 'a_color', size: 4, type: UNSIGNED_BYTE, normalized: true },
        { name: 'a_ringColor', size: 4, type: UNSIGNED_BYTE, normalized: true },
        { name: 'a_id', size: 4, type: UNSIGNED_BYTE, normalized: true },
        { name: 'a_angle', size: 1, type: FLOAT },
      ],
    };
  }

  processVisibleItem(nodeIndex: number, startIndex: number, data: NodeDisplayData & GlyphData): void {
    const array = this.array;
    const color = floatColor(data.color);
    const ringColor = floatColor(data.ringColor ?? data.color);
    for (const angle of CORNER_ANGLES) {
      array[startIndex++] = data.x;
      array[startIndex++] = data.y;
      array[startIndex++] = data.size;
      array[startIndex++] = data.shape ?? 0;
      array[startIndex++] = data.ring ?? 0;
      array[startIndex++] = color;
      array[startIndex++] = ringColor;
      array[startIndex++] = nodeIndex;
      array[startIndex++] = angle;
    }
  }

  setUniforms(params: RenderParams, { gl, uniformLocations }: ProgramInfo<(typeof UNIFORMS)[number]>): void {
    gl.uniform1f(uniformLocations.u_correctionRatio, params.correctionRatio);
    gl.uniform1f(uniformLocations.u_sizeRatio, params.sizeRatio);
    gl.uniformMatrix3fv(uniformLocations.u_matrix, false, params.matrix);
  }
}
