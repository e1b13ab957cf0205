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

/**
 * A human-like drag, beyond the cheap checks above: a person's speed varies (accelerates, then
 * slows down near the gap), and the browser's event timestamps jitter. A script replaying a
 * straight line at constant speed and even intervals fails. Still not a bot detector on its own:
 * the proof of work and the single-use challenge carry the rest.
 */
export const HUMAN_RULES = {
  /** Coefficient of variation of the segment speeds below which a drag is "constant speed". */
  minSpeedVariation: 0.2,
  /** Coefficient of variation of the time steps below which the timing is synthetic. */
  minTimingJitter: 0.05,
  /** The last fifth of the drag is slower than this share of the middle third's speed. */
  maxFinalSpeedShare: 0.8,
}

const variation = (values: number[]) => {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length
  if (mean === 0) return 0
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length
  return Math.sqrt(variance) / Math.abs(mean)
}

export function isHumanLikeTrack(
  track: TrackPoint[],
  droppedX: number,
  tolerance: number,
  _input: 'pointer' | 'keyboard' = 'pointer'
) {
  if (!isPlausibleTrack(track, droppedX, tolerance)) return false
  const steps: number[] = []
  const speeds: number[] = []
  for (let i = 1; i < track.length; i++) {
    const dt = track[i][2] - track[i - 1][2]
    if (dt <= 0) continue
    steps.push(dt)
    speeds.push(Math.abs(track[i][0] - track[i - 1][0]) / dt)
  }
  if (speeds.length < TRACK_RULES.minPoints - 1) return false
  if (variation(speeds) < HUMAN_RULES.minSpeedVariation) return false
  if (variation(steps) < HUMAN_RULES.minTimingJitter) return false
  // Average speed over the last fifth against the middle third: a person slows down at the gap.
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length
  const tail = mean(speeds.slice(Math.floor(speeds.length * 0.8)))
  const middle = mean(
    speeds.slice(Math.floor(speeds.length / 3), Math.ceil((speeds.length * 2) / 3))
  )
  return tail <= middle * HUMAN_RULES.maxFinalSpeedShare
}
