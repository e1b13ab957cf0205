/**
 * Cheap plausibility checks of a slider track: `[x, y, tMs]` points as the browser recorded
 * them. They stop the laziest scripts (a single jump to the answer, a straight synthetic line);
 * they are not a bot detector.
 */
export type TrackPoint = [number, number, number]
export type TrackInput = 'pointer' | 'keyboard'

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
 * A human-like drag: the speed varies (accelerates, slows near the gap) and no single step carries
 * a large share of the way, so a constant-speed line or a few big jumps fail. Event timing is not
 * judged (60/120 Hz pointer clocks are human too). Not a bot detector alone: the proof of work and
 * the single-use challenge carry the rest.
 */
export const HUMAN_RULES = {
  /** Coefficient of variation of the segment speeds below which a drag is "constant speed". */
  minSpeedVariation: 0.2,
  /** The last fifth of the drag is slower than this share of the middle third's speed. */
  maxFinalSpeedShare: 0.8,
  /** No single step covers more than this share of the distance travelled. */
  maxStepShare: 0.3,
}

/**
 * The keyboard path (arrow keys on the focused slider handle): `[x, 0, tMs]`, the piece's
 * position after each key event, from 0. A person presses, holds (the key repeats), releases,
 * looks, adjusts: the track moves in small steps (1 px, 10 px with Shift), lasts a while and its
 * rhythm is broken by pauses. A script stepping to the answer at one steady rate is refused.
 */
export const KEYBOARD_RULES = {
  minEvents: 3,
  minDurationMs: 300,
  /** 10 px is the Shift step. */
  maxStepPx: 10,
  /** A gap this long, and at least `pauseFactor` times the median gap, is a pause. */
  minPauseMs: 100,
  pauseFactor: 2,
  /** Coefficient of variation of the gaps at or above which the rhythm is not steady. */
  minTimingVariation: 0.15,
  /**
   * A person's key events are tens to hundreds of ms apart (an OS key repeat is 30-50 ms at its
   * fastest): the median gap is at least this, and no more than `maxFastShare` of the gaps is
   * below `fastGapMs` (a script's 1 ms steps plus one pause are refused).
   */
  minMedianGapMs: 20,
  fastGapMs: 8,
  maxFastShare: 0.1,
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length

const variation = (values: number[]) => {
  const average = mean(values)
  if (average === 0) return 0
  const variance = values.reduce((sum, value) => sum + (value - average) ** 2, 0) / values.length
  return Math.sqrt(variance) / Math.abs(average)
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

function isHumanLikeDrag(track: TrackPoint[], droppedX: number, tolerance: number) {
  if (!isPlausibleTrack(track, droppedX, tolerance)) return false
  const speeds: number[] = []
  let distance = 0
  let largestStep = 0
  for (let i = 1; i < track.length; i++) {
    const dx = Math.abs(track[i][0] - track[i - 1][0])
    distance += dx
    largestStep = Math.max(largestStep, dx)
    const dt = track[i][2] - track[i - 1][2]
    if (dt > 0) speeds.push(dx / dt)
  }
  if (speeds.length < TRACK_RULES.minPoints - 1) return false
  if (largestStep > distance * HUMAN_RULES.maxStepShare) return false
  if (variation(speeds) < HUMAN_RULES.minSpeedVariation) return false
  // Average speed over the last fifth against the middle third: a person slows down at the gap.
  const tail = mean(speeds.slice(Math.floor(speeds.length * 0.8)))
  const middle = mean(
    speeds.slice(Math.floor(speeds.length / 3), Math.ceil((speeds.length * 2) / 3))
  )
  return tail <= middle * HUMAN_RULES.maxFinalSpeedShare
}

function isHumanLikeKeyboard(track: TrackPoint[], droppedX: number, tolerance: number) {
  if (track.length < KEYBOARD_RULES.minEvents) return false
  const first = track[0]
  const last = track[track.length - 1]
  if (last[2] - first[2] < KEYBOARD_RULES.minDurationMs) return false
  if (Math.abs(last[0] - droppedX) > tolerance) return false
  // The piece starts at 0: the first key event moves it one step at most.
  if (Math.abs(first[0]) > KEYBOARD_RULES.maxStepPx) return false
  const gaps: number[] = []
  const steps: number[] = []
  for (let i = 0; i < track.length; i++) {
    const [x, y, t] = track[i]
    if (y !== 0) return false
    if (i === 0) continue
    const [px, , pt] = track[i - 1]
    if (t < pt) return false
    const dx = x - px
    if (Math.abs(dx) > KEYBOARD_RULES.maxStepPx) return false
    gaps.push(t - pt)
    steps.push(dx)
  }
  // One steady run: the same step at one rate, no pause. An adjustment (another step size or
  // direction) at that same rate is still a script: a person's hand changes rhythm with it.
  const typical = median(gaps)
  if (typical < KEYBOARD_RULES.minMedianGapMs) return false
  const fast = gaps.filter((gap) => gap < KEYBOARD_RULES.fastGapMs).length
  if (fast > gaps.length * KEYBOARD_RULES.maxFastShare) return false
  const paused = gaps.some(
    (gap) => gap >= KEYBOARD_RULES.minPauseMs && gap >= typical * KEYBOARD_RULES.pauseFactor
  )
  return paused || variation(gaps) >= KEYBOARD_RULES.minTimingVariation
}

/**
 * The check the verify endpoint makes of a track: a pointer drag (default) or the keyboard path,
 * which cannot claim to have lasted longer than `elapsedMs`, the time since the slider was drawn
 * (a script that verifies at once with an invented 500 ms track is refused).
 */
export function isHumanLikeTrack(
  track: TrackPoint[],
  droppedX: number,
  tolerance: number,
  input: TrackInput = 'pointer',
  elapsedMs = Number.POSITIVE_INFINITY
) {
  if (track.length === 0 || track[track.length - 1][2] - track[0][2] > elapsedMs) return false
  return input === 'keyboard'
    ? isHumanLikeKeyboard(track, droppedX, tolerance)
    : isHumanLikeDrag(track, droppedX, tolerance)
}
