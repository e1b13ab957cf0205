// The part of autocannon's API that bench/load.ts uses (the package ships no types).
declare module 'autocannon' {
  type Request = { method?: string; path?: string; headers?: Record<string, string>; body?: string }
  type Options = {
    url: string
    method?: string
    headers?: Record<string, string>
    body?: string
    connections?: number
    duration?: number
    requests?: Request[]
    overallRate?: number
    renderProgressBar?: boolean
  }
  type Result = {
    requests: { average: number; total: number }
    latency: { p50: number; p99: number }
    non2xx: number
    errors: number
    timeouts: number
    statusCodeStats: Record<string, { count: number }>
  }
  export default function autocannon(options: Options): Promise<Result>
}
