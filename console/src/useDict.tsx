import { useQuery } from '@tanstack/react-query'
import { useTranslate } from 'react-admin'
import { Chip, type ChipProps } from '@mui/material'
import { api, type Schemas } from './api'

type DictOptions = Schemas['DictOptions']
export type DictOption = DictOptions['items'][number]

/**
 * A dictionary's enabled items (GET /api/dicts/:code, any signed-in administrator), in their
 * order. Undefined while loading and when the dictionary is unknown or disabled (404): callers
 * keep their own fallback then. The server answers at the current settings version, so a change
 * made on the dictionaries page shows on the next read (kept 30 s here, refreshed on a page load).
 */
export function useDict(code: string): DictOption[] | undefined {
  const { data } = useQuery({
    queryKey: ['dict', code],
    queryFn: async () => (await api<DictOptions>(`dicts/${code}`)).data.items,
    staleTime: 30_000,
    retry: false,
  })
  return data
}

/**
 * Labels are data (an administrator renames them); the seeded English ones double as translation
 * keys, like the seeded menu names (i18n/zh.ts), and any other label shows as written.
 */
const useLabel = () => {
  const translate = useTranslate()
  return (label: string) => translate(label, { _: label })
}

/** The item's css class where it names a chip colour (success, warning, ...), else a class name. */
const COLOURS = ['default', 'primary', 'secondary', 'error', 'info', 'success', 'warning'] as const
const colourOf = (cssClass: string | null) =>
  COLOURS.find((colour) => colour === cssClass) as ChipProps['color'] | undefined

/** A value as its dictionary item's chip; `fallback` (a translation key) when the item is missing. */
export function DictChip(props: { code: string; value: string; fallback?: string }) {
  const items = useDict(props.code)
  const label = useLabel()
  const translate = useTranslate()
  const item = items?.find((entry) => entry.value === props.value)
  if (!item) {
    const text = props.fallback ? translate(props.fallback, { _: props.value }) : props.value
    return <Chip size="small" label={text} />
  }
  return (
    <Chip
      size="small"
      label={label(item.label)}
      color={colourOf(item.cssClass)}
      className={colourOf(item.cssClass) ? undefined : (item.cssClass ?? undefined)}
      data-dict={props.code}
    />
  )
}

/**
 * Select choices named by a dictionary: `choices` are the values the API accepts (react-admin
 * choices, their names translation keys); each takes its dictionary item's label where there is
 * one, in the dictionary's order. A value the dictionary lacks keeps its own name.
 */
export function useDictChoices(code: string, choices: { id: string; name: string }[]) {
  const items = useDict(code) ?? []
  const label = useLabel()
  const position = (id: string) => {
    const index = items.findIndex((item) => item.value === id)
    return index === -1 ? items.length : index
  }
  return [...choices]
    .sort((a, b) => position(a.id) - position(b.id))
    .map((choice) => {
      const item = items.find((entry) => entry.value === choice.id)
      return item ? { id: choice.id, name: label(item.label) } : choice
    })
}
