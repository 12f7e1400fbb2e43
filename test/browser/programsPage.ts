// Page entry for the render-program tests: draws one graph twice, with sigma's stock edge program and with ours, and
// reports how far apart the two edge layers are, pixel by pixel.
import Graph from 'graphology';
import Sigma from 'sigma';
import { EdgeArrowProgram, EdgeLineProgram, type EdgeProgramType } from 'sigma/rendering';
import { CachedEdgeLineProgram, FlatEdgeArrowProgram } from '../../src/webview/edgePrograms';
import { rng } from './synth';

/** The edge programs compared, by name. */
const PROGRAMS: Record<string, EdgeProgramType> = { arrow: EdgeArrowProgram, flatArrow: FlatEdgeArrowProgram, line: EdgeLineProgram, cachedLine: CachedEdgeLineProgram };

/** Pixel comparison of two edge layers. */
interface LayerDiff {
  /** Pixels with some edge drawn (alpha > 0) in the reference layer. */
  drawn: number;
  /** Pixels whose RGBA differs by more than 2 in some channel. */
  differing: number;
}

declare global {
  interface Window {
    compareEdgePrograms?: (reference: string, candidate: string, edges: number, cameraMoves: number, recolour: boolean) => LayerDiff;
  }
}

/** A seeded random graph of 300 nodes with the given number of coloured, sized edges. */
function randomGraph(edges: number): Graph {
  const random = rng(11);
  const graph = new Graph({ type: 'directed' });
  for (let i = 0; i < 300; i++) graph.addNode(`n${i}`, { x: random(), y: random(), size: 3, color: '#3366cc' });
  while (graph.size < edges) {
    const [a, b] = [Math.floor(random() * 300), Math.floor(random() * 300)];
    if (a !== b && !graph.hasEdge(`n${a}`, `n${b}`)) graph.addEdge(`n${a}`, `n${b}`, { size: 0.5 + 3 * random(), color: random() < 0.5 ? '#d55e00' : '#888888' });
  }
  return graph;
}

/** Renders now, reprocessing nothing (sigma's render() is private; an empty partial refresh is that). */
function renderNow(sigma: Sigma): void {
  sigma.refresh({ partialGraph: { nodes: [], edges: [] }, skipIndexation: true });
}

/** The edge layer's pixels right after a synchronous render (before the compositor takes the drawing buffer). */
function edgePixels(sigma: Sigma): Uint8ClampedArray {
  renderNow(sigma);
  const layer = sigma.getCanvases().edges;
  const copy = document.createElement('canvas');
  copy.width = layer.width;
  copy.height = layer.height;
  const context = copy.getContext('2d');
  if (!context) throw new Error('no 2D context');
  context.drawImage(layer, 0, 0);
  return context.getImageData(0, 0, copy.width, copy.height).data;
}

window.compareEdgePrograms = (reference, candidate, edges, cameraMoves, recolour) => {
  const graph = randomGraph(edges);
  const recoloured = new Set<string>();
  const draw = (name: string) => {
    const container = document.createElement('div');
    container.style.cssText = 'width: 600px; height: 450px; position: relative';
    document.body.append(container);
    return new Sigma(graph, container, {
      defaultEdgeType: 'compared',
      edgeProgramClasses: { compared: PROGRAMS[name] },
      renderLabels: false,
      edgeReducer: (edge, data) => (recoloured.has(edge) ? { ...data, color: '#009e73' } : data),
    });
  };
  const [a, b] = [draw(reference), draw(candidate)];
  // Camera moves between renders: a cached picture drawn for an earlier camera must not be shown.
  for (let move = 1; move <= cameraMoves; move++) {
    for (const sigma of [a, b]) {
      // A zoom, then pans (which change only the camera matrix).
      sigma.getCamera().setState({ x: 0.5 + 0.05 * move, y: 0.5 - 0.03 * move, ratio: 0.8 });
      renderNow(sigma);
    }
  }
  // Edges recoloured by the reducer and repainted in place (as a round change does): a cached picture of the old
  // colours must not be shown.
  if (recolour) {
    for (const edge of graph.edges().filter((_, i) => i % 3 === 0)) recoloured.add(edge);
    for (const sigma of [a, b]) sigma.refresh({ partialGraph: { edges: [...recoloured] }, skipIndexation: true });
  }
  const [pa, pb] = [edgePixels(a), edgePixels(b)];
  let drawn = 0;
  let differing = 0;
  for (let i = 0; i < pa.length; i += 4) {
    if (pa[i + 3] > 0) drawn++;
    if ([0, 1, 2, 3].some((c) => Math.abs(pa[i + c] - pb[i + c]) > 2)) differing++;
  }
  a.kill();
  b.kill();
  return { drawn, differing };
};
