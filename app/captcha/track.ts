/**
 * Cheap plausibility checks of a slider drag track: `[x, y, tMs]` points as the browser recorded
 * them. They stop the laziest scripts (a single jump to the answer, a straight synthetic line);
 * they are not a bot detector.
 */
export type TrackPoint = [number, number, number]

export const TRACK_RULES = {
  minDurationMs: 300,
  minPoints: 10,
  maxJumpPx: 50,
}

export function isPlausibleTrack(track: TrackPoint[], droppedX: number, tolerance: number) {
  if (track.length < TRACK_RULES.minPoints) return false
  const first = track[0]
  const last = track[track.length - 1]
  if (last[2] - first[2] < TRACK_RULES.minDurationMs) return false
  let yVaries = false
  for (let i = 1; i < track.length; i++) {
    const [x, y, t] = track[i]
    const [px, py, pt] = track[i - 1]
    if (t < pt) return false
    if (Math.abs(x - px) > TRACK_RULES.maxJumpPx) return false
    if (y !== py) yVaries = true
  }
  return yVaries && Math.abs(last[0] - droppedX) <= tolerance
}
