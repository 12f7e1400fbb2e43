// Edge programs for software WebGL (SwiftShader: headless Chromium, VMs and remote desktops without a GPU), where a
// round change at 2,000 agents cost ~250 ms a frame with sigma's stock programs:
// - instancing has a fixed cost per instance there: 4,674 instanced arrows took ~400 ms a frame and ~180 ms as plain
//   triangles (`withoutInstancing`, same shaders, each item's attributes repeated on its vertices);
// - the thin channel lines do not change between rounds, so `CachedEdgeLineProgram` draws them into a texture once and
//   copies that texture while neither the lines nor the camera change.
import { EdgeArrowHeadProgram, EdgeClampedProgram, EdgeLineProgram, EdgeProgram, createEdgeCompoundProgram, type EdgeProgramType, type InstancedProgramDefinition, type ProgramDefinition } from 'sigma/rendering';
import type { EdgeDisplayData, NodeDisplayData, RenderParams } from 'sigma/types';

/** An instanced sigma edge program class, as its constructor (sigma's public type hides its instance members). */
type EdgeProgramClass = abstract new (...args: ConstructorParameters<EdgeProgramType>) => EdgeProgram;

/** The same edge program drawn without instancing: VERTICES vertices per edge, each carrying the edge's attributes. */
export function withoutInstancing(Base: EdgeProgramType): EdgeProgramType {
  // The base's own methods, called directly: sigma's types declare them abstract, so `super.` does not type-check.
  const base = Base.prototype as unknown as Pick<EdgeProgram, 'getDefinition' | 'processVisibleItem'>;
  const instancedDefinition = (program: EdgeProgram) => base.getDefinition.call(program) as InstancedProgramDefinition;
  abstract class Flat extends (Base as unknown as EdgeProgramClass) {
    /** The per-vertex constants, read lazily: getDefinition runs inside the base constructor, before fields exist. */
    private vertexConstants: number[][] | undefined;

    getDefinition(): ProgramDefinition {
      const { VERTICES, VERTEX_SHADER_SOURCE, FRAGMENT_SHADER_SOURCE, METHOD, UNIFORMS, ATTRIBUTES, CONSTANT_ATTRIBUTES } = instancedDefinition(this);
      return { VERTICES, VERTEX_SHADER_SOURCE, FRAGMENT_SHADER_SOURCE, METHOD, UNIFORMS, ATTRIBUTES: [...ATTRIBUTES, ...CONSTANT_ATTRIBUTES] };
    }

    processVisibleItem(...args: Parameters<EdgeProgram['processVisibleItem']>): void {
      // The base writes one item's attributes at `start`; copy them to the other vertices and add each one's constants.
      base.processVisibleItem.apply(this, args);
      const start = args[1];
      const constants = (this.vertexConstants ??= instancedDefinition(this).CONSTANT_DATA);
      const vertexSize = this.ATTRIBUTES_ITEMS_COUNT;
      const itemSize = vertexSize - constants[0].length;
      for (let v = constants.length - 1; v >= 0; v--) {
        const at = start + v * vertexSize;
        if (v > 0) this.array.copyWithin(at, start, start + itemSize);
        this.array.set(constants[v], at + itemSize);
      }
    }
  }
  return Flat as unknown as EdgeProgramType;
}

/** Sigma's arrow (clamped body + head) without instancing. */
export const FlatEdgeArrowProgram = createEdgeCompoundProgram([withoutInstancing(EdgeClampedProgram), withoutInstancing(EdgeArrowHeadProgram)]);

const COPY_VERTEX_SHADER = `
attribute vec2 a_corner;
varying vec2 v_uv;
void main() {
  v_uv = (a_corner + 1.0) / 2.0;
  gl_Position = vec4(a_corner, 0.0, 1.0);
}`;

const COPY_FRAGMENT_SHADER = `
precision mediump float;
uniform sampler2D u_lines;
varying vec2 v_uv;
void main() {
  gl_FragColor = texture2D(u_lines, v_uv);
}`;

/** What the cached picture was drawn for: every render parameter, camera matrix included. */
function paramsKey(params: RenderParams): string {
  const { matrix, width, height, sizeRatio, zoomRatio, pixelRatio, cameraAngle, correctionRatio, downSizingRatio, minEdgeThickness, antiAliasingFeather } = params;
  return [...matrix, width, height, sizeRatio, zoomRatio, pixelRatio, cameraAngle, correctionRatio, downSizingRatio, minEdgeThickness, antiAliasingFeather].join(',');
}

/** The GL objects of the cache, made on the first draw. */
interface LineCache {
  texture: WebGLTexture;
  framebuffer: WebGLFramebuffer;
  copyProgram: WebGLProgram;
  corners: WebGLBuffer;
  cornerLocation: number;
  width: number;
  height: number;
}

/**
 * Sigma's 1-pixel channel lines, drawn into a texture when the lines or the render parameters change and copied from it
 * otherwise. It must be the first program of its layer (the copy replaces what is below it) and has no picking pass
 * (edge events are off in this view).
 */
export class CachedEdgeLineProgram extends EdgeLineProgram {
  private cache: LineCache | undefined;
  private drawnFor: string | undefined;

  override process(edgeIndex: number, offset: number, sourceData: NodeDisplayData, targetData: NodeDisplayData, data: EdgeDisplayData): void {
    this.drawnFor = undefined;
    super.process(edgeIndex, offset, sourceData, targetData, data);
  }

  override reallocate(capacity: number): void {
    this.drawnFor = undefined;
    super.reallocate(capacity);
  }

  override render(params: RenderParams): void {
    if (this.hasNothingToRender()) return;
    const { gl } = this.normalProgram;
    const width = Math.round(params.width * params.pixelRatio);
    const height = Math.round(params.height * params.pixelRatio);
    const cache = this.cacheSized(gl, width, height);
    const key = paramsKey(params);
    if (this.drawnFor !== key) {
      gl.bindFramebuffer(gl.FRAMEBUFFER, cache.framebuffer);
      gl.viewport(0, 0, width, height);
      gl.clear(gl.COLOR_BUFFER_BIT);
      this.normalProgram.frameBuffer = cache.framebuffer;
      super.render(params);
      this.normalProgram.frameBuffer = null;
      this.drawnFor = key;
    }
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.viewport(0, 0, width, height);
    gl.enable(gl.BLEND);
    gl.useProgram(cache.copyProgram);
    gl.bindTexture(gl.TEXTURE_2D, cache.texture);
    gl.bindBuffer(gl.ARRAY_BUFFER, cache.corners);
    gl.enableVertexAttribArray(cache.cornerLocation);
    gl.vertexAttribPointer(cache.cornerLocation, 2, gl.FLOAT, false, 0, 0);
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
    gl.disableVertexAttribArray(cache.cornerLocation);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    gl.bindTexture(gl.TEXTURE_2D, null);
  }

  override kill(): void {
    const cache = this.cache;
    if (cache) {
      const { gl } = this.normalProgram;
      gl.deleteTexture(cache.texture);
      gl.deleteFramebuffer(cache.framebuffer);
      gl.deleteProgram(cache.copyProgram);
      gl.deleteBuffer(cache.corners);
      this.cache = undefined;
    }
    super.kill();
  }

  /** The cache, with its texture sized to the drawing buffer. */
  private cacheSized(gl: WebGLRenderingContext, width: number, height: number): LineCache {
    const cache = (this.cache ??= createLineCache(gl));
    if (cache.width !== width || cache.height !== height) {
      gl.bindTexture(gl.TEXTURE_2D, cache.texture);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, width, height, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
      gl.bindTexture(gl.TEXTURE_2D, null);
      cache.width = width;
      cache.height = height;
      this.drawnFor = undefined;
    }
    return cache;
  }
}

/** Makes the texture, framebuffer and copy program of a line cache (texture sized on first use). */
function createLineCache(gl: WebGLRenderingContext): LineCache {
  const texture = gl.createTexture();
  const framebuffer = gl.createFramebuffer();
  const corners = gl.createBuffer();
  const vertex = gl.createShader(gl.VERTEX_SHADER);
  const fragment = gl.createShader(gl.FRAGMENT_SHADER);
  const copyProgram = gl.createProgram();
  if (!texture || !framebuffer || !corners || !vertex || !fragment || !copyProgram) throw new Error('WebGL: could not create the edge line cache');
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, 1, 1, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
  for (const parameter of [gl.TEXTURE_MIN_FILTER, gl.TEXTURE_MAG_FILTER]) gl.texParameteri(gl.TEXTURE_2D, parameter, gl.NEAREST);
  for (const parameter of [gl.TEXTURE_WRAP_S, gl.TEXTURE_WRAP_T]) gl.texParameteri(gl.TEXTURE_2D, parameter, gl.CLAMP_TO_EDGE);
  gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  gl.bindTexture(gl.TEXTURE_2D, null);
  gl.bindBuffer(gl.ARRAY_BUFFER, corners);
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW);
  gl.bindBuffer(gl.ARRAY_BUFFER, null);
  gl.shaderSource(vertex, COPY_VERTEX_SHADER);
  gl.compileShader(vertex);
  gl.shaderSource(fragment, COPY_FRAGMENT_SHADER);
  gl.compileShader(fragment);
  gl.attachShader(copyProgram, vertex);
  gl.attachShader(copyProgram, fragment);
  gl.linkProgram(copyProgram);
  gl.deleteShader(vertex);
  gl.deleteShader(fragment);
  if (!gl.getProgramParameter(copyProgram, gl.LINK_STATUS)) throw new Error(`WebGL: the edge line cache's copy program did not link: ${gl.getProgramInfoLog(copyProgram) ?? ''}`);
  return { texture, framebuffer, copyProgram, corners, cornerLocation: gl.getAttribLocation(copyProgram, 'a_corner'), width: 1, height: 1 };
}
