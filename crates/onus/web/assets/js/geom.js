// Table geometry in DU, as acies-geom defines it: heading in radians counter-clockwise from +y,
// a card's local frame has x to its right and y to its front.

export const MARKER_DEPTH = 0.4;

export const vec = (x, y) => ({ x, y });
export const add = (a, b) => ({ x: a.x + b.x, y: a.y + b.y });
export const sub = (a, b) => ({ x: a.x - b.x, y: a.y - b.y });
export const mul = (a, k) => ({ x: a.x * k, y: a.y * k });
export const len = (a) => Math.hypot(a.x, a.y);
export const dist = (a, b) => len(sub(a, b));

/** Rotates a vector counter-clockwise by `a` radians. */
export function rot(v, a) {
  const c = Math.cos(a);
  const s = Math.sin(a);
  return { x: v.x * c - v.y * s, y: v.x * s + v.y * c };
}

export function normAngle(a) {
  let x = a % (2 * Math.PI);
  if (x <= -Math.PI) x += 2 * Math.PI;
  if (x > Math.PI) x -= 2 * Math.PI;
  return x;
}

export const forward = (pose) => ({ x: -Math.sin(pose.heading), y: Math.cos(pose.heading) });
export const right = (pose) => ({ x: Math.cos(pose.heading), y: Math.sin(pose.heading) });
export const toWorld = (pose, local) => add(pose.centre, rot(local, pose.heading));
export const toLocal = (pose, world) => rot(sub(world, pose.centre), -pose.heading);

export function rotatedAbout(pose, pivot, angle) {
  return { centre: add(pivot, rot(sub(pose.centre, pivot), angle)), heading: normAngle(pose.heading + angle) };
}

/** The four corners of a card: front-left, front-right, rear-right, rear-left. */
export function corners(pose, size) {
  const w = size.width / 2;
  const d = size.depth / 2;
  return [vec(-w, d), vec(w, d), vec(w, -d), vec(-w, -d)].map((c) => toWorld(pose, c));
}

/**
 * The pose after one movement step (onus_table::Step JSON). A preview only: the engine's
 * `check_move` answer (its `poses`) is what counts.
 */
export function applyStep(pose, size, step) {
  if ('Advance' in step) return { centre: add(pose.centre, mul(forward(pose), step.Advance)), heading: pose.heading };
  if ('Slide' in step) {
    const d = add(mul(right(pose), step.Slide.right), mul(forward(pose), step.Slide.forward));
    return { centre: add(pose.centre, d), heading: pose.heading };
  }
  if ('Turn' in step) return { centre: pose.centre, heading: normAngle(pose.heading + step.Turn) };
  if ('Wheel' in step) {
    const left = isLeftPivot(step.Wheel.pivot);
    const rear = isRearPivot(step.Wheel.pivot);
    const corner = toWorld(pose, vec((left ? -1 : 1) * size.width / 2, (rear ? -1 : 1) * size.depth / 2));
    return rotatedAbout(pose, corner, (left ? 1 : -1) * step.Wheel.angle);
  }
  return pose;
}

/** Whether a rotation corner (onus_table::Pivot JSON) turns the unit to its left. */
export function isLeftPivot(pivot) {
  return pivot === 'FrontLeft' || pivot === 'RearLeft';
}

/** Whether a rotation corner is one of the rear corners. */
export function isRearPivot(pivot) {
  return pivot === 'RearLeft' || pivot === 'RearRight';
}

export function applySteps(pose, size, steps) {
  let p = pose;
  for (const st of steps) p = applyStep(p, size, st);
  return p;
}

/** A short description of a step for people. */
export function describeStep(st) {
  const f = (x) => Number(x).toFixed(2).replace(/\.?0+$/, '');
  const deg = (a) => Math.round((a * 180) / Math.PI);
  if ('Advance' in st) return `advance ${f(st.Advance)} DU`;
  if ('Slide' in st) return `slide ${f(st.Slide.right)} right, ${f(st.Slide.forward)} forward`;
  if ('Turn' in st) return `turn ${deg(st.Turn)}° about the centre`;
  if ('Wheel' in st) {
    const side = isLeftPivot(st.Wheel.pivot) ? 'left' : 'right';
    return `wheel ${deg(st.Wheel.angle)}° ${side} about the ${isRearPivot(st.Wheel.pivot) ? 'rear' : 'front'}-${side} corner`;
  }
  if ('Extend' in st) return `extend ${st.Extend.toLowerCase()}`;
  if ('Reduce' in st) return `reduce ${st.Reduce.toLowerCase()}`;
  if ('Adopt' in st) return `adopt ${String(st.Adopt).replace(/_/g, ' ')}`;
  if (st === 'Undo' || 'Undo' in st) return 'undo formation';
  return JSON.stringify(st);
}

/** The segment of section `index` on `edge` of a card (clockwise perimeter from front-left). */
export function sectionSegment(pose, size, edge, index) {
  const [fl, fr, rr, rl] = corners(pose, size);
  const spans = { Front: [fl, fr, 4], Right: [fr, rr, 2], Rear: [rr, rl, 4], Left: [rl, fl, 2] };
  const [a, b, n] = spans[edge];
  const t0 = index / n;
  const t1 = (index + 1) / n;
  const lerp = (t) => add(a, mul(sub(b, a), t));
  return [lerp(t0), lerp(t1)];
}

/** The pose and size of an enveloping Section marker on a target's section. */
export function envelopingMarker(pose, size, edge, index) {
  const [a, b] = sectionSegment(pose, size, edge, index);
  const mid = mul(add(a, b), 0.5);
  const outward = { Front: 0, Right: -Math.PI / 2, Rear: Math.PI, Left: Math.PI / 2 }[edge];
  const n = rot(vec(0, 1), pose.heading + outward);
  return {
    pose: { centre: add(mid, mul(n, MARKER_DEPTH / 2)), heading: normAngle(pose.heading + outward + Math.PI) },
    size: { width: dist(a, b), depth: MARKER_DEPTH },
  };
}

/** The pose of an extended-formation marker on a flank ("Left" / "Right"). */
export function extendedMarker(pose, size, flank) {
  const w = size.width / 4;
  const x = size.width / 2 + w / 2;
  const local = vec(flank === 'Left' ? -x : x, size.depth / 2 - MARKER_DEPTH / 2);
  return { pose: { centre: toWorld(pose, local), heading: pose.heading }, size: { width: w, depth: MARKER_DEPTH } };
}

/** Whether a table point lies inside a card. */
export function inside(pose, size, p) {
  const l = toLocal(pose, p);
  return Math.abs(l.x) <= size.width / 2 && Math.abs(l.y) <= size.depth / 2;
}
