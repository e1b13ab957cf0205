import type { ContainerResolver } from '@adonisjs/core/container'
import type { HttpRouterService } from '@adonisjs/core/types'
import type { Server } from '@adonisjs/core/http'

/*
| Middleware and controllers called directly instead of through the container.
|
| AdonisJS resolves every class middleware and controller of every request through the
| container (`resolver.call(await resolver.make(Class), method, args)`: an async resolution with
| a class-source regex, map lookups and a Promise.all per class and per call), ~2.5 µs and ~4 KB
| each, 3-4 times a request: a fifth of readiness's node CPU. Where that resolution can only end
| in `new Class(...new Dependency())` and a plain method call (nothing bound for the class or its
| dependencies, no injected method arguments, no provider of its own), the descriptor's `handle`
| does exactly that instead: a new instance per request as before, the method's result as a
| promise as before. Anything else keeps the container's path, decided per class on its first
| request. Not consulted on the direct path: `container.swap`, contextual bindings and
| `resolving` hooks for these classes (the app uses none; a swap in a test would need the
| container path back). Off under hot-hook (development), where the framework re-imports a
| module on every call.
|
| The framework has no option for it, so the descriptors are rewritten in this one place, once
| the routes are committed (start/kernel.ts). tests/functional/direct_calls.spec.ts fails if a
| request has the container build an unbound class again (a framework change beneath this).
*/

type Handle = (resolver: ContainerResolver<any>, a?: unknown, b?: unknown, c?: unknown) => unknown
type Descriptor = { reference?: unknown; method?: string; handle: Handle }
type Injectable = (new (...args: any[]) => any) & {
  containerInjections?: Record<string | symbol, { dependencies: unknown[] } | undefined>
  containerProvider?: unknown
}

const direct = new WeakSet<object>()

/** Whether callDirectly rewrote the descriptor (a class the container must build goes back to it). */
export const isDirect = (descriptor: object) => direct.has(descriptor)

/** Every class descriptor of the server's middleware and of every committed route. */
export function callDirectly(server: Server, router: HttpRouterService) {
  if ('hot' in import.meta) return
  for (const descriptor of server.getMiddlewareList()) install(descriptor as Descriptor)
  for (const routes of Object.values(router.toJSON())) {
    for (const route of routes) {
      for (const middleware of route.middleware.all()) {
        if (typeof middleware !== 'function') install(middleware as Descriptor)
      }
      if (typeof route.handler !== 'function') install(route.handler as Descriptor)
    }
  }
}

const isClass = (value: unknown): value is Injectable =>
  typeof value === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(value))

/** The class a descriptor names: a class, or a lazy import's default export. */
async function classOf(reference: unknown): Promise<Injectable | undefined> {
  const target = Array.isArray(reference) ? reference[0] : reference
  if (isClass(target)) return target
  if (typeof target !== 'function') return // a 'Controller.method' string: the framework's
  const loaded = await target()
  return isClass(loaded?.default) ? loaded.default : undefined
}

/**
 * `new Class(...)` as the container would build it, or undefined when the container could do
 * anything else: a binding (the resolver's own per-request values included), a provider, a
 * dependency that is not a plain class, or fewer injections than constructor parameters.
 */
function factoryOf(
  target: Injectable,
  resolver: ContainerResolver<any>
): (() => object) | undefined {
  if (resolver.hasBinding(target) || target.containerProvider) return
  const dependencies = target.containerInjections?._constructor?.dependencies ?? []
  if (dependencies.length < target.length) return
  const factories: (() => object)[] = []
  for (const dependency of dependencies) {
    const factory = isClass(dependency) ? factoryOf(dependency, resolver) : undefined
    if (!factory) return
    factories.push(factory)
  }
  if (factories.length === 0) return () => new target()
  if (factories.length === 1) return () => new target(factories[0]())
  return () => new target(...factories.map((factory) => factory()))
}

function install(descriptor: Descriptor) {
  if (direct.has(descriptor) || typeof descriptor.handle !== 'function') return
  const viaContainer = descriptor.handle
  const method = descriptor.method ?? 'handle'
  let make: (() => any) | undefined
  let decided: Promise<void> | undefined

  async function decide(resolver: ContainerResolver<any>) {
    const target = await classOf(descriptor.reference).catch(() => undefined)
    const injected = target?.containerInjections?.[method]?.dependencies.length
    if (!target || injected || typeof target.prototype[method] !== 'function') return
    make = factoryOf(target, resolver)
  }

  descriptor.handle = function (this: unknown, resolver, a, b, c) {
    if (make) {
      try {
        const result = make()[method](a, b, c)
        return result instanceof Promise ? result : Promise.resolve(result)
      } catch (error) {
        return Promise.reject(error)
      }
    }
    // The first request of this descriptor (or one arriving while it is decided); the container's
    // path gets exactly the arguments it was given (it counts them against method injections).
    const args = Array.from(arguments)
    decided ??= decide(resolver).then(() => {
      if (!make) descriptor.handle = viaContainer
    })
    return decided.then(() => descriptor.handle.apply(this, args as Parameters<Handle>))
  }
  direct.add(descriptor)
}
