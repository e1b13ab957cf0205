import { test } from '@japa/runner'
import { isHumanLikeTrack, type TrackPoint } from '#captcha/track'
import { humanTrack } from '#tests/helpers/captcha'

const linear = (x: number): TrackPoint[] =>
  Array.from({ length: 30 }, (_, i) => [(x * i) / 29, 2 + (i % 3), i * 20])

test.group('Captcha track: human-like', () => {
  test('an eased drag with jitter passes, for several seeds and distances', ({ assert }) => {
    for (const seed of [1, 2, 3, 4, 5]) {
      for (const x of [60, 120, 200]) assert.isTrue(isHumanLikeTrack(humanTrack(x, seed), x, 4))
    }
  })

  test('constant speed, even intervals or no slowing at the gap fail', ({ assert }) => {
    assert.isFalse(isHumanLikeTrack(linear(150), 150, 4), 'straight, constant speed')
    const even = humanTrack(150).map(([x, y], i): TrackPoint => [x, y, i * 20])
    assert.isFalse(isHumanLikeTrack(even, 150, 4), 'even intervals')
    const noBrake = humanTrack(150).map(([, y, t], i, all): TrackPoint => {
      const p = i / (all.length - 1)
      return [150 * p * p, y, t] // still accelerating when it arrives
    })
    assert.isFalse(isHumanLikeTrack(noBrake, 150, 4), 'no slowing down at the gap')
  })
})
