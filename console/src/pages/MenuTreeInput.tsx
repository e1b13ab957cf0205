import { useQuery } from '@tanstack/react-query'
import { useInput, useTranslate } from 'react-admin'
import { Box, Checkbox, FormControlLabel, FormLabel, Typography } from '@mui/material'
import { api, type Schemas } from '../api'

/** A node of GET /api/admin/menus/tree (and /api/auth/me/grantable-menus). */
export type TreeNode = Schemas['MenuTree']

export const useMenuTree = () =>
  useQuery({
    queryKey: ['menus', 'tree'],
    queryFn: async () => (await api<TreeNode[]>('admin/menus/tree')).data,
  })

/**
 * What the caller may put in a role: the nodes they hold (all of them for a super admin). The
 * server refuses anything else, so the editor offers nothing else, and needs no menu list code.
 */
export const useGrantableTree = () =>
  useQuery({
    queryKey: ['menus', 'grantable'],
    queryFn: async () => (await api<TreeNode[]>('auth/me/grantable-menus')).data,
  })

const descendants = (node: TreeNode): number[] =>
  node.children.flatMap((child) => [child.id, ...descendants(child)])

/**
 * A role's menus as a tree of checkboxes. Checking a node also checks everything below it and
 * the nodes above it (a node only counts when its whole chain is granted); unchecking clears it
 * and everything below it.
 */
export function MenuTreeInput({ source, disabled }: { source: string; disabled?: boolean }) {
  const { field } = useInput({ source, defaultValue: [] })
  const translate = useTranslate()
  const { data: tree = [] } = useGrantableTree()
  const selected = new Set<number>(field.value ?? [])

  const toggle = (node: TreeNode, ancestors: number[], checked: boolean) => {
    const next = new Set(selected)
    for (const id of [node.id, ...descendants(node)]) {
      if (checked) next.add(id)
      else next.delete(id)
    }
    if (checked) for (const id of ancestors) next.add(id)
    field.onChange([...next].sort((a, b) => a - b))
  }

  const render = (nodes: TreeNode[], ancestors: number[]) =>
    nodes.map((node) => {
      const below = descendants(node)
      const some = below.some((id) => selected.has(id))
      return (
        <Box key={node.id} sx={{ pl: ancestors.length ? 3 : 0 }}>
          <FormControlLabel
            disabled={disabled}
            label={
              <span>
                {translate(node.name, { _: node.name })}{' '}
                {node.permission && (
                  <Typography component="span" variant="caption" color="text.secondary">
                    {node.permission}
                  </Typography>
                )}
              </span>
            }
            control={
              <Checkbox
                size="small"
                checked={selected.has(node.id)}
                indeterminate={!selected.has(node.id) && some}
                onChange={(event) => toggle(node, ancestors, event.target.checked)}
                slotProps={{ input: { 'aria-label': node.permission ?? node.name } as any }}
              />
            }
          />
          {render(node.children, [...ancestors, node.id])}
        </Box>
      )
    })

  return (
    <Box sx={{ my: 1 }} data-testid="menu-tree">
      <FormLabel>{translate('app.menu_tree')}</FormLabel>
      {render(tree, [])}
    </Box>
  )
}
