import { usePermissions } from 'react-admin'
import type { Me } from './authProvider'
import { type Action, type Resource, canAccess } from './access'

/**
 * access.ts's check in a component, synchronously from the /me react-admin already holds (apart
 * from access.ts, which the light login bundle loads through the authProvider).
 */
export function useAccess() {
  const { permissions: me } = usePermissions<Me>()
  return <R extends Resource>(resource: R, action: Action<R>, record?: any) =>
    canAccess(me, { resource, action, record })
}
