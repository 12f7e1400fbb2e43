// Label placement: beside an agent, off the channels that leave it, inside the canvas.
import * as assert from 'node:assert/strict';
import { labelSpot } from '../../../src/webview/labelPlace';

const CANVAS = { width: 900, height: 700 };
const LABEL = { width: 80, height: 14 };
const GAP = 3;
const AGENT = { x: 400, y: 300, size: 10 };

describe('graph view label placement', () => {
  it('puts a label right of its agent when no channel runs under it', () => {
    assert.deepEqual(labelSpot(CANVAS, AGENT, LABEL, GAP, [[0, -1], [-1, 1]]), { x: 413, y: 293 });
  });

  it('moves a label off a channel drawn to the right (was drawn along the infection path)', () => {
    // Who&When Hand-Crafted/10: two agents on one horizontal line; each label sat on the path between them.
    assert.deepEqual(labelSpot(CANVAS, AGENT, LABEL, GAP, [[1, 0]]), { x: 307, y: 293 }, 'left');
    assert.deepEqual(labelSpot(CANVAS, { x: 60, y: 300, size: 10 }, LABEL, GAP, [[1, 0]]), { x: 63, y: 273 }, 'no room on the left: above, flush right');
  });

  it('a channel rising shallowly to the right, with the sides taken, puts the label below and flush right', () => {
    // tau-bench's ring: a long tool name at the canvas's left edge, one channel up-right and one straight down.
    assert.deepEqual(labelSpot(CANVAS, { x: 60, y: 300, size: 10 }, { width: 170, height: 14 }, GAP, [[3, -1], [0, 1]]), { x: 63, y: 313 });
  });

  it('a shallow channel that passes below the label does not move it', () => {
    assert.deepEqual(labelSpot(CANVAS, AGENT, LABEL, GAP, [[1, 1]]), { x: 413, y: 293 });
  });

  it('where every spot is crossed, keeps the label right, or left when right would leave the canvas', () => {
    const everyWay: [number, number][] = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, -0.2], [1, 0.2], [-1, -0.2], [-1, 0.2], [0.1, -1], [0.1, 1], [-0.1, -1], [-0.1, 1]];
    assert.deepEqual(labelSpot(CANVAS, AGENT, LABEL, GAP, everyWay), { x: 413, y: 293 });
    assert.deepEqual(labelSpot(CANVAS, { x: 880, y: 300, size: 10 }, LABEL, GAP, everyWay), { x: 787, y: 293 });
  });
});
