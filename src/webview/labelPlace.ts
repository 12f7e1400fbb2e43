// Where an agent's label goes on the canvas: beside it, on a side none of its channels runs through, inside the canvas.

/** A label's box: its top-left corner, in viewport pixels. */
export interface LabelSpot {
  x: number;
  y: number;
}

/** An agent as drawn: its centre and radius, in viewport pixels. */
export interface DrawnAgent {
  x: number;
  y: number;
  size: number;
}

/**
 * Where a label of `width` x `height` pixels goes: right of the agent, else left, then above or below it flush right
 * or flush left of its centre, then centred above or below: the first of those inside the canvas that none of its
 * channels (directions from the agent, viewport y down) runs through. Where every spot is crossed, right, or left when
 * right would run past the canvas's edge (a label drawn along a path hid it).
 */
export function labelSpot(
  canvas: { width: number; height: number },
  agent: DrawnAgent,
  label: { width: number; height: number },
  gap: number,
  channels: readonly [number, number][],
): LabelSpot {
  const { width, height } = label;
  const middle = agent.y - height / 2;
  const top = agent.y - agent.size - gap - height;
  const bottom = agent.y + agent.size + gap;
  const right = agent.x + agent.size + gap;
  const left = agent.x - agent.size - gap - width;
  const flushRight = agent.x + gap;
  const flushLeft = agent.x - gap - width;
  const centred = Math.max(0, Math.min(agent.x - width / 2, canvas.width - width));
  const spots: LabelSpot[] = [
    { x: right, y: middle }, { x: left, y: middle },
    { x: flushRight, y: top }, { x: flushRight, y: bottom }, { x: flushLeft, y: top }, { x: flushLeft, y: bottom },
    { x: centred, y: top }, { x: centred, y: bottom },
  ];
  const fits = (spot: LabelSpot) => spot.x >= 0 && spot.x + width <= canvas.width && spot.y >= 0 && spot.y + height <= canvas.height;
  const clear = (spot: LabelSpot) => channels.every(([dx, dy]) => !rayCrosses(agent, dx, dy, spot, label));
  const beside = right + width > canvas.width && left >= 0 ? spots[1] : spots[0];
  return spots.find((spot) => fits(spot) && clear(spot)) ?? beside;
}

/** Whether the ray from `from` along (dx, dy) passes through the box (the slab test). */
function rayCrosses(from: { x: number; y: number }, dx: number, dy: number, box: LabelSpot, size: { width: number; height: number }): boolean {
  let near = 0;
  let far = Infinity;
  for (const [origin, step, low, high] of [[from.x, dx, box.x, box.x + size.width], [from.y, dy, box.y, box.y + size.height]]) {
    if (step === 0) {
      if (origin < low || origin > high) return false;
      continue;
    }
    const [enter, leave] = [(low - origin) / step, (high - origin) / step].sort((a, b) => a - b);
    near = Math.max(near, enter);
    far = Math.min(far, leave);
    if (near > far) return false;
  }
  return true;
}
