/*
| What `npm run bench -- --reference` checks before it measures (bench/baseline.ts): that the
| hand-written reference (bench/reference_server.ts) answers each scenario as the project does,
| status, body bytes, the headers a client or cache acts on and the names of all headers, and with
| as many statements.
| Both servers run here with DB_QUERY_EVENTS=true: the project's `x-db-queries` counts the
| statements a request sent (Lucid's query events, attributed through AsyncLocalStorage), the
| reference's its own calls of pg the same way (a statement shared by concurrent requests counts
| for the one that sent it). Requests one at a time must match exactly; under concurrency (the
| shared reads) the statements per request of each are reported, not compared: how many requests
| join a shared read depends on each server's timing.
*/
export type Probe = { method: string; path: string; headers?: Record<string, string> }
export type Identity = { sequential: number; concurrent: { project: number; reference: number } }

/** The headers compared besides status and body. */
const COMPARED = ['content-type', 'etag', 'cache-control', 'last-modified']

async function get(base: string, probe: Probe) {
  const reply = await fetch(`${base}${probe.path}`, {
    method: probe.method,
    headers: probe.headers,
  })
  return {
    status: reply.status,
    body: Buffer.from(await reply.arrayBuffer()),
    headers: COMPARED.map((name) => `${name}: ${reply.headers.get(name)}`),
    names: [...reply.headers.keys()].sort().join(' '),
    queries: Number(reply.headers.get('x-db-queries') ?? Number.NaN),
  }
}
type Reply = Awaited<ReturnType<typeof get>>

function difference(project: Reply, reference: Reply) {
  if (!Number.isInteger(project.queries) || !Number.isInteger(reference.queries)) {
    return 'no x-db-queries header (DB_QUERY_EVENTS=true on both?)'
  }
  if (project.status !== reference.status) return `status ${project.status} / ${reference.status}`
  if (!project.body.equals(reference.body)) {
    return `body\n  project:   ${project.body.toString().slice(0, 600)}\n  reference: ${reference.body.toString().slice(0, 600)}`
  }
  const headers = project.headers.filter((header, i) => header !== reference.headers[i])
  if (headers.length) return `headers ${headers.join(', ')} / ${reference.headers.join(', ')}`
  if (project.names !== reference.names) return `header names ${project.names} / ${reference.names}`
  if (project.queries !== reference.queries) {
    return `statements ${project.queries} / ${reference.queries}`
  }
}

/** Statements per request over `total` requests from `parallel` clients at once. */
async function concurrent(base: string, probes: Probe[], total = 400, parallel = 10) {
  let sent = 0
  let queries = 0
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (sent < total) {
        const reply = await get(base, probes[sent++ % probes.length])
        queries += reply.queries
      }
    })
  )
  return Math.round((queries / total) * 1000) / 1000
}

/**
 * Throws, naming the scenario and what differs, unless every probe of it gets the same answer
 * and statement count from both (one at a time, after two warming requests; a held answer
 * expiring on one side between the two requests of a pair is retried twice). Returns the
 * statements per request, one at a time and under concurrency.
 */
export async function checkIdentity(
  name: string,
  bases: { project: string; reference: string },
  probes: Probe[]
): Promise<Identity> {
  let sequential = 0
  for (const probe of probes) {
    for (const base of [bases.project, bases.reference]) {
      for (let i = 0; i < 2; i++) await get(base, probe)
    }
    let problem: string | undefined
    for (let attempt = 0; attempt < 3; attempt++) {
      problem = undefined
      for (let i = 0; i < 3 && !problem; i++) {
        const project = await get(bases.project, probe)
        const reference = await get(bases.reference, probe)
        problem = difference(project, reference)
        sequential = project.queries
      }
      if (!problem) break
    }
    if (problem) {
      throw new Error(
        `the reference does not answer "${name}" (${probe.path}) as the project: ${problem}`
      )
    }
  }
  return {
    sequential,
    concurrent: {
      project: await concurrent(bases.project, probes),
      reference: await concurrent(bases.reference, probes),
    },
  }
}
