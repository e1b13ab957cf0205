import { useState } from 'react'
import {
  ValidationError,
  required,
  useInput,
  useTranslate,
  type TranslateFunction,
} from 'react-admin'
import {
  Box,
  Checkbox,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  TextField,
  Typography,
} from '@mui/material'
import { useGrantableTree, type TreeNode } from './MenuTreeInput'

/** The codes of a node and everything below it, among those the caller holds. */
const codesBelow = (node: TreeNode, held: Set<string>): string[] => [
  ...(node.permission && held.has(node.permission) ? [node.permission] : []),
  ...node.children.flatMap((child) => codesBelow(child, held)),
]

/**
 * The nodes shown for a search: a node matching it (its name in the console's language or its
 * code) with everything below it, and the chain above each match.
 */
function visible(nodes: TreeNode[], term: string, translate: TranslateFunction): TreeNode[] {
  if (!term) return nodes
  return nodes.flatMap((node) => {
    const name = translate(node.name, { _: node.name }).toLowerCase()
    if (name.includes(term) || node.permission?.toLowerCase().includes(term)) return [node]
    const children = visible(node.children, term, translate)
    return children.length ? [{ ...node, children }] : []
  })
}

/**
 * An API token's permission codes, picked from the menu tree the caller may grant
 * (GET /api/auth/me/grantable-menus), limited to the codes they hold: a search box narrows the
 * tree, a page or directory checkbox selects its whole branch. The value is the list of codes.
 */
export function PermissionTreeInput({ source, held }: { source: string; held: string[] }) {
  const { field, fieldState } = useInput({ source, defaultValue: [], validate: required() })
  const translate = useTranslate()
  const { data: tree = [] } = useGrantableTree()
  const [term, setTerm] = useState('')
  const holds = new Set(held)
  const selected = new Set<string>(field.value ?? [])

  const toggle = (codes: string[], checked: boolean) => {
    const next = new Set(selected)
    for (const code of codes) {
      if (checked) next.add(code)
      else next.delete(code)
    }
    field.onChange([...next].sort())
  }

  const render = (nodes: TreeNode[], depth: number) =>
    nodes.map((node) => {
      const codes = codesBelow(node, holds)
      if (!codes.length) return null
      const chosen = codes.filter((code) => selected.has(code)).length
      return (
        <Box key={node.id} sx={{ pl: depth ? 3 : 0 }}>
          <FormControlLabel
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
                checked={chosen === codes.length}
                indeterminate={chosen > 0 && chosen < codes.length}
                onChange={(event) => toggle(codes, event.target.checked)}
                slotProps={{ input: { 'aria-label': node.permission ?? node.name } as any }}
              />
            }
          />
          {render(node.children, depth + 1)}
        </Box>
      )
    })

  const shown = render(visible(tree, term.trim().toLowerCase(), translate), 0).filter(Boolean)
  return (
    <Box sx={{ my: 1 }} data-testid="permission-tree">
      <FormLabel>{translate('app.own_tokens.codes')}</FormLabel>{' '}
      <Typography component="span" variant="caption" color="text.secondary">
        {translate('app.own_tokens.selected', { smart_count: selected.size })}
      </Typography>
      <TextField
        size="small"
        fullWidth
        name="permission-search"
        label={translate('app.own_tokens.search')}
        value={term}
        onChange={(event) => setTerm(event.target.value)}
        sx={{ my: 1 }}
      />
      <Box sx={{ maxHeight: 360, overflow: 'auto' }}>
        {shown.length ? (
          shown
        ) : (
          <Typography color="text.secondary">
            {translate('app.own_tokens.nothing_found')}
          </Typography>
        )}
      </Box>
      {fieldState.error && (
        <FormHelperText error>
          <ValidationError error={fieldState.error.message ?? ''} />
        </FormHelperText>
      )}
    </Box>
  )
}
