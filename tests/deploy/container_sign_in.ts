/*
| .ci/container.sh: the seeded administrator signs in to the container over the API as the console
| does (challenge, proof of work, slider, verify, login), the slider's answer read from the
| container's database. Prints one line and exits 0 when the login succeeds (the first login
| requires a password change: the token is scoped to it), else prints the answer and exits 1.
|   node --import @poppinss/ts-exec tests/deploy/container_sign_in.ts <base url> <database> <password>
*/
import pg from 'pg'
import { captchaAt, rightVerify, TAKE_ANSWER_SQL } from '../helpers/captcha.js'

const [base, database, password] = process.argv.slice(2)
if (!base || !database || !password) {
  console.error('usage: container_sign_in.ts <base url> <database> <password>')
  process.exit(2)
}

const db = new pg.Client({ host: '127.0.0.1', user: 'postgres', database })
await db.connect()
try {
  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  const slider = await captchaAt(base)
  const { rows } = await db.query(TAKE_ANSWER_SQL, [slider.captchaId])
  const verify = await post(
    '/api/auth/captcha/verify',
    await rightVerify(slider, Number(rows[0].answer_x))
  )
  const { data } = (await verify.json()) as any
  const login = await post('/api/auth/login', {
    account: 'admin',
    password,
    captchaToken: data?.captchaToken,
  })
  const body = (await login.json()) as any
  if (login.status !== 200 || !body.data?.token) {
    console.error(`login: ${login.status} ${JSON.stringify(body)}`)
    process.exitCode = 1
  } else {
    const me = await fetch(`${base}/api/auth/me`, {
      headers: { authorization: `Bearer ${body.data.token}` },
    })
    console.log(`admin signed in: login 200, GET /api/auth/me ${me.status}`)
    if (me.status !== 200) process.exitCode = 1
  }
} finally {
  await db.end()
}
