import type { ReactNode } from 'react'
import { usePermissions } from 'react-admin'
import type { Me } from './authProvider'

/**
 * Buttons and actions appear only for the permission codes the account holds (from /me). The
 * server checks every request anyway; this only keeps the page honest about what will work.
 */
export function useCan() {
  const { permissions } = usePermissions<Me>()
  const codes = new Set(permissions?.permissions ?? [])
  return (code: string) => codes.has(code)
}

export function IfCan({ code, children }: { code: string; children: ReactNode }) {
  const can = useCan()
  return can(code) ? <>{children}</> : null
}
