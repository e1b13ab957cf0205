import { posix } from 'node:path'
import { StringDecoder } from 'node:string_decoder'
import type { Readable } from 'node:stream'
import sax, { type SAXParser, type Tag } from 'sax'
import yauzl, { type Entry, type ZipFile } from 'yauzl'
import { SheetLimitError, SheetUnreadableError } from '#exceptions/internal_errors'

/**
 * The first sheet of an XLSX workbook as rows of text, read within limits fixed before anything
 * grows: an XLSX is a ZIP whose few kilobytes can inflate to gigabytes (a zip bomb), and whose
 * sheet can name a cell in column XFD or a text of any length.
 *
 * 1. The ZIP's central directory is read first (yauzl): the number of entries, each entry's
 *    declared inflated size and compression ratio, and their sum are checked before one byte is
 *    inflated.
 * 2. Declared sizes can lie, so while inflating each entry (zlib, streamed) the real bytes are
 *    counted: past the entry's declared size, or past what is left of the total, the stream is
 *    destroyed and nothing more is inflated.
 * 3. The XML is parsed as it inflates (sax, strict, the five XML entities only: no DTD entity
 *    expansion), into rows of at most `maxColumns` cells; a cell's text stops at `maxCellBytes`
 *    and the rows at `maxRows`. Shared strings are read after the sheet and only those the sheet
 *    uses are kept.
 *
 * Why not read-excel-file (used before): it inflates every XML entry whole into memory and parses
 * each into a DOM; it takes no limit. yauzl reads the central directory and streams an entry;
 * sax streams XML and flushes any buffer past 64 KB, so memory stays near the limits above.
 *
 * Cell values: text as written (inline and shared strings, formula results, numbers as stored,
 * booleans as `true`/`false`); no date conversion (the import has no date column). Rows whose
 * cells are all empty are left out; `number` is the sheet's own row number.
 */
export type SheetLimits = {
  /** Entries in the archive. */
  maxEntries: number
  /** Bytes inflated, all entries together (declared and real). */
  maxInflated: number
  /** Inflated / compressed bytes of one entry, checked for entries above RATIO_FLOOR bytes. */
  maxRatio: number
  /** Non-empty rows, the header included. */
  maxRows: number
  /** UTF-8 bytes of one cell. */
  maxCellBytes: number
  /** Cells kept per row: columns past it are ignored. */
  maxColumns: number
}

export type SheetRow = { number: number; cells: string[] }

/** Small entries (styles, rels) compress far past any ratio and cannot grow large. */
export const RATIO_FLOOR = 1024 * 1024

const MAX_DEPTH = 64
const MAX_ATTRIBUTES = 256
const RELS_OFFICE_DOCUMENT = /\/officeDocument$/
const RELS_SHARED_STRINGS = /\/sharedStrings$/

export async function readFirstSheet(file: Buffer, limits: SheetLimits): Promise<SheetRow[]> {
  let zip: ZipFile
  try {
    // validateEntrySizes off: the byte counts below do that check, and answer it as a limit.
    zip = await yauzl.fromBufferPromise(file, { validateEntrySizes: false })
  } catch {
    throw new SheetUnreadableError()
  }
  const entries = await centralDirectory(zip, limits)
  const budget = { left: limits.maxInflated, limits }
  const read = (name: string, handlers: Handlers) => {
    const entry = entries.get(name)
    if (!entry) throw new SheetUnreadableError()
    return parseEntry(zip, entry, budget, handlers)
  }

  /** The targets of the first relationship of each kind `pick` names (kept: nothing else). */
  const relationships = async (name: string, pick: (id: string, type: string) => string | null) => {
    const found = new Map<string, string>()
    await read(name, {
      open(tag) {
        if (local(tag.name) !== 'Relationship') return
        const kind = pick(attr(tag, 'Id') ?? '', attr(tag, 'Type') ?? '')
        if (kind && !found.has(kind)) found.set(kind, attr(tag, 'Target') ?? '')
      },
    })
    return found
  }
  const resolve = (from: string, target: string) =>
    target.startsWith('/')
      ? posix.normalize(target).slice(1)
      : posix.normalize(posix.join(posix.dirname(from), target))

  const root = await relationships('_rels/.rels', (_, type) =>
    RELS_OFFICE_DOCUMENT.test(type) ? 'workbook' : null
  )
  const workbook = resolve('', root.get('workbook') ?? 'xl/workbook.xml')
  let firstSheet: string | undefined
  await read(workbook, {
    open(tag) {
      if (local(tag.name) !== 'sheet' || firstSheet !== undefined) return
      const id = Object.keys(tag.attributes).find((name) => name.endsWith(':id'))
      firstSheet = id ? tag.attributes[id] : ''
    },
  })
  if (!firstSheet) throw new SheetUnreadableError()
  const links = await relationships(
    posix.join(posix.dirname(workbook), '_rels', `${posix.basename(workbook)}.rels`),
    (id, type) => (id === firstSheet ? 'sheet' : RELS_SHARED_STRINGS.test(type) ? 'shared' : null)
  )
  const sheetTarget = links.get('sheet')
  if (sheetTarget === undefined) throw new SheetUnreadableError()

  const sheet = await readSheetData(read, resolve(workbook, sheetTarget), limits)
  const shared = links.get('shared')
  const strings =
    sheet.sharedIndexes.size && shared !== undefined
      ? await readSharedStrings(read, resolve(workbook, shared), sheet.sharedIndexes, limits)
      : new Map<number, string | null>()
  return resolveRows(sheet.rows, strings, limits)
}

/** Every entry's declared sizes, before anything is inflated; the entries by name. */
async function centralDirectory(zip: ZipFile, limits: SheetLimits) {
  if (zip.entryCount > limits.maxEntries) {
    throw new SheetLimitError('entries', { max: limits.maxEntries })
  }
  const entries = new Map<string, Entry>()
  let declared = 0
  try {
    for await (const entry of zip.eachEntry()) {
      declared += entry.uncompressedSize
      if (declared > limits.maxInflated) throw inflatedLimit(limits)
      if (
        entry.uncompressedSize > RATIO_FLOOR &&
        entry.uncompressedSize > limits.maxRatio * entry.compressedSize
      ) {
        throw new SheetLimitError('ratio', { ratio: limits.maxRatio })
      }
      if (!entries.has(entry.fileName)) entries.set(entry.fileName, entry)
    }
  } catch (error) {
    if (error instanceof SheetLimitError) throw error
    throw new SheetUnreadableError()
  }
  return entries
}

const inflatedLimit = (limits: SheetLimits) =>
  new SheetLimitError('inflated', { mb: limits.maxInflated / 1024 / 1024 })

type Handlers = {
  open?: (tag: Tag) => void
  close?: (name: string) => void
  text?: (text: string) => void
}

/**
 * One entry inflated and parsed as it streams. A handler that throws stops it: the zlib stream
 * is destroyed (nothing more is inflated) and the error goes to the caller.
 */
async function parseEntry(
  zip: ZipFile,
  entry: Entry,
  budget: { left: number; limits: SheetLimits },
  handlers: Handlers
) {
  if (entry.isEncrypted() || !entry.canDecodeFileData()) throw new SheetUnreadableError()
  const parser: SAXParser = sax.parser(true, { strictEntities: true } as sax.SAXOptions)
  parser.onerror = () => {
    throw new SheetUnreadableError()
  }
  // sax keeps the open elements and an element's attributes: bounded here, far above OOXML's.
  let depth = 0
  let attributes = 0
  parser.onopentagstart = () => {
    attributes = 0
    if (++depth > MAX_DEPTH) throw new SheetUnreadableError()
  }
  parser.onattribute = () => {
    if (++attributes > MAX_ATTRIBUTES) throw new SheetUnreadableError()
  }
  if (handlers.open) parser.onopentag = handlers.open as (tag: unknown) => void
  parser.onclosetag = (name) => {
    depth--
    handlers.close?.(name)
  }
  if (handlers.text) parser.ontext = parser.oncdata = handlers.text
  const decoder = new StringDecoder('utf8')
  let stream: Readable | undefined
  let inflated = 0
  try {
    stream = await zip.openReadStreamPromise(entry)
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      inflated += chunk.length
      budget.left -= chunk.length
      // The declared size was checked; more than it is a lie, and more than the total a bomb.
      if (inflated > entry.uncompressedSize || budget.left < 0) {
        throw inflatedLimit(budget.limits)
      }
      parser.write(decoder.write(chunk))
    }
    parser.write(decoder.end())
    parser.close()
  } catch (error) {
    stream?.destroy()
    if (error instanceof SheetLimitError || error instanceof SheetUnreadableError) throw error
    throw new SheetUnreadableError()
  }
}

const local = (name: string) => name.slice(name.indexOf(':') + 1)
const attr = (tag: Tag, name: string): string | undefined => tag.attributes[name]

/** `B12` -> 1 (the column of a cell reference, from 0); -1 when there is none. */
function columnOf(reference: string | undefined) {
  if (!reference) return -1
  let column = 0
  let i = 0
  for (; i < reference.length; i++) {
    const code = reference.charCodeAt(i)
    if (code < 65 || code > 90) break
    column = column * 26 + (code - 64)
    if (column > 16_384) return Number.POSITIVE_INFINITY
  }
  return i === 0 ? -1 : column - 1
}

/** The column's letters (0 -> A), for messages. */
export function columnName(index: number) {
  let name = ''
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name
  }
  return name
}

/** A cell: its text, or the index of a shared string not read yet. */
type RawCell = string | number

async function readSheetData(
  read: (name: string, handlers: Handlers) => Promise<void>,
  name: string,
  limits: SheetLimits
) {
  const rows: { number: number; cells: RawCell[] }[] = []
  const sharedIndexes = new Set<number>()
  let rowNumber = 0
  let cells: RawCell[] | null = null
  let nonEmpty = false
  let column = -1
  let type = ''
  let text: string | null = null // collecting a <v> or an inline <t>
  let value = ''
  let inlineDepth = 0 // inside <is>
  let phonetic = 0 // inside <rPh> (reading hints, not the text)
  const tooLong = () =>
    new SheetLimitError('cell', {
      row: rowNumber,
      column: columnName(column),
      kb: limits.maxCellBytes / 1024,
    })

  await read(name, {
    open(tag) {
      switch (local(tag.name)) {
        case 'row': {
          const declared = Number(attr(tag, 'r'))
          rowNumber = Number.isInteger(declared) && declared > 0 ? declared : rowNumber + 1
          cells = []
          nonEmpty = false
          column = -1
          break
        }
        case 'c': {
          const at = columnOf(attr(tag, 'r'))
          column = at >= 0 ? at : column + 1
          type = attr(tag, 't') ?? 'n'
          value = ''
          break
        }
        case 'v':
          if (cells && type !== 'inlineStr') text = ''
          break
        case 'is':
          inlineDepth++
          break
        case 'rPh':
          phonetic++
          break
        case 't':
          if (cells && inlineDepth && !phonetic) text = ''
          break
      }
    },
    text(chunk) {
      if (text === null) return
      text += chunk
      // UTF-8 takes at least one byte per UTF-16 unit: past the limit in units, past it in bytes.
      if (value.length + text.length > limits.maxCellBytes) throw tooLong()
    },
    close(tagName) {
      switch (local(tagName)) {
        case 'v':
        case 't':
          if (text !== null) value += text
          text = null
          break
        case 'is':
          inlineDepth--
          break
        case 'rPh':
          phonetic--
          break
        case 'c': {
          if (!cells || column >= limits.maxColumns || value === '') break
          if (Buffer.byteLength(value) > limits.maxCellBytes) throw tooLong()
          let cell: RawCell = value
          if (type === 's') {
            cell = Number(value)
            if (!Number.isInteger(cell) || cell < 0) throw new SheetUnreadableError()
            sharedIndexes.add(cell)
          } else if (type === 'b') {
            cell = value === '1' ? 'true' : 'false'
          }
          cells[column] = cell
          nonEmpty ||= typeof cell === 'number' || cell.trim() !== ''
          break
        }
        case 'row':
          if (cells && nonEmpty) {
            if (rows.length >= limits.maxRows) throw new SheetLimitError('rows')
            rows.push({ number: rowNumber, cells })
          }
          cells = null
          break
      }
    },
  })
  return { rows, sharedIndexes }
}

/**
 * The shared strings the sheet uses (the others are read past, never kept). A string past the
 * cell limit is kept as `null`: the cell using it is refused when the rows are resolved.
 */
async function readSharedStrings(
  read: (name: string, handlers: Handlers) => Promise<void>,
  name: string,
  wanted: Set<number>,
  limits: SheetLimits
) {
  const strings = new Map<number, string | null>()
  let index = -1
  let value = ''
  let over = false
  let inText = false
  let phonetic = 0
  await read(name, {
    open(tag) {
      switch (local(tag.name)) {
        case 'si':
          index++
          value = ''
          over = false
          break
        case 'rPh':
          phonetic++
          break
        case 't':
          inText = !phonetic
          break
      }
    },
    text(chunk) {
      if (!inText || over || !wanted.has(index)) return
      value += chunk
      if (value.length > limits.maxCellBytes) over = true
    },
    close(tagName) {
      switch (local(tagName)) {
        case 't':
          inText = false
          break
        case 'rPh':
          phonetic--
          break
        case 'si':
          if (!wanted.has(index)) break
          strings.set(index, over || Buffer.byteLength(value) > limits.maxCellBytes ? null : value)
          value = ''
          break
      }
    },
  })
  return strings
}

function resolveRows(
  rows: { number: number; cells: RawCell[] }[],
  strings: Map<number, string | null>,
  limits: SheetLimits
): SheetRow[] {
  const resolved: SheetRow[] = []
  for (const row of rows) {
    const cells: string[] = Array.from({ length: row.cells.length }, () => '')
    let nonEmpty = false
    row.cells.forEach((raw, column) => {
      let cell = raw
      if (typeof raw === 'number') {
        const text = strings.get(raw)
        if (text === undefined) throw new SheetUnreadableError()
        if (text === null) {
          throw new SheetLimitError('cell', {
            row: row.number,
            column: columnName(column),
            kb: limits.maxCellBytes / 1024,
          })
        }
        cell = text
      }
      cells[column] = (cell as string).trim()
      nonEmpty ||= cells[column] !== ''
    })
    if (nonEmpty) resolved.push({ number: row.number, cells })
  }
  return resolved
}
