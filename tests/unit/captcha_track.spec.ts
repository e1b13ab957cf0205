import { test } from '@japa/runner'
import { TRACK_RULES, type TrackPoint, isPlausibleTrack } from '#captcha/track'

/** A plausible drag: `points` points over `durationMs`, 10 px apart, y wobbling by one pixel. */
function drag(points = 12, durationMs = 600, step = 10): TrackPoint[] {
  return Array.from({ length: points }, (_, i): TrackPoint => [
    i * step,
    100 + (i % 2),
    Math.round((i * durationMs) / (points - 1)),
  ])
}

/** Where the track ends, so the dropped position matches it. */
const endX = (track: TrackPoint[]) => track[track.length - 1][0]

test.group('Captcha track plausibility', () => {
  test('a human-like drag ending at the dropped position is accepted', ({ assert }) => {
    const track = drag()
    assert.isTrue(isPlausibleTrack(track, endX(track), 0))
  })

  test('at least 10 points', ({ assert }) => {
    assert.equal(TRACK_RULES.minPoints, 10)
    assert.isTrue(isPlausibleTrack(drag(10), endX(drag(10)), 0))
    assert.isFalse(isPlausibleTrack(drag(9), endX(drag(9)), 0))
    assert.isFalse(isPlausibleTrack([], 0, 1000))
  })

  test('lasts at least 300 ms', ({ assert }) => {
    assert.equal(TRACK_RULES.minDurationMs, 300)
    assert.isTrue(isPlausibleTrack(drag(12, 300), endX(drag(12, 300)), 0))
    assert.isFalse(isPlausibleTrack(drag(12, 299), endX(drag(12, 299)), 0))
  })

  test('no jump over 50 px between two points, in either direction', ({ assert }) => {
    assert.equal(TRACK_RULES.maxJumpPx, 50)
    assert.isTrue(isPlausibleTrack(drag(12, 600, 50), endX(drag(12, 600, 50)), 0))
    assert.isFalse(isPlausibleTrack(drag(12, 600, 51), endX(drag(12, 600, 51)), 0))
    const back = drag()
    back[5][0] = back[4][0] - 51
    assert.isFalse(isPlausibleTrack(back, endX(back), 0))
  })

  test('time never goes backwards (equal timestamps are fine)', ({ assert }) => {
    const same = drag()
    same[5][2] = same[4][2]
    assert.isTrue(isPlausibleTrack(same, endX(same), 0))
    const backwards = drag()
    backwards[5][2] = backwards[4][2] - 1
    assert.isFalse(isPlausibleTrack(backwards, endX(backwards), 0))
  })

  test('a perfectly flat line is refused', ({ assert }) => {
    const flat = drag().map(([x, , t]): TrackPoint => [x, 100, t])
    assert.isFalse(isPlausibleTrack(flat, endX(flat), 1000))
  })

  test('ends within the tolerance of the dropped position', ({ assert }) => {
    const track = drag()
    const x = endX(track)
    assert.isTrue(isPlausibleTrack(track, x + 3, 3))
    assert.isTrue(isPlausibleTrack(track, x - 3, 3))
    assert.isFalse(isPlausibleTrack(track, x + 4, 3))
    assert.isFalse(isPlausibleTrack(track, x - 4, 3))
  })
})
