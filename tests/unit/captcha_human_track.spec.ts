import { test } from '@japa/runner'
import { HUMAN_RULES, KEYBOARD_RULES, isHumanLikeTrack, type TrackPoint } from '#captcha/track'
import { humanTrack } from '#tests/helpers/captcha'

/*
| Recorded-like tracks. Seeded (Lehmer) so a failure replays; times are whole milliseconds since
| the first event, as the console sends them.
*/
const seeded = (seed: number) => {
  let state = seed
  return () => (state = (state * 48271) % 2147483647) / 2147483647
}

const linear = (x: number): TrackPoint[] =>
  Array.from({ length: 30 }, (_, i) => [(x * i) / 29, 2 + (i % 3), i * 20])

/**
 * A drag as a browser delivering pointer events on the display clock records it: one event per
 * frame (`hz`), timestamps within 0.5 ms of the frame, then rounded; smoothstep easing (speed
 * rises, then falls near the gap), a tiny vertical wobble, x to 0.01 px.
 */
function steadyDrag(x: number, options: { hz?: number; durationMs?: number; seed?: number } = {}) {
  const { hz = 60, durationMs = 700, seed = 1 } = options
  const random = seeded(seed)
  const frame = 1000 / hz
  const frames = Math.round(durationMs / frame)
  const track: TrackPoint[] = [[0, 0, 0]]
  for (let i = 1; i <= frames; i++) {
    const p = i / frames
    const eased = p * p * (3 - 2 * p)
    const wobble = Math.round(Math.sin(i / 4) + (random() - 0.5) * 1.5)
    const t = Math.max(0, Math.round(i * frame + (random() - 0.5)))
    track.push([Math.round(eased * x * 100) / 100, wobble, t])
  }
  return track
}

/** A script: the same step every frame of a steady 60 Hz clock, with a y wobble to look human. */
function constantLine(x: number, durationMs = 700): TrackPoint[] {
  const frames = Math.round(durationMs / (1000 / 60))
  return Array.from({ length: frames + 1 }, (_, i): TrackPoint => [
    Math.round(((x * i) / frames) * 100) / 100,
    i % 3 === 0 ? 1 : 0,
    Math.round((i * 1000) / 60),
  ])
}

/**
 * A person on the keyboard: a few Shift+ArrowRight taps (10 px) at an uneven pace, a look, then
 * ArrowRight (1 px) taps, possibly an ArrowLeft back, to land on `x`. `hold` holds ArrowRight
 * instead of tapping Shift: one event, the OS repeat delay, then repeats every 33 ms.
 */
function keyboardHuman(x: number, options: { seed?: number; hold?: boolean } = {}) {
  const random = seeded(options.seed ?? 3)
  const track: TrackPoint[] = []
  let position = 0
  let t = 0
  const key = (step: number, gap: number) => {
    position += step
    track.push([position, 0, Math.round((t += track.length ? gap : 0))])
  }
  const coarse = Math.max(0, Math.floor(x / 10) - 1)
  if (options.hold) {
    key(1, 0)
    for (let i = 1; i < coarse * 10 - 2; i++) key(1, i === 1 ? 500 : 33.3)
  } else {
    for (let i = 0; i < coarse; i++) key(10, 110 + random() * 160)
  }
  // Looks, then adjusts one pixel at a time (overshooting by one and back, sometimes).
  let first = true
  const overshoot = random() < 0.5 ? 1 : 0
  while (position < x + overshoot) {
    key(1, first ? 350 + random() * 300 : 120 + random() * 150)
    first = false
  }
  while (position > x) key(-1, 250 + random() * 100)
  return track
}

/** A script on the keyboard: Shift+ArrowRight every `gapMs`, then ArrowRight, at one rate. */
function keyboardRobot(x: number, gapMs = 50): TrackPoint[] {
  const track: TrackPoint[] = []
  let position = 0
  while (position < x) {
    position += x - position >= 10 ? 10 : 1
    track.push([position, 0, track.length * gapMs])
  }
  return track
}

const endX = (track: TrackPoint[]) => track[track.length - 1][0]

test.group('Captcha track: human-like drag', () => {
  test('an eased drag with jitter passes, for several seeds and distances', ({ assert }) => {
    for (const seed of [1, 2, 3, 4, 5]) {
      for (const x of [60, 120, 200]) assert.isTrue(isHumanLikeTrack(humanTrack(x, seed), x, 4))
    }
  })

  test('a steady 60 Hz or 120 Hz clock passes when the drag is human-like', ({ assert }) => {
    for (const hz of [60, 120]) {
      for (const seed of [1, 2, 3]) {
        for (const x of [40, 120, 230]) {
          for (const durationMs of [350, 700, 1400]) {
            const track = steadyDrag(x, { hz, seed, durationMs })
            assert.isTrue(isHumanLikeTrack(track, x, 4), `${hz} Hz, x ${x}, ${durationMs} ms`)
          }
        }
      }
    }
    // The timestamps of such a track hardly vary: rounding is all the jitter there is.
    const track = steadyDrag(150)
    const steps = track.slice(1).map(([, , t], i) => t - track[i][2])
    for (const step of steps) assert.isTrue(step >= 16 && step <= 18, `${step} ms`)
  })

  test('even intervals pass (a 60 Hz browser sends them); this case used to be refused', ({
    assert,
  }) => {
    // Before: a jitter rule (timing variation >= 0.05) refused the eased drag on even 20 ms
    // steps. Browsers on the display clock send exactly that, so the rule is gone.
    const even = humanTrack(150).map(([x, y], i): TrackPoint => [x, y, i * 20])
    assert.isTrue(isHumanLikeTrack(even, 150, 4))
    assert.notProperty(HUMAN_RULES, 'minTimingJitter')
  })

  test('constant speed or no slowing at the gap fail', ({ assert }) => {
    assert.isFalse(isHumanLikeTrack(linear(150), 150, 4), 'straight, constant speed')
    for (const x of [60, 150, 250]) {
      assert.isFalse(isHumanLikeTrack(constantLine(x), x, 4), `constant speed, 60 Hz, x ${x}`)
      assert.isFalse(isHumanLikeTrack(constantLine(x, 1500), x, 4), `slow constant, x ${x}`)
    }
    const noBrake = humanTrack(150).map(([, y, t], i, all): TrackPoint => {
      const p = i / (all.length - 1)
      return [150 * p * p, y, t] // still accelerating when it arrives
    })
    assert.isFalse(isHumanLikeTrack(noBrake, 150, 4), 'no slowing down at the gap')
    const steadyNoBrake = steadyDrag(150).map(([, y, t], i, all): TrackPoint => {
      const p = i / (all.length - 1)
      return [150 * p * p, y, t]
    })
    assert.isFalse(isHumanLikeTrack(steadyNoBrake, 150, 4), 'no slowing down, 60 Hz')
  })

  test('a jump to the answer, or a few big jumps, fail', ({ assert }) => {
    // One jump: still, then there.
    const jump: TrackPoint[] = Array.from({ length: 12 }, (_, i) => [
      i < 11 ? 0 : 150,
      i % 2,
      i * 40,
    ])
    assert.isFalse(isHumanLikeTrack(jump, 150, 4), 'one jump')
    // A 60 Hz drag with 12 frames left out in the middle: one step of about 85 px.
    const big = steadyDrag(200)
    big.splice(18, 12)
    assert.isFalse(isHumanLikeTrack(big, 200, 4), 'a jump over 50 px')
    // Three jumps of 50 px between still stretches: each jump is a third of the way.
    const hops: TrackPoint[] = []
    for (let i = 0; i < 20; i++) hops.push([Math.min(3, Math.floor(i / 5)) * 50, i % 2, i * 33])
    assert.isFalse(isHumanLikeTrack(hops, 150, 4), 'a few 50 px jumps')
    assert.equal(HUMAN_RULES.maxStepShare, 0.3)
  })

  test('too short, too few points, or ending away from the drop fail', ({ assert }) => {
    assert.isFalse(isHumanLikeTrack(steadyDrag(150, { durationMs: 250 }), 150, 4), '250 ms')
    const sparse = steadyDrag(150, { hz: 20, durationMs: 400 }) // 9 points
    assert.isFalse(isHumanLikeTrack(sparse, 150, 4), '9 points')
    assert.isFalse(isHumanLikeTrack(steadyDrag(150), 145, 4), 'dropped 5 px away')
    assert.isFalse(isHumanLikeTrack([], 0, 1000), 'empty')
  })

  test('pointer is the default input', ({ assert }) => {
    const track = steadyDrag(150)
    assert.isTrue(isHumanLikeTrack(track, 150, 4, 'pointer'))
    assert.isFalse(isHumanLikeTrack(track, 150, 4, 'keyboard'), 'a drag is not a keyboard track')
  })
})

test.group('Captcha track: keyboard', () => {
  test('taps, a look and an adjustment pass, for several seeds and distances', ({ assert }) => {
    for (const seed of [1, 2, 3, 4, 5]) {
      for (const x of [37, 120, 203]) {
        const track = keyboardHuman(x, { seed })
        assert.equal(endX(track), x)
        assert.isTrue(isHumanLikeTrack(track, x, 4, 'keyboard'), `seed ${seed}, x ${x}`)
      }
    }
  })

  test('holding the key (repeat delay, then steady repeats) and adjusting passes', ({ assert }) => {
    for (const x of [45, 160]) {
      const track = keyboardHuman(x, { hold: true })
      assert.isTrue(isHumanLikeTrack(track, x, 4, 'keyboard'), `x ${x}`)
    }
  })

  test('one steady run to the answer fails, with or without a change of step', ({ assert }) => {
    for (const x of [40, 150, 207]) {
      for (const gap of [33, 50, 120, 200]) {
        const track = keyboardRobot(x, gap)
        assert.isFalse(isHumanLikeTrack(track, x, 4, 'keyboard'), `x ${x}, every ${gap} ms`)
      }
    }
    // A steady run whose rhythm is broken by a pause passes: the pause is what a hand does.
    const paused = keyboardRobot(150, 50).map(([x, y, t], i): TrackPoint => [
      x,
      y,
      t + (i > 8 ? 400 : 0),
    ])
    assert.isTrue(isHumanLikeTrack(paused, 150, 4, 'keyboard'))
    assert.equal(KEYBOARD_RULES.minPauseMs, 100)
  })

  test('steady 1 ms steps are refused, even with a pause; a recorded-like sequence passes', ({
    assert,
  }) => {
    // The scorer was passed offline by a script: 1 ms steps, then one pause to break the rhythm.
    for (const pauseAt of [3, 8, 15]) {
      const scripted = keyboardRobot(150, 1).map(([x, y, t], i): TrackPoint => [
        x,
        y,
        t + (i > pauseAt ? 400 : 0),
      ])
      assert.isFalse(isHumanLikeTrack(scripted, 150, 4, 'keyboard'), `pause after ${pauseAt}`)
    }
    // Half the gaps at 2 ms (a burst no keyboard repeats that fast) fails too.
    const halfFast = keyboardHuman(150).map(([x, y], i): TrackPoint => [
      x,
      y,
      Math.floor(i / 2) * 300 + (i % 2) * 2,
    ])
    assert.isFalse(isHumanLikeTrack(halfFast, 150, 4, 'keyboard'))
    // Recorded-like: taps 110-270 ms apart, a look, 1 px adjustments (several seeds), and a hold.
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      assert.isTrue(isHumanLikeTrack(keyboardHuman(150, { seed }), 150, 4, 'keyboard'))
    }
    assert.isTrue(isHumanLikeTrack(keyboardHuman(120, { hold: true }), 120, 4, 'keyboard'))
  })

  test('a track claiming more time than passed since the slider was drawn fails', ({ assert }) => {
    const human = keyboardHuman(150)
    const lasted = human[human.length - 1][2] - human[0][2]
    assert.isTrue(isHumanLikeTrack(human, 150, 4, 'keyboard', lasted + 50))
    assert.isFalse(isHumanLikeTrack(human, 150, 4, 'keyboard', lasted - 1))
    assert.isFalse(isHumanLikeTrack(human, 150, 4, 'keyboard', 10), 'verified 10 ms after the draw')
  })

  test('a step over 10 px, a moving y, too short or off the drop fail', ({ assert }) => {
    const human = keyboardHuman(150)
    assert.isTrue(isHumanLikeTrack(human, 150, 4, 'keyboard'))
    const jump = human.map(([x, y, t], i): TrackPoint => [i >= 5 ? x + 1 : x, y, t])
    assert.isFalse(isHumanLikeTrack(jump, 151, 4, 'keyboard'), '11 px in one step')
    const farStart = human.map(([x, y, t]): TrackPoint => [x + 11, y, t])
    assert.isFalse(isHumanLikeTrack(farStart, 161, 4, 'keyboard'), 'first event 21 px from 0')
    const wobble = human.map(([x, , t], i): TrackPoint => [x, i % 2, t])
    assert.isFalse(isHumanLikeTrack(wobble, 150, 4, 'keyboard'), 'y moves')
    const backwards = human.map((point): TrackPoint => [...point])
    backwards[4][2] = backwards[3][2] - 1
    assert.isFalse(isHumanLikeTrack(backwards, 150, 4, 'keyboard'), 'time goes back')
    const quick: TrackPoint[] = [
      [10, 0, 0],
      [20, 0, 150],
      [21, 0, 290],
    ]
    assert.isFalse(isHumanLikeTrack(quick, 21, 4, 'keyboard'), 'under 300 ms')
    assert.isFalse(isHumanLikeTrack(quick.slice(0, 2), 20, 4, 'keyboard'), 'two events')
    assert.isFalse(isHumanLikeTrack(human, 155, 4, 'keyboard'), 'dropped 5 px away')
    assert.isFalse(isHumanLikeTrack([], 0, 1000, 'keyboard'), 'empty')
  })
})
